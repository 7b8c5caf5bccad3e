"""A result save in every format on a large event (issue 24, item 3).

    python -m bench.saves [ENTRANTS]      (1,000 by default; `make bench` runs it)

For each format, a simulated event of ENTRANTS entrants (fewer where the format caps it: a
Freestyle event takes 16 to 32 players; a round robin plays every pair, so 100) is
imported halfway through its rounds; then 20 matches of the open round are saved again
through results.record, each in a transaction rolled back, and timed (the events stay,
under fresh slugs: use a scratch database). Beside it, the time to load the whole event,
which is what a save cost before each format scored a match from its frame alone
(rules/scoring_frame.py). Prints median and worst wall seconds; never fails a build.
Database: BENCH_DATABASE_URL, else DATABASE_URL (PostgreSQL), else a fresh SQLite file;
REDIS_URL (database 13 of a local Redis by default) receives the imports' queued refreshes.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

SIZES = {
    "woc": 1000,
    "gokodom": 1000,
    "wpf_playoffs": 1000,
    "freestyle": 32,  # the format takes 16 to 32 players
    "bot_contest": 1000,
    "round_robin": 100,
}


def _setup() -> None:
    database = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if not database:
        database = f"sqlite:///{Path(tempfile.mkdtemp()) / 'saves.sqlite3'}"
    os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # the import's standings refresh is queued for a worker that never comes, not run here:
    # the bench times saves (rolled back, so they enqueue nothing)
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "false")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main(entrants: int) -> None:
    _setup()
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tournaments import simulation
    from tournaments.models import Match, Round
    from tournaments.services import results
    from tournaments.services.eventfile import import_event
    from tournaments.services.state import load_event_state

    director, _ = get_user_model().objects.get_or_create(username="bench-saves")
    print(f"{'format':14} {'entrants':>8} {'save median':>12} {'save worst':>11}", end="")
    print(f" {'whole load':>11}")
    for key, cap in SIZES.items():
        size = min(cap, entrants)
        slug = f"bench-saves-{key}-{uuid.uuid4().hex[:8]}"
        pure = simulation.simulate(key, size, seed=3)
        during = simulation.cut(pure, max(1, len(pure.rounds) // 2))
        event = import_event(simulation.to_event_file(during, slug=slug, name=key), by=None)
        rnd = Round.objects.filter(event=event).order_by("-number").first()
        matches = [m for m in Match.objects.filter(round=rnd).order_by("order") if m.games.exists()]
        times = []
        for match in matches[:20]:
            games = results.games_json(match)
            with transaction.atomic():
                started = time.perf_counter()
                results.record(
                    match, games, expected_version=match.version, by=director, reason="bench"
                )
                times.append(time.perf_counter() - started)
                transaction.set_rollback(True)
        started = time.perf_counter()
        load_event_state(event)
        whole = time.perf_counter() - started
        if not times:
            print(f"{key:14} {size:>8} {'no match with games in the open round':>36}")
            continue
        print(
            f"{key:14} {size:>8} {statistics.median(times):>11.3f}s {max(times):>10.3f}s "
            f"{whole:>10.3f}s"
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
