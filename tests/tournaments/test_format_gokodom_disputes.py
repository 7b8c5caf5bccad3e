"""GokoDom disputes (issue 21, finding 2): a disputed match is shown as disputed with both
claims and the notes on the director's dashboard and season page, counted in "needs you",
never settled by the deadline on its own, and a dispute needs a note. The player's page
speaks from the player's side ("you reported a win")."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_format_gokodom import HTMX, client_for, pair, post, start
from tournaments.formats.gokodom import services as service
from tournaments.formats.gokodom import services_director as director_service
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def director_client(director) -> Client:
    client = Client()
    client.force_login(director)
    return client


def test_a_dispute_needs_a_note(director):
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    service.report(match, a, outcome="W", by=a.user)
    with pytest.raises(ServiceError) as refused:
        service.dispute(match, b, note="  ", by=b.user)
    assert refused.value.problems[0].field == "note"
    answer = post(client_for(b), "dispute", event, match, {"note": ""}, **HTMX)
    assert "Say what is wrong" in answer.content.decode()
    match.refresh_from_db()
    assert match.details["report"]["status"] == "reported"


def test_reporting_the_opposite_keeps_the_dispute_with_both_claims(director):
    """Before: the disputer's own report replaced the dispute ("reported L-W", no flag),
    and the deadline then recorded it as undisputed."""
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    post(client_for(a), "report", event, match, {"outcome": "W"})
    post(client_for(b), "dispute", event, match, {"note": "I won the fifth game"})
    post(client_for(b), "report", event, match, {"outcome": "W"})
    match.refresh_from_db()
    entry = match.details["report"]
    assert entry["status"] == "disputed"
    assert entry["results"] == {str(a.number): "W", str(b.number): "L"}
    assert entry["counter"]["results"] == {str(b.number): "W", str(a.number): "L"}
    season = director_client(director).get(reverse("tournaments:gokodom_manage", args=[event.slug]))
    page = season.content.decode()
    assert "disputed" in page and "I won the fifth game" in page
    assert f"{a.name} says {a.name} won" in page and f"{b.name} says {b.name} won" in page


def test_the_deadline_never_settles_a_dispute(director):
    _event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    service.report(match, a, outcome="W", by=a.user)
    service.dispute(match, b, note="no, I won", outcome="W", by=b.user)
    later = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)
    outcome = director_service.close_at_deadline(rnd.pk, now=later, force=True)
    match.refresh_from_db()
    assert match.result is None or not match.result.get("complete")
    assert match.code in outcome.left and not outcome.closed


def test_a_dispute_is_counted_in_needs_you_on_the_dashboard(director):
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    service.report(match, a, outcome="W", by=a.user)
    service.dispute(match, b, note="no, I won", outcome="W", by=b.user)
    page = director_client(director).get(reverse("tournaments:manage", args=[event.slug]))
    html = page.content.decode()
    assert "Needs you (1)" in html
    assert f"{match.code}" in html and "disputed" in html and "no, I won" in html


def test_either_player_may_accept_the_others_claim(director):
    _event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    service.report(match, a, outcome="W", by=a.user)
    service.dispute(match, b, note="I won", outcome="W", by=b.user)
    service.confirm(match, a, by=a.user)  # A agrees with B's claim after all
    match.refresh_from_db()
    assert match.details["results"] == {str(a.number): "L", str(b.number): "W"}
    assert match.result["complete"]


def test_the_players_page_speaks_from_their_side(director):
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    post(client_for(a), "report", event, match, {"outcome": "W"})
    mine = client_for(a).get(reverse("tournaments:gokodom_player", args=[event.slug]))
    assert "You reported a win" in mine.content.decode()
    theirs = client_for(b).get(reverse("tournaments:gokodom_player", args=[event.slug]))
    assert f"{a.name} reported that you lost" in theirs.content.decode()
