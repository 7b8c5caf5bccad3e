"""Conformance bench: simulate events of every format with each engine's pure simulate
helper, at mixed sizes and seeds, and run the format's rules checker over each.

    PYTHONPATH=. .venv/bin/python bench/conformance.py [events per format]

Prints, per format: events, rounds, pairings checked, scores checked, standings rows
checked, violations, and the seconds taken. A violation is printed with its format, seed
and record place, to be reported against the engine. It never fails a build.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from rules import registry
from rules.checkers import audit
from rules.contract import EventState


def _round_robin(rng: random.Random, size: int) -> EventState:
    import dataclasses

    from rules.contract import (
        EntrantState,
        Finished,
        GameState,
        MatchState,
        RoundState,
        RoundStatus,
    )
    from rules.draws import DrawSource

    engine = registry.get("round_robin")
    settings = rng.choice([{}, {"cycles": 2}, {"draw_numbers": "lot", "games_per_match": 2}])
    entrants = tuple(
        EntrantState(f"e{i}", f"Player {i}", rating=rng.randint(1000, 2000)) for i in range(size)
    )
    state = EventState("round_robin", settings, entrants)
    seed = str(rng.random())
    while True:
        source = DrawSource(seed, state.draws)
        plan = engine.next_round(state, source)
        if isinstance(plan, Finished):
            return state
        games = int(settings.get("games_per_match", 1))  # type: ignore[call-overload]
        matches = tuple(
            MatchState(
                m.code,
                plan.number,  # type: ignore[union-attr]
                m.participants,
                ()
                if m.is_bye
                else tuple(
                    GameState(g + 1, (rng.randint(0, 3), rng.randint(0, 3))) for g in range(games)
                ),
                table=m.table,
            )
            for m in plan.matches  # type: ignore[union-attr]
        )
        played = RoundState(
            plan.number,  # type: ignore[union-attr]
            plan.label,  # type: ignore[union-attr]
            RoundStatus.COMPLETED,
            matches,
            details=plan.details,  # type: ignore[union-attr]
        )
        state = dataclasses.replace(
            state, rounds=(*state.rounds, played), draws=(*state.draws, *source.new)
        )


def _freestyle(rng: random.Random, size: int) -> EventState:
    from rules.formats.freestyle.simulate import simulate_event

    return simulate_event(rng, size)


def _bot_contest(rng: random.Random, size: int) -> EventState:
    from rules.formats.bot_contest.simulate import simulate

    return simulate(size, rng)[0]


def _wpf(rng: random.Random, size: int) -> EventState:
    from rules.formats.wpf_playoffs.simulate import entrants, simulate

    return simulate(rng, entrants(size, rng))


def _gokodom(rng: random.Random, size: int) -> EventState:
    from rules.formats.gokodom.simulate import simulate

    return simulate(size, rng).state


def _woc(rng: random.Random, size: int) -> EventState:
    from rules.formats.woc.simulate import field, play

    settings: dict[str, object] = {}
    if size <= 10 and rng.random() < 0.5:  # small Swiss fields: checked by exhaustive search
        settings = {"system": "modified_swiss", "rounds": 6}
    return play(field(size, rng, group_a=min(4, size // 3)), rng, settings)


# format -> (simulate, sizes to draw from)
FORMATS: dict[str, tuple[Callable[[random.Random, int], EventState], tuple[int, ...]]] = {
    "round_robin": (_round_robin, (2, 3, 4, 5, 7, 8, 11, 16)),
    "freestyle": (_freestyle, (16, 18, 21, 24, 28, 32)),
    "bot_contest": (_bot_contest, (2, 3, 5, 8, 9, 16, 33, 64)),
    "wpf_playoffs": (_wpf, (10, 16, 20, 30, 40)),
    "gokodom": (_gokodom, (4, 7, 9, 12, 16, 24, 33, 64)),
    "woc": (_woc, (6, 8, 9, 10, 12, 16, 20, 25, 40)),
}


def main(count: int) -> None:
    print(
        f"{'format':<14}{'events':>7}{'rounds':>8}{'pairings':>10}{'scores':>8}"
        f"{'rows':>7}{'violations':>11}{'seconds':>9}"
    )
    for key, (simulate, sizes) in FORMATS.items():
        engine = registry.get(key)
        totals = [0, 0, 0, 0, 0, 0]
        start = time.perf_counter()
        for index in range(count):
            seed = index
            rng = random.Random(f"{key}/{seed}")
            size = sizes[index % len(sizes)]
            state = simulate(rng, size)
            report = audit(state, engine.standings(state))
            for place, figure in enumerate(
                (
                    1,
                    report.rounds,
                    report.pairings,
                    report.scores,
                    report.rows,
                    len(report.violations),
                )
            ):
                totals[place] += figure
            for violation in report.violations[:3]:
                print(
                    f"  {key} seed {seed} size {size}: {violation.where}: "
                    f"[{violation.rule}] {violation.text}"
                )
        seconds = time.perf_counter() - start
        print(
            f"{key:<14}{totals[0]:>7}{totals[1]:>8}{totals[2]:>10}{totals[3]:>8}"
            f"{totals[4]:>7}{totals[5]:>11}{seconds:>9.1f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
