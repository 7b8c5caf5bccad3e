"""The match table of the WPF GP Playoffs, kept as data in one place, and its checks.

Every match of the document's tables ("Brackets" and "Heats for the Live Stage") is one
:class:`MatchSpec`: its code, round letter, the two ranks it pairs, its bracket, its stage
and (live only) its heat. The engine plays the table in :data:`SESSIONS` order: the seven
online rounds A-G (online matches of F and G only), then the five live heats.

:func:`check_brackets` walks every possible sequence of results and checks that in each
match the two players' loss counts fit its bracket. The document's change log says the
table once had wrong opponents (E3, E4, E11, E12, corrected August 30th), so the check is
part of the test suite; a failure names the match.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rules.words import gettext_noop as _
from rules.words import message
from rules.words_common import ROUND

from .words import HEAT, ONLINE_ROUND

PLAYERS = 16
ONLINE_TIME_LIMIT = 20 * 60  # "Each round has a maximum time of 20 minutes."
ONLINE_WRONG_TIME = 22 * 60  # "official time ... is 22 minutes if their submission is incorrect"
LIVE_LIMIT = 10 * 60  # "the competitor with the worse seed ... wins ... in less than 10 minutes"
LIVE_PENALTY = 60  # "The punishment for an incorrect answer is a one-minute penalty."


class Bracket(enum.StrEnum):
    WINNERS = "winners"
    LOSERS = "losers"
    PLACEMENT = "placement"
    CHAMPIONSHIP = "championship"


class Stage(enum.StrEnum):
    ONLINE = "online"
    LIVE = "live"


BRACKET_LABELS = {
    Bracket.WINNERS: _("Winner's Bracket"),
    Bracket.LOSERS: _("Loser's Bracket"),
    Bracket.PLACEMENT: _("Placement Bracket"),
    Bracket.CHAMPIONSHIP: _("Championship"),
}


def bracket_words(bracket: Bracket) -> dict[str, Any]:
    """The bracket's label as a message, for a sentence that names it."""
    return {
        Bracket.WINNERS: message("wpf.bracket.winners"),
        Bracket.LOSERS: message("wpf.bracket.losers"),
        Bracket.PLACEMENT: message("wpf.bracket.placement"),
        Bracket.CHAMPIONSHIP: message("wpf.bracket.championship"),
    }[bracket]


@dataclass(frozen=True)
class MatchSpec:
    code: str
    letter: str  # the round letter A-H
    better: int  # the better (smaller) rank of the pair
    worse: int
    bracket: Bracket
    stage: Stage
    heat: int | None = None  # live heats 1-5

    @property
    def ranks(self) -> tuple[int, int]:
        return (self.better, self.worse)


@dataclass(frozen=True)
class Session:
    """One engine round: an online round letter, or a live heat."""

    number: int  # engine round number, 1-12
    letter: str
    stage: Stage
    heat: int | None
    label: str
    matches: tuple[MatchSpec, ...]


_W, _L, _P, _C = Bracket.WINNERS, Bracket.LOSERS, Bracket.PLACEMENT, Bracket.CHAMPIONSHIP

# (code, better rank, worse rank, bracket) by round letter, as in the document's table.
_ONLINE: dict[str, tuple[tuple[str, int, int, Bracket], ...]] = {
    "A": (
        ("A1", 1, 16, _W),
        ("A2", 2, 15, _W),
        ("A3", 3, 14, _W),
        ("A4", 4, 13, _W),
        ("A5", 5, 12, _W),
        ("A6", 6, 11, _W),
        ("A7", 7, 9, _W),
        ("A8", 8, 10, _W),
    ),
    "B": (
        ("B1", 1, 8, _W),
        ("B2", 2, 7, _W),
        ("B3", 3, 6, _W),
        ("B4", 4, 5, _W),
        ("B9", 9, 16, _L),
        ("B10", 10, 15, _L),
        ("B11", 11, 14, _L),
        ("B12", 12, 13, _L),
    ),
    "C": (("C5", 5, 12, _L), ("C6", 6, 11, _L), ("C7", 7, 10, _L), ("C8", 8, 9, _L)),
    "D": (
        ("D1", 1, 4, _W),
        ("D2", 2, 3, _W),
        ("D5", 5, 8, _L),
        ("D6", 6, 7, _L),
        ("D9", 9, 12, _P),
        ("D10", 10, 11, _P),
        ("D13", 13, 16, _P),
        ("D14", 14, 15, _P),
    ),
    "E": (
        ("E3", 3, 5, _L),
        ("E4", 4, 6, _L),
        ("E7", 7, 9, _P),
        ("E8", 8, 10, _P),
        ("E11", 11, 13, _P),
        ("E12", 12, 14, _P),
    ),
    "F": (
        ("F5", 5, 6, _P),
        ("F7", 7, 8, _P),
        ("F9", 9, 10, _P),
        ("F11", 11, 12, _P),
        ("F13", 13, 14, _P),
        ("F15", 15, 16, _P),
    ),
    "G": (
        ("G6", 6, 7, _P),
        ("G8", 8, 9, _P),
        ("G10", 10, 11, _P),
        ("G12", 12, 13, _P),
        ("G14", 14, 15, _P),
    ),
}

# (heat, round letter, code, better rank, worse rank, bracket): "Heats for the Live Stage".
_LIVE: tuple[tuple[int, str, str, int, int, Bracket], ...] = (
    (1, "F", "F1", 1, 2, _W),
    (1, "F", "F3", 3, 4, _L),
    (2, "G", "G2", 2, 3, _L),
    (2, "G", "G4", 4, 5, _P),
    (3, "H", "H7", 7, 8, _P),
    (3, "H", "H9", 9, 10, _P),
    (4, "H", "H3", 3, 4, _P),
    (4, "H", "H5", 5, 6, _P),
    (5, "H", "FINAL", 1, 2, _C),
)

