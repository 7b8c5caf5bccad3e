"""A WOF file's published list beside its games: each player's points and discs as the games
give them, the differences, and whether the games cover fewer rounds or players than the list
says (a truncated file).

The games' points: 1 a win, 1/2 a draw, ``bye_points`` a bye. Their discs: the official score
(woc IV.8: empty squares to the winner, a draw 32-32; a result the record decides keeps its
discs as written), ``bye_discs`` a bye; a player with a game without discs has no known disc
count. The list counts the qualifying rounds (PAPP); some files count the games after them too:
whichever of the two agrees with more players is the list's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.contract import GameState
from rules.formats.woc.scoring import score_game
from rules.formats.woc.wof import Note, WofFile, WofGame, WofPlayer
from rules.words import message


@dataclass
class Tally:
    halves: int = 0  # points, counted in half points
    discs: int | None = 0
    games: int = 0  # games and byes: the most points they can give

    @property
    def points(self) -> Fraction:
        return Fraction(self.halves, 2)


@dataclass(frozen=True)
class Difference:
    player: int
    what: str  # "points" or "discs"
    listed: Fraction | int
    games: Fraction | int

    @property
    def what_said(self) -> dict[str, Any]:
        """``what`` as a message, for a page in the reader's language."""
        if self.what == "points":
            return message("wof.difference.points")
        return message("wof.difference.discs")


@dataclass(frozen=True)
class Reading:
    """One way of counting the file's games that a list may follow."""

    implied: bool = False  # byes where a listed player is missing (PAPP writes none)
    bye_discs: int = 32  # a bye's discs: 32, PAPP's 40 or FlipTheDisc's 0
    counts_added: bool = False  # the games after the rounds count too
    as_written: bool = False  # discs as written, without empty squares to the winner

    @property
    def rank(self) -> int:
        """How far from the file as written: the nearer wins a tie."""
        return int(self.implied) + int(self.counts_added) + int(self.as_written)


@dataclass(frozen=True)
class CrossCheck:
    differences: tuple[Difference, ...] = ()
    truncated: Note | None = None
    reading: Reading = field(default_factory=lambda: Reading())
    compared: int = 0  # listed players with a published score
    tallies: dict[int, Tally] = field(default_factory=dict)
    # byes the list counts but the file leaves out (PAPP writes no line for a bye): round ->
    # ids, given ``reading.bye_discs`` discs each
    implied_byes: dict[int, list[int]] = field(default_factory=dict)

    @property
    def note(self) -> Note | None:
        if not self.implied_byes:
            return None
        count = sum(len(ids) for ids in self.implied_byes.values())
        return Note("wof.implied_byes", params={"byes": count, "bye_discs": self.reading.bye_discs})


def official(
    game: WofGame, *, as_written: bool = False
) -> tuple[tuple[int, int] | None, tuple[Fraction, Fraction]]:
    """The official discs (None when the file gives none) and the points of Black and White;
    ``as_written``: the discs as the file writes them (no empty squares to the winner)."""
    details = {}
    if game.decided:
        details["decided"] = {"<": "white", ">": "black", "=": "draw"}[game.result]
    result, _ = score_game(
        GameState(1, (game.black_discs, game.white_discs), details=details), "game"
    )
    half = Fraction(1, 2)
    if result is None:  # not reached for a file the reader accepted
        return None, (half, half)
    points = (Fraction(result.points[0]), Fraction(result.points[1]))
    if game.black_discs is None or game.white_discs is None:
        return None, points
    return ((game.black_discs, game.white_discs) if as_written else result.scores), points


@dataclass(frozen=True)
class Scored:
    """A game scored once: its players, official discs, discs as written, points."""

    black: int
    white: int
    discs: tuple[int, int] | None
    written: tuple[int, int] | None
    halves: tuple[int, int]  # points in half points

    @classmethod
    def of(cls, game: WofGame) -> Scored:
        discs, points = official(game)
        written = None
        if discs is not None and game.black_discs is not None and game.white_discs is not None:
            written = (game.black_discs, game.white_discs)
        return cls(game.black, game.white, discs, written, (int(points[0] * 2), int(points[1] * 2)))


def tally(
    data: WofFile,
    games: Iterable[Scored],
    byes: Mapping[int, Sequence[int]],
    *,
    bye_points: Fraction,
    bye_discs: int,
    as_written: bool = False,
) -> dict[int, Tally]:
    out = {p.id: Tally() for p in data.players}
    for game in games:
        discs = game.written if as_written else game.discs
        for seat, ident in enumerate((game.black, game.white)):
            row = out.setdefault(ident, Tally())
            row.halves += game.halves[seat]
            row.games += 1
            if discs is None or row.discs is None:
                row.discs = None
            else:
                row.discs += discs[seat]
    for ids in byes.values():
        for ident in ids:
            row = out.setdefault(ident, Tally())
            row.halves += int(bye_points * 2)
            row.games += 1
            row.discs = None if row.discs is None else row.discs + bye_discs
    return out


