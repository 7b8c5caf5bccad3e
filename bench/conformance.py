"""Conformance bench: simulate events of every format with each engine's pure simulate
helper, at mixed sizes and seeds, and run the format's rules checker over each.

    PYTHONPATH=. .venv/bin/python bench/conformance.py [events per format]
        [--vary] [--overrides SHARE] [--formats F,G]

``--vary`` switches on the generator's withdrawals, late entries, defaults and drawn games
(rules/variations.py, where each format's rules allow them); ``--overrides SHARE`` makes that
share of the events (every n-th) carry director overrides. Prints, per format: events,
rounds, pairings checked, scores checked, standings rows checked, overridden matches made,
overrides reported, other violations, and the seconds taken. Every violation other than an
override is printed with its format, seed and record place, to be reported against the
engine (or the checker). It never fails a build.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rules import registry, variations
from rules.checkers import OVERRIDE, audit
from rules.contract import EventState, RoundStatus
from rules.variations import Variations

Simulate = Callable[[random.Random, int, Variations], EventState]


def _round_robin(rng: random.Random, size: int, vary: Variations) -> EventState:
    from rules.formats.round_robin.simulate import simulate

    settings = rng.choice([{}, {"cycles": 2}, {"draw_numbers": "lot", "games_per_match": 2}])
    return simulate(size, rng, settings, vary, top=3)


def _freestyle(rng: random.Random, size: int, vary: Variations) -> EventState:
    from rules.formats.freestyle.simulate import simulate_event

    return simulate_event(rng, size, vary=vary)


def _bot_contest(rng: random.Random, size: int, vary: Variations) -> EventState:
    from rules.formats.bot_contest.simulate import simulate

    return simulate(size, rng, vary=vary)[0]


def _wpf(rng: random.Random, size: int, vary: Variations) -> EventState:
    from rules.formats.wpf_playoffs.simulate import entrants, simulate

    return simulate(rng, entrants(size, rng), vary=vary)


def _gokodom(rng: random.Random, size: int, vary: Variations) -> EventState:
    from rules.formats.gokodom.simulate import simulate

    return simulate(size, rng, vary=vary).state


def _woc(rng: random.Random, size: int, vary: Variations) -> EventState:
    from rules.formats.woc.simulate import field, play

    settings: dict[str, object] = {}
    if size <= 10 and rng.random() < 0.5:  # small Swiss fields: checked by exhaustive search
        settings = {"system": "modified_swiss", "rounds": 6}
    return play(field(size, rng, group_a=min(4, size // 3)), rng, settings, vary=vary)


# format -> (simulate, sizes to draw from); odd sizes give byes or rounds off
FORMATS: dict[str, tuple[Simulate, tuple[int, ...]]] = {
    "round_robin": (_round_robin, (2, 3, 4, 5, 7, 8, 11, 16)),
    "freestyle": (_freestyle, (16, 18, 21, 24, 28, 30)),
    "bot_contest": (_bot_contest, (2, 3, 5, 8, 9, 16, 33, 64)),
    "wpf_playoffs": (_wpf, (10, 16, 20, 30, 40)),
    "gokodom": (_gokodom, (4, 7, 9, 12, 16, 24, 33, 64)),
    "woc": (_woc, (6, 8, 9, 10, 12, 16, 20, 25, 40)),
}

COLUMNS = (
    "events",
    "rounds",
    "pairings",
    "scores",
    "rows",
    "overridden",
    "reported",
    "violations",
)


def overridden(state: EventState) -> int:
    return sum(
        1
        for r in state.rounds
        if r.status is not RoundStatus.DRAFT
        for m in r.matches
        if variations.is_overridden(m.details)
    )


def run(
    key: str, count: int, vary: Variations, override_share: float, *, out: Callable[[str], None]
) -> tuple[list[int], float]:
    simulate, sizes = FORMATS[key]
    engine = registry.get(key)
    every = round(1 / override_share) if override_share > 0 else 0
    totals = [0] * len(COLUMNS)
    start = time.perf_counter()
    for index in range(count):
        rng = random.Random(f"{key}/{index}")
        size = sizes[index % len(sizes)]
        with_overrides = bool(every) and index % every == every - 1
        this = vary.with_overrides(0.3) if with_overrides else vary
        state = simulate(rng, size, this)
        report = audit(state, engine.standings(state))
        made = overridden(state)
        reported = [v for v in report.violations if v.rule == OVERRIDE]
        others = [v for v in report.violations if v.rule != OVERRIDE]
        figures = (
            1,
            report.rounds,
            report.pairings,
            report.scores,
            report.rows,
            made,
            len(reported),
            len(others),
        )
        for place, figure in enumerate(figures):
            totals[place] += figure
        if len(reported) != made:
            out(f"  {key} seed {index} size {size}: {made} overrides, {len(reported)} reported")
        for violation in others[:3]:
            out(
                f"  {key} seed {index} size {size}"
                f"{' (overrides)' if made else ''}: {violation.where}: "
                f"[{violation.rule}] {violation.text}"
            )
    return totals, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=50)
    parser.add_argument("--vary", action="store_true")
    parser.add_argument("--overrides", type=float, default=0.0, metavar="SHARE")
    parser.add_argument("--formats", default=",".join(FORMATS))
    args = parser.parse_args(argv)
    vary = Variations.everything() if args.vary else variations.NONE
    print(f"{'format':<14}" + "".join(f"{c:>11}" for c in COLUMNS) + f"{'seconds':>9}", flush=True)
    grand = [0] * len(COLUMNS)
    seconds = 0.0
    for key in args.formats.split(","):
        totals, took = run(
            key, args.count, vary, args.overrides, out=lambda s: print(s, flush=True)
        )
        grand = [a + b for a, b in zip(grand, totals, strict=True)]
        seconds += took
        print(f"{key:<14}" + "".join(f"{t:>11}" for t in totals) + f"{took:>9.1f}", flush=True)
    print(f"{'total':<14}" + "".join(f"{t:>11}" for t in grand) + f"{seconds:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
