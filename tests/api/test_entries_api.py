"""An event's entries over the public API (tournaments/api/entries.py, docs/api.md
"Entries"): who holds a place and the waiting list with each position, never an e-mail
address, an account or an entry's link; a private event is the API's JSON 404; the
answer's query count does not grow with the line."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import round_robin_event
from tournaments.models import Entry
from tournaments.services import places, registration

pytestmark = pytest.mark.django_db


def open_event(director, slug: str, entries: int, capacity: int, public: bool = True):
    event = round_robin_event(director, players=0, slug=slug)
    if not public:
        type(event).objects.filter(pk=event.pk).update(public=False)
    registration.update_settings(event, {"open": True, "capacity": capacity}, by=director)
    for n in range(entries):
        places.confirm_email(places.enter(event, name=f"Player {n}", email=f"p{n}@example.org"))
    places.enter(event, name="Not Confirmed", email="nc@example.org")
    return event


def test_holders_and_the_waiting_list_in_order_without_addresses(client, director):
    event = open_event(director, "open", entries=5, capacity=3)
    places.withdraw(Entry.objects.get(event=event, name="Player 1"))  # Player 3 is offered it
    answer = client.get("/api/v1/events/open/entries/")
    assert answer.status_code == 200 and answer["ETag"]
    data = answer.json()
    assert data["registration"] | {"closes_at": None} == {
        "source": "form",
        "open": True,
        "capacity": 3,
        "closes_at": None,
        "min_rating": None,
        "federations": [],
        "source_label": "",
        "held": 3,
        "waiting": 1,
    }
    assert [(h["name"], h["status"]) for h in data["holding"]] == [
        ("Player 0", "accepted"),
        ("Player 2", "accepted"),
        ("Player 3", "offered"),
    ]
    assert [(w["position"], w["name"]) for w in data["waiting"]] == [(1, "Player 4")]
    text = json.dumps(data)
    assert "@example.org" not in text and "Not Confirmed" not in text
    for entry in Entry.objects.filter(event=event):
        assert entry.token not in text
    again = client.get("/api/v1/events/open/entries/", headers={"If-None-Match": answer["ETag"]})
    assert again.status_code == 304


def test_an_event_without_registration_and_a_private_one(client, director):
    round_robin_event(director, players=4, slug="plain")
    data = client.get("/api/v1/events/plain/entries/").json()
    assert data == {"event": "plain", "registration": None, "holding": [], "waiting": []}
    open_event(director, "hidden", entries=2, capacity=1, public=False)
    answer = client.get("/api/v1/events/hidden/entries/")
    assert answer.status_code == 404 and answer.json()["code"]


def test_the_answer_costs_the_same_queries_at_two_sizes(client, director):
    open_event(director, "small", entries=2, capacity=1)
    open_event(director, "large", entries=40, capacity=20)
    counts = []
    for slug in ("small", "large"):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/api/v1/events/{slug}/entries/").status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]
