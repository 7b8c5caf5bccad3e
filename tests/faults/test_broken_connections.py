"""Connections that drop or stall in the middle of an action (tests/faults/proxy.py between
the app and PostgreSQL or Redis). The user sees a clear error or the action completes,
never half of it, and a retried result save never records the result twice."""

from __future__ import annotations

import threading
import uuid
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import OperationalError
from django.test import Client, override_settings
from django.urls import reverse

from bench.event import event_file
from config.celery import app as celery_app
from tests.factories import round_robin_event
from tests.faults.conftest import reconnect
from tournaments import tasks
from tournaments.models import Event, Match, ResultChange, StandingsSnapshot
from tournaments.services import eventfile, rounds, standings
from tournaments.services.eventfile import importing

UNAVAILABLE = "Send it again in a few seconds"
# where a result save raises the results version (the one result writer)
BUMP = "tournaments.services.result_changes.standings.results_changed"


@pytest.fixture
def open_match(director):
    """A published round of a 4-player round robin, results still to enter."""
    event = round_robin_event(director, players=4, slug="faults")
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return rnd.matches.order_by("pk").first()


def _client(director) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(director)
    return client


def _save(client: Client, match: Match, version: int):
    url = reverse("tournaments:manage_result", args=[match.round.event.slug, match.pk])
    data = {"version": version, "g1-s0": "1", "g1-s1": "0"}
    return client.post(url, data, headers={"HX-Request": "true"})


def _changes(match: Match) -> int:
    return ResultChange.objects.filter(match=match).count()


# The save's last statement before its COMMIT: telling the webhooks (after the bump)
LAST_STEP = "tournaments.services.result_changes.webhooks.notify"


def _after_bump(action):
    """Run ``action`` just after the save's last statement (the results version bumped,
    the webhooks told): inside the save's transaction, before its COMMIT, so that the next
    thing sent to the database is the COMMIT."""
    from tournaments.services import webhooks

    original = webhooks.notify
    done = []

    def wrapped(*args, **kwargs):
        rows = original(*args, **kwargs)
        if not done:  # the save's own call; the standings refresh after it tells them too
            done.append(True)
            action()
        return rows

    return mock.patch(LAST_STEP, wrapped)


def test_database_dropped_mid_save_shows_503_saves_nothing_and_retry_saves_once(
    db_proxy, open_match, director
):
    client = _client(director)
    version = open_match.version
    original = standings.results_changed

    def drop_then_bump(event, **kwargs):
        db_proxy.drop()
        return original(event, **kwargs)

    with mock.patch(BUMP, drop_then_bump):
        response = _save(client, open_match, version)
    assert response.status_code == 503
    assert UNAVAILABLE in response.content.decode()
    assert UNAVAILABLE in response["X-Arbiter-Message"]
    reconnect()
    open_match.refresh_from_db()
    assert open_match.version == version and open_match.result is None
    assert _changes(open_match) == 0 and open_match.games.count() == 0

    retried = _save(client, open_match, version)
    assert retried.status_code == 200
    open_match.refresh_from_db()
    assert open_match.version == version + 1 and _changes(open_match) == 1
    assert open_match.result["complete"]

    again = _save(client, open_match, version)  # the same form sent a third time
    assert again.status_code == 409
    assert _changes(open_match) == 1


@pytest.mark.parametrize("reached", [True, False], ids=["commit-reached", "commit-lost"])
def test_connection_cut_at_commit(db_proxy, open_match, director, reached):
    """Cut as the COMMIT goes out: whether or not the server got it, the retry of the same
    form leaves exactly one saved result."""
    client = _client(director)
    version = open_match.version
    with _after_bump(lambda: db_proxy.cut_at_next_send(forward=reached)):
        response = _save(client, open_match, version)
    assert response.status_code == 503
    reconnect()
    open_match.refresh_from_db()
    assert _changes(open_match) == (1 if reached else 0)
    assert open_match.version == version + (1 if reached else 0)

    retried = _save(client, open_match, version)
    assert retried.status_code == (409 if reached else 200)  # a conflict shows the saved one
    open_match.refresh_from_db()
    assert _changes(open_match) == 1 and open_match.version == version + 1


