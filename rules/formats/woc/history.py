"""What each entrant did in the qualifying rounds: points, discs, colours, opponents, floats.

Standings (points, Brightwell, discs) and Swiss pairing both read this one tally, built from
the rounds of the first two days (stage ``swiss`` or ``round_robin``; the play-offs and the
third day are not part of it).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from rules.contract import EventState, MatchScore, MatchState, RoundStatus

FINAL_STAGES = ("playoff", "semi_final", "final", "other")


class Played(NamedTuple):
    """One game (or bye) of an entrant. A named tuple: a large field makes hundreds of
    thousands, and a frozen dataclass took six times as long to build."""

    round: int
    opponent: str | None  # None: a bye
    seat: int | None  # 0 Black, 1 White; None for a bye
    own: int
    other: int
    points: Fraction


@dataclass
class Record:
    points: Fraction = Fraction(0)
    discs: int = 0
    games: list[Played] = field(default_factory=list)
    opponents: Counter[str] = field(default_factory=Counter)
    # The direction of the entrant's last float ("up": met someone with more points).
    last_float: str | None = None
    floats: list[tuple[int, str]] = field(default_factory=list)

    @property
    def seats(self) -> list[int]:
        return [g.seat for g in self.games if g.seat is not None]

    @property
    def byes(self) -> int:
        return sum(1 for g in self.games if g.opponent is None)

    @property
    def rounds(self) -> set[int]:
        return {g.round for g in self.games}


@dataclass
class Tally:
    records: dict[str, Record]
    rounds: list[int]  # qualifying rounds that count (published or completed)
    # rounds in which each entrant was paired, played or not yet entered: a game still
    # waiting for its result is not an unplayed round (Appendix A 3)
    paired: dict[str, set[int]] = field(default_factory=dict)
    # Each entrant's points in whole numbers of 1/scale (``collect``): exact, and cheap to
    # add up and compare where Fractions are slow in a large field.
    scale: int = 1
    units: dict[str, int] = field(default_factory=dict)

    def record(self, entrant: str) -> Record:
        # not setdefault: that would build a Record (and its Counter) on every call
        found = self.records.get(entrant)
        if found is None:
            found = self.records[entrant] = Record()
        return found


def qualifying(stage: str) -> bool:
    return stage not in FINAL_STAGES


def collect(
    state: EventState,
    score: Callable[[MatchState], MatchScore],
    bye_points: Fraction,
    bye_discs: int,
) -> Tally:
    """Every counted round scored first, then added up in whole numbers of ``1/scale``
    (``scale`` a common denominator of every score): exact, and in a large field far
    cheaper than adding and comparing Fractions. ``Record.points`` is the same Fraction."""
    tally = Tally({e.id: Record() for e in state.entrants}, [])
    exact: dict[object, Fraction] = {}  # a match's points as Fractions, each value made once
    counted: list[tuple[int, list[_Scored]]] = []
    for rnd in state.rounds:
        if rnd.status is RoundStatus.DRAFT or not qualifying(rnd.stage):
            continue
        tally.rounds.append(rnd.number)
        paired = tally.paired
        scored: list[_Scored] = []
        for match in rnd.matches:
            ids = tuple(p.entrant for p in match.participants)
            for entrant in ids:
                if entrant is not None:
                    rounds = paired.get(entrant)
                    if rounds is None:
                        rounds = paired[entrant] = set()
                    rounds.add(rnd.number)
            found = _score(match, ids, score, exact)
            if found is not None:
                scored.append(found)
        counted.append((rnd.number, scored))
    scale = math.lcm(bye_points.denominator, *(f.denominator for f in exact.values()))
    # keyed by the engine's raw points (cheap to hash, unlike a Fraction)
    unit = {raw: f.numerator * (scale // f.denominator) for raw, f in exact.items()}
    bye_units = bye_points.numerator * (scale // bye_points.denominator)
    units = tally.units = dict.fromkeys(tally.records, 0)
    tally.scale = scale
    for number, scored in counted:
        before = dict(units)
        for black, white, black_discs, white_discs, black_points, white_points in scored:
            if white is None:
                _bye(tally, number, black, bye_points, bye_units, bye_discs)
                continue
            for seat, me, other, own, theirs, points in (
                (0, black, white, black_discs, white_discs, black_points),
                (1, white, black, white_discs, black_discs, white_points),
            ):
                record = tally.record(me)
                units[me] = units.get(me, 0) + unit[points]
                record.discs += own
                record.opponents[other] += 1
                record.games.append(Played(number, other, seat, own, theirs, exact[points]))
                mine, theirs_before = before.get(me, 0), before.get(other, 0)
                if mine != theirs_before:
                    direction = "up" if theirs_before > mine else "down"
                    record.last_float = direction
                    record.floats.append((number, direction))
    made: dict[int, Fraction] = {}
    for entrant, record in tally.records.items():
        count = units.setdefault(entrant, 0)
        total = made.get(count)
        if total is None:
            total = made[count] = Fraction(count, scale)
        record.points = total
    return tally


# A counted game, flat (one tuple each, kept until the adding up): the seat 0 and seat 1
# entrant ids, their discs and their points as the engine gave them (keys of ``exact``).
# A bye: the entrant and None.
_Scored = tuple[str, str | None, int, int, object, object]


def _score(
    match: MatchState,
    ids: tuple[str | None, ...],
    score: Callable[[MatchState], MatchScore],
    exact: dict[object, Fraction],
) -> _Scored | None:
    """``ids``: the match's entrant ids (``match.entrant_ids``)."""
    if len(ids) == 1:  # a bye
        entrant = ids[0]
        return None if entrant is None else (entrant, None, 0, 0, 0, 0)
    if len(ids) != 2 or ids[0] is None or ids[1] is None or not match.games:
        return None
    result = score(match)
    if not result.valid or not result.game_scores:
        return None
    discs = result.game_scores[0]
    first, second = result.points[0], result.points[1]
    for raw in (first, second):
        if raw not in exact:
            exact[raw] = Fraction(raw).limit_denominator(100)
    return ids[0], ids[1], int(discs[0] or 0), int(discs[1] or 0), first, second


def _bye(tally: Tally, number: int, entrant: str, points: Fraction, units: int, discs: int) -> None:
    record = tally.record(entrant)
    tally.units[entrant] = tally.units.get(entrant, 0) + units
    record.discs += discs
    record.games.append(Played(number, None, None, discs, 0, points))
