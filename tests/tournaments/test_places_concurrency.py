"""Places under real parallel transactions (issue 32): entries, withdrawals and confirms at
once never put an event over capacity, keep the line's order, and never give one place
twice. Threads with their own connections on PostgreSQL, as test_concurrency.py does; the
negative control shows the count is only safe under the event's lock."""

from __future__ import annotations

import itertools
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tournaments.models import AuditEntry, Entry
from tournaments.services import events, places, qualification
from tournaments.services import registration as registration_settings

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor == "sqlite", reason="needs row locks (PostgreSQL)"),
]


def _event(director, capacity):
    event = events.create_event(slug="race", name="Race", format="round_robin", by=director)
    registration_settings.update_settings(event, {"open": True, "capacity": capacity}, by=director)
    return event


def _together(calls):
    """Run each call in its own thread, all released at once; returns their errors."""
    barrier = threading.Barrier(len(calls))
    errors = []

    def run(call):
        from django.db import connections

        try:
            barrier.wait()
            call()
        except Exception as error:  # a refusal, or (the negative control) a broken row
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(c,)) for c in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def _enter_call(event, user, i):
    return lambda: places.enter(event, name=f"P{i}", email=f"p{i}@example.org", user=user)


def test_twelve_entries_at_once_fill_four_places_and_wait_in_order(director, django_user_model):
    event = _event(director, capacity=4)
    users = [
        django_user_model.objects.create_user(f"p{i}", email=f"p{i}@example.org", password="pw")
        for i in range(12)
    ]
    assert _together([_enter_call(event, u, i) for i, u in enumerate(users)]) == []
    line = list(Entry.objects.filter(event=event).order_by("order"))
    assert [e.order for e in line] == list(range(1, 13))
    assert [e.status for e in line] == ["accepted"] * 4 + ["waiting"] * 8
    # the order is the order the lock let them in: their audit rows were written so
    joined = AuditEntry.objects.filter(
        event=event, action__in=["entry.accepted", "entry.waitlisted"]
    ).order_by("pk")
    assert [a.subject for a in joined] == [e.name for e in line]


def test_withdrawals_and_entries_at_once_never_go_over_capacity(director, django_user_model):
    event = _event(director, capacity=3)
    first = [
        places.confirm_email(places.enter(event, name=f"A{i}", email=f"a{i}@example.org"))
        for i in range(6)
    ]
    users = [
        django_user_model.objects.create_user(f"p{i}", email=f"p{i}@example.org", password="pw")
        for i in range(6)
    ]
    calls = [_enter_call(event, u, i) for i, u in enumerate(users)]
    calls += [lambda e=e: places.withdraw(e) for e in first[:3]]  # the three holders
    calls += [lambda e=e: places.decline(e) for e in first[3:4]]  # the first in line
    assert _together(calls) == []
    line = list(Entry.objects.filter(event=event).order_by("order"))
    holding = [e for e in line if e.status in Entry.HOLDING]
    assert len(holding) == 3
    # the places went to the first still waiting, in order: nobody behind them got one
    waiting = [e for e in line if e.status == "waiting"]
    assert max(e.order for e in holding) < min(e.order for e in waiting)


def test_no_place_is_given_twice_under_concurrent_confirms(director):
    """An invitation's deadline passed: the late confirm and the sweep race. Exactly one
    place is held afterwards, by the next in line, never by both."""
    event = events.create_event(slug="inv", name="Inv", format="round_robin", by=director)
    people = [qualification.Candidate(name=f"Q{i}", email=f"q{i}@example.org") for i in range(4)]
    now = timezone.now()
    qualification.build(
        event, people, places_count=1, label="GP", confirm_hours=24, by=director, now=now
    )
    late = now + timedelta(hours=25)
    q0 = Entry.objects.get(name="Q0")
    calls = [lambda: places.confirm_place(q0, now=late) for _ in range(3)]
    calls += [lambda: places.sweep(now=late) for _ in range(3)]
    errors = _together(calls)
    assert len(errors) == 3  # every late confirm refused
    statuses = dict(Entry.objects.filter(event=event).values_list("name", "status"))
    assert statuses == {"Q0": "expired", "Q1": "offered", "Q2": "waiting", "Q3": "waiting"}


def test_concurrent_confirms_of_open_offers_fill_exactly_the_places(director):
    event = events.create_event(slug="inv2", name="Inv", format="round_robin", by=director)
    people = [qualification.Candidate(name=f"Q{i}", email=f"q{i}@example.org") for i in range(6)]
    qualification.build(event, people, places_count=3, label="GP", confirm_hours=24, by=director)
    entries = list(Entry.objects.filter(event=event).order_by("order"))
    calls = [lambda e=e: places.confirm_place(e) for e in entries for _ in range(2)]
    calls += [lambda: places.decline(entries[0])]
    _together(calls)
    assert places.held(event) == 3
    assert Entry.objects.filter(event=event, status="accepted").count() <= 3


def test_negative_control_without_the_lock_goes_over_capacity(director, monkeypatch):
    """With the event lock switched off the count races: more places than capacity are
    taken. The lock, not luck, keeps the other tests green."""
    from tournaments.models import Event
    from tournaments.services import locking

    event = _event(director, capacity=2)
    original = locking.lock_event
    monkeypatch.setattr(
        locking, "lock_event", lambda e, **kw: Event.objects.get(pk=getattr(e, "pk", e))
    )
    # orders from a counter, so that only the capacity count races (not the unique order)
    counter = itertools.count(1)
    monkeypatch.setattr(places, "_next_order", lambda event: next(counter))
    over = False
    for attempt in range(5):
        Entry.objects.filter(event=event).delete()
        calls = [
            lambda i=i, attempt=attempt: places.confirm_email(
                Entry.objects.create(
                    event=event,
                    name=f"N{i}",
                    email=f"n{attempt}-{i}@example.org",
                    created_at=timezone.now(),
                )
            )
            for i in range(8)
        ]
        _together(calls)
        if Entry.objects.filter(event=event, status="accepted").count() > 2:
            over = True
            break
    monkeypatch.setattr(locking, "lock_event", original)
    assert over
