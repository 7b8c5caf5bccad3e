"""The standings pipeline when its machines fail (docs/reliability.md):

- ``worker_kills``: results saved one after another, each followed by the real worker's
  recompute; now and then the worker is killed with -9 in the middle of one (after it
  computed, before it published) and a new worker started. The killed task must come back
  (acks late) and the published standings must end equal to a clean computation.
- ``redis_outage``: gunicorn, a worker and beat running; the private Redis killed (its port
  refuses) while a director saves results over HTTP and visitors read the public pages;
  then Redis started again, empty. Every save must be accepted, every page served, and no
  event's standings may lag its results ``wait`` seconds after Redis is back, with nobody
  calling the sweep: beat sends it, the worker runs it.

Used by tests/reliability/test_broker_faults.py and bench/reliability.py.
"""

from __future__ import annotations

import random
import re
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bench.stack import Browser, Stack, sending_to, session_of, wait_for

SCORES = ([1, 0], [0, 1], [0.5, 0.5])
VERSION = re.compile(r'name="version" value="(\d+)"')


def open_round(slug: str, players: int, by: Any) -> Any:
    """A round robin event with its first round published, results still to enter."""
    from tournaments.services import events, rounds

    event = events.create_event(
        slug=slug, name=f"Reliability {slug}", format="round_robin", by=by, public=True
    )
    for i in range(players):
        events.add_entrant(event, name=f"Player {i + 1}", rating=2000 - i, by=by)
    rounds.publish_round(rounds.draft_next_round(event, by=by).round, by=by)
    return event


def current(event: Any) -> bool:
    event.refresh_from_db(fields=["results_version", "standings_version"])
    return event.standings_version >= event.results_version


def published_equals_clean(event: Any) -> bool:
    """The newest published snapshot, row by row (ranks, points, every tiebreak value),
    against the engine's standings computed now from the stored results, under the newest
    results version."""
    from tournaments.services import standings
    from tournaments.services.standings_rows import rows_of
    from tournaments.services.state import jsonable

    event.refresh_from_db()
    snapshot = standings.latest_published(event)
    if snapshot is None or snapshot.results_version != event.results_version:
        return False
    published = [
        (r.table_key, r.position, r.entrant.number, r.rank, r.points, r.values)
        for r in rows_of(snapshot).select_related("entrant").order_by("table_key", "position")
    ]
    clean = sorted(
        (t.key, position, int(row.entrant), row.rank, float(row.values["points"]),
         jsonable(row.values))
        for t in standings.compute(event).tables
        for position, row in enumerate(t.rows, start=1)
    )  # fmt: skip
    return published == clean


@dataclass
class Kills:
    recomputes: int = 0  # snapshots published during the run
    saves: int = 0
    kills: int = 0
    killed_mid_recompute: int = 0  # the killed worker had computed, not published
    back_after_kill: list[float] = field(default_factory=list)  # seconds to published
    equal_to_clean: bool = False
    seconds: float = 0.0


