"""The standings recompute in process: a burst of results makes one task, the task is
idempotent, never publishes older standings, and the sweep finds events that lag."""

import threading
import uuid

import pytest
from django.db import connection

from tests.factories import play_round, round_robin_event
from tournaments import tasks
from tournaments.models import Event, Match, StandingsSnapshot
from tournaments.services import results, standings

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    """A key prefix of its own: no marker or page left by another test (ids repeat on
    SQLite) is seen, and a shared Redis is never flushed."""
    settings.CACHES = {
        name: {**conf, "KEY_PREFIX": f"t-{uuid.uuid4().hex[:8]}"}
        for name, conf in settings.CACHES.items()
    }


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=10, slug="burst")
    play_round(event, director, complete=False)
    return event


def _sent(monkeypatch):
    calls = []
    monkeypatch.setattr(
        tasks.recompute_standings, "apply_async", lambda args, **kw: calls.append((args, kw))
    )
    return calls


def test_a_burst_of_forty_saves_sends_one_recompute(monkeypatch, director, event):
    calls = _sent(monkeypatch)
    matches = list(Match.objects.filter(round__event=event).order_by("pk"))
    for i in range(40):  # a director typing and correcting results
        match = matches[i % len(matches)]
        match.refresh_from_db()
        results.record(
            match, [{"scores": [i % 2, 1 - i % 2]}], expected_version=match.version, by=director
        )
    assert len(calls) == 1
    (event_id, version), options = calls[0]
    # no other recompute was running: a lone result waits for nothing (issue 33, item 3)
    assert event_id == event.pk and options["countdown"] == 0
    # The one task publishes the newest results, whatever version it was sent with.
    assert standings.refresh(event_id, version) is True
    event.refresh_from_db()
    assert event.standings_version == event.results_version > version
    # Once it has run, the next change sends the next task.
    match = matches[0]
    match.refresh_from_db()
    results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    assert len(calls) == 2


def test_running_the_task_twice_or_late_publishes_nothing_new(director, event):
    event.refresh_from_db()
    assert event.standings_current
    count = StandingsSnapshot.objects.filter(event=event).count()
    assert tasks.recompute_standings(event.pk, event.results_version) is False
    assert tasks.recompute_standings(event.pk, 1) is False  # an old version
    assert StandingsSnapshot.objects.filter(event=event).count() == count
    assert tasks.recompute_standings(10**6, 1) is False  # a deleted event


def test_an_older_recompute_never_publishes_over_a_newer_one(monkeypatch, director, event):
    _sent(monkeypatch)
    match = Match.objects.filter(round__event=event).first()
    results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    slow_version = Event.objects.get(pk=event.pk).results_version

    def newer_save_and_recompute():
        # while the slow task computes, another result is saved and a fast task publishes it
        match.refresh_from_db()
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
        assert standings.refresh(event.pk, 0) is True

    assert (
        standings.refresh(event.pk, slow_version, after_compute=newer_save_and_recompute) is False
    )
    event.refresh_from_db()
    assert event.standings_version == event.results_version == slow_version + 1
    newest = standings.latest_published(event)
    assert newest.results_version == slow_version + 1
    assert not StandingsSnapshot.objects.filter(event=event, results_version=slow_version).exists()


@pytest.mark.skipif(connection.vendor == "sqlite", reason="needs parallel writers (PostgreSQL)")
def test_concurrent_recomputes_publish_one_snapshot(monkeypatch, director, event):
    _sent(monkeypatch)
    match = Match.objects.filter(round__event=event).first()
    results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    version = Event.objects.get(pk=event.pk).results_version
    barrier = threading.Barrier(4)
    outcomes = []

    def run():
        from django.db import connections

        try:
            barrier.wait()
            outcomes.append(standings.refresh(event.pk, version))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == [False, False, False, True]
    assert StandingsSnapshot.objects.filter(event=event, results_version=version).count() == 1


def test_sweep_re_enqueues_only_lagging_events(monkeypatch, director, event):
    other = round_robin_event(director, players=4, slug="fine")
    calls = _sent(monkeypatch)
    Event.objects.filter(pk=event.pk).update(standings_version=0)  # a lost task
    event.refresh_from_db()
    assert standings.lagging_events() == [(event.pk, event.results_version)]
    assert tasks.sweep_standings() == 1
    assert [args for args, _ in calls] == [(event.pk, event.results_version)]
    assert other.pk not in [args[0] for args, _ in calls]


