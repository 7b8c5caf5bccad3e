"""A whole GokoDom season with random legal results, for tests and benchmarks.

Pure: every random choice comes from the ``random.Random`` passed in; draws go through a
DrawSource seeded from it. Some matches go unplayed (with PMs sent or not), some players ask
for a Bye by Request, and every question the engine asks the director is answered at random.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules import variations
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
from rules.variations import Variations

from .context import auto_rounds
from .engine import ENGINE
from .plan_knockout import EIGHTH_PLACE_KEY
from .record import SWISS
from .results import SEAT_PATTERN, decided_after

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Season:
    state: EventState
    finished: Finished
    champion: str | None
    decisions: int  # questions answered for the director


def simulate(
    players: int,
    rng: random.Random,
    *,
    default_rate: float = 0.06,
    bye_rate: float = 0.04,
    settings: Mapping[str, Any] | None = None,
    vary: Variations = variations.NONE,
) -> Season:
    """A season of ``players``. ``vary`` adds late sign-ups (before round 1: I.B counts the
    players signed up), withdrawals after a Swiss round (removals, decision 8), more drawn
    games, more unplayed matches (``defaults``) and pairing overrides in the Swiss rounds."""

    def make(i: int) -> EntrantState:
        return EntrantState(
            id=f"p{i}", name=f"Player {i}", flags={"colour": rng.choice(["red", "blue"])}
        )

    entrants = variations.late_entrants(
        tuple(make(i) for i in range(1, players + 1)), vary.late_entries, make
    )
    default_rate = max(default_rate, vary.defaults)
    state = EventState("gokodom", dict(settings or {}), entrants)
    seed = f"simulation-{rng.randrange(10**9)}"
    swiss_rounds = int((settings or {}).get("swiss_rounds", 0) or 0) or auto_rounds(players)
    decisions = 0
    for _ in range(100):
        swiss_done = sum(1 for r in state.rounds if r.stage == SWISS)
        if swiss_done + 1 < swiss_rounds:
            state = _ask_byes(state, rng, swiss_done + 1, bye_rate)
        source = DrawSource(seed, state.draws)
        outcome = ENGINE.next_round(state, source)
        if isinstance(outcome, Finished):
            champion = outcome.reason.params.get("champion")
            return Season(state, outcome, str(champion) if champion else None, decisions)
        if isinstance(outcome, NeedsDecision):
            state = _decide(state, outcome, rng)
            decisions += 1
            continue
        knockout = outcome.stage != SWISS
        last_swiss = outcome.stage == SWISS and outcome.number == swiss_rounds
        planned_matches = outcome.matches
        if not knockout:
            # The director pairs two players by hand (a swap between two matches).
            planned_matches = variations.override(planned_matches, rng, vary.overrides, swap=True)
        matches = tuple(
            _play(
                planned,
                outcome,
                rng,
                default_rate,
                knockout=knockout,
                last_swiss=last_swiss,
                draws=vary.draws,
            )
            for planned in planned_matches
        )
        known = {d.key for d in state.draws}
        new = tuple(d for d in (*outcome.draws, *source.new) if d.key not in known)
        unique = tuple({d.key: d for d in new}.values())
        rnd = RoundState(
            outcome.number,
            outcome.label,
            RoundStatus.COMPLETED,
            matches,
            outcome.stage,
            details=outcome.details,
        )
        state = dataclasses.replace(
            state, rounds=(*state.rounds, rnd), draws=(*state.draws, *unique)
        )
        if not knockout and not last_swiss:
            state = variations.withdraw(state, rng, vary.withdrawals, outcome.number, keep=2)
    raise RuntimeError("the season did not finish in 100 steps")


def _ask_byes(state: EventState, rng: random.Random, number: int, rate: float) -> EventState:
    entrants = []
    for entrant in state.entrants:
        if entrant.active and rng.random() < rate:
            asked = [*entrant.flags.get("bye_requests", []), number]
            entrant = dataclasses.replace(entrant, flags={**entrant.flags, "bye_requests": asked})
        entrants.append(entrant)
    return dataclasses.replace(state, entrants=tuple(entrants))


def _play(
    planned: PlannedMatch,
    plan: RoundPlan,
    rng: random.Random,
    default_rate: float,
    *,
    knockout: bool,
    last_swiss: bool,
    draws: float = 0.0,
) -> MatchState:
    base = MatchState(
        planned.code, plan.number, planned.participants, details=dict(planned.details)
    )
    if planned.is_bye:
        return base
    ids = [p.entrant for p in planned.participants if p.entrant]
    if rng.random() < default_rate:
        if knockout:
            messaged = [rng.choice(ids)] if rng.random() < 0.7 else ids
        else:
            messaged = [e for e in ids if rng.random() < 0.6]
        details = {**base.details, "unplayed": True, "messages": messaged}
        return dataclasses.replace(base, details=details)
    return dataclasses.replace(base, games=_games(rng, planned, draws))


def _games(rng: random.Random, planned: PlannedMatch, draws: float = 0.0) -> tuple[GameState, ...]:
    first_seat = planned.details.get("first_seat")
    first = first_seat if first_seat in (0, 1) else rng.randint(0, 1)
    points = [Fraction(0), Fraction(0)]
    games = []
    for index in range(6):
        roll = rng.random()
        if draws and rng.random() < draws:
            roll = 0.0
        scores = (HALF, HALF) if roll < 0.1 else (Fraction(1), Fraction(0))
        if roll >= 0.55:
            scores = (Fraction(0), Fraction(1))
        points = [points[0] + scores[0], points[1] + scores[1]]
        seat = first if SEAT_PATTERN[index] == "A" else 1 - first
        games.append(GameState(index + 1, scores, first=seat))
        if decided_after(index + 1, (points[0], points[1])) is not None:
            break
    return tuple(games)


def _decide(state: EventState, question: NeedsDecision, rng: random.Random) -> EventState:
    if question.key == EIGHTH_PLACE_KEY:
        choice = rng.choice(list(question.options))
        record = DrawRecord(question.key, choice, DrawMethod.EXTERNAL, "8th place")
        return dataclasses.replace(state, draws=(*state.draws, record))
    rounds = list(state.rounds)
    for r_index, rnd in enumerate(rounds):
        for m_index, match in enumerate(rnd.matches):
            if match.code != question.key:
                continue
            ids = [p.entrant for p in match.participants if p.entrant]
            if question.options:
                details = {**match.details, "advances": rng.choice(list(question.options))}
            else:
                winner = rng.choice(ids)
                details = {
                    **match.details,
                    "results": {e: "W" if e == winner else "L" for e in ids},
                }
            matches = list(rnd.matches)
            matches[m_index] = dataclasses.replace(match, details=details)
            rounds[r_index] = dataclasses.replace(rnd, matches=tuple(matches))
            return dataclasses.replace(state, rounds=tuple(rounds))
    raise RuntimeError(f"cannot answer {question.code}")


def play_event(count: int, rng: random.Random, vary: Variations = variations.NONE) -> EventState:
    """A whole event of ``count`` entrants, from ``rng`` alone: the entry point the registry
    finds (rules/registry.py) for ``simulate_event`` and the simulated demos."""
    return simulate(count, rng, vary=vary).state