def worker_kills(stack: Stack, event: Any, by: Any, *, saves: int, kills: int) -> Kills:
    from tournaments.models import Match, StandingsSnapshot
    from tournaments.services import results

    arm, paused = stack.dir / "arm", stack.dir / "paused"
    env = {
        "ARBITER_TEST_STANDINGS_PAUSE": "120",
        "ARBITER_TEST_PAUSE_FILE": str(paused),
        "ARBITER_TEST_PAUSE_ARM": str(arm),
        "CELERY_VISIBILITY_TIMEOUT": "2",  # a killed worker's task comes back in seconds
        "CELERY_RESTORE_INTERVAL": "1",
        "ARBITER_STANDINGS_PRUNE": "0",  # its snapshots count the recomputes
    }
    kill_at = {saves * (k + 1) // (kills + 1) for k in range(kills)}
    matches = list(Match.objects.filter(round__event=event).order_by("pk"))
    rng = random.Random(11)
    found = Kills(saves=saves)
    before = StandingsSnapshot.objects.filter(event=event).count()
    started = time.monotonic()
    with sending_to(stack, ARBITER_STANDINGS_DELAY=0):
        worker = stack.worker("worker-0", **env)
        for i in range(saves):
            match = matches[i % len(matches)]
            match.refresh_from_db(fields=["version"])
            if i in kill_at:
                arm.touch()
                paused.unlink(missing_ok=True)
            results.record(
                match, [{"scores": rng.choice(SCORES)}], expected_version=match.version, by=by
            )
            if i in kill_at:
                wait_for(paused.exists, 60, "the worker to be in the middle of a recompute")
                worker.kill()  # -9: no warm shutdown, no ack
                arm.unlink()
                found.kills += 1
                found.killed_mid_recompute += not current(event)
                worker = stack.worker(f"worker-{found.kills}", **env)
                found.back_after_kill.append(
                    wait_for(lambda: current(event), 120, "the killed worker's task", 0.02)
                )
            else:
                wait_for(lambda: current(event), 60, "the worker to publish", 0.005)
    found.seconds = time.monotonic() - started
    found.recomputes = StandingsSnapshot.objects.filter(event=event).count() - before
    found.equal_to_clean = published_equals_clean(event)
    return found


@dataclass
class Outage:
    saves: int = 0
    saves_accepted: int = 0
    save_ms_median: float = 0.0
    save_ms_max: float = 0.0
    pages: int = 0
    pages_served: int = 0
    outage_seconds: float = 0.0
    stale_when_back: int = 0  # events whose standings lagged as Redis came back
    seconds_to_current: float | None = None  # after Redis came back, to 0 stale events
    stale_at_deadline: int = 0
    equal_to_clean: bool = False
    servers_alive: bool = False
    failures: list[str] = field(default_factory=list)


def redis_outage(
    stack: Stack, base: str, events: list[Any], by: Any, *, saves: int, wait: float
) -> Outage:
    """``stack`` serves ``base`` with a worker and beat running; ``by`` directs ``events``."""
    from django.urls import reverse

    from tournaments.models import Match

    browser = Browser(base, session_of(by))
    rows = [
        (event.slug, pk, version)
        for event in events
        for pk, version in Match.objects.filter(round__event=event)
        .order_by("pk")
        .values_list("pk", "version")
    ]
    versions = {pk: version for _, pk, version in rows}
    rng = random.Random(12)
    found = Outage(saves=saves)
    took = []
    ids = [event.pk for event in events]
    wait_for(lambda: all(current(e) for e in events), 60, "the standings before the outage")
    stack.stop_redis()
    down = time.monotonic()
    for i in range(saves):
        slug, pk, _ = rows[i % len(rows)]
        scores = rng.choice(SCORES)
        url = reverse("tournaments:manage_result", args=[slug, pk])
        data = {"version": versions[pk], "g1-s0": scores[0], "g1-s1": scores[1]}
        sent = time.monotonic()
        status, _, row = browser.post(url, data)
        took.append(time.monotonic() - sent)
        if status == 200 and 'data-saved="1"' in row:
            found.saves_accepted += 1
            versions[pk] = int(VERSION.search(row).group(1))
        else:
            found.failures.append(f"save {i}: HTTP {status}")
            versions[pk] = Match.objects.values_list("version", flat=True).get(pk=pk)
        if i % 10 == 0:
            for page in (f"/e/{slug}/", f"/e/{slug}/rounds/1/", f"/e/{slug}/standings/",
                         f"/e/{slug}/version"):  # fmt: skip
                found.pages += 1
                status, _, _ = Browser(base).get(page)
                if status == 200:
                    found.pages_served += 1
                else:
                    found.failures.append(f"{page}: HTTP {status}")
    found.save_ms_median = statistics.median(took) * 1000
    found.save_ms_max = max(took) * 1000
    found.stale_when_back = len(_lagging(ids))
    stack.start_redis()  # empty: whatever was queued is gone, as after a real restart
    found.outage_seconds = time.monotonic() - down
    try:
        found.seconds_to_current = wait_for(
            lambda: not _lagging(ids), wait, "0 stale events", step=0.2
        )
    except AssertionError as error:
        found.failures.append(str(error))
    found.stale_at_deadline = len(_lagging(ids))
    found.equal_to_clean = all(published_equals_clean(event) for event in events)
    found.servers_alive = all(p.alive for p in stack.processes)
    return found


def _lagging(ids: list[int]) -> list[int]:
    from django.db.models import F

    from tournaments.models import Event

    lagging = Event.objects.filter(pk__in=ids, standings_version__lt=F("results_version"))
    return list(lagging.values_list("pk", flat=True))
