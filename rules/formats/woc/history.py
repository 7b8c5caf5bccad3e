"""What each entrant did in the qualifying rounds: points, discs, colours, opponents, floats.

Standings (points, Brightwell, discs) and Swiss pairing both read this one tally, built from
the rounds of the first two days (stage ``swiss`` or ``round_robin``; the play-offs and the
third day are not part of it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from rules.contract import EventState, MatchScore, MatchState, RoundStatus

FINAL_STAGES = ("playoff", "semi_final", "final", "other")


@dataclass(frozen=True)
class Played:
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

    def record(self, entrant: str) -> Record:
        return self.records.setdefault(entrant, Record())


def qualifying(stage: str) -> bool:
    return stage not in FINAL_STAGES


def collect(
    state: EventState,
    score: Callable[[MatchState], MatchScore],
    bye_points: Fraction,
    bye_discs: int,
) -> Tally:
    tally = Tally({e.id: Record() for e in state.entrants}, [])
    for rnd in state.rounds:
        if rnd.status is RoundStatus.DRAFT or not qualifying(rnd.stage):
            continue
        tally.rounds.append(rnd.number)
        before = {e: r.points for e, r in tally.records.items()}
        for match in rnd.matches:
            for entrant in match.entrant_ids:
                if entrant is not None:
                    tally.paired.setdefault(entrant, set()).add(rnd.number)
            _add(tally, rnd.number, match, score, before, bye_points, bye_discs)
    return tally


def _add(
    tally: Tally,
    number: int,
    match: MatchState,
    score: Callable[[MatchState], MatchScore],
    before: dict[str, Fraction],
    bye_points: Fraction,
    bye_discs: int,
) -> None:
    if match.is_bye:
        entrant = match.participants[0].entrant
        if entrant is not None:
            record = tally.record(entrant)
            record.points += bye_points
            record.discs += bye_discs
            record.games.append(Played(number, None, None, bye_discs, 0, bye_points))
        return
    ids = match.entrant_ids
    if len(ids) != 2 or ids[0] is None or ids[1] is None or not match.games:
        return
    result = score(match)
    if not result.valid or not result.game_scores:
        return
    discs = result.game_scores[0]
    for seat, (me, other) in enumerate(((ids[0], ids[1]), (ids[1], ids[0]))):
        own, theirs = discs[seat], discs[1 - seat]
        points = Fraction(result.points[seat]).limit_denominator(100)
        record = tally.record(me)
        record.points += points
        record.discs += int(own or 0)
        record.opponents[other] += 1
        record.games.append(Played(number, other, seat, int(own or 0), int(theirs or 0), points))
        mine, theirs_before = before.get(me, Fraction(0)), before.get(other, Fraction(0))
        if mine != theirs_before:
            direction = "up" if theirs_before > mine else "down"
            record.last_float = direction
            record.floats.append((number, direction))
