"""The Freestyle checker: clean simulated events, and records broken on purpose."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from rules.checkers import audit, check
from rules.contract import EventState, GroupState
from rules.formats.freestyle import checker as fc
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


# -- the ranking chain (steps 1-9 of "Later Rounds") --------------------------------------


def _games(*results: tuple[str, str, int, int]) -> list[fc.Game]:
    return [(x, y, Fraction(a), Fraction(b)) for x, y, a, b in results]


def _order(players, current, earlier=None, tiebreak=None):  # type: ignore[no-untyped-def]
    by_round = {1: earlier or [], 2: current} if earlier is not None else {1: current}
    number = 2 if earlier is not None else 1
    steps = fc.chain_steps(number, by_round, current)
    return fc.rank_group(players, steps, tiebreak or (lambda tied: None))


def test_the_chain_counts_wins_first_then_head_to_head() -> None:
    """1. Number of wins; 2. head-to-head among just the tied players: B beat A, so B is
    above A although A has the better points difference; D beat C likewise."""
    current = _games(
        ("A", "B", 9, 10),
        ("A", "C", 20, 0),
        ("A", "D", 20, 0),
        ("B", "C", 0, 10),
        ("B", "D", 10, 9),
        ("C", "D", 0, 1),
    )
    assert _order(["A", "B", "C", "D"], current) == [["B"], ["A"], ["D"], ["C"]]


def test_a_circle_of_three_goes_to_the_points_difference() -> None:
    """A beat B, B beat C, C beat A: head-to-head cannot split them; 3. the game points
    difference in the whole group does (A +14, B +5, C +3)."""
    current = _games(
        ("A", "B", 10, 5),
        ("B", "C", 10, 2),
        ("C", "A", 10, 9),
        ("A", "D", 10, 0),
        ("B", "D", 10, 8),
        ("C", "D", 10, 0),
    )
    assert _order(["A", "B", "C", "D"], current) == [["A"], ["B"], ["C"], ["D"]]


def test_a_tie_in_the_current_round_goes_back_to_the_earlier_round() -> None:
    """Equal in every step of Round 2: 6. head-to-head from Round 1 decides (Y beat X)."""
    current = _games(("X", "Y", 5, 5), ("X", "Z", 10, 0), ("Y", "Z", 10, 0))
    earlier = _games(("X", "Y", 3, 8), ("X", "W", 10, 0), ("Y", "W", 0, 10))
    assert _order(["X", "Y", "Z"], current, earlier) == [["Y"], ["X"], ["Z"]]


def test_a_tie_nothing_breaks_waits_for_the_tiebreaker_game() -> None:
    """9. Finally, if need be, there is a tie-breaker game: unrecorded, the tie stands."""
    current = _games(("P", "Q", 5, 5), ("P", "R", 1, 0), ("Q", "R", 1, 0))
    assert _order(["P", "Q", "R"], current) == [["P", "Q"], ["R"]]
    decided = _order(["P", "Q", "R"], current, tiebreak=lambda tied: "Q")
    assert decided == [["Q"], ["P"], ["R"]]


def _standings_with(state: EventState, key: str, change):  # type: ignore[no-untyped-def]
    standings = ENGINE.standings(state)
    tables = tuple(
        dataclasses.replace(t, rows=change(list(t.rows))) if t.key == key else t
        for t in standings.tables
    )
    return dataclasses.replace(standings, tables=tables)


def test_a_group_table_out_of_the_chain_order_is_reported() -> None:
    """A Round 2 table that lists its #2 above its #1 breaks the ranking steps."""
    state = event(16, 4)
    key = f"round-2/group-{state.rounds[1].groups[0].key}"
    standings = _standings_with(state, key, lambda rows: [rows[1], rows[0], *rows[2:]])
    first = ENGINE.standings(state)
    top = next(t for t in first.tables if t.key == key).rows[0].entrant
    violations = [v for v in audit(state, standings).violations if v.rule == fc.CHAIN]
    assert [(v.where.round, v.where.entrant) for v in violations] == [(2, top)]


def test_a_round_two_group_off_its_places_is_reported() -> None:
    """Each Round 2 group is the grouping's #1, #2, #3, #4, seeded in that order."""
    state = event(16, 5)

    def reseed(rnd):  # type: ignore[no-untyped-def]
        first, *rest = rnd.groups
        flipped = GroupState(
            first.key, first.label, (first.entrants[1], first.entrants[0], *first.entrants[2:])
        )
        return dataclasses.replace(rnd, groups=(flipped, *rest))

    violations = [v for v in check(edit_round(state, 2, reseed)) if v.rule == fc.PLACES2]
    assert len(violations) == 1 and violations[0].where.round == 2


def test_semi_finals_must_pair_a_first_with_the_other_groups_second() -> None:
    """'Each semi-final has a #1 from one group and the #2 from the other group.'"""
    state = event(16, 6)
    sf1 = next(m for m in state.rounds[3].matches if m.code == "SF1")
    state = edit_match(
        state, 4, "SF1", lambda m: dataclasses.replace(m, participants=sf1.participants[::-1])
    )
    assert [v.where.match for v in check(state) if v.rule == fc.SEMIS] == ["SF1"]


def test_a_final_ranking_against_the_final_is_reported() -> None:
    """The winners of the two semi-finals play; 1st and 2nd come from the final."""
    state = event(16, 7)
    standings = _standings_with(state, "final", lambda rows: [rows[1], rows[0], *rows[2:]])
    assert fc.FINAL in rules_of(audit(state, standings).violations)
