"""Builders shared by the Freestyle tests (and a check that they build what they say)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.contract import (
    DrawMethod,
    DrawRecord,
    EntrantState,
    EventState,
    GameState,
    GroupState,
    MatchState,
    Participant,
    PlannedMatch,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.freestyle import ENGINE

Scores = Sequence[tuple[int, int]]


def players(count: int, *, first_rating: int = 2000) -> tuple[EntrantState, ...]:
    """p01 (highest rating) to pNN, ratings 10 apart."""
    return tuple(
        EntrantState(id=f"p{i:02d}", name=f"Player {i}", rating=first_rating - 10 * i)
        for i in range(1, count + 1)
    )


def event(
    entrants: Sequence[EntrantState],
    rounds: Sequence[RoundState] = (),
    draws: Iterable[DrawRecord] = (),
    **settings: Any,
) -> EventState:
    return EventState("freestyle", settings, tuple(entrants), tuple(rounds), tuple(draws))


def recorded(**values: Any) -> list[DrawRecord]:
    """recorded(**{"round-2/grouping/1": 3}) -> draw records typed in by the director."""
    return [DrawRecord(k, v, DrawMethod.EXTERNAL) for k, v in values.items()]


def source(state: EventState, seed: str = "test") -> DrawSource:
    return DrawSource(seed, state.draws)


def higher_seed_wins(planned: PlannedMatch, number: int) -> Scores:
    """Seat order is by seed in later rounds; in Round 1 use the group seeds."""
    seeds = [
        p.details.get("group_seed", p.details.get("seed", i))
        for i, p in enumerate(planned.participants)
    ]
    margin = abs(seeds[0] - seeds[1]) + 1
    return [(20, 20 - margin)] if seeds[0] < seeds[1] else [(20 - margin, 20)]


def played(
    plan: RoundPlan,
    result: Callable[[PlannedMatch, int], Scores] = higher_seed_wins,
    details: Callable[[PlannedMatch], Mapping[str, Any]] | None = None,
) -> RoundState:
    matches = []
    for planned in plan.matches:
        games = () if planned.is_bye else result(planned, plan.number)
        matches.append(
            MatchState(
                code=planned.code,
                round_number=plan.number,
                participants=planned.participants,
                games=tuple(GameState(i + 1, s) for i, s in enumerate(games)),
                group=planned.group,
                details={**planned.details, **(details(planned) if details else {})},
            )
        )
    return RoundState(
        plan.number,
        plan.label,
        RoundStatus.COMPLETED,
        tuple(matches),
        plan.stage,
        plan.groups,
        plan.details,
    )


def advance(
    state: EventState,
    result: Callable[[PlannedMatch, int], Scores] = higher_seed_wins,
    seed: str = "test",
) -> EventState:
    """Plan the next round with seeded draws and play it with ``result``."""
    draws = source(state, seed)
    plan = ENGINE.next_round(state, draws)
    assert isinstance(plan, RoundPlan), plan
    return replace(
        state,
        rounds=(*state.rounds, played(plan, result)),
        draws=state.draws + tuple(draws.new),
    )


def group_round(
    number: int,
    groups: Mapping[str, Sequence[str]],
    results: Mapping[tuple[str, str], tuple[int, int]],
) -> RoundState:
    """A group round by hand: ``results[(x, y)]`` is x's and y's game points."""
    matches = []
    for key, members in groups.items():
        for x, y in results:
            if x in members and y in members:
                matches.append(
                    MatchState(
                        code=f"R{number}-{key}-{len(matches) + 1}",
                        round_number=number,
                        participants=(Participant(x, "A"), Participant(y, "B")),
                        games=(GameState(1, results[(x, y)]),),
                        group=key,
                    )
                )
    return RoundState(
        number,
        f"Round {number}",
        RoundStatus.COMPLETED,
        tuple(matches),
        "groups",
        tuple(GroupState(k, f"Group {k}", tuple(v)) for k, v in groups.items()),
    )


def named(ids: Iterable[str]) -> tuple[EntrantState, ...]:
    return tuple(EntrantState(id=i, name=i.upper()) for i in ids)


def order(state: EventState, number: int, group: str) -> list[str]:
    table = ENGINE.standings(state).table(f"round-{number}/group-{group}")
    return [row.entrant for row in table.rows]


def test_builders_make_a_round_robin() -> None:
    state = event(players(28))
    after = advance(state)
    assert len(after.rounds[0].matches) == 4 * 21
    assert order(after, 1, "B") == ["p01", "p08", "p09", "p16", "p17", "p24", "p25"]
