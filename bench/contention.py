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
"""

from __future__ import annotations

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


def main() -> None:
    entrants = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"{'event':44} {'standings s':>11} {'contention s':>12}  method  clinched/alive/out")
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
