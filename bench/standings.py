"""Standings recompute bench (issue 24, item 1): a WOC Swiss after 13 rounds.

    DATABASE_URL=postgres://... .venv/bin/python -m bench.standings [sizes] [--engine-only]

``sizes`` is a comma-separated list (default ``1000,10000``). For each size it builds a WOC
Swiss record of 13 completed rounds (``bench.woc_pairing.event``: greedy pairings by points,
random disc counts) and prints, best of ``BENCH_REPEAT`` (3) runs, wall and CPU seconds of:

- engine: ``WocEngine.standings`` alone, every tiebreak (points, BQ, discs, lot);
- contention: ``rules.contention.contention`` given those standings (what the task adds);
- recompute: ``services.standings.refresh`` on the event imported into the database (load
  the state, engine, contention, store the snapshot), each run on a fresh results version.

The engine is timed with the cyclic collector on and off (the refresh turns it off).
Without ``--engine-only`` it needs a migrated PostgreSQL database in DATABASE_URL (the
event is imported there under a fresh slug and deleted afterwards; ``BENCH_KEEP=1`` keeps
it as ``bench-standings-<size>`` and reuses it on the next run: the import of 10,000
entrants takes minutes). Then, unless ``--no-reuse``, the table of
``bench/contention.py --reuse``: the contention after one more result, afresh and reusing
the previous outlook, per format at its largest size. It never fails a build.
"""

from __future__ import annotations

import gc
import os
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any

ROUNDS = 13
REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))


def best(call: Callable[[], Any], repeat: int = REPEAT) -> tuple[float, float]:
    """(wall, CPU) seconds of the fastest of ``repeat`` calls."""
    runs = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(runs)


def paused(call: Callable[[], Any]) -> Callable[[], Any]:
    """``call`` with the cyclic collector off, as the standings refresh runs it."""

    def run() -> Any:
        gc.disable()
        try:
            return call()
        finally:
            gc.enable()

    return run


def engine_rows(size: int) -> tuple[Any, list[tuple[str, float, float]]]:
    from bench.woc_pairing import event
    from rules.contention import contention
    from rules.formats.woc import ENGINE
    from rules.formats.woc.engine import WocEngine

    state = event(size, ROUNDS, size)
    standings = ENGINE.standings(state)

    def rank() -> Any:
        # a fresh engine each time: the engine keeps the last state's provisional list
        return WocEngine().standings(state)

    finals = replace(state, settings={})  # the final stages on: the contention's progress
    ranked = ENGINE.standings(finals)
    rows = [
        ("engine standings, collector on", *best(rank)),
        ("engine standings, collector off", *best(paused(rank))),
        ("contention, given the standings", *best(paused(lambda: contention(state, standings)))),
        ("  the same, final stages on", *best(paused(lambda: contention(finals, ranked)))),
    ]
    return state, rows


def recompute_row(state: Any, size: int) -> list[tuple[str, float, float]]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from unittest import mock

    from django.db.models import F

    from tournaments.models import Event, MatchParticipant
    from tournaments.services import eventfile, standings
    from tournaments.simulation import to_event_file

    keep = os.environ.get("BENCH_KEEP", "") == "1"
    slug = f"bench-standings-{size}" if keep else f"bench-standings-{uuid.uuid4().hex[:8]}"
    event = Event.objects.filter(slug=slug).first()
    rows = []
    if event is None:
        started = time.perf_counter()
        data = to_event_file(state, slug=slug, name=f"Bench standings ({size:,})")
        with mock.patch("tournaments.services.standings.schedule_recompute"):
            event = eventfile.import_event(data, by=None, limited=False)
        rows.append(("import (setup, once)", time.perf_counter() - started, 0.0))
    try:

        def one() -> None:
            Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
            version = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
            assert standings.refresh(event.pk, version)

        rows.append(("recompute (load+engine+contention+store)", *best(one)))
        loaded = best(lambda: standings.record_state(Event.objects.get(pk=event.pk)))
        rows.append(("  of which load_event_state", *loaded))
    finally:
        if not keep:
            MatchParticipant.objects.filter(match__round__event=event).delete()
            Event.objects.filter(pk=event.pk).delete()
    return rows


def main(argv: list[str]) -> None:
    engine_only = "--engine-only" in argv
    args = [a for a in argv if not a.startswith("--")]
    sizes = [int(s) for s in (args[0] if args else "1000,10000").split(",")]
    print(f"WOC Swiss, {ROUNDS} rounds played; best of {REPEAT}; load average "
          f"{os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"| {'entrants':>8} | {'what':<42} | {'wall s':>7} | {'CPU s':>7} |")
    print(f"| {'-' * 8} | {'-' * 42} | {'-' * 7} | {'-' * 7} |")
    for size in sizes:
        state, rows = engine_rows(size)
        if not engine_only:
            rows += recompute_row(state, size)
        for what, wall, cpu in rows:
            print(f"| {size:>8,} | {what:<42} | {wall:7.3f} | {cpu:7.3f} |", flush=True)
    if "--no-reuse" not in argv:
        from bench.contention import reuse_table

        print()
        reuse_table()  # contention after one result, afresh and with reuse (issue 33)


if __name__ == "__main__":
    main(sys.argv[1:])
