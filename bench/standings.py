"""Standings recompute bench (issue 24, item 1): a WOC Swiss after 13 rounds.

    DATABASE_URL=postgres://... .venv/bin/python -m bench.standings [sizes] [--engine-only]

``sizes`` is a comma-separated list (default ``1000,10000``). For each size it builds a WOC
Swiss record of 13 completed rounds (``bench.woc_pairing.event``: greedy pairings by points,
random disc counts) and prints, best of ``BENCH_REPEAT`` (3) runs, wall and CPU seconds of:

- engine: ``WocEngine.standings`` alone, every tiebreak (points, BQ, discs, lot);
- contention: ``rules.contention.contention`` given those standings (what the task adds);
- recompute: ``services.standings.refresh`` on the event imported into the database (load
  the state, engine, contention, store the snapshot), each run on a fresh results version.

With ``--incremental`` it prints, per format at its largest realistic size, the engine's
whole standings against ``standings_after`` for one changed match (issue 33, item 1: a
result entered in the open round, then corrected; CPU seconds, best of ``BENCH_REPEAT``,
the collector off): WOC 10,000 after 13 rounds, the bench's round robin (1,000 entrants, 5
rounds played, bench/event.py), a round robin of 100 half-way, GokoDom 500 in its Swiss
portion.

The engine is timed with the cyclic collector on and off (the refresh turns it off).
Without ``--engine-only`` it needs a migrated PostgreSQL database in DATABASE_URL (the
event is imported there under a fresh slug and deleted afterwards; ``BENCH_KEEP=1`` keeps
it as ``bench-standings-<size>`` and reuses it on the next run: the import of 10,000
entrants takes minutes). Then, unless ``--no-reuse``, the table of
``bench/contention.py --reuse``: the contention after one more result, afresh and reusing
the previous outlook, per format at its largest size. It never fails a build.
"""

from __future__ import annotations

import functools
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


def _with_games(state: Any, number: int, code: str, games: Any, details: Any = None) -> Any:
    rounds = []
    for rnd in state.rounds:
        if rnd.number == number:
            matches = tuple(
                replace(m, games=games, details=m.details if details is None else details)
                if m.code == code
                else m
                for m in rnd.matches
            )
            rnd = replace(rnd, matches=matches)
        rounds.append(rnd)
    return replace(state, rounds=tuple(rounds))


def round_robin_bench_state(entrants: int = 1000, played: int = 5) -> Any:
    """bench/event.py's event file as the engine's state (the same draw and results)."""
    from bench.event import event_file
    from rules.contract import (
        EntrantState,
        EventState,
        GameState,
        MatchState,
        Participant,
        RoundState,
        RoundStatus,
    )

    data = event_file("bench", entrants, played)
    people = tuple(
        EntrantState(str(p["number"]), p["name"], rating=p["rating"]) for p in data["entrants"]
    )
    rounds = tuple(
        RoundState(
            r["number"],
            r["label"],
            RoundStatus(r["status"]),
            tuple(
                MatchState(
                    m["code"],
                    r["number"],
                    tuple(Participant(str(p["entrant"]), p["role"]) for p in m["participants"]),
                    tuple(GameState(g["number"], tuple(g["scores"])) for g in m["games"]),
                    table=m["table"],
                )
                for m in r["matches"]
            ),
        )
        for r in data["rounds"]
    )
    return EventState("round_robin", data["event"]["settings"], people, rounds)