ONLINE_LETTERS = tuple(_ONLINE)  # A-G: "At most 7 puzzles will be used in the online stage."
LIVE_LETTERS = ("F", "G", "H")


def _build() -> tuple[Session, ...]:
    sessions: list[Session] = []
    for letter, rows in _ONLINE.items():
        specs = tuple(MatchSpec(c, letter, a, b, k, Stage.ONLINE) for c, a, b, k in rows)
        label = (ONLINE_ROUND if letter in LIVE_LETTERS else ROUND).format(n=letter)
        sessions.append(Session(len(sessions) + 1, letter, Stage.ONLINE, None, label, specs))
    for heat in sorted({row[0] for row in _LIVE}):
        rows_ = [row for row in _LIVE if row[0] == heat]
        letter = rows_[0][1]
        specs = tuple(MatchSpec(c, lt, a, b, k, Stage.LIVE, h) for h, lt, c, a, b, k in rows_)
        label = HEAT.format(heat=heat, letter=letter)
        sessions.append(Session(len(sessions) + 1, letter, Stage.LIVE, heat, label, specs))
    return tuple(sessions)


SESSIONS: tuple[Session, ...] = _build()
MATCHES: dict[str, MatchSpec] = {m.code: m for s in SESSIONS for m in s.matches}


def session(number: int) -> Session:
    return SESSIONS[number - 1]


def online_matches() -> list[MatchSpec]:
    return [m for m in MATCHES.values() if m.stage is Stage.ONLINE]


def live_matches() -> list[MatchSpec]:
    return [m for m in MATCHES.values() if m.stage is Stage.LIVE]


def solving_later(letter: str) -> set[int]:
    """Ranks that still have an online match in round ``letter`` or a later online round."""
    if letter not in ONLINE_LETTERS:
        return set()
    start = ONLINE_LETTERS.index(letter)
    later = ONLINE_LETTERS[start:]
    return {r for m in online_matches() if m.letter in later for r in m.ranks}


def bracket_of(losses: int) -> Bracket:
    """ "The Winner's Bracket is for matches involving players who have not lost any
    matches" / exactly one / two or more."""
    if losses == 0:
        return Bracket.WINNERS
    if losses == 1:
        return Bracket.LOSERS
    return Bracket.PLACEMENT


def fits(bracket: Bracket, losses: tuple[int, int]) -> bool:
    """Whether two players with these loss counts may meet in a match of ``bracket``.

    The championship final (not one of the document's three brackets) pairs the only two
    players who may still win: the unbeaten one and the one with one loss."""
    if bracket is Bracket.CHAMPIONSHIP:
        return sorted(losses) == [0, 1]
    return all(bracket_of(n) is bracket for n in losses)


@dataclass(frozen=True)
class Misfit:
    code: str
    bracket: Bracket
    losses: tuple[int, int]
    path: tuple[str, ...]  # the results that lead there: "A1:worse" ...

    @property
    def text(self) -> str:
        return (
            f"Match {self.code} is in the {BRACKET_LABELS[self.bracket]}, but after "
            f"{', '.join(self.path) or 'no results'} its players have lost "
            f"{self.losses[0]} and {self.losses[1]} matches."
        )


def _states() -> Iterator[tuple[MatchSpec, tuple[int, ...], tuple[str, ...]]]:
    """Every (match, losses by rank before it, results that led there) of the playoff.

    Losses are capped at 2 ("two or more"), which keeps the walk small: states that agree
    on capped losses behave alike, so each is expanded once per match."""
    frontier: dict[tuple[int, ...], tuple[str, ...]] = {(0,) * PLAYERS: ()}
    for item in SESSIONS:
        for spec in item.matches:
            following: dict[tuple[int, ...], tuple[str, ...]] = {}
            for losses, path in frontier.items():
                yield spec, losses, path
                a, b = spec.better - 1, spec.worse - 1
                kept = list(losses)
                kept[b] = min(2, kept[b] + 1)
                swapped = list(losses)
                swapped[a], swapped[b] = losses[b], min(2, losses[a] + 1)
                following.setdefault(tuple(kept), (*path, f"{spec.code}:better"))
                following.setdefault(tuple(swapped), (*path, f"{spec.code}:worse"))
            frontier = following


def check_brackets() -> list[Misfit]:
    """Matches whose players' losses do not fit their bracket after some results."""
    misfits: list[Misfit] = []
    seen: set[str] = set()
    for spec, losses, path in _states():
        pair = (losses[spec.better - 1], losses[spec.worse - 1])
        if spec.code not in seen and not fits(spec.bracket, pair):
            seen.add(spec.code)
            misfits.append(Misfit(spec.code, spec.bracket, pair, path))
    return misfits


def check_table() -> list[str]:
    """Plain checks of the table's shape, as sentences (empty: the table is sound)."""
    problems: list[str] = []
    online = online_matches()
    if len(online) != 45:
        problems.append(f"The online stage has {len(online)} matches; the document says 45.")
    if len(live_matches()) != 9:
        problems.append(f"The live stage has {len(live_matches())} matches; the document says 9.")
    for item in SESSIONS:
        ranks = [r for m in item.matches for r in m.ranks]
        if len(ranks) != len(set(ranks)):
            problems.append(f"{item.label} pairs a rank twice.")
    for spec in MATCHES.values():
        if not 1 <= spec.better < spec.worse <= PLAYERS:
            problems.append(f"Match {spec.code} pairs ranks {spec.better} and {spec.worse}.")
    return problems
