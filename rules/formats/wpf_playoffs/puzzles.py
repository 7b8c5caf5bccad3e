"""Puzzle selection ("Puzzle Selection" in the rule document), as pure functions.

Puzzle GP mode: before each online round one player gets the highest pick priority and the
top of their preference list (used puzzles removed, reversed in some cases) is the round's
puzzle. Sudoku GP mode: "the puzzle selection for each round is predetermined". Live: "the
player with rank 1 (not seed 1) will choose that round's puzzle from the pool".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.contract import DrawSourceProtocol, Problem, Reason
from rules.words import message

from .schedule import Bracket, bracket_of, solving_later
from .words import RANDOM_LIST_PURPOSE

RULE = "Puzzle Selection"
REVERSED_LETTERS = ("C", "E", "F", "G")


@dataclass(frozen=True)
class Picker:
    """A player as pick priority sees them at the start of a round."""

    seed: int
    rank: int
    losses: int
    preferences: tuple[str, ...] | None  # None: no list submitted (virtual byes never have one)


def preference_list(flags: Mapping[str, Any], letter: str) -> Any:
    """The entrant's list for round ``letter``: flag ``puzzle_preferences`` is one list for
    every round, or a mapping from round letter to list."""
    raw = flags.get("puzzle_preferences")
    if isinstance(raw, Mapping):
        return raw.get(letter)
    return raw


def check_list(raw: Any, pool: Sequence[str], who: str, place: str) -> list[Problem]:
    """ "a preference list of all 8 puzzles": each puzzle of the pool exactly once."""
    if raw is None:
        return []
    if not isinstance(raw, list | tuple) or sorted(map(str, raw)) != sorted(pool):
        return [
            Problem(
                "wpf.preference_list",
                place,
                params={"pool": list(pool), "name": who, "count": len(pool)},
            )
        ]
    return []


def priority_key(letter: str, player: Picker) -> tuple[int, int, int, int]:
    """Smaller is higher priority: list submitted, still solving, bracket, then seed.

    "Players who did not submit a preference list have lower pick priority than players who
    did, regardless of bracket, seed, or rank." "Players who will no longer solve puzzles
    for the rest of the online stage have lower pick priority than players who do,
    regardless of bracket rules below." Winner's before Loser's before Placement; "If two
    players are in the same Bracket, the best-seeded (not ranked) player has higher pick
    priority."
    """
    order = {Bracket.WINNERS: 0, Bracket.LOSERS: 1, Bracket.PLACEMENT: 2}
    return (
        0 if player.preferences is not None else 1,
        0 if player.rank in solving_later(letter) else 1,
        order[bracket_of(player.losses)],
        player.seed,
    )


def _pick_bracket(bracket: Bracket) -> dict[str, Any]:
    """ "winners" in "(rank 2, winners bracket)", as a message."""
    if bracket is Bracket.WINNERS:
        return message("wpf.pick_bracket.winners")
    if bracket is Bracket.LOSERS:
        return message("wpf.pick_bracket.losers")
    return message("wpf.pick_bracket.placement")


def pick_order(letter: str, players: Sequence[Picker]) -> list[Picker]:
    return sorted(players, key=lambda p: priority_key(letter, p))


@dataclass(frozen=True)
class Pick:
    puzzle: str
    picker: int | None  # seed of the player whose list was used; None: a random list
    reversed: bool
    reasons: tuple[Reason, ...]


def choose_online(
    letter: str,
    players: Sequence[Picker],
    pool: Sequence[str],
    used: Sequence[str],
    draws: DrawSourceProtocol,
) -> Pick:
    """The puzzle of online round ``letter`` by the preference-list rules."""
    order = pick_order(letter, players)
    top = order[0] if order else None
    reasons: list[Reason] = []
    if top is None or top.preferences is None:
        original = draws.shuffle(
            f"puzzles/{letter}/random-list",
            list(pool),
            purpose=RANDOM_LIST_PURPOSE.format(letter=letter),
        )
        picker = None
        reasons.append(Reason("wpf.random_list", rule=RULE))
    else:
        original = list(top.preferences)
        picker = top.seed
        reasons.append(
            Reason(
                "wpf.pick_priority",
                rule=RULE,
                params={
                    "order": [p.seed for p in order],
                    "seed": top.seed,
                    "rank": top.rank,
                    "bracket": _pick_bracket(bracket_of(top.losses)),
                },
            )
        )
    remaining = [p for p in original if p not in used]
    unbeaten = [p.rank for p in players if p.losses == 0]
    flip = (
        top is not None
        and picker is not None
        and letter in REVERSED_LETTERS
        and top.losses == 0
        and top.rank == min(unbeaten)
    )
    if flip:
        remaining.reverse()
        reasons.append(Reason("wpf.reversed", rule=RULE, params={"letter": letter}))
    puzzle = remaining[0]
    reasons.append(Reason("wpf.puzzle", rule=RULE, params={"letter": letter, "puzzle": puzzle}))
    return Pick(puzzle, picker, flip, tuple(reasons))


def choose_fixed(letter: str, puzzles: Sequence[str], letters: Sequence[str]) -> Pick | None:
    """ "For Sudoku GP, the puzzle selection for each round is predetermined": the setting
    lists the puzzles in round order."""
    index = list(letters).index(letter)
    if index >= len(puzzles):
        return None
    puzzle = puzzles[index]
    return Pick(
        puzzle,
        None,
        False,
        (Reason("wpf.puzzle_fixed", rule=RULE, params={"letter": letter, "puzzle": puzzle}),),
    )


def live_options(pool: Sequence[str], used: Sequence[str]) -> list[str]:
    """ "Once a puzzle is selected, it is removed from the pool.\""""
    return [p for p in pool if p not in used]
