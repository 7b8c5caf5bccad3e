"""WOC Swiss pairing bench (issue 5, "Speed"): seconds per round against N.

    .venv/bin/python -m bench.woc_pairing [--quick]
    PYTHONPATH=. .venv/bin/python bench/woc_pairing.py [--quick]

For N = 100, 1,000 and 10,000 it pairs a mid-event round (round 7 of 13: six rounds played
with draws, floats and byes, made by ``rules.formats.woc.swiss_sample``; a mixed field of 30
countries, and a field where one of three countries holds 60 %) and prints, side by
side: the route the engine uses (``swiss.pair_round``: exact window solves up to 120
players, else the pruned route with its lower bound) with how the optimum was proven; the
pruned route forced; the plain complete graph (only up to 2,000 players, one seed at 1,000:
it takes seconds); and, on an event record of that size, the engine's ``next_round`` for
round 7 (reading the whole event, then pairing) and ``standings``. The pruned and complete
results must be equal rule by rule. Times are CPU seconds of this process. Bounded: about
two to four minutes on a 2-core machine (``--quick``: 100 and 1,000 only).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rules.contract import (
    EntrantState,
    EventState,
    GameState,
    MatchState,
    Participant,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.woc import ENGINE, swiss, swiss_pruned
from rules.formats.woc.swiss_sample import Shape, players

SIZES = (100, 1_000, 10_000)
SEEDS = {100: 20, 1_000: 5, 10_000: 2}
COMPLETE_SEEDS = {100: 20, 1_000: 1}  # the complete graph only up to 2,000 players


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of ``call`` (the work is single-threaded: on an idle machine this is the
    wall time, and it stays honest when other jobs share the cores)."""
    start = time.process_time()
    result = call()
    return time.process_time() - start, result


def show(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.mean(values):.4f} / {max(values):.4f}"


FIELDS = {
    "mixed": Shape(),
    # rule (g) at its hardest: 60 % of the field from one of three countries
    "one country": Shape(concentration=0.6, countries=3),
}


def pairing_row(size: int, kind: str = "mixed") -> list[str]:
    auto: list[float] = []
    pruned: list[float] = []
    complete: list[float] = []
    methods: dict[str, int] = {}
    for seed in range(SEEDS[size]):
        field = players(size, random.Random(seed), FIELDS[kind])
        seconds, outcome = timed(lambda f=field: swiss_pruned.pair(f, False))
        auto.append(seconds)
        methods[outcome.method] = methods.get(outcome.method, 0) + 1
        seconds, forced = timed(lambda f=field: swiss_pruned.pair(f, False, route="pruned"))
        pruned.append(seconds)
        methods["pruned: " + forced.method] = methods.get("pruned: " + forced.method, 0) + 1
        if seed < COMPLETE_SEEDS.get(size, 0):
            seconds, full = timed(lambda f=field: swiss_pruned.pair(f, False, route="complete"))
            complete.append(seconds)
            assert swiss.total([p.cost for p in full.pairings]) == swiss.total(
                [p.cost for p in forced.pairings]
            ), f"N = {size}, seed {seed}: the pruned route missed the optimum"
    proof = ", ".join(f"{k} {v}" for k, v in sorted(methods.items()))
    runs = str(SEEDS[size])
    return [kind, f"{size:,}", runs, show(auto), show(pruned), show(complete), proof]


def event(size: int, rounds: int, seed: int) -> EventState:
    """A Swiss record of ``size`` entrants after ``rounds`` rounds (greedy pairings by
    points, random scores), as the service would hand it to the engine."""
    rng = random.Random(seed)
    ids = [f"e{i}" for i in range(size)]
    entrants = tuple(
        EntrantState(e, f"Player {i:05d}", country=f"C{rng.randrange(30)}")
        for i, e in enumerate(ids)
    )
    points = dict.fromkeys(ids, Fraction(0))
    met: set[frozenset[str]] = set()
    played: list[RoundState] = []
    for number in range(1, rounds + 1):
        order = sorted(ids, key=lambda e: (-points[e], rng.random()))
        matches = []
        if len(order) % 2:
            bye = order.pop()
            matches.append(MatchState(f"R{number}-BYE", number, (Participant(bye),)))
            points[bye] += 1
        while order:
            first = order.pop(0)
            index = next(
                (i for i, e in enumerate(order[:30]) if frozenset((first, e)) not in met), 0
            )
            second = order.pop(index)
            met.add(frozenset((first, second)))
            black = rng.randint(0, 64)
            score = (black, 64 - black)
            game = GameState(1, score)
            table = len(matches) + 1
            pair = (Participant(first, "black"), Participant(second, "white"))
            matches.append(MatchState(f"R{number}-T{table}", number, pair, (game,), table=table))
            if score[0] == score[1]:
                points[first] += Fraction(1, 2)
                points[second] += Fraction(1, 2)
            else:
                points[first if score[0] > score[1] else second] += 1
        details = {"system": "swiss", "rounds": 13, "field": ids} if number == 1 else {}
        played.append(
            RoundState(
                number,
                f"Round {number}",
                RoundStatus.COMPLETED,
                tuple(matches),
                "swiss",
                details=details,
            )
        )
    return EventState("woc", {"final_stages": False}, entrants, tuple(played))


def engine_row(size: int) -> list[str]:
    state = event(size, 6, size)
    pairing, plan = timed(lambda: ENGINE.next_round(state, DrawSource("bench", state.draws)))
    standing, _ = timed(lambda: ENGINE.standings(state))
    return [f"{size:,}", f"{pairing:.3f}", f"{standing:.3f}", str(len(plan.matches))]


def table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    sizes = SIZES[:2] if "--quick" in argv else SIZES
    start = time.perf_counter()
    print("Pairing one mid-event round (round 7 of 13), CPU seconds mean / max:")
    head = ["field", "N", "rounds", "engine's route", "pruned route", "complete graph", "proven by"]
    print(table(head, [pairing_row(size, kind) for kind in FIELDS for size in sizes]))
    print()
    print("The engine on an event record after six rounds, CPU seconds:")
    head = ["N", "next_round (round 7)", "standings", "matches"]
    print(table(head, [engine_row(size) for size in sizes]))
    print(f"\n(total {time.perf_counter() - start:.0f} s wall)")


if __name__ == "__main__":
    main(sys.argv[1:])