def incremental_cases() -> list[tuple[str, Any, Any, list[Any]]]:
    """(what, engine, state, the states after each change of one match, in turn)."""
    import random

    from bench.woc_pairing import event
    from rules.contract import GameState, RoundStatus
    from rules.formats.gokodom import ENGINE as GOKODOM
    from rules.formats.gokodom.simulate import simulate as season
    from rules.formats.round_robin import ENGINE as ROUND_ROBIN
    from rules.formats.round_robin.simulate import simulate as round_robin
    from rules.formats.woc import ENGINE as WOC

    cases = []
    woc = event(10_000, ROUNDS, 10_000)
    last = woc.rounds[-1]
    woc = replace(
        woc,
        rounds=(*woc.rounds[:-1], replace(last, status=RoundStatus.PUBLISHED)),
    )
    woc_match = next(m for m in last.matches if not m.is_bye)
    woc_steps = [
        _with_games(woc, last.number, woc_match.code, (GameState(1, scores),))
        for scores in ((40, 24), (20, 44), (32, 32))
    ]
    cases.append(("WOC 10,000, 13 rounds", WOC, woc, woc_steps))
    for size, played in ((1000, 5), (100, 50)):
        if size == 1000:
            rr = round_robin_bench_state(size, played)
        else:
            whole = round_robin(size, random.Random(1))
            rr = replace(whole, rounds=whole.rounds[: played + 1])
            open_round = replace(
                rr.rounds[-1],
                status=RoundStatus.PUBLISHED,
                matches=tuple(replace(m, games=()) for m in rr.rounds[-1].matches),
            )
            rr = replace(rr, rounds=(*rr.rounds[:-1], open_round))
        open_round = rr.rounds[-1]
        match = next(m for m in open_round.matches if not m.is_bye)
        steps = [
            _with_games(rr, open_round.number, match.code, (GameState(1, scores),))
            for scores in ((1, 0), (0, 1), (0.5, 0.5))
        ]
        what = f"round robin {size:,}, {played} rounds played" + (
            " (bench/event.py)" if size == 1000 else ""
        )
        cases.append((what, ROUND_ROBIN, rr, steps))
    goko = season(500, random.Random(1)).state
    swiss = [r for r in goko.rounds if r.stage == "swiss"]
    goko = replace(goko, rounds=tuple(swiss[:-2]))
    last = goko.rounds[-1]
    goko_match = next(m for m in last.matches if not m.is_bye and m.games)
    goko_steps = [
        _with_games(goko, last.number, goko_match.code, (), {"results": results})
        for results in (
            dict.fromkeys(goko_match.entrant_ids, "D"),
            {e: "W" if i == 0 else "L" for i, e in enumerate(goko_match.entrant_ids)},
            {e: "L" if i == 0 else "W" for i, e in enumerate(goko_match.entrant_ids)},
        )
    ]
    cases.append(("GokoDom 500, Swiss portion", GOKODOM, goko, goko_steps))
    return cases


def _whole(kind: Any, state: Any) -> Any:
    return kind().standings(state)  # a fresh engine: WOC keeps the last state's list


def _work(kind: Any, state: Any) -> Any:
    return kind().standings_work(state)


def incremental_rows() -> list[tuple[str, str, float, float, float | None]]:
    """(format and size, check, CPU s of the whole standings, of the whole with its work
    (``standings_work``), of ``standings_after``) per case; the last is None where the
    engine has no path for the change."""
    rows = []
    for what, engine, state, steps in incremental_cases():
        gc.disable()
        try:
            whole = best(functools.partial(_whole, type(engine), steps[0]))[1]
            kept = best(functools.partial(_work, type(engine), steps[0]))[1]
            _, work = engine.standings_work(state)
            times = []
            same = True
            before = state
            for after in steps:
                match = {
                    (r.number, m.code)
                    for r, r0 in zip(after.rounds, before.rounds, strict=True)
                    for m, m0 in zip(r.matches, r0.matches, strict=True)
                    if m != m0
                }
                cpu = time.process_time()
                out = engine.standings_after(work, after, frozenset(match))
                times.append(time.process_time() - cpu)
                if out is None:
                    times = []
                    break
                standings, work = out
                same = same and standings == type(engine)().standings(after)
                before = after
        finally:
            gc.enable()
        after = min(times) if times else None
        rows.append((what, "equal" if same else "DIFFERS", whole, kept, after))
    return rows


def main(argv: list[str]) -> None:
    if "--incremental" in argv:
        print(f"Incremental standings (one changed match), CPU s, best of {REPEAT}; load "
              f"average {os.getloadavg()[0]:.1f}")  # fmt: skip
        print(f"| {'format, size':<52} | {'whole':>7} | {'work':>7} | {'after':>7} | check   |")
        print(f"| {'-' * 52} | {'-' * 7} | {'-' * 7} | {'-' * 7} | {'-' * 7} |")
        for what, same, whole, kept, after in incremental_rows():
            shown = f"{after:7.3f}" if after is not None else f"{'none':>7}"
            print(f"| {what:<52} | {whole:7.3f} | {kept:7.3f} | {shown} | {same:<7} |", flush=True)
        return
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
