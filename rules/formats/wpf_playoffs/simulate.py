"""Plays a whole playoff with random legal results (for tests, demos and benchmarks).

Randomness comes only from the ``random.Random`` passed in; draws the engine asks for come
from a DrawSource seeded from it, so one seed always gives the same playoff.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules import variations
from rules.contract import (
    EntrantState,
    EventState,
    Finished,
    GameState,
    MatchState,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.variations import Variations

from .engine import ENGINE
from .schedule import ONLINE_TIME_LIMIT, SESSIONS, Stage


def entrants(count: int, rng: random.Random) -> tuple[EntrantState, ...]:
    """``count`` candidates with random GP round scores, all attending."""
    return tuple(candidate(index, rng) for index in range(1, count + 1))


def candidate(index: int, rng: random.Random) -> EntrantState:
    return EntrantState(
        id=f"p{index}",
        name=f"Player {index}",
        flags={"gp_scores": [rng.randint(0, 1000) for _ in range(8)], "attending": True},
    )


def _varied(play: Any, rng: random.Random, vary: Variations) -> list[list[dict[str, Any]]]:
    """Two players' submissions: with ``vary``, a player who sends nothing (a default: the
    missing answer counts as the time limit online) or both solving in the same time (a tie,
    which goes to the better seed)."""
    if vary.draws and rng.random() < vary.draws:
        same = {"time": rng.randint(60, 500), "correct": True}
        return [[dict(same)], [dict(same)]]
    pair: list[list[dict[str, Any]]] = [play(rng), play(rng)]
    if vary.defaults and rng.random() < vary.defaults:
        pair[rng.randint(0, 1)] = []
    return pair


def _online(rng: random.Random) -> list[dict[str, Any]]:
    if rng.random() < 0.1:
        return []
    return [{"time": rng.randint(60, ONLINE_TIME_LIMIT), "correct": rng.random() < 0.85}]


def _live(rng: random.Random) -> list[dict[str, Any]]:
    subs: list[dict[str, Any]] = []
    for _ in range(rng.randint(0, 3)):
        correct = rng.random() < 0.7
        subs.append({"time": rng.randint(30, 500), "correct": correct})
        if correct:
            break
    return subs


def winning(seat: int) -> list[list[dict[str, Any]]]:
    """Submissions that make ``seat`` win, online or live: it solves in 1:40, the other
    does not solve."""
    solved = [{"time": 100, "correct": True}]
    return [solved, []] if seat == 0 else [[], solved]


def play_round(
    plan: RoundPlan,
    rng: random.Random,
    winners: Mapping[str, int] | None = None,
    vary: Variations = variations.NONE,
) -> RoundState:
    """The planned round, completed with random results (``winners``: match code -> the
    seat that must win, for the matches a test wants to fix)."""
    stage = Stage(plan.stage)
    matches = []
    # No overrides: a match's seats are its two ranks (the better rank first), so a director
    # has nothing to change in a pairing that the match table fixes.
    for planned in plan.matches:
        play = _online if stage is Stage.ONLINE else _live
        if winners is not None and planned.code in winners:
            submissions = winning(winners[planned.code])
        else:
            submissions = _varied(play, rng, vary)
        game = GameState(1, (None, None), details={"submissions": submissions})
        matches.append(
            MatchState(
                planned.code,
                plan.number,
                planned.participants,
                (game,),
                planned.bracket,
                details=planned.details,
            )
        )
    return RoundState(
        plan.number,
        plan.label,
        RoundStatus.COMPLETED,
        tuple(matches),
        plan.stage,
        details=plan.details,
    )


def simulate(
    rng: random.Random,
    players: Sequence[EntrantState] | None = None,
    settings: dict[str, Any] | None = None,
    vary: Variations = variations.NONE,
) -> EventState:
    """Play every round; returns the finished event's state. ``vary``: late candidates (before
    the seeding), finalists who leave after a round (they lose every later match, decision
    3), missing answers and equal times (no overrides: see play_round)."""
    people = tuple(players) if players is not None else entrants(16, rng)
    people = variations.late_entrants(people, vary.late_entries, lambda n: candidate(n, rng))
    state = EventState("wpf_playoffs", settings or {}, people)
    draws = DrawSource(str(rng.random()))
    for _ in range(len(SESSIONS) + 1):
        outcome = ENGINE.next_round(state, draws)
        if isinstance(outcome, Finished):
            return state
        assert isinstance(outcome, RoundPlan), outcome
        state = EventState(
            state.format,
            state.settings,
            state.entrants,
            (*state.rounds, play_round(outcome, rng, vary=vary)),
            (*state.draws, *draws.new),
        )
        state = variations.withdraw(
            state, rng, vary.withdrawals / 4, outcome.number, keep=0, limit=1
        )
        draws = DrawSource(draws.seed, state.draws)
    raise AssertionError("the playoff did not finish")


def play_event(count: int, rng: random.Random, vary: Variations = variations.NONE) -> EventState:
    """A whole event of ``count`` entrants, from ``rng`` alone: the entry point the registry
    finds (rules/registry.py) for ``simulate_event`` and the simulated demos."""
    return simulate(rng, entrants(count, rng), vary=vary)
