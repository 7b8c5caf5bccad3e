"""The rules check of a stored event: a command, and the director's verdict."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import play_round, round_robin_event
from tournaments.models import MatchParticipant, Round
from tournaments.services import conformance, rounds
from tournaments.services.eventfile import export_event

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_engine_paired_event_conforms(director, capsys):
    event = round_robin_event(director, players=5, slug="fine")
    play_round(event, director)
    play_round(event, director)
    verdict = conformance.check_event(event)
    assert verdict.conforms and verdict.rounds == 2
    call_command("check_event", "fine")
    assert capsys.readouterr().out.startswith("All 2 rounds conform")


def test_a_pairing_changed_behind_the_engine_is_a_violation_and_an_override_is_listed(director):
    event = round_robin_event(director, players=4, slug="bent")
    outcome = rounds.draft_next_round(event, by=director)
    rounds.swap(outcome.round, 1, 2, by=director, reason="travel")
    rounds.publish_round(Round.objects.get(pk=outcome.round.pk), by=director)
    verdict = conformance.check_event(event)
    assert not verdict.conforms
    assert any("Berger" in v.rule or "Berger" in v.text for v in verdict.violations)
    assert verdict.overrides and verdict.overrides[0]["reason"] == "travel"


def test_check_event_reads_an_event_file_and_fails_on_a_bad_record(director, tmp_path, capsys):
    import json

    event = round_robin_event(director, players=4, slug="filed")
    play_round(event, director)
    data = export_event(event)
    first = data["rounds"][0]["matches"][0]["participants"]
    first[0]["entrant"], first[1]["entrant"] = first[1]["entrant"], first[0]["entrant"]
    path = tmp_path / "event.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SystemExit) as exit_code:
        call_command("check_event", "--file", str(path))
    assert exit_code.value.code == 1
    assert "violation" in capsys.readouterr().out


def test_the_director_sees_the_verdict(client, director):
    event = round_robin_event(director, players=4, slug="seen")
    play_round(event, director)
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_check", args=["seen"]), HTTP_HX_REQUEST="true")
    assert "All 1 round conform" in page.content.decode()
    assert MatchParticipant.objects.filter(match__round__event=event).exists()


def test_check_event_reads_a_wof_rating_file(tmp_path, capsys):
    """The WOC 2014 record as PAPP wrote it: its pairings checked against woc.txt."""
    from tests.rules.test_woc_wof import elo_from_record

    path = tmp_path / "woc2014.elo"
    path.write_text(elo_from_record("woc_2014.json"))
    call_command("check_event", "--file", str(path))
    assert capsys.readouterr().out.startswith("All 13 rounds conform (416 pairings")