def test_standings_state_tells_the_director_current_or_being_recomputed(
    monkeypatch, director, event
):
    state = standings.standings_state(event)
    assert state.current and str(state.label) == "current" and state.computed_at is not None
    _sent(monkeypatch)
    match = Match.objects.filter(round__event=event).first()
    results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    state = standings.standings_state(event)
    assert not state.current and str(state.label) == "being recomputed"
    assert state.results_version == state.standings_version + 1


# -- adaptive coalescing (issue 33, item 3) -------------------------------------------------


def _save(match, director, scores):
    match.refresh_from_db()
    results.record(match, [{"scores": scores}], expected_version=match.version, by=director)


def test_a_save_during_a_recompute_waits_and_the_running_task_publishes_the_burst(
    monkeypatch, director, event
):
    """Saves made while a recompute runs send one delayed task between them, and the
    running task publishes their results itself as soon as it is done: one more recompute
    for the burst, not one per save, and no countdown for the first."""
    calls = _sent(monkeypatch)
    matches = list(Match.objects.filter(round__event=event).order_by("pk"))
    _save(matches[0], director, [1, 0])
    assert [kw["countdown"] for _, kw in calls] == [0]
    snapshots = StandingsSnapshot.objects.filter(event=event).count()
    monkeypatch.setattr(standings, "prune", lambda event_id: 0)  # counted, not pruned
    burst = []

    def burst_of_saves():
        if burst:
            return
        for i, match in enumerate(matches[:4]):  # while the first recompute runs
            _save(match, director, [i % 2, 1 - i % 2])
        burst.append(True)

    assert standings.recompute(event.pk, after_compute=burst_of_saves) is True
    assert [kw["countdown"] for _, kw in calls] == [0, standings.conf.ARBITER_STANDINGS_DELAY]
    event.refresh_from_db()
    assert event.standings_version == event.results_version  # the burst is published
    assert event.outlook_version == event.standings_version
    # two snapshots: the first save's, and one for the whole burst
    assert StandingsSnapshot.objects.filter(event=event).count() == snapshots + 2
    # the delayed task finds nothing left to do
    assert tasks.recompute_standings(event.pk, event.results_version) is False
    # and once nothing runs, a lone save waits for nothing again
    _save(matches[1], director, [1, 0])
    assert calls[-1][1]["countdown"] == 0


def test_a_recompute_killed_mid_way_does_not_make_later_saves_wait_forever(
    monkeypatch, director, event
):
    calls = _sent(monkeypatch)
    from django.core.cache import cache

    cache.set(standings._running_key(event.pk), 1, timeout=1)  # a dead worker's marker
    _save(Match.objects.filter(round__event=event).first(), director, [1, 0])
    assert calls[-1][1]["countdown"] == standings.conf.ARBITER_STANDINGS_DELAY  # still sent
    assert standings.RUNNING_MARKER_SECONDS <= 120


def test_eager_tasks_without_redis_publish_at_once(settings, director, event):
    """No broker, no Redis (the default local setup): a save publishes its standings and
    their outlook before the request ends."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    match = Match.objects.filter(round__event=event).first()
    _save(match, director, [0, 1])
    event.refresh_from_db()
    assert event.standings_version == event.results_version == event.outlook_version


def test_the_sweep_finds_an_outlook_lost_with_its_worker(monkeypatch, director, event):
    """A worker killed between publishing the standings and attaching their outlook: the
    sweep sends the task again, which attaches it."""
    calls = _sent(monkeypatch)
    _save(Match.objects.filter(round__event=event).first(), director, [1, 0])
    assert standings.publish_standings(event.pk) is True  # ... and the worker dies here
    event.refresh_from_db()
    assert event.outlook_version < event.standings_version == event.results_version
    assert standings.lagging_events() == [(event.pk, event.results_version)]
    assert tasks.sweep_standings() == 1
    (event_id, version), _ = calls[-1]
    assert tasks.recompute_standings(event_id, version) is False  # no new standings ...
    event.refresh_from_db()
    assert event.outlook_version == event.standings_version  # ... their outlook attached
    assert standings.lagging_events() == []
