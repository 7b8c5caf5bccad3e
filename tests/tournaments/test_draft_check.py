"""Issue 28, item 6: draft -> check -> publish. The rules check of a drafted round is run on
the draft's pairings (every format), and the check page and the round's page show its
findings, labelled as the draft's; a published round's findings are shown as before."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import (
    bot_contest_event,
    freestyle_event,
    gokodom_event,
    round_robin_event,
    wpf_playoffs_event,
)
from tournaments.models import MatchParticipant, Round
from tournaments.services import conformance, events, rounds

pytestmark = pytest.mark.django_db(transaction=True)


def woc_event(director):
    event = events.create_event(
        slug="woc", name="WOC", format="woc", by=director, public=True, settings={}
    )
    for i in range(12):
        events.add_entrant(event, name=f"Player {i + 1}", country=f"C{i}", by=director)
    return event


FORMATS = {
    "round_robin": lambda d: round_robin_event(d, players=6, slug="rr"),
    "woc": woc_event,
    "freestyle": lambda d: freestyle_event(d, players=16, slug="fs"),
    "gokodom": lambda d: gokodom_event(d, players=8, slug="goko", users=False),
    "bot_contest": lambda d: bot_contest_event(d, slug="bots"),
    "wpf_playoffs": lambda d: wpf_playoffs_event(d, slug="wpf"),
}


def hidden_swap(event, rnd):
    """Two players of different matches exchanged behind the services' back (no override
    record): only the rules can tell."""
    one = MatchParticipant.objects.get(match__round=rnd, entrant__number=1)
    two = MatchParticipant.objects.get(match__round=rnd, entrant__number=2)
    assert one.match_id != two.match_id
    one.entrant, two.entrant = two.entrant, one.entrant
    one.save(update_fields=["entrant"])
    two.save(update_fields=["entrant"])


@pytest.mark.parametrize("format_key", sorted(FORMATS))
def test_the_check_of_a_drafted_round_includes_its_pairings_in_every_format(director, format_key):
    """Item 6: "All formats: the checker input must include the drafted round's pairings"."""
    event = FORMATS[format_key](director)
    outcome = rounds.draft_next_round(event, by=director)
    assert outcome.round is not None
    verdict = conformance.check_event(event)
    assert verdict.rounds == 0  # the record: nothing published yet
    (draft,) = verdict.drafts
    assert draft.number == outcome.round.number
    assert draft.pairings > 0, "the draft's pairings reach the checker"
    assert draft.conforms, [v.text for v in draft.violations]


def test_the_check_page_labels_the_draft_and_no_longer_says_all_0_rounds_conform(client, director):
    event = round_robin_event(director, players=4, slug="drafted")
    rounds.draft_next_round(event, by=director)
    client.force_login(director)
    html = client.get(reverse("tournaments:manage_check", args=["drafted"])).content.decode()
    assert "All 0 rounds conform" not in html
    assert "No round is published yet" in html
    assert 'id="draft-check-1"' in html
    assert "Draft of round 1 (not published): it conforms to the rules (2 pairings)." in html


def test_a_broken_draft_is_shown_on_the_check_page_and_its_round_page_before_publishing(
    client, director, capsys
):
    event = round_robin_event(director, players=4, slug="broken")
    outcome = rounds.draft_next_round(event, by=director)
    hidden_swap(event, outcome.round)
    verdict = conformance.check_event(event)
    assert verdict.conforms, "the record itself breaks nothing: the draft is not published"
    (draft,) = verdict.drafts
    assert not draft.conforms and all("Berger" in v.rule for v in draft.violations)
    call_command("check_event", "broken")  # the record conforms: no failure for a draft
    out = capsys.readouterr().out
    assert out.startswith("No round is published yet")
    assert "Draft of round 1 (not published): 4 violations." in out
    client.force_login(director)
    check = client.get(reverse("tournaments:manage_check", args=["broken"])).content.decode()
    round_page = client.get(
        reverse("tournaments:manage_round", args=["broken", 1])
    ).content.decode()
    for html in (check, round_page):
        assert 'id="draft-check-1"' in html
        assert "Draft of round 1 (not published): 4 violations." in html
        assert "The Berger table pairs" in html and "(Berger tables" in html
    # published, the same finding is the record's, as before, and no longer a draft's
    rounds.publish_round(Round.objects.get(pk=outcome.round.pk), by=director)
    verdict = conformance.check_event(event)
    assert verdict.drafts == () and not verdict.conforms
    check = client.get(reverse("tournaments:manage_check", args=["broken"])).content.decode()
    assert "draft-check-" not in check and "violation" in check
    round_page = client.get(reverse("tournaments:manage_round", args=["broken", 1]))
    assert "draft-check-" not in round_page.content.decode()


def test_a_drafts_override_is_listed_as_the_drafts_override(client, director):
    event = round_robin_event(director, players=4, slug="bent")
    outcome = rounds.draft_next_round(event, by=director)
    rounds.swap(outcome.round, 1, 2, by=director, reason="travel")
    (draft,) = conformance.check_event(event).drafts
    assert draft.conforms and [o["reason"] for o in draft.overrides] == ["travel", "travel"]
    client.force_login(director)
    html = client.get(reverse("tournaments:manage_check", args=["bent"])).content.decode()
    assert "travel" in html and 'id="draft-check-1"' in html
