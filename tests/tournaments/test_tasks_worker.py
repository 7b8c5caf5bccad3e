"""The tasks against the real Redis broker and real workers (not eager mode).

Runs whenever REDIS_URL is set; CI (CI=true) always sets it (tests/conftest.py refuses to
run without it), so these never skip there. The broker is REDIS_URL's own server and
database (ARBITER_TEST_REDIS_DB names another database of that server), never a number
picked here that another run or program may be using; the cache keys carry a fresh prefix.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from unittest import mock
from urllib.parse import quote, urlsplit, urlunsplit

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings as django_settings
from django.db import connection

from config.celery import app
from tests.factories import play_round, round_robin_event
from tournaments.models import Event, Match, StandingsSnapshot
from tournaments.services import results, standings

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_URL = os.environ.get("REDIS_URL", "")
ROOT = Path(__file__).resolve().parents[2]

if os.environ.get("CI") != "true":
    if not REDIS_URL:
        pytest.skip("needs REDIS_URL (always set under CI)", allow_module_level=True)
    if connection.vendor == "sqlite":
        # a worker (thread or process) and the test cannot share SQLite's in-memory test
        # database without "table is locked"; CI runs PostgreSQL
        pytest.skip("needs PostgreSQL (CI runs it)", allow_module_level=True)


def _broker_url(redis_url: str = REDIS_URL, database: str | None = None) -> str:
    database = database or os.environ.get("ARBITER_TEST_REDIS_DB")
    parts = urlsplit(redis_url)
    number = database or parts.path.strip("/") or "0"
    if not number.isdecimal():
        raise pytest.UsageError(f"the Redis database must be a number, got {number!r}")
    return urlunsplit((parts.scheme, parts.netloc, f"/{number}", parts.query, ""))


def test_the_broker_is_redis_urls_own_server_and_database():
    assert _broker_url("redis://:pw@10.0.0.5:6380/7", "") == "redis://:pw@10.0.0.5:6380/7"
    assert _broker_url("redis://127.0.0.1:6379", "") == "redis://127.0.0.1:6379/0"
    assert _broker_url("redis://127.0.0.1:6379/3", "11") == "redis://127.0.0.1:6379/11"
    with pytest.raises(pytest.UsageError):
        _broker_url("redis://127.0.0.1:6379/3", "x")


@pytest.fixture
def broker(settings):
    url = _broker_url()
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.ARBITER_STANDINGS_DELAY = 0.5
    saved = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = url, False
    app._pool = app.amqp._producer_pool = None  # connections to the old broker are dropped
    app.control.purge()
    yield {"url": url, "prefix": prefix}
    app.control.purge()
    app.conf.broker_url, app.conf.task_always_eager = saved
    app._pool = app.amqp._producer_pool = None


def _wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def _current(event: Event) -> bool:
    event.refresh_from_db()
    return event.standings_version >= event.results_version


def _published_rows(event: Event) -> list[tuple]:
    snapshot = standings.latest_published(event)
    return [
        (r.table_key, r.position, r.entrant.number, r.rank, r.points)
        for r in snapshot.rows.select_related("entrant").order_by("table_key", "position")
    ]


def _expected_rows(event: Event) -> list[tuple]:
    computed = standings.compute(event)
    return sorted(
        (t.key, position, int(row.entrant), row.rank, float(row.values.get("points")))
        for t in computed.tables
        for position, row in enumerate(t.rows, start=1)
    )


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=10, slug="worker")
    play_round(event, director, complete=False)  # eager: standings current
    return event


RECOMPUTE = 0.5  # seconds a recompute takes at least, in the burst test


def test_a_burst_of_forty_saves_makes_one_or_a_few_recomputes_on_a_real_worker(
    broker, director, event
):
    before = StandingsSnapshot.objects.filter(event=event).count()
    matches = list(Match.objects.filter(round__event=event).order_by("pk"))
    # A lone save is recomputed at once (no wait); saves that come faster than recomputes
    # coalesce. A recompute here takes at least RECOMPUTE seconds (a large event's), so the
    # saves outrun it, as a desk's do on a big event.
    original = standings.publish_standings

    def slow(*args, **kwargs):
        time.sleep(RECOMPUTE)
        return original(*args, **kwargs)

    with (
        mock.patch.object(standings, "publish_standings", slow),
        mock.patch.object(standings, "prune", lambda event_id: 0),  # counted, not pruned
        start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"),
    ):
        started = time.monotonic()
        for i in range(40):
            match = matches[i % len(matches)]
            match.refresh_from_db()
            scores = [i % 2, 1 - i % 2]
            results.record(match, [{"scores": scores}], expected_version=match.version, by=director)
        burst = time.monotonic() - started
        _wait(lambda: _current(event), 60, "the worker to publish the standings")
    made = StandingsSnapshot.objects.filter(event=event).count() - before
    # at most one recompute at a time, the next taking every save made meanwhile: never one
    # per save
    assert 1 <= made <= int(burst / RECOMPUTE) + 2 and made < 40
    assert _published_rows(event) == _expected_rows(event)


def _database_url() -> str:
    db = django_settings.DATABASES["default"]
    auth = quote(db.get("USER") or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{db['NAME']}"


def _worker(broker: dict, tmp_path: Path, name: str, **extra: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "REDIS_URL": broker["url"],
        "ARBITER_CACHE_PREFIX": broker["prefix"],
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_VISIBILITY_TIMEOUT": "2",  # the killed worker's task comes back fast
        "CELERY_RESTORE_INTERVAL": "1",
        **extra,
    }
    log = (tmp_path / f"{name}.log").open("w")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--concurrency=1", "--without-gossip", "--without-mingle", "--without-heartbeat",
         "--loglevel=WARNING", "-n", f"{name}@%h"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip


def test_a_worker_killed_mid_recompute_leaves_the_task_to_another_worker(
    broker, director, event, tmp_path
):
    paused = tmp_path / "paused"
    first = _worker(
        broker, tmp_path, "first",
        ARBITER_TEST_STANDINGS_PAUSE="120", ARBITER_TEST_PAUSE_FILE=str(paused),
    )  # fmt: skip
    second = None
    try:
        match = Match.objects.filter(round__event=event).order_by("pk").first()
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
        _wait(paused.exists, 60, "the first worker to be in the middle of the recompute")
        os.killpg(first.pid, signal.SIGKILL)  # no warm shutdown, no ack: a crash
        first.wait(10)
        assert not _current(event), "the killed worker must not have published"
        second = _worker(broker, tmp_path, "second")
        _wait(lambda: _current(event), 60, "the second worker to run the task again")
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(20)
    assert _published_rows(event) == _expected_rows(event)
    snapshot = standings.latest_published(event)
    assert snapshot.results_version == Event.objects.get(pk=event.pk).results_version
