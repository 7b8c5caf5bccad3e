"""Play a whole contest with random legal results: for ``simulate_event`` and the tests.

Pure: every random choice comes from the ``random.Random`` passed in (the event's draws
come from a DrawSource seeded from it), so the same generator state plays the same event.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import variations
from rules.contract import (
    DrawMethod,
    DrawRecord,
    EntrantState,
    EventState,
    Finished,
    GameEnding,
    GameState,
    MatchState,
    NeedsDecision,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.bot_contest.engine import ENGINE
from rules.variations import Variations

MAX_ROUNDS = 500


def field(entrants: int, references: int = 3) -> tuple[EntrantState, ...]:
    """``entrants`` competing programs E1..En and the reference programs REF1..REFr."""
    programs = [EntrantState(id=f"E{i}", name=f"Entry {i}") for i in range(1, entrants + 1)]
    refs = [
        EntrantState(id=f"REF{i}", name=f"Reference {i}", flags={"reference": True})
        for i in range(1, references + 1)
    ]
    return (*programs, *refs)


def random_games(
    rng: random.Random, board: str, max_points: int = 64, vary: Variations = variations.NONE
) -> tuple[GameState, ...]:
    """Two games, each entry moving first once; points from 0 to ``max_points``. With
    ``vary``: tied games, and programs that lose on time (the referee's result decides a game
    that did not end normally, decision 26)."""
    games = []
    for n in (1, 2):
        scores = (rng.randint(0, max_points), rng.randint(0, max_points))
        if vary.draws and rng.random() < vary.draws:
            scores = (scores[0], scores[0])
        details: dict[str, Any] = {"board": board}
        ending = GameEnding.NORMAL
        if vary.defaults and rng.random() < vary.defaults:
            ending = GameEnding.TIME_DEFAULT
            details["result"] = rng.choice(("X", "O"))
        games.append(
            GameState(number=n, scores=scores, first=n - 1, ending=ending, details=details)
        )
    return tuple(games)


def play_round(
    plan: RoundPlan, rng: random.Random, vary: Variations = variations.NONE
) -> RoundState:
    board = str(plan.details.get("board", ""))
    planned = plan.matches
    if plan.stage == "brackets":
        # The director re-pairs two entries of one bracket, or changes who moves first.
        planned = variations.override(
            planned,
            rng,
            vary.overrides,
            swap=True,
            together=lambda a, b: a.bracket == b.bracket,
        )
    matches = tuple(
        MatchState(
            code=m.code,
            round_number=plan.number,
            participants=m.participants,
            games=() if m.is_bye else random_games(rng, board, vary=vary),
            bracket=m.bracket,
            details=m.details,
        )
        for m in planned
    )
    return RoundState(
        number=plan.number,
        label=plan.label,
        status=RoundStatus.COMPLETED,
        matches=matches,
        stage=plan.stage,
        details=plan.details,
    )


def simulate(
    entrants: int,
    rng: random.Random,
    *,
    references: int = 3,
    settings: Mapping[str, Any] | None = None,
    vary: Variations = variations.NONE,
) -> tuple[EventState, Finished]:
    """Play a contest to its end; return the final state and the engine's last word.

    A tie for first in the final is settled by a random choice recorded as the director's
    decision, as a director flipping a coin would. ``vary``: late entries (before the
    gauntlet), withdrawals after the gauntlet or a bracket round (never below the six entries
    a final needs), tied games, time defaults and overrides in the brackets.
    """
    people = field(entrants, references)
    late = tuple(
        EntrantState(id=f"E{entrants + i}", name=f"Entry {entrants + i}", flags={"late": True})
        for i in range(1, vary.late_entries + 1)
    )
    state = EventState(
        format=ENGINE.key,
        settings=dict(settings or {}),
        entrants=(*people, *late),
    )
    seed = f"{rng.getrandbits(64):x}"
    for _ in range(MAX_ROUNDS):
        source = DrawSource(seed, state.draws)
        outcome = ENGINE.next_round(state, source)
        draws = state.draws + tuple(source.new)
        if isinstance(outcome, Finished):
            return EventState(state.format, state.settings, state.entrants, state.rounds, draws), (
                outcome
            )
        if isinstance(outcome, NeedsDecision):
            if not outcome.options:
                raise RuntimeError(outcome.text)
            choice = rng.choice(list(outcome.options))
            draws += (DrawRecord(outcome.key, choice, DrawMethod.EXTERNAL, outcome.text),)
            state = EventState(state.format, state.settings, state.entrants, state.rounds, draws)
            continue
        played = play_round(outcome, rng, vary)
        state = EventState(
            state.format, state.settings, state.entrants, (*state.rounds, played), draws
        )
        if played.stage != "final":
            state = variations.withdraw(
                state,
                rng,
                vary.withdrawals,
                played.number,
                keep=references + 6,
                limit=1,
                eligible=lambda e: not e.flags.get("reference"),
            )
    raise RuntimeError(f"the contest did not finish in {MAX_ROUNDS} rounds")


def play_event(count: int, rng: random.Random, vary: Variations = variations.NONE) -> EventState:
    """A whole event of ``count`` entrants, from ``rng`` alone: the entry point the registry
    finds (rules/registry.py) for ``simulate_event`` and the simulated demos."""
    return simulate(count, rng, vary=vary)[0]
