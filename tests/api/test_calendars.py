"""Issue 30 step 3: "an iCalendar feed per event (rounds with their start times and places)
and per player (their matches: GokoDom deadlines and scheduled games, WOC rounds with table
numbers), valid by the icalendar library's parser and by a round trip"; private events
404, stable UIDs with a SEQUENCE that rises when a time changes, ETag/304, and a constant
number of queries."""

from __future__ import annotations

import datetime
import zoneinfo

import icalendar
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import bulk_event, gokodom_event, play_round, round_robin_event
from tournaments.formats.gokodom import services_director
from tournaments.models import Entrant, Event, Match
from tournaments.services import round_times, rounds

pytestmark = pytest.mark.django_db

PARIS = zoneinfo.ZoneInfo("Europe/Paris")


def _parse(response) -> icalendar.Calendar:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content
    calendar = icalendar.Calendar.from_ical(body)
    # the round trip: what the parser read writes out as the same calendar
    again = icalendar.Calendar.from_ical(calendar.to_ical())
    assert again == calendar
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    return calendar


def _by_uid(calendar: icalendar.Calendar) -> dict[str, icalendar.Event]:
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


def _event_url(event: Event) -> str:
    return reverse("api_event_calendar", args=[event.slug])


def _entrant_url(event: Event, number: int) -> str:
    return reverse("api_entrant_calendar", args=[event.slug, number])


@pytest.fixture
def woc_like(director):
    """A round robin in Paris with a venue, its first round published with tables and a
    start time (WOC rounds read the same fields)."""
    event = round_robin_event(director, players=4, slug="cal-rr")
    Event.objects.filter(pk=event.pk).update(
        time_zone="Europe/Paris",
        venue="Salle des fêtes",
        starts_on=datetime.date(2026, 8, 1),
        ends_on=datetime.date(2026, 8, 2),
    )
    event.refresh_from_db()
    rnd = play_round(event, director, complete=False)
    Match.objects.filter(round=rnd).update(table=None)
    for table, match in enumerate(rnd.matches.order_by("code"), start=7):
        Match.objects.filter(pk=match.pk).update(table=table)
    round_times.set_start_time(rnd, datetime.datetime(2026, 8, 1, 10, 0, tzinfo=PARIS), by=director)
    event.refresh_from_db()
    return event


def test_event_feed_has_each_round_with_its_start_time_place_and_zone(client, woc_like):
    calendar = _parse(client.get(_event_url(woc_like)))
    entries = _by_uid(calendar)
    whole = next(e for uid, e in entries.items() if uid.startswith(f"arbiter-event-{woc_like.pk}@"))
    assert whole.start == datetime.date(2026, 8, 1) and whole.end == datetime.date(2026, 8, 3)
    assert str(whole["LOCATION"]) == "Salle des fêtes"
    round_one = entries[f"arbiter-event-{woc_like.pk}-round-1@127.0.0.1"]
    assert round_one.start == datetime.datetime(2026, 8, 1, 10, 0, tzinfo=PARIS)
    assert round_one["DTSTART"].params["TZID"] == "Europe/Paris"
    assert round_one.end - round_one.start == datetime.timedelta(hours=1)
    assert str(round_one["LOCATION"]) == "Salle des fêtes"
    assert "Round 1" in str(round_one["SUMMARY"])
    assert str(round_one["URL"]).endswith("/e/cal-rr/rounds/1/")
    # the event's time zone travels with the feed
    zones = [str(z["TZID"]) for z in calendar.walk("VTIMEZONE")]
    assert zones == ["Europe/Paris"]
    assert str(calendar["X-WR-TIMEZONE"]) == "Europe/Paris"


