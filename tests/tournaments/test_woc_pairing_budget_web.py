"""An unproven WOC pairing on the director's round page (issue 24): the draft says it is not
proven optimal and how far from the optimum it can be, and the director publishes it as
today or searches longer, which raises the event's pairing budget and pairs the round again.
"""

import pytest
from django.urls import reverse

from rules.formats.woc.swiss_pruned import UNPROVEN
from tests.rules.test_woc_pairing_budget import _event, _plan
from tournaments.models import AuditEntry, Entrant, Round
from tournaments.services import events, results, rounds
from tournaments.services.errors import ServiceError
from tournaments.services.result_json import reasons_json

pytestmark = pytest.mark.django_db


def _woc(director, seconds):
    event = events.create_event(
        slug="woc",
        name="WOC",
        format="woc",
        by=director,
        public=True,
        settings={
            "rounds": 5,
            "system": "swiss",
            "final_stages": False,
            "pairing_seconds": seconds,
        },
    )
    for i, country in enumerate(["NL", "GB", "JP", "US", "IT", "FR", "DE", "CZ"]):
        entrant = events.add_entrant(event, name=f"Player {i + 1}", by=director)
        Entrant.objects.filter(pk=entrant.pk).update(country=country)
    first = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    for match in first.matches.prefetch_related("participants"):
        results.record(
            match, [{"scores": [40, 24], "first": 0}], expected_version=match.version, by=director
        )
    rounds.complete_round(first, by=director)
    return event


def _hurried(rnd):
    """Give the draft the verdict and reason the engine gives a round its budget cut short:
    those of round 8 of 150 players paired with a budget of 0 seconds (the engine's side is
    tests/rules/test_woc_pairing_budget.py). An 8-player round is always solved exactly."""
    plan = _plan(_event(150, 7, 4, {"pairing_seconds": 0}))
    unproven = [r for r in plan.reasons if r.code == "woc.pairing.unproven"]
    rnd.details = {**rnd.details, "pairing_proof": plan.details["pairing_proof"]}
    rnd.reasons = [r for r in rnd.reasons if r["code"] != "woc.pairing.optimal"]
    rnd.reasons += reasons_json(unproven)
    rnd.save(update_fields=["details", "reasons"])
    return unproven[0].text


def test_unproven_draft_is_shown_and_search_longer_pairs_it_again(client, director):
    event = _woc(director, seconds=0)
    draft = rounds.draft_next_round(event, by=director).round
    text = _hurried(draft)
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, draft.number]))
    body = page.content.decode()
    assert text.split(":")[0] in body  # "Not proven optimal"
    assert "Search longer" in body and "Publish" in body

    answer = client.post(
        reverse("tournaments:manage_round_action", args=[event.slug, draft.number, "search"])
    )
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.settings["pairing_seconds"] == 60  # 4 x 0, and at least a minute
    entry = AuditEntry.objects.get(event=event, action="event.pairing_budget")
    assert (entry.before, entry.after) == (0, 60)
    again = Round.objects.get(event=event, number=draft.number)
    assert again.pk != draft.pk and again.status == Round.Status.DRAFT
    assert again.details["pairing_proof"]["method"] != UNPROVEN
    assert any(r["code"] == "woc.pairing.optimal" for r in again.reasons)
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, draft.number]))
    assert "Search longer" not in page.content.decode()


def test_search_longer_is_refused_for_a_proven_draft_and_at_the_longest_budget(director):
    event = _woc(director, seconds=rounds.LONGEST_SEARCH)
    draft = rounds.draft_next_round(event, by=director).round
    with pytest.raises(ServiceError, match="nothing to search for"):
        rounds.search_longer(draft, by=director)
    _hurried(draft)
    with pytest.raises(ServiceError, match=f"already {rounds.LONGEST_SEARCH} seconds"):
        rounds.search_longer(draft, by=director)
    assert Round.objects.filter(pk=draft.pk).exists()  # nothing deleted
