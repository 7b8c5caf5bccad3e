"""The fixed tables of the Freestyle rules: group snake, groupings, digits, Round 1 roles.

Everything here is data from freestyle.txt or a pure function of it, kept apart from the
engine so that the tests can check the tables against the document line by line.
"""

from __future__ import annotations

from rules.words import gettext_noop as _
from rules.words_common import ROUND

# Round numbers of the event. Rounds 1-3 are group rounds; 4 and 5 are the "last two rounds"
# in which tie games are replayed (open question 13).
GROUP_ROUNDS = (1, 2, 3)
SEMI_FINALS = 4
FINALS = 5
ROUND_LABELS = {
    1: ROUND.format(n=1),
    2: ROUND.format(n=2),
    3: ROUND.format(n=3),
    SEMI_FINALS: _("Semi-finals"),
    FINALS: _("Final and third place"),
}

# Round 1 groups in the order of the document's table rows (open question 3).
ROUND1_GROUPS = ("B", "Y", "R", "G")
ROUND1_GROUP_NAMES = {"B": _("Blue"), "Y": _("Yellow"), "R": _("Red"), "G": _("Green")}

# "The top 4 of each Round 1 group ... will advance"; "The top two players from each
# Round 2 group"; "The top two players from each Round 3 group advance".
ADVANCE = {1: 4, 2: 2, 3: 2}

MIN_ENTRANTS = 16  # Round 2 needs a #1 to #4 from every Round 1 group.

# Round 2 groups are named T, E, B, S in the printed order of each grouping (question 16).
ROUND2_GROUPS = ("T", "E", "B", "S")
ROUND2_GROUPINGS: dict[int, tuple[tuple[str, ...], ...]] = {
    1: (("B1", "Y2", "R3", "G4"), ("B2", "Y3", "R4", "G1"), ("B3", "Y4", "R1", "G2"),
        ("B4", "Y1", "R2", "G3")),
    2: (("B1", "Y2", "R4", "G3"), ("B2", "Y4", "R3", "G1"), ("B3", "Y1", "R2", "G4"),
        ("B4", "Y3", "R1", "G2")),
    3: (("B1", "Y3", "R2", "G4"), ("B2", "Y4", "R1", "G3"), ("B3", "Y1", "R4", "G2"),
        ("B4", "Y2", "R3", "G1")),
    4: (("B1", "Y3", "R4", "G2"), ("B2", "Y1", "R3", "G4"), ("B3", "Y4", "R2", "G1"),
        ("B4", "Y2", "R1", "G3")),
    5: (("B1", "Y4", "R2", "G3"), ("B2", "Y3", "R1", "G4"), ("B3", "Y2", "R4", "G1"),
        ("B4", "Y1", "R3", "G2")),
    6: (("B1", "Y4", "R3", "G2"), ("B2", "Y1", "R4", "G3"), ("B3", "Y2", "R1", "G4"),
        ("B4", "Y3", "R2", "G1")),
}  # fmt: skip

# Round 3 groups are numbered 1 and 2 in the printed order of each grouping.
ROUND3_GROUPS = ("1", "2")
ROUND3_GROUPINGS: dict[int, tuple[tuple[str, ...], ...]] = {
    1: (("T1", "E1", "B2", "S2"), ("B1", "S1", "T2", "E2")),
    2: (("T1", "B1", "E2", "S2"), ("E1", "S1", "T2", "B2")),
    3: (("T1", "S1", "B2", "E2"), ("B1", "E1", "T2", "S2")),
}
# "1, 4, 7: use grouping #1. 2, 5, 8: use grouping #2. 3, 6, 9: use grouping #3. 0: try again."
ROUND3_DIGITS = {1: 1, 4: 1, 7: 1, 2: 2, 5: 2, 8: 2, 3: 3, 6: 3, 9: 3}


def round2_grouping(digit: int) -> int | None:
    """The grouping a digit chooses for Round 2, or None: "repeatedly until ... 1-6"."""
    return digit if 1 <= digit <= 6 else None


def round3_grouping(digit: int) -> int | None:
    """The grouping a digit chooses for Round 3, or None for 0 ("try again")."""
    return ROUND3_DIGITS.get(digit)


def snake_group(index: int) -> int:
    """The Round 1 group (0-3) of the player at ``index`` (0-based) of the rating order.

    The document's table is a snake: 1-4 go to groups 1-4, 5-8 back from 4 to 1, and so on
    (1, 8, 9, 16, 17, 24, 25 / 2, 7, 10, 15, ...); extended naturally past 28.
    """
    block, position = divmod(index, 4)
    return position if block % 2 == 0 else 3 - position


def round1_a_seed(first: int, second: int) -> int:
    """Which of two Round 1 group seeds is A.

    "If the sum of the two seeds is even the higher seeded player is A, and if the sum is
    odd, the lower seeded player is A." Seed 1 is the highest.
    """
    higher, lower = min(first, second), max(first, second)
    return higher if (first + second) % 2 == 0 else lower


def slot(code: str) -> tuple[str, int]:
    """ "B3" -> ("B", 3)."""
    return code[0], int(code[1:])
