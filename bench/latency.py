"""Saved result -> public standings, per format at its largest realistic size (issue 33).

    python -m bench.latency [FORMAT[:SIZE] ...]      (`make bench` runs it with no argument)

For each format (WOC 10,000, round robin 100 and the bench's 1,000, GokoDom 500, Freestyle
28, bot contest 200, WPF 16), an event is imported halfway through its rounds; then,
with Redis, a real Celery worker and gunicorn, BENCH_SAVES (20) results are saved one at a
time, each through results.record in this process as a director's save commits it. The
clock starts at the commit and stops once the public standings page, fetched as
bench/__main__.py's latency() does (the version endpoint polled, then the page), shows the
new standings. The next save waits for the outlook of the last one (a director types a
result every few seconds, not back to back), and BENCH_GAP (1) seconds more, as the worker
renders the new tables for the pages then. Printed per format: the latency's p50 and
p95, the standings part (the worker's own time from reading the event to the committed
snapshot, from its log), the outlook's time after it, and how many refreshes went the
incremental way; under each line, the standings part's phases (the record read and the
standings computed, the snapshot stored, the commit with its hooks). A first save, not
counted (neither its latency nor its publication in the worker's log), warms the worker.
Never fails a build.

Open matches get their simulated result (on a kept event, the games of a played match of
the round); once none is left, a result is corrected (its games reversed), so a kept
event serves again. BENCH_KEEP=1 keeps each event (under a
slug naming the format and size) and reuses it on the next run: the WOC 10,000 event
takes minutes to simulate and import. PostgreSQL: BENCH_DATABASE_URL, else DATABASE_URL;
Redis: REDIS_URL (default: database 14 of a local one). BENCH_WORKERS: gunicorn workers (2).
On a server with autovacuum off, the standings tables are vacuumed before the saves (what
autovacuum does elsewhere); the database's size is printed at the end.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from bench.__main__ import ROOT, _get, _redis_url, gunicorn

CASES = [
    ("woc", 10000),
    ("round_robin", 100),
    ("round_robin", 1000),  # the bench's own event (bench/event.py)
    ("gokodom", 500),
    ("freestyle", 28),
    ("bot_contest", 200),
    ("wpf_playoffs", 16),
]
PUBLISHED = re.compile(
    r"standings of event (\d+) v(\d+) published in ([\d.]+) s \(([^;)]*)(?:; (.*))?\)"
)
PHASE = re.compile(r"(\w+) ([\d.]+)")
OUTLOOK = re.compile(r"outlook of event (\d+) v(\d+) attached in ([\d.]+) s")


def _environment() -> dict[str, str]:
    database = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        raise SystemExit("bench.latency needs PostgreSQL: set BENCH_DATABASE_URL")
    redis_url = _redis_url()
    if not redis_url:
        raise SystemExit("bench.latency needs Redis: set REDIS_URL")
    tag = uuid.uuid4().hex[:8]
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "ARBITER_VAR_DIR": tempfile.mkdtemp(prefix="arbiter-bench-"),
        "DATABASE_URL": database,
        "REDIS_URL": redis_url,
        "ARBITER_CACHE_PREFIX": f"bench-{tag}",
        "CELERY_QUEUE": f"bench-{tag}",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "ARBITER_LOG_LEVEL": "INFO",
    }


@contextmanager
def worker(env: dict[str, str], log: Path):
    """A real Celery worker (one process: what it keeps of an event serves each save)."""
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             "--without-gossip", "--without-mingle", "--loglevel=INFO"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            time.sleep(4)
            yield
        finally:
            proc.terminate()
            proc.wait(30)


def _slug(key: str, size: int) -> str:
    return f"latency-{key.replace('_', '-')}-{size}"


def build(key: str, size: int, keep: bool):
    """The event of ``key`` at ``size``, halfway through; kept from a last run if asked."""
    from unittest import mock

    from tournaments import simulation
    from tournaments.models import Event
    from tournaments.services import standings
    from tournaments.services.eventfile import import_event

    slug = _slug(key, size)
    found = Event.objects.filter(slug=slug).first()
    if found is not None and keep:
        return found, None, 0.0
    if found is not None:
        _delete(found)
    started = time.monotonic()
    if key == "round_robin" and size == 1000:
        from bench.event import event_file

        pure = None
        data = event_file(slug, size, 5)
    else:
        pure = simulation.simulate(key, size, seed=33)
        during = simulation.cut(pure, max(1, len(pure.rounds) // 2))
        data = simulation.to_event_file(during, slug=slug, name=f"{key} {size}")
    with mock.patch("tournaments.services.standings.schedule_recompute"):
        event = import_event(data, by=None)
    standings.refresh(event.pk, event.results_version)
    return event, pure, time.monotonic() - started


def _delete(event) -> None:
    """An event and its matches (an entrant is protected while a match names it)."""
    from tournaments.models import MatchParticipant

    MatchParticipant.objects.filter(match__round__event=event).delete()
    event.delete()


def _games(match, pure, played=None) -> list[dict]:
    from tournaments.services import results
    from tournaments.services.state import jsonable  # (a simulation's Fractions as numbers)

    if pure is not None and not match.result:
        for rnd in pure.rounds:
            if rnd.number != match.round.number:
                continue
            for m in rnd.matches:
                if m.code == match.code and m.games:
                    return [
                        {"number": g.number, "scores": jsonable(g.scores), "first": g.first,
                         "ending": str(g.ending), "details": dict(g.details)}
                        for g in m.games
                    ]  # fmt: skip
    if not match.result and pure is None and played is not None:
        # a kept event (no simulation at hand): the games of a played match of the round,
        # which the format accepts
        return results.games_json(played)
    if not match.result and pure is None:
        return [{"scores": [1, 0]}]  # the bench's round robin: one game won
    games = results.games_json(match)
    if games:
        games[-1]["scores"] = list(reversed(games[-1]["scores"]))
    return games


def _candidates(event):
    """The open round's two-sided matches: those without a result first."""
    from tournaments.models import Match, Round

    rnd = (
        Round.objects.filter(event=event)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    matches = [
        m
        for m in Match.objects.filter(round=rnd).select_related("round").order_by("order")
        if m.participants.count() == 2
    ]
    return sorted(matches, key=lambda m: bool(m.result))


def _wait(base: str, event, field: str, version: int, limit: float = 120) -> bool:
    """Poll the public version endpoint until ``field`` reaches ``version``; a format that
    hides its results from the public meanwhile (WPF's playoffs) says no versions there:
    the database is asked instead."""
    from tournaments.models import Event

    started = time.monotonic()
    while time.monotonic() - started < limit:
        info = json.loads(_get(f"{base}/e/{event.slug}/version"))
        if field not in info:
            info = Event.objects.filter(pk=event.pk).values(field).get()
        if info[field] >= version:
            return True
        time.sleep(0.02)
    return False


def measure(event, pure, base: str, saves: int, gap: float = 1.0) -> tuple[list[float], int]:
    """The counted saves' delays, and the results version of the warm-up save (its
    publication in the worker's log is not counted either)."""
    from tournaments.models import Event, Match
    from tournaments.services import results
    from tournaments.services.errors import ServiceError

    delays = []
    candidates = _candidates(event)
    if not candidates:
        return delays, 0
    played = next((m for m in candidates if m.result), None)
    turn = 0
    warm = 1  # the first save warms the worker (its modules, its kept state): not counted
    warm_version = 0
    for _ in range(saves * 3 + warm):
        if len(delays) >= saves + warm:
            break
        match = Match.objects.select_related("round").get(pk=candidates[turn % len(candidates)].pk)
        turn += 1
        games = _games(match, pure, played)
        if not games:
            continue
        try:
            results.record(match, games, expected_version=match.version, by=None, reason="bench")
        except ServiceError:
            continue  # a correction the format refuses (a knockout's decided tie): the next
        started = time.monotonic()
        version = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
        if len(delays) < warm:
            warm_version = version
        if _wait(base, event, "standings_version", version):
            _get(f"{base}/e/{event.slug}/standings/")
            delays.append(time.monotonic() - started)
        _wait(base, event, "outlook_version", version)
        time.sleep(gap)  # the next director's save comes a moment later, not back to back
    return delays[warm:], warm_version


def _parse(
    log: Path, event_id: int, phases: dict[str, list[float]] | None = None, after: int = 0
) -> tuple[list[float], list[float], int, int]:
    """The standings parts, the outlooks and how many refreshes went each way, from the
    worker's log, of the results versions above ``after`` (the warm-up save's, like its
    latency, not counted: its whole recompute would be the largest part of every run);
    ``phases`` gets each phase's times (compute, store, commit)."""
    parts, outlooks, incremental, whole = [], [], 0, 0
    for line in log.read_text(errors="replace").splitlines():
        found = PUBLISHED.search(line)
        if found and int(found.group(1)) == event_id and int(found.group(2)) > after:
            parts.append(float(found.group(3)))
            if phases is not None:
                for name, seconds in PHASE.findall(found.group(5) or ""):
                    phases.setdefault(name, []).append(float(seconds))
            if found.group(4) == "whole":
                whole += 1
            else:
                incremental += 1
        found = OUTLOOK.search(line)
        if found and int(found.group(1)) == event_id and int(found.group(2)) > after:
            outlooks.append(float(found.group(3)))
    return parts, outlooks, incremental, whole


def _p(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main(cases: list[tuple[str, int]]) -> None:
    env = _environment()
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    keep = os.environ.get("BENCH_KEEP") == "1"
    saves = int(os.environ.get("BENCH_SAVES", "20"))
    workers = int(os.environ.get("BENCH_WORKERS", "2"))
    log = Path(env["ARBITER_VAR_DIR"]) / "worker.log"
    print(
        f"saved result -> public standings: Redis, one Celery worker (solo), gunicorn "
        f"{workers} workers, PostgreSQL; {saves} saves each; load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(
        f"| {'format':<13} | {'entrants':>8} | {'p50 s':>6} | {'p95 s':>6} | {'standings p50':>13} "
        f"| {'standings p95':>13} | {'outlook p50':>11} | incremental | built s |"
    )
    print("|" + "|".join("-" * width for width in (15, 10, 8, 8, 15, 15, 13, 13, 9)) + "|")
    for key, size in cases:
        event, pure, built = build(key, size, keep)
        _vacuum()
        with gunicorn(env, workers, ARBITER_PAGE_CACHE="1") as base, worker(env, log):
            _get(f"{base}/e/{event.slug}/standings/")
            delays, warm_version = measure(
                event, pure, base, saves, float(os.environ.get("BENCH_GAP", "1"))
            )
        phases: dict[str, list[float]] = {}
        parts, outlooks, incremental, whole = _parse(log, event.pk, phases, after=warm_version)
        if not delays:
            print(f"| {key:<13} | {size:>8} | no save could be measured |")
            continue
        print(
            f"| {key:<13} | {size:>8} | {statistics.median(delays):>6.3f} "
            f"| {_p(delays, 0.95):>6.3f} "
            f"| {statistics.median(parts) if parts else 0:>13.3f} "
            f"| {_p(parts, 0.95) if parts else 0:>13.3f} "
            f"| {statistics.median(outlooks) if outlooks else 0:>11.3f} "
            f"| {incremental:>4} of {incremental + whole:<4} | {built:>7.0f} |",
            flush=True,
        )  # fmt: skip
        if phases:
            line = ", ".join(
                f"{name} {statistics.median(times):.3f} / {_p(times, 0.95):.3f}"
                for name, times in phases.items()
            )
            print(f"|   standings part's phases, p50 / p95 s: {line}", flush=True)
        if not keep:
            _delete(event)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(_database_size())


def _vacuum() -> None:
    """The standings tables vacuumed before the saves, as autovacuum keeps them on a server
    where it runs (PostgreSQL's default; a server with it off keeps every dead row of
    every snapshot replaced, copied and pruned, and each copy reads past them), and every
    table analyzed, as autovacuum does after a load: with no statistics of the 30,000
    matches just built the planner read a whole round's index to find one changed match."""
    from django.db import connection

    from tournaments.models import StandingsRow, StandingsSnapshot

    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        if cursor.fetchone()[0] == "on":
            return
        for model in (StandingsRow, StandingsSnapshot):
            cursor.execute(f"VACUUM (ANALYZE) {connection.ops.quote_name(model._meta.db_table)}")
        cursor.execute("ANALYZE")


def _database_size() -> str:
    from django.db import connection

    from tournaments.models import StandingsRow, StandingsSnapshot

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_size_pretty(pg_database_size(current_database())), "
            "pg_size_pretty(pg_total_relation_size(%s)), "
            "(SELECT count(*) FROM "
            + connection.ops.quote_name(StandingsSnapshot._meta.db_table)
            + "), (SELECT count(*) FROM "
            + connection.ops.quote_name(StandingsRow._meta.db_table)
            + "), current_setting('autovacuum')",
            [StandingsRow._meta.db_table],
        )
        size, rows_size, snapshots, rows, autovacuum = cursor.fetchone()
    return (
        f"database {size} after (standings rows {rows_size}): {snapshots} snapshots, "
        f"{rows} rows; autovacuum {autovacuum}"
    )


def _cases(argv: list[str]) -> list[tuple[str, int]]:
    if not argv:
        return CASES
    chosen = []
    for arg in argv:
        key, _, size = arg.partition(":")
        sizes = [s for k, s in CASES if k == key]
        chosen += [(key, int(size))] if size else [(key, s) for s in sizes]
    return chosen


if __name__ == "__main__":
    main(_cases(sys.argv[1:]))