def test_a_moved_start_time_keeps_the_uid_and_raises_sequence_and_last_modified(
    client, woc_like, director
):
    uid = f"arbiter-event-{woc_like.pk}-round-1@127.0.0.1"
    before = _by_uid(_parse(client.get(_event_url(woc_like))))[uid]
    rnd = woc_like.rounds.get(number=1)
    later = datetime.datetime(2026, 8, 1, 14, 30, tzinfo=PARIS)
    round_times.set_start_time(
        rnd, later, by=director, now=before["LAST-MODIFIED"].dt + datetime.timedelta(minutes=5)
    )
    after = _by_uid(_parse(client.get(_event_url(woc_like))))[uid]
    assert after.start == later
    assert int(after["SEQUENCE"]) == int(before["SEQUENCE"]) + 1
    assert after["LAST-MODIFIED"].dt > before["LAST-MODIFIED"].dt
    assert after["DTSTAMP"].dt == after["LAST-MODIFIED"].dt


def test_entrant_feed_has_their_matches_with_table_and_opponent(client, woc_like):
    entrant = woc_like.entrants.get(number=1)
    match = Match.objects.get(round__event=woc_like, participants__entrant=entrant)
    calendar = _parse(client.get(_entrant_url(woc_like, 1)))
    (entry,) = calendar.walk("VEVENT")
    assert str(entry["UID"]) == (
        f"arbiter-event-{woc_like.pk}-round-1-entrant-1-match-{match.code}@127.0.0.1"
    )
    assert str(entry["LOCATION"]) == f"Salle des fêtes, table {match.table}"
    opponent = next(p.entrant for p in match.participants.all() if p.entrant != entrant)
    assert opponent.name in str(entry["SUMMARY"]) and "Player 1" in str(entry["SUMMARY"])
    assert entry.start == datetime.datetime(2026, 8, 1, 10, 0, tzinfo=PARIS)
    assert "Result:" in str(entry["DESCRIPTION"])  # the round was played
    assert str(entry["URL"]).endswith("/e/cal-rr/entrants/1/")


def test_the_feeds_carry_no_email_or_claim_code(client, woc_like):
    entrant = woc_like.entrants.get(number=1)
    entrant.user = type(woc_like.created_by).objects.create_user(
        "cal-player", email="secret.player@example.org", password="pw-player-1"
    )
    entrant.save()
    for url in (_event_url(woc_like), _entrant_url(woc_like, 1)):
        body = client.get(url).content.decode()
        assert "example.org" not in body
        for code in Entrant.objects.values_list("claim_code", flat=True):
            assert code not in body


def test_gokodom_player_feed_spans_the_week_and_says_the_deadline(client, director):
    event = gokodom_event(director, players=4, slug="cal-goko", first_round_start="2026-02-09")
    Event.objects.filter(pk=event.pk).update(time_zone="America/New_York")
    event.refresh_from_db()
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    new_york = zoneinfo.ZoneInfo("America/New_York")
    calendar = _parse(client.get(_entrant_url(event, 1)))
    entries = _by_uid(calendar)
    base = f"arbiter-event-{event.pk}-round-1-entrant-1"
    match = next(e for uid, e in entries.items() if uid.startswith(base + "-match-"))
    deadline = entries[base + "-deadline@127.0.0.1"]
    # I.C: from Monday 15:00 to the next Monday 06:00, on the event's clock
    assert match.start == datetime.datetime(2026, 2, 9, 15, 0, tzinfo=new_york)
    assert match.end == datetime.datetime(2026, 2, 16, 6, 0, tzinfo=new_york)
    assert deadline.start == match.end
    assert "play by" in str(match["DESCRIPTION"])
    # the director extends the deadline: same UIDs, a higher SEQUENCE, the new end
    services_director.set_round_times(
        rnd,
        match.start,
        datetime.datetime(2026, 2, 18, 6, 0, tzinfo=new_york),
        by=director,
    )
    moved = _by_uid(_parse(client.get(_entrant_url(event, 1))))
    assert moved.keys() == entries.keys()
    assert moved[base + "-deadline@127.0.0.1"].start.day == 18
    assert int(moved[base + "-deadline@127.0.0.1"]["SEQUENCE"]) == int(deadline["SEQUENCE"]) + 1
    # the event's feed has the round spanning its week
    (week,) = [
        e for e in _parse(client.get(_event_url(event))).walk("VEVENT") if "round" in str(e["UID"])
    ]
    assert week.end == datetime.datetime(2026, 2, 18, 6, 0, tzinfo=new_york)


