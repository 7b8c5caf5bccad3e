"""Double entry of results (issue 21, item 15): with the event's setting on, a result typed on
the results screen is saved only when a second, different person's entry agrees; a
disagreement saves nothing and waits for the head director, who settles it. Entry is blind:
the second person never sees the first one's numbers."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.services import claim_entrant
from tests.factories import round_robin_event
from tournaments.models import AuditEntry, EventDirector, Match, ResultChange, ResultEntry
from tournaments.services import double_entry, events, results, rounds
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db
User = get_user_model()
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def desk(director):
    """A round robin of four with double entry on, round 1 published; the creator
    ("director", the head director) and two more directors, Bea and Cal."""
    event = round_robin_event(director, players=4, slug="desk")
    for name in ("bea", "cal"):
        User.objects.create_user(name, password="pw-1")
        events.add_director(event, name, by=director)
    double_entry.set_enabled(event, True, by=director)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()
    people = {"head": director, **{u.username: u for u in User.objects.exclude(pk=director.pk)}}
    clients = {}
    for key, user in people.items():
        clients[key] = Client()
        clients[key].force_login(user)
    return {"event": event, "round": rnd, "match": match, "users": people, "clients": clients}


def _enter(desk, who: str, a, b, *, version: int | None = None):
    match = Match.objects.get(pk=desk["match"].pk)
    url = reverse("tournaments:manage_result", args=[desk["event"].slug, match.pk])
    data = {"version": match.version if version is None else version, "g1-s0": a, "g1-s1": b}
    return desk["clients"][who].post(url, data, **HTMX)


def _screen(desk, who: str) -> str:
    url = reverse("tournaments:manage_round", args=[desk["event"].slug, desk["round"].number])
    return desk["clients"][who].get(url).content.decode()


def _row_html(page: str, match: Match) -> str:
    start = page.index(f'id="match-{match.pk}"')
    return page[start : page.index("</form>", start)]


def test_two_agreeing_entries_save_the_result_once_with_both_names(desk):
    match = desk["match"]
    first = _enter(desk, "bea", 39, 25)
    assert first.status_code == 200
    assert "Your entry is in" in first.content.decode()
    match.refresh_from_db()
    assert match.result is None and match.version == 0
    assert not ResultChange.objects.filter(match=match).exists()
    # blind: Cal sees that Bea entered, never her numbers
    row = _row_html(_screen(desk, "cal"), match)
    assert "First entry by bea: waiting for a second entry." in row
    assert 'value="39"' not in row and 'value="25"' not in row and "39-25" not in row
    # Bea sees her own entry
    assert "Your entry (39-25) waits for a second entry" in _row_html(_screen(desk, "bea"), match)
    second = _enter(desk, "cal", 39, 25)
    assert second.status_code == 200
    assert "Saved" in second.content.decode() and "Both entries agree" in second.content.decode()
    match.refresh_from_db()
    assert match.result["summary"] == "39-25" and match.version == 1
    history = list(ResultChange.objects.filter(match=match))
    assert len(history) == 1
    assert history[0].changed_by.username == "cal"
    assert "bea" in history[0].reason and "cal" in history[0].reason
    assert not ResultEntry.objects.exists()
    assert AuditEntry.objects.filter(action="result.entries_agreed").count() == 1


def test_disagreeing_entries_save_nothing_and_list_the_dispute(desk):
    match = desk["match"]
    _enter(desk, "bea", 39, 25)
    answer = _enter(desk, "cal", 25, 39)
    assert answer.status_code == 409
    text = answer.content.decode()
    assert "differs from the first one: nothing is saved" in text
    assert "39-25" not in text  # Cal still does not see Bea's numbers
    match.refresh_from_db()
    assert match.result is None and match.version == 0
    assert not ResultChange.objects.filter(match=match).exists()
    assert set(ResultEntry.objects.values_list("status", flat=True)) == {"disagreed"}
    # the head director's dashboard lists it, with both entries
    dashboard = desk["clients"]["head"].get(reverse("tournaments:manage", args=["desk"]))
    page = dashboard.content.decode()
    assert "Needs you (1)" in page
    assert f"{match.round.label} {match.code}: the two entries of the result disagree" in page
    assert "bea entered 39-25" in page and "cal entered 25-39" in page
    # and the results screen, to them only
    head_row = _row_html(_screen(desk, "head"), match)
    assert "bea entered 39-25" in head_row and "cal entered 25-39" in head_row
    bea_dashboard = desk["clients"]["bea"].get(reverse("tournaments:manage", args=["desk"]))
    assert "Needs you" not in bea_dashboard.content.decode()
    bea_row = _row_html(_screen(desk, "bea"), match)
    assert "the head director settles it" in bea_row and "25-39" not in bea_row


def test_the_same_person_twice_does_not_count(desk):
    match = desk["match"]
    _enter(desk, "bea", 39, 25)
    again = _enter(desk, "bea", 39, 25)
    assert again.status_code == 200
    match.refresh_from_db()
    assert match.result is None
    assert ResultEntry.objects.count() == 1
    assert "First entry by bea" in _row_html(_screen(desk, "cal"), match)
    # her second entry replaced her first: Cal agreeing with the new one saves it
    _enter(desk, "bea", 40, 24)
    _enter(desk, "cal", 40, 24)
    match.refresh_from_db()
    assert match.result["summary"] == "40-24"


def test_the_head_director_settles_a_disagreement(desk):
    match = desk["match"]
    _enter(desk, "bea", 39, 25)
    _enter(desk, "cal", 25, 39)
    refused = _enter(desk, "bea", 39, 25)
    assert refused.status_code == 422
    assert "the head director settles it" in refused.content.decode()
    settled = _enter(desk, "head", 39, 25)
    assert settled.status_code == 200
    assert "The disagreement is settled" in settled.content.decode()
    match.refresh_from_db()
    assert match.result["summary"] == "39-25"
    change = ResultChange.objects.get(match=match)
    assert change.changed_by == desk["users"]["head"]
    assert "bea entered 39-25" in change.reason and "cal entered 25-39" in change.reason
    logged = AuditEntry.objects.get(action="result.disagreement_settled")
    assert logged.before == {"bea": "39-25", "cal": "25-39"}
    assert not ResultEntry.objects.exists()
    dashboard = desk["clients"]["head"].get(reverse("tournaments:manage", args=["desk"]))
    assert "Needs you" not in dashboard.content.decode()


def test_a_first_entry_is_void_once_the_match_changed(desk, director):
    match = desk["match"]
    _enter(desk, "bea", 39, 25)
    # the match changes another way (a program, an import): version 1
    results.record(match, [{"scores": [30, 34]}], expected_version=0, by=director)
    stale = _enter(desk, "cal", 39, 25, version=0)
    assert stale.status_code == 409  # Cal's form is older than the match
    fresh = _enter(desk, "cal", 39, 25, version=1)
    assert fresh.status_code == 200 and "Your entry is in" in fresh.content.decode()
    match.refresh_from_db()
    assert match.result["summary"] == "30-34"  # Bea's entry at version 0 counted for nothing
    assert list(ResultEntry.objects.values_list("entered_by__username", "version")) == [("cal", 1)]


def test_an_entry_the_engine_refuses_is_refused_at_once(desk):
    answer = _enter(desk, "bea", "abc", 25)
    assert answer.status_code == 422
    assert not ResultEntry.objects.exists()


def test_a_player_and_a_director(desk, director):
    """A player enters their own match on its page; a director's agreeing entry saves it.
    Two players alone never make a result."""
    event, match = desk["event"], desk["match"]
    seats = list(match.participants.order_by("seat").select_related("entrant"))
    players = []
    for seat in seats:
        user = User.objects.create_user(f"player{seat.entrant.number}", password="pw-1")
        claim_entrant(user, seat.entrant.claim_code)
        client = Client()
        client.force_login(user)
        players.append((user, client))
    page_url = reverse("tournaments:entrant", args=[event.slug, seats[0].entrant.number])
    entry_url = reverse("tournaments:player_result", args=[event.slug, match.pk])
    assert entry_url in players[0][1].get(page_url).content.decode()
    assert players[0][1].get(entry_url).status_code == 200
    answer = players[0][1].post(entry_url, {"version": 0, "g1-s0": 33, "g1-s1": 31})
    assert answer.status_code == 200 and "Your entry is in" in answer.content.decode()
    # the opponent cannot be the second entry
    other = players[1][1].post(entry_url, {"version": 0, "g1-s0": 33, "g1-s1": 31})
    assert other.status_code == 422
    assert "entered this result already: the second entry is a director" in other.content.decode()
    match.refresh_from_db()
    assert match.result is None
    saved = _enter(desk, "cal", 33, 31)
    assert saved.status_code == 200
    match.refresh_from_db()
    assert match.result["summary"] == "33-31"
    assert "player" in ResultChange.objects.get(match=match).reason
    # nobody else's match: refused
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger", password="pw-1"))
    assert stranger.get(entry_url).status_code == 403


def test_only_the_head_director_turns_it_on_or_off(desk):
    url = reverse("tournaments:manage_double_entry", args=["desk"])
    assert desk["clients"]["bea"].post(url, {}).status_code == 403
    desk["event"].refresh_from_db()
    assert desk["event"].double_entry
    _enter(desk, "bea", 39, 25)
    assert desk["clients"]["head"].post(url, {}).status_code == 302
    desk["event"].refresh_from_db()
    assert not desk["event"].double_entry
    assert not ResultEntry.objects.exists()  # the waiting entries go with it
    # off: a result is saved as it is typed
    assert _enter(desk, "bea", 39, 25).status_code == 200
    desk["match"].refresh_from_db()
    assert desk["match"].result["summary"] == "39-25"


def test_head_director_is_the_creator_or_every_director_without_one(desk, director):
    from accounts.permissions import is_head_director

    event = desk["event"]
    bea = desk["users"]["bea"]
    assert is_head_director(director, event) and not is_head_director(bea, event)
    EventDirector.objects.filter(event=event, user=director).delete()
    event.refresh_from_db()
    assert is_head_director(bea, event)


def test_a_settling_entry_needs_the_head_director_in_the_service_too(desk):
    match = desk["match"]
    bea, cal = desk["users"]["bea"], desk["users"]["cal"]
    double_entry.enter(match, [{"scores": [39, 25]}], expected_version=0, by=bea)
    state = double_entry.enter(match, [{"scores": [25, 39]}], expected_version=0, by=cal)
    assert state.state == double_entry.DISAGREED
    with pytest.raises(ServiceError):
        double_entry.enter(match, [{"scores": [39, 25]}], expected_version=0, by=cal)
