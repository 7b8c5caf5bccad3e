"""Builders for the checker tests: edit one match or round of a simulated record."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from rules.checkers import Violation
from rules.contract import EventState, MatchState, Participant, RoundState


def edit_round(
    state: EventState, number: int, change: Callable[[RoundState], RoundState]
) -> EventState:
    rounds = tuple(change(r) if r.number == number else r for r in state.rounds)
    return dataclasses.replace(state, rounds=rounds)


def edit_match(
    state: EventState, number: int, code: str, change: Callable[[MatchState], MatchState]
) -> EventState:
    def on_round(rnd: RoundState) -> RoundState:
        matches = tuple(change(m) if m.code == code else m for m in rnd.matches)
        return dataclasses.replace(rnd, matches=matches)

    return edit_round(state, number, on_round)


def swap_players(
    state: EventState, number: int, code_a: str, seat_a: int, code_b: str, seat_b: int
) -> EventState:
    """Exchange two participants between two matches of one round."""
    rnd = next(r for r in state.rounds if r.number == number)
    by_code = {m.code: m for m in rnd.matches}
    a = by_code[code_a].participants[seat_a]
    b = by_code[code_b].participants[seat_b]

    def put(match: MatchState, seat: int, who: Participant) -> MatchState:
        people = list(match.participants)
        people[seat] = dataclasses.replace(people[seat], entrant=who.entrant)
        return dataclasses.replace(match, participants=tuple(people))

    state = edit_match(state, number, code_a, lambda m: put(m, seat_a, b))
    return edit_match(state, number, code_b, lambda m: put(m, seat_b, a))


def with_details(match: MatchState, **details: Any) -> MatchState:
    return dataclasses.replace(match, details={**match.details, **details})


def rules_of(violations: list[Violation]) -> list[str]:
    return [v.rule for v in violations]


def test_support_edits_one_round_only() -> None:
    state = EventState(
        "x",
        {},
        (),
        (
            RoundState(1, "R1", "completed"),  # type: ignore[arg-type]
            RoundState(2, "R2", "completed"),
        ),
    )  # type: ignore[arg-type]
    edited = edit_round(state, 2, lambda r: dataclasses.replace(r, label="changed"))
    assert [r.label for r in edited.rounds] == ["R1", "changed"]