def test_database_stalled_mid_save_then_back_completes_once(db_proxy, open_match, director):
    client = _client(director)
    version = open_match.version
    resume = threading.Timer(0.5, db_proxy.resume)
    with _after_bump(lambda: (db_proxy.stall(), resume.start())):
        response = _save(client, open_match, version)
    assert response.status_code == 200
    open_match.refresh_from_db()
    assert open_match.version == version + 1 and _changes(open_match) == 1


def test_import_dropped_midway_saves_nothing_and_retry_imports_once(db_proxy, director):
    document = event_file("dropped-import", entrants=12, played=2)
    calls = []
    original = importing._import_round

    def drop_on_second_round(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            db_proxy.drop()
        return original(*args, **kwargs)

    with (
        mock.patch.object(importing, "_import_round", drop_on_second_round),
        pytest.raises(OperationalError),
    ):
        eventfile.import_event(document, by=director)
    reconnect()
    assert not Event.objects.filter(slug="dropped-import").exists()
    assert not Match.objects.filter(round__event__slug="dropped-import").exists()

    event = eventfile.import_event(document, by=director)
    assert event.entrants.count() == 12
    assert Match.objects.filter(round__event=event).count() == 3 * 6


def test_standings_task_dropped_midway_publishes_nothing_then_once(db_proxy, open_match):
    event = open_match.round.event
    Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)
    target = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
    snapshots = StandingsSnapshot.objects.filter(event=event).count()
    original = standings.store_snapshot

    def drop_then_store(*args, **kwargs):
        db_proxy.drop()
        return original(*args, **kwargs)

    with (
        mock.patch.object(standings, "store_snapshot", drop_then_store),
        pytest.raises(OperationalError),
    ):
        standings.refresh(event.pk, target)
    reconnect()
    event.refresh_from_db()
    assert event.standings_version < target
    assert StandingsSnapshot.objects.filter(event=event).count() == snapshots
    # the task retries such failures (acks late: a lost worker's task comes back)
    assert OperationalError in tasks.recompute_standings.autoretry_for

    assert standings.refresh(event.pk, target) is True
    assert standings.refresh(event.pk, target) is False  # a second run publishes nothing
    event.refresh_from_db()
    assert event.standings_version == target
    assert StandingsSnapshot.objects.filter(event=event).count() == snapshots + 1


@pytest.fixture
def broker_through(redis_proxy):
    """The cache and the Celery broker through the Redis proxy, tasks sent for real."""
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_proxy.url,
            # its own keys: the same event ids run at once in another process's database
            "KEY_PREFIX": f"faults-{uuid.uuid4().hex[:8]}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1},
        }
    }
    saved = celery_app.conf.broker_url, celery_app.conf.task_always_eager
    with override_settings(CACHES=caches, CELERY_TASK_ALWAYS_EAGER=False):
        celery_app.conf.broker_url = redis_proxy.url
        celery_app.conf.task_always_eager = False
        _fresh_pools()
        try:
            yield redis_proxy
        finally:
            celery_app.conf.broker_url, celery_app.conf.task_always_eager = saved
            _fresh_pools()


def _fresh_pools() -> None:
    """Celery keeps its broker connections in pools made from the broker URL: new ones."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.mark.parametrize("fault", ["refuse", "stall"])
def test_redis_down_during_save_keeps_the_result_and_the_sweep_catches_up(
    db_proxy, broker_through, open_match, director, fault
):
    """Redis (cache and broker) down or stalled as a result is saved: the save completes in
    bounded time, once; the public page still answers; the standings catch up by the sweep
    once Redis is back."""
    client = _client(director)
    version = open_match.version
    if fault == "refuse":
        broker_through.refuse = True
        broker_through.drop()
    else:
        broker_through.stall()
    outcome = {}
    worker = threading.Thread(target=lambda: outcome.update(r=_save(client, open_match, version)))
    worker.start()
    worker.join(20)
    assert not worker.is_alive(), "a stalled Redis hung the result save"
    assert outcome["r"].status_code == 200
    reconnect()
    open_match.refresh_from_db()
    assert open_match.version == version + 1 and _changes(open_match) == 1
    event = Event.objects.get(pk=open_match.round.event_id)
    public = Client().get(reverse("tournaments:standings", args=[event.slug]))
    assert public.status_code == 200

    broker_through.refuse = False
    broker_through.resume()
    celery_app.conf.task_always_eager = True  # the sweep's task, run here
    cache.clear()
    assert standings.sweep() == 1
    event.refresh_from_db()
    assert event.standings_version == event.results_version