def implied_byes(data: WofFile) -> dict[int, list[int]]:
    """Listed players missing from a numbered round who play in a later one, and the one
    listed player missing from the last round when only one is (an odd field)."""
    if not data.rounds_known or not data.listed:
        return {}
    playing = [
        {i for g in r for i in (g.black, g.white)} | set(data.byes.get(n, ()))
        for n, r in enumerate(data.rounds, start=1)
    ]
    listed = [p.id for p in data.players if p.listed]
    out: dict[int, list[int]] = {}
    for index, here in enumerate(playing):
        later = set().union(*playing[index + 1 :]) if index + 1 < len(playing) else set()
        missing = [i for i in listed if i not in here and i in later]
        if index + 1 == len(playing) and index > 0:
            gone = [i for i in listed if i not in here and i in playing[index - 1]]
            missing = gone if len(gone) == 1 else []
        if missing:
            out[index + 1] = missing
    return out


def _differences(players: Iterable[WofPlayer], tallies: dict[int, Tally]) -> list[Difference]:
    found = []
    for player in players:
        row = tallies.get(player.id, Tally())
        if player.score is not None and player.score != row.points:
            found.append(Difference(player.id, "points", player.score, row.points))
        if player.discs is not None and row.discs is not None and player.discs != row.discs:
            found.append(Difference(player.id, "discs", player.discs, row.discs))
    return found


def _readings(data: WofFile, implied: bool) -> list[Reading]:
    byes = bool(data.byes) or implied
    return [
        Reading(i, d, a, w)
        for i in ((False, True) if implied else (False,))
        for d in ((32, 40, 0) if byes else (32,))
        for a in ((False, True) if data.added else (False,))
        for w in (False, True)
    ]


def cross_check(data: WofFile, *, bye_points: Fraction = Fraction(1)) -> CrossCheck:
    """The list beside the games, under the reading of byes, discs and added results that
    agrees with the list best (fewest differences; the file as written wins a tie)."""
    listed = [p for p in data.players if p.listed and p.score is not None]
    if not listed:
        return CrossCheck()
    rounds = [Scored.of(g) for r in data.rounds for g in r]
    added = [Scored.of(g) for g in data.added]
    implied = implied_byes(data)
    every_bye = {
        n: [*data.byes.get(n, ()), *implied.get(n, ())] for n in set(data.byes) | set(implied)
    }
    best: tuple[tuple[int, int], Reading, list[Difference], dict[int, Tally]] | None = None
    for reading in _readings(data, bool(implied)):
        tallies = tally(
            data,
            rounds + added if reading.counts_added else rounds,
            every_bye if reading.implied else data.byes,
            bye_points=bye_points,
            bye_discs=reading.bye_discs,
            as_written=reading.as_written,
        )
        found = _differences(listed, tallies)
        key = (len(found), reading.rank)
        if best is None or key < best[0]:
            best = (key, reading, found, tallies)
    assert best is not None
    _key, reading, found, tallies = best
    return CrossCheck(
        tuple(found),
        _truncated(data, listed, tallies),
        reading,
        len(listed),
        tallies,
        implied if reading.implied else {},
    )


def _truncated(data: WofFile, listed: list[WofPlayer], tallies: dict[int, Tally]) -> Note | None:
    """The list says more was played than the file holds: a listed player with points or
    discs and no game at all, or more points than games."""
    listed = [p for p in listed if p.id >= 0]  # '??????' players cannot be found in games
    absent = [
        p.id
        for p in listed
        if tallies.get(p.id, Tally()).games == 0 and ((p.score or 0) > 0 or (p.discs or 0) > 0)
    ]
    short = [p for p in listed if (p.score or 0) > tallies.get(p.id, Tally()).games > 0]
    if not absent and not short:
        return None
    parts = []
    if short:
        most = max(short, key=lambda p: p.score or 0)
        parts.append(
            message(
                "wof.cut_short.short",
                count=len(short),
                id=most.id,
                points=_show(most.score or 0),
                games=tallies[most.id].games,
            )
        )
    if absent:
        parts.append(
            message("wof.cut_short.absent", count=len(absent), listed=len(listed), id=absent[0])
        )
    found = (
        parts[0]
        if len(parts) == 1
        else message("wof.cut_short.both", short=parts[0], absent=parts[1])
    )
    # not "wof.truncated": the web side's refusal of such a file has that code, and its own text
    return Note(
        "wof.cut_short",
        params={
            "found": found,
            "absent": absent[:20],
            "absent_count": len(absent),
            "short": [p.id for p in short][:20],
            "short_count": len(short),
            "rounds": len(data.rounds),
        },
    )


def _show(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
