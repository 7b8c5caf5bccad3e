"""Play a whole Freestyle event with random legal results (for tests and simulate_event).

Pure: all chance comes from the ``random.Random`` passed in; the event's own draws go
through a seeded :class:`rules.draws.DrawSource` whose seed is taken from it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
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
from rules.formats.freestyle.tables import SEMI_FINALS
from rules.variations import Variations

MAX_POINTS = 12  # small, so that tie games (and so replays and tiebreakers) happen


def make_entrants(count: int, rng: random.Random) -> tuple[EntrantState, ...]:
    """``count`` entrants with ratings from 1000 to 1999, some of them equal."""
    return tuple(_entrant(i, rng) for i in range(1, count + 1))


def _entrant(i: int, rng: random.Random) -> EntrantState:
    return EntrantState(
        id=f"p{i:02d}", name=f"Player {i}", rating=rng.randint(1000, 1999) // 20 * 20
    )


def random_games(
    planned: PlannedMatch, number: int, rng: random.Random, draws: float = 0.0
) -> tuple[GameState, ...]:
    if planned.is_bye:
        return ()
    games: list[GameState] = []
    while True:
        first, second = rng.randint(0, MAX_POINTS), rng.randint(0, MAX_POINTS)
        if draws and rng.random() < draws:
            second = first
        details = {
            "first_blue_piece": rng.choice("FILNPTUVWXYZ"),
            "first_red_piece": rng.choice("FILNPTUVWXYZ"),
            "b_colours": rng.choice(["blue/red", "yellow/green"]),
        }
        games.append(GameState(len(games) + 1, (first, second), details=details))
        # A tie stands in the group rounds and is replayed in the last two rounds.
        if first != second or number < SEMI_FINALS:
            return tuple(games)


def play_round(
    plan: RoundPlan, rng: random.Random, vary: Variations = variations.NONE
) -> RoundState:
    matches = []
    # A director's override here changes seats (and so who is A, or who chooses).
    for planned in variations.override(plan.matches, rng, vary.overrides, swap=False):
        details: dict[str, Any] = dict(planned.details)
        if plan.number > 1 and not planned.is_bye:
            details["higher_seed_chose"] = rng.choice(["A", "B"])
        matches.append(
            MatchState(
                code=planned.code,
                round_number=plan.number,
                participants=planned.participants,
                games=random_games(planned, plan.number, rng, vary.draws),
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
    vary: Variations = variations.NONE,
) -> EventState:
    """Play an event from the first round to the final (or to round ``stop_after``).

    Tiebreaker games the engine asks for get a random winner. Returns the final state; its
    ``draws`` hold every draw made, so the event replays from it. ``vary``: late entries (up
    to the 32 the format takes), withdrawals between the group rounds (at most one a round,
    never leaving a group too small to send its players on: decisions 14, 22, 23), tie games
    and seat overrides. The format has no defaults: a player who does not play withdraws.
    """
    from rules.formats.freestyle.engine import ENGINE

    people = make_entrants(entrants, rng) if isinstance(entrants, int) else tuple(entrants)
    late = max(0, min(vary.late_entries, 32 - len(people)))
    people = variations.late_entrants(people, late, lambda n: _entrant(n, rng))
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
        played = play_round(outcome, rng, vary)
        state = replace(state, rounds=(*state.rounds, played))
        if played.number <= 3 and played.groups:
            state = _withdraw(state, played, rng, vary.withdrawals)
    raise RuntimeError("the simulated event did not finish")


def _withdraw(state: EventState, rnd: RoundState, rng: random.Random, rate: float) -> EventState:
    """At most one player leaves between group rounds, from a group that still sends its
    players on without him (Round 1 sends four, Rounds 2 and 3 two)."""
    needed = 4 if rnd.number == 1 else 2
    entrants = state.entrants_by_id
    size = {
        e: sum(1 for x in g.entrants if entrants[x].active_in_round(rnd.number))
        for g in rnd.groups
        for e in g.entrants
    }
    return variations.withdraw(
        state,
        rng,
        rate,
        rnd.number,
        keep=0,
        limit=1,
        eligible=lambda e: size.get(e.id, 0) > needed + 1,
    )


def play_event(count: int, rng: random.Random, vary: Variations = variations.NONE) -> EventState:
    """A whole event of ``count`` entrants, from ``rng`` alone: the entry point the registry
    finds (rules/registry.py) for ``simulate_event`` and the simulated demos."""
    return simulate_event(rng, count, vary=vary)
