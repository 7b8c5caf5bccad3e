"""The rules check of a stored event: a command, and the director's verdict."""

import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from rules import checkers
from tests.factories import play_round, round_robin_event
from tournaments.models import Event, Match, MatchParticipant, Round
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


def test_a_directors_swap_is_reported_as_overrides_and_nothing_else(director):
    """The swap breaks the Berger table in both matches it touches; the checker reports each
    overridden match once, as an override with who and why, instead of the broken rule."""
    event = round_robin_event(director, players=4, slug="bent")
    outcome = rounds.draft_next_round(event, by=director)
    rounds.swap(outcome.round, 1, 2, by=director, reason="travel")
    rounds.publish_round(Round.objects.get(pk=outcome.round.pk), by=director)
    verdict = conformance.check_event(event)
    swapped = set(
        Match.objects.filter(round__event=event, overridden=True).values_list("code", flat=True)
    )
    assert len(swapped) == 2
    # issue 21 finding 10: overrides are listed apart, never counted as violations
    assert verdict.violations == () and verdict.conforms
    assert {(v.rule, v.where.match) for v in verdict.overridden} == {
        (checkers.OVERRIDE, code) for code in swapped
    }
    assert all("travel" in v.text for v in verdict.overridden)
    assert [o["reason"] for o in verdict.overrides] == ["travel", "travel"]
    assert "2 pairings changed by a director (overrides, listed apart: not violations)" in (
        verdict.summary()
    )


def test_a_pairing_changed_without_an_override_breaks_the_berger_table(director):
    event = round_robin_event(director, players=4, slug="hidden")
    outcome = rounds.draft_next_round(event, by=director)
    # a swap of two players of different matches made behind the services' back, with no
    # override record: only the rules can judge it
    one = MatchParticipant.objects.get(match__round=outcome.round, entrant__number=1)
    two = MatchParticipant.objects.get(match__round=outcome.round, entrant__number=2)
    assert one.match_id != two.match_id
    one.entrant, two.entrant = two.entrant, one.entrant
    one.save(update_fields=["entrant"])
    two.save(update_fields=["entrant"])
    rounds.publish_round(Round.objects.get(pk=outcome.round.pk), by=director)
    verdict = conformance.check_event(event)
    assert verdict.violations and not verdict.overrides
    assert all("Berger" in v.rule for v in verdict.violations)


def test_a_simulated_event_with_overrides_reports_exactly_them(capsys):
    call_command(
        "simulate_event",
        "--format=gokodom",
        "--entrants=12",
        "--seed=4",
        "--vary",
        "--overrides=0.6",
        "--slug=varied",
    )
    assert "override" in capsys.readouterr().out
    event = Event.objects.get(slug="varied")
    marked = set(
        Match.objects.filter(round__event=event, overridden=True).values_list("code", flat=True)
    )
    verdict = conformance.check_event(event)
    assert marked and {v.where.match for v in verdict.overridden} == marked
    assert verdict.violations == ()
    assert len(verdict.overrides) == len(marked)
    call_command("check_event", "varied")  # overrides alone are no failure
    out = capsys.readouterr().out
    assert out.count("* override in") == len(marked)


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


@pytest.mark.parametrize(
    "slug", ["demo-gokodom", "demo-woc", "demo-freestyle", "demo-bot-contest", "demo-wpf-playoffs"]
)
def test_every_demo_event_passes_its_own_rules_check(director, slug):
    """Issue 21 finding 3: the GokoDom demo, stopped during round 3, showed "8 violations in
    3 rounds" (its pending matches read as losses by default)."""
    from tournaments.demo import DEMO_BUILDERS

    event = DEMO_BUILDERS[slug](director=director, rng=random.Random(1))
    verdict = conformance.check_event(event)
    assert verdict.violations == (), [v.text for v in verdict.violations]
