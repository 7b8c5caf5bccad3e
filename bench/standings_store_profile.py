"""Where the standings part of a saved result goes at 10,000 entrants (issue 33): the
engine, each SQL statement of the store, and the commit, timed one by one.

    BENCH_DATABASE_URL=... python -m bench.standings_store_profile [SAVES]

Runs on the WOC 10,000 event that `BENCH_KEEP=1 python -m bench.latency woc:10000` keeps
(build it with that first). In this process, without a worker: a result is corrected
(its last game reversed), then standings.publish_standings runs as the worker's would,
from what the process kept of the last one. Printed per save: the whole publish, its
SQL statements over 5 ms, and the commit; --profile: the last publish's
Python profile too; --spread: the matches corrected in turn from board 1, as
bench.latency does (else the last three boards')."""

from __future__ import annotations

import cProfile
import os
import pstats
import statistics
import sys
import time
from contextlib import contextmanager


def main(saves: int, profile: bool = False, spread: bool = False) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or os.environ["DATABASE_URL"]
    import django

    django.setup()
    from unittest import mock

    from django.db import connection

    from bench.latency import _candidates, _games, _slug
    from tournaments.models import Event
    from tournaments.services import results, standings

    event = Event.objects.get(slug=_slug("woc", 10000))
    statements: list[tuple[float, str]] = []

    def timed(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.append((time.perf_counter() - started, sql))

    commit_times: list[float] = []
    original_commit = connection.commit

    def commit() -> None:
        started = time.perf_counter()
        original_commit()
        commit_times.append(time.perf_counter() - started)

    @contextmanager
    def watched():
        statements.clear()
        commit_times.clear()
        with connection.execute_wrapper(timed), mock.patch.object(connection, "commit", commit):
            yield

    quiet = mock.patch("tournaments.services.standings.schedule_recompute")
    event.refresh_from_db()
    if event.standings_version < event.results_version:
        standings.refresh(event.pk, event.results_version)
    # the first publish after a start is the whole way: it fills what the process keeps
    match = _candidates(event)[-1]
    with quiet:
        results.record(match, _games(match, None), expected_version=match.version, by=None)
    standings.publish_standings(event.pk)
    whole: list[float] = []
    commits: list[float] = []
    print(f"load average {os.getloadavg()[0]:.2f}; {saves} saves, one by one")
    candidates = [m for m in _candidates(event) if m.result]
    for n in range(saves):
        # --spread: the matches in turn from board 1, as bench.latency corrects them (a
        # top board's reversed game moves its players past hundreds of rows)
        match = candidates[n % len(candidates)] if spread else candidates[-1 - n % 3]
        match.refresh_from_db()
        with quiet:
            results.record(match, _games(match, None), expected_version=match.version, by=None)
        with watched():
            started = time.perf_counter()
            if profile and n == saves - 1:
                profiler = cProfile.Profile()
                profiler.runcall(standings.publish_standings, event.pk)
            else:
                assert standings.publish_standings(event.pk)
            whole.append(time.perf_counter() - started)
        commits.append(sum(commit_times))
        slow = [(t, s) for t, s in statements if t > 0.005]
        sql = sum(t for t, _ in statements)
        print(
            f"save {n + 1}: publish {whole[-1] * 1000:.0f} ms, SQL {sql * 1000:.0f} ms in "
            f"{len(statements)} statements, commit {commits[-1] * 1000:.0f} ms"
        )
        for t, s in slow:
            print(f"    {t * 1000:6.1f} ms  {' '.join(s.split())[:110]}")
        standings.attach_outlook(event.pk)
    if profile:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    print(
        f"publish median {statistics.median(whole) * 1000:.0f} ms, max {max(whole) * 1000:.0f}"
        f" ms; commit median {statistics.median(commits) * 1000:.0f} ms;"
        f" load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(
        int(args[0]) if args else 8,
        profile="--profile" in sys.argv,
        spread="--spread" in sys.argv,
    )