def test_a_round_without_a_start_time_is_left_out(client, director):
    event = round_robin_event(director, players=4, slug="cal-none")
    play_round(event, director)
    calendar = _parse(client.get(_event_url(event)))
    assert calendar.walk("VEVENT") == []
    assert _parse(client.get(_entrant_url(event, 1))).walk("VEVENT") == []


def test_private_event_and_missing_entrant_answer_404(client, woc_like, director):
    Event.objects.filter(pk=woc_like.pk).update(public=False)
    for url in (_event_url(woc_like), _entrant_url(woc_like, 1)):
        response = client.get(url)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    client.force_login(director)  # the director sees their private event's feed
    assert client.get(_event_url(woc_like)).status_code == 200
    Event.objects.filter(pk=woc_like.pk).update(public=True)
    client.logout()
    assert client.get(_entrant_url(woc_like, 99)).status_code == 404
    assert client.get("/api/v1/events/nope/calendar.ics").status_code == 404


def test_a_draft_round_is_not_in_the_feeds(client, woc_like, director):
    rounds.complete_round(woc_like.rounds.get(number=1), by=director)
    outcome = rounds.draft_next_round(woc_like, by=director)
    round_times.set_start_time(
        outcome.round, datetime.datetime(2026, 8, 1, 15, 0, tzinfo=PARIS), by=director
    )
    uids = _by_uid(_parse(client.get(_event_url(woc_like))))
    assert not any("round-2" in uid for uid in uids)


def test_etag_answers_304_and_a_change_renews_it(client, woc_like, director):
    url = _event_url(woc_like)
    first = client.get(url)
    assert first["X-Page-Cache"] == "miss"
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    assert client.get(url)["X-Page-Cache"] == "hit"
    round_times.set_start_time(
        woc_like.rounds.get(number=1),
        datetime.datetime(2026, 8, 1, 11, 0, tzinfo=PARIS),
        by=director,
    )
    changed = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


def test_a_miss_costs_the_same_queries_whatever_the_size_and_a_hit_none(client, director):
    sizes = []
    for slug, size in (("cal-small", 20), ("cal-large", 600)):
        event = bulk_event(slug, entrants=size)
        for rnd in event.rounds.all():
            rnd.starts_at = datetime.datetime(2026, 8, rnd.number, 10, tzinfo=datetime.UTC)
            rnd.save()
        counts = []
        for url in (_event_url(event), _entrant_url(event, 5)):
            counts.append(_queries(client, url))
            assert client.get(url)["X-Page-Cache"] == "hit"
            assert _queries(client, url) == 0
        body = client.get(_entrant_url(event, 5)).content
        assert len(icalendar.Calendar.from_ical(body).walk("VEVENT")) == 3
        sizes.append(counts)
    assert sizes[0] == sizes[1], sizes
    # the stamp, the event, its public rounds, the audit's changes; the entrant and their
    # matches with seats
    assert sizes[0] == [4, 6], sizes


def test_hidden_wpf_online_rounds_stay_out_of_the_feeds(client, director):
    """WPF GP Playoffs: the online rounds are hidden until the reveal, in calendars too."""
    from tests.factories import wpf_imported_event

    event = wpf_imported_event(director, 2, {"A1": 1})
    assert event.rounds.exclude(status="draft").count() == 2  # played, not yet revealed
    for rnd in event.rounds.all():
        rnd.starts_at = datetime.datetime(2026, 9, rnd.number, 18, tzinfo=datetime.UTC)
        rnd.save()
    Event.objects.get(pk=event.pk).save()  # the stamp moves, as an edit through a service
    entries = _parse(client.get(_event_url(event))).walk("VEVENT")
    assert not [e for e in entries if "-round-" in str(e["UID"])]
    for number in event.entrants.values_list("number", flat=True)[:4]:
        assert _parse(client.get(_entrant_url(event, number))).walk("VEVENT") == []
