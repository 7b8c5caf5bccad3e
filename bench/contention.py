"""Contention bench (issue 14): what "who can still win / qualify" adds to the standings task
at 1,000 entrants.

    PYTHONPATH=. .venv/bin/python bench/contention.py [entrants]

For each event (a WOC Swiss in the middle and in its last round with all but a few results in,
a round robin after two rounds, a GokoDom Swiss before its last round, and a Freestyle Round 1
at the format's own size with its exact method at its worst), it prints the seconds
of the engine's standings and of ``rules.contention.contention`` (best of three), the method the
package chose (exact or bound) and how many entrants are clinched, alive and eliminated. The
standings task runs both on the same state, so the second column is what contention adds. It
never fails a build.

    PYTHONPATH=. .venv/bin/python bench/contention.py --reuse

prints instead the CPU seconds of the contention after one more result, computed afresh and
with ``reuse`` (the previous outlook carried over, issue 33), at each format's largest
realistic size: the round robin of ``make bench`` (1,000 entrants, 5 rounds played, the 6th
open), a GokoDom Swiss of 500, a WOC Swiss of 10,000 (``bench.woc_pairing.event``, the
last round half in) and the Freestyle case above (28, exact at its worst).
``bench.standings`` prints the same table in ``make bench``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from rules import registry
from rules.contention import contention
from rules.contention.explore import append_round
from rules.contract import EventState, GameState, RoundPlan, RoundStatus
from rules.draws import DrawSource


def _best(call: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def _cut(state: EventState, rounds: int, pending: int) -> EventState:
    """The event during round ``rounds``: later rounds gone, that round published with the
    results of its last ``pending`` matches not yet in."""
    kept = list(state.rounds[:rounds])
    last = kept[-1]
    played = [m for m in last.matches if not m.is_bye]
    open_codes = {m.code for m in played[len(played) - pending :]} if pending else set()
    kept[-1] = replace(
        last,
        status=RoundStatus.PUBLISHED,
        matches=tuple(replace(m, games=()) if m.code in open_codes else m for m in last.matches),
    )
    return replace(state, rounds=tuple(kept))


def woc(entrants: int) -> list[tuple[str, EventState]]:
    from rules.formats.woc.simulate import field, play

    rng = random.Random(7)
    state = play(field(entrants, rng), rng, {"rounds": 3, "system": "swiss"})
    return [
        ("woc swiss, round 2 of 3, half in", _cut(state, 2, len(state.rounds[1].matches) // 2)),
        ("woc swiss, last round, 5 matches open", _cut(state, 3, 5)),
        ("woc swiss, last round, 1 match open", _cut(state, 3, 1)),
    ]


def round_robin(entrants: int) -> list[tuple[str, EventState]]:
    engine = registry.get("round_robin")
    rng = random.Random(5)
    from rules.contract import EntrantState

    people = tuple(EntrantState(str(n), f"Player {n:04d}") for n in range(1, entrants + 1))
    state = EventState("round_robin", {}, people)
    for _ in range(2):
        source = DrawSource("bench", state.draws)
        plan = engine.next_round(state, source)
        assert isinstance(plan, RoundPlan)
        state = append_round(state, plan, source)
        last = state.rounds[-1]
        matches = tuple(
            m if m.is_bye else replace(m, games=(GameState(1, rng.choice([(1, 0), (0, 1)])),))
            for m in last.matches
        )
        rounds = (*state.rounds[:-1], replace(last, matches=matches, status=RoundStatus.COMPLETED))
        state = replace(state, rounds=rounds)
    return [("round robin, 2 of 999 rounds played", state)]


def gokodom(entrants: int) -> list[tuple[str, EventState]]:
    from rules.formats.gokodom.simulate import simulate

    state = simulate(entrants, random.Random(3)).state
    swiss = [r for r in state.rounds if not r.stage or r.stage == "swiss"]
    number = max(1, len(swiss) - 1)
    return [(f"gokodom, round {number} of {len(swiss)} Swiss, half in", _cut(state, number, 20))]


def freestyle(entrants: int) -> list[tuple[str, EventState]]:
    """The format's own size (28, 4 groups of 7), whatever the bench's: the worst case of its
    exact method is 5 games open in every Round 1 group (243 outcomes each)."""
    from rules.formats.freestyle.simulate import simulate_event

    state = simulate_event(random.Random(1), 28, stop_after=1)
    last = state.rounds[0]
    groups: dict[str, list[str]] = {}
    for match in last.matches:
        groups.setdefault(match.group, []).append(match.code)
    open_codes = {code for codes in groups.values() for code in codes[-5:]}
    matches = tuple(replace(m, games=()) if m.code in open_codes else m for m in last.matches)
    state = replace(state, rounds=(replace(last, matches=matches, status=RoundStatus.PUBLISHED),))
    return [("freestyle (28), round 1, 5 games open a group", state)]


def _rr_event(entrants: int = 1000, played: int = 5) -> EventState:
    """bench/event.py's event (the one ``make bench`` imports) as the engine's state."""
    from fractions import Fraction

    from bench.event import event_file
    from rules.contract import EntrantState, MatchState, Participant, RoundState

    data = event_file("bench-open", entrants, played)
    people = tuple(EntrantState(str(e["number"]), e["name"]) for e in data["entrants"])
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
                    tuple(
                        GameState(g["number"], tuple(Fraction(str(x)) for x in g["scores"]))
                        for g in m["games"]
                    ),
                    table=m["table"],
                )
                for m in r["matches"]
            ),
        )
        for r in data["rounds"]
    )
    return EventState("round_robin", data["event"]["settings"], people, rounds)


def _one_more(state: EventState, done: EventState) -> tuple[EventState, tuple[int, str]]:
    """``state`` with the first match waiting in its last round given its result in
    ``done`` (the same event further on), or a win for the first seat."""
    last = state.rounds[-1]
    match = next(m for m in last.matches if not m.is_bye and not m.games)
    found = next((m for m in done.rounds[last.number - 1].matches if m.code == match.code), None)
    games = found.games if found is not None and found.games else (GameState(1, (1, 0)),)
    matches = tuple(replace(m, games=games) if m is match else m for m in last.matches)
    rounds = (*state.rounds[:-1], replace(last, matches=matches))
    return replace(state, rounds=rounds), (last.number, match.code)


def reuse_cases() -> list[tuple[str, EventState, EventState]]:
    """(label, the event during a round, the same event further on)."""
    from bench.woc_pairing import event
    from rules.formats.gokodom.simulate import simulate

    rr = _rr_event()
    goko = simulate(500, random.Random(3)).state
    swiss = [r for r in goko.rounds if not r.stage or r.stage == "swiss"]
    woc = event(10_000, 13, 10_000)
    return [
        ("round robin 1,000 (make bench's), round 6", rr, rr),
        ("gokodom 500, Swiss round before the last", _cut(goko, len(swiss) - 1, 100), goko),
        ("woc swiss 10,000, round 13, half in", _cut(woc, 13, 2500), woc),
        *((label, state, state) for label, state in freestyle(28)),
    ]


def _cpu(call: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return min(times)


def reuse_table() -> None:
    """Contention after one more result: afresh, and reusing the previous outlook."""
    from rules.contention import Reuse

    print(f"Contention after one result, CPU s, best of 3; load average {os.getloadavg()[0]:.1f}")
    print(f"| {'event':46} | {'afresh':>7} | {'reuse':>7} | rows carried |")
    print(f"| {'-' * 46} | {'-' * 7} | {'-' * 7} | {'-' * 12} |")
    for label, before, done in reuse_cases():
        engine = registry.get(before.format)
        previous = contention(before, engine.standings(before))
        after, key = _one_more(before, done)
        standings = engine.standings(after)
        reuse = Reuse(before, previous, frozenset({key}))
        fresh = _cpu(lambda a=after, s=standings: contention(a, s))
        again = _cpu(lambda a=after, s=standings, r=reuse: contention(a, s, reuse=r))
        result = contention(after, standings, reuse=reuse)
        assert result == contention(after, standings)
        kept = previous.by_entrant
        carried = sum(1 for row in result.entrants if kept.get(row.entrant) is row)
        rows = f"{carried:,} of {len(result.entrants):,}"
        print(f"| {label:46} | {fresh:7.3f} | {again:7.3f} | {rows:>12} |", flush=True)


def main() -> None:
    if "--reuse" in sys.argv:
        reuse_table()
        return
    entrants = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"{'event':46} {'standings s':>11} {'contention s':>12}  method  clinched/alive/out")
    for build in (woc, round_robin, gokodom, freestyle):
        start = time.perf_counter()
        try:
            cases = build(entrants)
        except Exception as error:  # a simulator that cannot build this size: say so
            print(f"{build.__name__:44} (not built: {error})")
            continue
        built = time.perf_counter() - start
        for label, state in cases:
            engine = registry.get(state.format)
            standings = _best(lambda s=state, e=engine: e.standings(s))
            result = contention(state)
            seconds = _best(lambda s=state: contention(s))
            tally = Counter((row.stage or row.win).status.value for row in result.entrants)
            counts = "/".join(str(tally[k]) for k in ("clinched", "alive", "eliminated"))
            print(f"{label:44} {standings:11.3f} {seconds:12.3f}  {result.method:6}  {counts}")
        print(f"{'':44} (built in {built:.1f} s)")


if __name__ == "__main__":
    main()
