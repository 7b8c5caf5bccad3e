"""freestyle.txt: the fixed tables (group snake, groupings, digits, Round 1 roles)."""

from __future__ import annotations

import pytest

from rules.formats.freestyle.tables import (
    ROUND1_GROUPS,
    ROUND2_GROUPINGS,
    ROUND3_GROUPINGS,
    round1_a_seed,
    round2_grouping,
    round3_grouping,
    slot,
    snake_group,
)

DOCUMENT_TABLE = (
    (1, 8, 9, 16, 17, 24, 25),
    (2, 7, 10, 15, 18, 23, 26),
    (3, 6, 11, 14, 19, 22, 27),
    (4, 5, 12, 13, 20, 21, 28),
)


def test_round1_table_is_the_documents_snake() -> None:
    """ "1, 8, 9, 16, 17, 24, 25 / 2, 7, 10, 15, 18, 23, 26 / 3, 6, 11, ... / 4, 5, 12, ...\""""
    for group, row in enumerate(DOCUMENT_TABLE):
        assert [snake_group(n - 1) for n in row] == [group] * 7


def test_snake_extends_past_28() -> None:
    """Question 5: 29-32 continue the snake back from G (29 to G, 30 R, 31 Y, 32 B)."""
    assert [snake_group(n - 1) for n in (29, 30, 31, 32)] == [3, 2, 1, 0]


def test_round1_groups_are_named_b_y_r_g_in_table_order() -> None:
    """Question 3: the Round 2 table speaks of groups B, Y, R, G; they are the rows in order."""
    assert ROUND1_GROUPS == ("B", "Y", "R", "G")


@pytest.mark.parametrize("grouping", sorted(ROUND2_GROUPINGS))
def test_round2_groupings_take_each_place_once_from_different_groups(grouping: int) -> None:
    """ "Each Round 2 group has a #1, #2, #3, #4 from different Round 1 Groups"."""
    groups = ROUND2_GROUPINGS[grouping]
    assert sorted(c for g in groups for c in g) == sorted(
        f"{k}{n}" for k in "BYRG" for n in (1, 2, 3, 4)
    )
    for group in groups:
        assert sorted(slot(c)[0] for c in group) == sorted("BYRG")
        assert sorted(slot(c)[1] for c in group) == [1, 2, 3, 4]


def test_round2_grouping_1_as_printed() -> None:
    """ "1: (B1,Y2,R3,G4) . (B2,Y3,R4,G1) . (B3,Y4,R1,G2) . (B4,Y1,R2,G3)"."""
    assert ROUND2_GROUPINGS[1][0] == ("B1", "Y2", "R3", "G4")
    assert ROUND2_GROUPINGS[6][3] == ("B4", "Y3", "R2", "G1")


@pytest.mark.parametrize("grouping", sorted(ROUND3_GROUPINGS))
def test_round3_groupings_have_two_ones_and_two_twos_from_different_groups(grouping: int) -> None:
    """ "Round 3 groups are made up of two #1's and two #2's, all from different Round 2
    Groups" and "No matches are repeated from Round 2 to Round 3"."""
    for group in ROUND3_GROUPINGS[grouping]:
        assert sorted(slot(c)[1] for c in group) == [1, 1, 2, 2]
        assert sorted(slot(c)[0] for c in group) == sorted("TEBS")


def test_round2_digit_is_drawn_again_until_1_to_6() -> None:
    """ "the function is used repeatedly until a number in the range 1-6 comes up\""""
    assert [round2_grouping(d) for d in range(10)] == [None, 1, 2, 3, 4, 5, 6, None, None, None]


def test_round3_digits() -> None:
    """ "1, 4, 7: use grouping #1. 2, 5, 8: use grouping #2. 3, 6, 9: use grouping #3.
    0: try again.\""""
    assert [round3_grouping(d) for d in range(10)] == [None, 1, 2, 3, 1, 2, 3, 1, 2, 3]


def test_round1_roles_even_sum_higher_seed_is_a() -> None:
    """ "If the sum of the two seeds is even the higher seeded player is A\""""
    assert round1_a_seed(1, 3) == 1
    assert round1_a_seed(6, 2) == 2


def test_round1_roles_odd_sum_lower_seed_is_a() -> None:
    """ "and if the sum is odd, the lower seeded player is A.\""""
    assert round1_a_seed(1, 2) == 2
    assert round1_a_seed(7, 4) == 7


def test_seven_player_table_reconstructed() -> None:
    """Question 1: the blank seven-player table follows from the parity rule: each seed is A
    in exactly three of its six games."""
    a_count = dict.fromkeys(range(1, 8), 0)
    for i in range(1, 8):
        for j in range(i + 1, 8):
            a_count[round1_a_seed(i, j)] += 1
    assert a_count == dict.fromkeys(range(1, 8), 3)
