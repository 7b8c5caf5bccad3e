"""GokoDom self-report and confirmation raced by both players of several matches, as real
parallel requests to gunicorn (bench/proof_gokodom.py): no double confirmation, no lost
report, no result recorded from a report the confirming player was not shown."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from bench import proof_gokodom
from tournaments.models import Match, ResultChange

pytestmark = pytest.mark.django_db(transaction=True)


def test_both_players_racing_report_and_confirm_confirm_once_what_was_shown(stack):
    base = stack.gunicorn(workers=3)
    event, duels = proof_gokodom.race_round("race", matches=6)
    proof_gokodom.run(base, event, duels)
    race = proof_gokodom.audit(event, duels)
    print(race)
    assert race.matches == 6 and not race.errors, race
    # wave 1: the two "I won" sent at once never both land
    assert race.reports_refused >= 6
    assert race.double_confirmations == [], race
    assert race.lost_reports == [], race
    assert race.unseen_confirmations == [], race
    assert race.holds


@pytest.mark.django_db
def test_a_report_changed_after_the_opponent_saw_it_is_not_confirmed_unseen():
    """The race above, one step at a time: B's card shows A's "I won"; A changes it to
    "I lost" from a tab opened earlier; B's confirm (the form of the card B saw) records
    nothing and says what the report now says, with its own confirm button."""
    event, (duel, *_) = proof_gokodom.race_round("seen", matches=2)
    a, b = (Client(), Client())
    a.force_login(duel.players[0].user)
    b.force_login(duel.players[1].user)
    report = reverse("tournaments:gokodom_report", args=[event.slug, duel.match])
    confirm = reverse("tournaments:gokodom_confirm", args=[event.slug, duel.match])
    card = reverse("tournaments:gokodom_player", args=[event.slug])
    assert a.post(report, {"outcome": "W"}, HTTP_HX_REQUEST="true").status_code == 200
    shown = b.get(card).content.decode()
    form = re.search(r'action="[^"]*/confirm".*?</form>', shown, re.S).group(0)
    seen = dict(re.findall(r'name="(report)" value="([^"]*)"', form))
    assert seen, "the confirm form names the report it confirms"
    assert a.post(report, {"outcome": "L"}, HTTP_HX_REQUEST="true").status_code == 200

    refused = b.post(confirm, seen, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422
    text = refused.content.decode()
    assert "changed the report since you saw it" in text and 'role="alert"' in text
    match = Match.objects.get(pk=duel.match)
    assert match.result is None and ResultChange.objects.filter(match=match).count() == 0
    assert match.details["report"]["status"] == "reported"  # A's new report, still pending

    again = dict(re.findall(r'name="(report)" value="([^"]*)"', text))
    assert b.post(confirm, again, HTTP_HX_REQUEST="true").status_code == 200
    match.refresh_from_db()
    assert match.details["results"] == {duel.players[0].number: "L", duel.players[1].number: "W"}
