"""The front page when many events exist (issue 29 finding 5): one address made 278 public
events in a minute, all on the anonymous front page. Empty events are listed to their
directors only; the page is paged, searchable, and shows the events happening now first,
in a number of queries that does not grow with the events."""

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Entrant, Event, EventDirector

pytestmark = pytest.mark.django_db

URL = reverse("tournaments:event_list")


def many_events(count: int, *, entrants: bool = True, prefix: str = "ev", **fields) -> list[Event]:
    events = Event.objects.bulk_create(
        Event(
            slug=f"{prefix}-{n}",
            name=f"{prefix.title()} {n:03d}",
            format="round_robin",
            public=True,
            starts_on=date(2026, 1, 1) + timedelta(days=n),
            **fields,
        )
        for n in range(count)
    )
    if entrants:
        Entrant.objects.bulk_create(Entrant(event=e, number=1, name="Ana") for e in events)
    return events


def listed(client, **params) -> list[str]:
    html = client.get(URL, params).content.decode()
    return [slug for slug in Event.objects.values_list("slug", flat=True) if f"/e/{slug}/" in html]


def test_an_event_without_entrants_or_rounds_is_listed_to_its_directors_only(client, director):
    many_events(3, entrants=False, prefix="empty")
    many_events(2, prefix="real")
    EventDirector.objects.create(event=Event.objects.get(slug="empty-0"), user=director)
    assert sorted(listed(client)) == ["real-0", "real-1"]
    client.force_login(director)
    assert sorted(listed(client)) == ["empty-0", "real-0", "real-1"]


def test_the_front_page_is_paged_in_a_constant_number_of_queries(client):
    many_events(70)
    with CaptureQueriesContext(connection) as first:
        page_one = listed(client)
    assert len(page_one) == 30
    assert listed(client, page=2) != page_one and len(listed(client, page=2)) == 30
    assert len(listed(client, page=3)) == 10
    html = client.get(URL, {"page": 2}).content.decode()
    assert 'rel="next"' in html and 'rel="prev"' in html and "Page 2 of 3" in html
    many_events(200, prefix="more")
    with CaptureQueriesContext(connection) as later:
        assert len(listed(client)) == 30
    assert len(later) == len(first)


def test_events_happening_now_come_first_under_their_heading(client):
    today = timezone.localdate()
    many_events(40)  # newer by date than the one running below
    running = many_events(1, prefix="running", status=Event.Status.RUNNING)[0]
    Event.objects.filter(pk=running.pk).update(starts_on=date(2020, 1, 1))
    today_only = many_events(1, prefix="today")[0]
    Event.objects.filter(pk=today_only.pk).update(starts_on=today, ends_on=today)
    html = client.get(URL).content.decode()
    assert "Happening now" in html
    now_part, rest = html.split("Other events")
    assert "/e/running-0/" in now_part and "/e/today-0/" in now_part
    assert "/e/ev-39/" in rest


def test_search_finds_events_by_name_venue_or_address(client):
    many_events(50)
    many_events(1, prefix="dutch")
    Event.objects.filter(slug="ev-7").update(venue="Utrecht")
    assert listed(client, q="Dutch") == ["dutch-0"]
    assert listed(client, q="utrecht") == ["ev-7"]
    html = client.get(URL, {"q": "nothing like it"}).content.decode()
    assert "No event matches" in html
    # a long query is cut to the field's limit, never an error
    assert client.get(URL, {"q": "x" * 10_000}).status_code == 200
