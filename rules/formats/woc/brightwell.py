"""The Mixed Brightwell System (woc Appendix A) and the provisional list (II.3.1).

BQ = discs in games against opponents still in the event
   + C x the points of those opponents
   + (32 + C x own points) for each game against an opponent who has withdrawn, each bye,
     and each qualifying round the entrant has no game in.
Ties on points go to BQ, then disc count, then a recorded lot (a DrawRecord whose key is
``lot_key(tied)`` and whose value lists the tied entrants best first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from rules.contract import DrawRecord, EventState, Number
from rules.formats.woc.history import Tally
from rules.formats.woc.words import LOT_PLACE
from rules.tiebreaks import Ranking, Step, rank, show_number
from rules.words import gettext_noop as _


@dataclass(frozen=True)
class Brightwell:
    discs: int  # discs in the games that count
    opponents_points: Fraction
    c: Fraction
    substituted: int  # withdrawn opponents + byes + rounds without a game
    own_points: Fraction
    withdrawn_opponents: int
    byes: int
    unplayed_rounds: int

    # Cached, and each made as one Fraction of whole numbers: the ranking, the row and its
    # parts all read them, and chains of Fraction operations were slow in a large field.
    @cached_property
    def strength(self) -> Fraction:
        c, points = self.c, self.opponents_points
        return Fraction(c.numerator * points.numerator, c.denominator * points.denominator)

    @cached_property
    def each(self) -> Fraction:
        c, own = self.c, self.own_points
        below = c.denominator * own.denominator
        return Fraction(32 * below + c.numerator * own.numerator, below)

    @cached_property
    def value(self) -> Fraction:
        strength, each = self.strength, self.each
        below = strength.denominator * each.denominator
        return Fraction(
            self.discs * below
            + strength.numerator * each.denominator
            + self.substituted * each.numerator * strength.denominator,
            below,
        )

    def parts(self) -> dict[str, Any]:
        return {
            "discs": self.discs,
            "opponents_points": _plain(self.opponents_points),
            "c": _plain(self.c),
            "strength": _plain(self.strength),
            "withdrawn_opponents": self.withdrawn_opponents,
            "byes": self.byes,
            "unplayed_rounds": self.unplayed_rounds,
            "each_substitute": _plain(self.each),
            "substitutes": _plain(self.substituted * self.each),
            "bq": _plain(self.value),
        }


def as_fraction(value: Number | str) -> Fraction:
    if isinstance(value, float):
        return Fraction(value).limit_denominator(10_000)
    return Fraction(value)


def brightwell(entrant: str, tally: Tally, withdrawn: set[str], c: Fraction) -> Brightwell:
    record = tally.records[entrant]
    units = tally.units
    discs = 0
    opponents_units = 0  # the opponents' points in 1/tally.scale: exact, without Fractions
    against_withdrawn = 0
    byes = 0
    for game in record.games:
        if game.opponent is None:
            byes += 1  # Appendix A 3a: "paired against BYE ... leave out such a game"
        elif game.opponent in withdrawn:
            against_withdrawn += 1  # 3a: games against a withdrawn opponent are left out
        else:
            discs += game.own
            opponents_units += units[game.opponent]
    unplayed = len(set(tally.rounds) - record.rounds - tally.paired.get(entrant, set()))
    return Brightwell(
        discs=discs,
        opponents_points=Fraction(opponents_units, tally.scale),
        c=c,
        substituted=against_withdrawn + byes + unplayed,
        own_points=record.points,
        withdrawn_opponents=against_withdrawn,
        byes=byes,
        unplayed_rounds=unplayed,
    )


def lot_key(tied: Sequence[str]) -> str:
    return "standings/lot/" + "+".join(sorted(tied))


def provisional(
    entrants: Sequence[str],
    tally: Tally,
    values: Mapping[str, Brightwell],
    draws: Sequence[DrawRecord],
    names: Mapping[str, str],
) -> Ranking:
    """II.3.1 / Appendix A 4: points, then BQ, then disc count, then the recorded lot."""
    steps = provisional_steps(tally, values, draws)
    return rank(entrants, steps, initial=lambda tier: sorted(tier, key=lambda e: names[e]))


def provisional_steps(
    tally: Tally, values: Mapping[str, Brightwell], draws: Sequence[DrawRecord]
) -> list[Step]:
    """The steps of the provisional list: the first three are each entrant's own figures,
    the lot reads the recorded draw of the tied set."""
    recorded = {d.key: d for d in draws}

    def lot(tied: Sequence[str]) -> dict[str, Number]:
        record = recorded.get(lot_key(tied))
        if record is None or not isinstance(record.value, list | tuple):
            return dict.fromkeys(tied, 0)
        order = [str(v) for v in record.value]
        if sorted(order) != sorted(tied):
            return dict.fromkeys(tied, 0)
        return {e: len(order) - order.index(e) for e in tied}

    return [
        Step("points", _("Points"), lambda tied: {e: tally.records[e].points for e in tied}),
        Step("bq", _("Brightwell Quotient"), lambda tied: {e: values[e].value for e in tied}),
        Step("discs", _("Disc count"), lambda tied: {e: tally.records[e].discs for e in tied}),
        Step("draw", _("Drawing of lots"), lot, show=lambda v: LOT_PLACE.format(n=show_number(v))),
    ]


def _plain(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else float(value)


def plain(value: Fraction) -> int | float:
    return _plain(value)


def withdrawn_ids(state: EventState) -> set[str]:
    return {e.id for e in state.entrants if not e.active}
