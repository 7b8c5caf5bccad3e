"""The Freestyle checker: clean simulated events, and records broken on purpose."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.checkers import audit, check
from rules.checkers import freestyle as fc
from rules.contract import EventState, GroupState
from rules.formats.freestyle.engine import ENGINE
from rules.formats.freestyle.simulate import simulate_event
from tests.rules.test_checkers_support import edit_match, edit_round, rules_of


def event(players: int, seed: int) -> EventState:
    return simulate_event(random.Random(seed), players)


@pytest.mark.parametrize(("players", "seed"), [(16, 0), (21, 1), (28, 2), (32, 3)])
def test_simulated_events_conform(players: int, seed: int) -> None:
    state = event(players, seed)
    report = audit(state, ENGINE.standings(state))
    assert report.violations == []


def test_the_snake_of_the_document() -> None:
    """'1, 8, 9, 16, 17, 24, 25' go to the first group; '4, 5, 12, 13 ...' to the fourth."""
    assert [i + 1 for i in range(28) if fc.snake(i) == 0] == [1, 8, 9, 16, 17, 24, 25]
    assert [i + 1 for i in range(28) if fc.snake(i) == 3] == [4, 5, 12, 13, 20, 21, 28]


def test_a_wrong_group_snake_is_reported() -> None:
    """Round 1: assigned to groups as shown in the table (the snake)."""
    state = event(20, 0)

    def swap(rnd):  # type: ignore[no-untyped-def]
        b, y, *rest = rnd.groups
        b2 = GroupState(b.key, b.label, (y.entrants[0], *b.entrants[1:]))
        y2 = GroupState(y.key, y.label, (b.entrants[0], *y.entrants[1:]))
        return dataclasses.replace(rnd, groups=(b2, y2, *rest))

    assert fc.SNAKE in rules_of(check(edit_round(state, 1, swap)))


def test_a_wrong_a_seat_is_reported() -> None:
    """'If the sum of the two seeds is even the higher seeded player is A.'"""
    state = event(16, 1)
    code = state.rounds[0].matches[0].code
    state = edit_match(
        state,
        1,
        code,
        lambda m: dataclasses.replace(
            m,
            participants=tuple(
                dataclasses.replace(p, role="B" if p.role == "A" else "A") for p in m.participants
            ),
        ),
    )
    assert fc.PARITY in rules_of(check(state))


def test_a_grouping_that_ignores_the_digit_is_reported() -> None:
    """'For Round 2, the function is used repeatedly until a number in the range 1-6.'"""
    state = event(16, 2)
    grouping = int(state.rounds[1].details["grouping"])
    state = edit_round(
        state,
        2,
        lambda r: dataclasses.replace(r, details={**r.details, "grouping": grouping % 6 + 1}),
    )
    assert fc.DIGIT2 in rules_of(check(state))


def test_an_unreplayed_tie_in_a_semi_final_is_reported() -> None:
    """'If a semi-final or final game is a tie game, it is replayed.'"""
    state = event(16, 3)
    state = edit_match(
        state,
        4,
        "SF1",
        lambda m: dataclasses.replace(m, games=(dataclasses.replace(m.games[-1], scores=(5, 5)),)),
    )
    assert fc.REPLAY in rules_of(check(state))
