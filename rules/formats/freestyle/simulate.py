"""Play a whole Freestyle event with random legal results (for tests and simulate_event).

Pure: all chance comes from the ``random.Random`` passed in; the event's own draws go
through a seeded :class:`rules.draws.DrawSource` whose seed is taken from it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.contract import (
    DrawMethod,
    DrawRecord,
    EntrantState,
    EventState,
    Finished,
    GameState,
    MatchState,
    NeedsDecision,
    PlannedMatch,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.freestyle.tables import SEMI_FINALS

MAX_POINTS = 12  # small, so that tie games (and so replays and tiebreakers) happen


def make_entrants(count: int, rng: random.Random) -> tuple[EntrantState, ...]:
    """``count`` entrants with ratings from 1000 to 1999, some of them equal."""
    return tuple(
        EntrantState(id=f"p{i:02d}", name=f"Player {i}", rating=rng.randint(1000, 1999) // 20 * 20)
        for i in range(1, count + 1)
    )


def random_games(planned: PlannedMatch, number: int, rng: random.Random) -> tuple[GameState, ...]:
    if planned.is_bye:
        return ()
    games: list[GameState] = []
    while True:
        first, second = rng.randint(0, MAX_POINTS), rng.randint(0, MAX_POINTS)
        details = {
            "first_blue_piece": rng.choice("FILNPTUVWXYZ"),
            "first_red_piece": rng.choice("FILNPTUVWXYZ"),
            "b_colours": rng.choice(["blue/red", "yellow/green"]),
        }
        games.append(GameState(len(games) + 1, (first, second), details=details))
        # A tie stands in the group rounds and is replayed in the last two rounds.
        if first != second or number < SEMI_FINALS:
            return tuple(games)


def play_round(plan: RoundPlan, rng: random.Random) -> RoundState:
    matches = []
    for planned in plan.matches:
        details: dict[str, Any] = dict(planned.details)
        if plan.number > 1 and not planned.is_bye:
            details["higher_seed_chose"] = rng.choice(["A", "B"])
        matches.append(
            MatchState(
                code=planned.code,
                round_number=plan.number,
                participants=planned.participants,
                games=random_games(planned, plan.number, rng),
                group=planned.group,
                table=planned.table,
                details=details,
            )
        )
    return RoundState(
        number=plan.number,
        label=plan.label,
        status=RoundStatus.COMPLETED,
        matches=tuple(matches),
        stage=plan.stage,
        groups=plan.groups,
        details=plan.details,
    )


def simulate_event(
    rng: random.Random,
    entrants: int | Sequence[EntrantState] = 28,
    *,
    settings: Mapping[str, Any] | None = None,
    stop_after: int | None = None,
) -> EventState:
    """Play an event from the first round to the final (or to round ``stop_after``).

    Tiebreaker games the engine asks for get a random winner. Returns the final state; its
    ``draws`` hold every draw made, so the event replays from it.
    """
    from rules.formats.freestyle.engine import ENGINE

    people = make_entrants(entrants, rng) if isinstance(entrants, int) else tuple(entrants)
    state = EventState(format="freestyle", settings=dict(settings or {}), entrants=people)
    seed = f"{rng.getrandbits(64):x}"
    for _ in range(200):
        if stop_after is not None and len(state.rounds) >= stop_after:
            return state
        source = DrawSource(seed, state.draws)
        outcome = ENGINE.next_round(state, source)
        state = replace(state, draws=state.draws + tuple(source.new))
        if isinstance(outcome, Finished):
            return state
        if isinstance(outcome, NeedsDecision):
            record = DrawRecord(
                outcome.key, rng.choice(list(outcome.options)), DrawMethod.EXTERNAL, outcome.code
            )
            state = replace(state, draws=(*state.draws, record))
            continue
        state = replace(state, rounds=(*state.rounds, play_round(outcome, rng)))
    raise RuntimeError("the simulated event did not finish")
