"""Play a whole round robin with random legal results (for simulate_event and the bench).

Pure: every choice comes from the ``random.Random`` passed in; draws go through a DrawSource
seeded from it. With :class:`rules.variations.Variations`: late entries (registered after the
others, before the draw numbers), withdrawals after any round (their later games become
rounds off), forfeited games, drawn games and seat (colour) overrides. The round robin admits
no entry once the draw numbers exist, and its pairing is fixed by the Berger table, so an
override here changes colours, never opponents.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from rules import variations
from rules.contract import (
    EntrantState,
    EventState,
    GameEnding,
    GameState,
    MatchState,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.variations import Variations

from .engine import ENGINE


def _entrant(n: int) -> EntrantState:
    return EntrantState(f"e{n}", f"Player {n}", rating=2200 - 10 * n)


def _game(number: int, rng: random.Random, vary: Variations, top: int) -> GameState:
    if rng.random() < vary.defaults:
        loser = rng.randint(0, 1)
        scores = (0, 1) if loser == 0 else (1, 0)
        return GameState(number, scores, ending=GameEnding.FORFEIT, details={"defaulter": loser})
    if rng.random() < vary.draws:
        score = rng.randint(0, top)
        return GameState(number, (score, score))
    return GameState(number, (rng.randint(0, top), rng.randint(0, top)))


def simulate(
    entrants: int,
    rng: random.Random,
    settings: Mapping[str, Any] | None = None,
    vary: Variations = variations.NONE,
    *,
    top: int = 2,
) -> EventState:
    people = variations.late_entrants(
        tuple(_entrant(n) for n in range(1, entrants + 1)), vary.late_entries, _entrant
    )
    state = EventState("round_robin", dict(settings or {}), people)
    seed = str(rng.getrandbits(32))
    games = int((settings or {}).get("games_per_match", 1))
    while True:
        source = DrawSource(seed, state.draws)
        plan = ENGINE.next_round(state, source)
        if not isinstance(plan, RoundPlan):
            return state
        planned = variations.override(plan.matches, rng, vary.overrides, swap=False)
        matches = tuple(
            MatchState(
                m.code,
                plan.number,
                m.participants,
                () if m.is_bye else tuple(_game(g + 1, rng, vary, top) for g in range(games)),
                table=m.table,
                details=m.details,
            )
            for m in planned
        )
        rnd = RoundState(
            plan.number, plan.label, RoundStatus.COMPLETED, matches, details=plan.details
        )
        state = dataclasses.replace(
            state, rounds=(*state.rounds, rnd), draws=(*state.draws, *source.new)
        )
        state = variations.withdraw(state, rng, vary.withdrawals, plan.number, keep=2)


def play_event(count: int, rng: random.Random, vary: Variations = variations.NONE) -> EventState:
    """A whole event of ``count`` entrants, from ``rng`` alone: the entry point the registry
    finds (rules/registry.py) for ``simulate_event`` and the simulated demos."""
    return simulate(count, rng, vary=vary)
