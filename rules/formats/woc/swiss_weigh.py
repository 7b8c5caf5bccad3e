"""Weighted pair costs of one Swiss round, precomputed per vertex (woc II.6.2).

A pairing's cost is one integer: the rule costs (b, c, d, e, f, g) of ``swiss.pair_cost``
times the weights of ``swiss.weights``, so that comparing integers compares rule by rule.
``Table`` holds, per vertex of the round (the players, then the BYE of an odd field), what
``pair_cost`` reads, and gives the weighted cost of a pair, of a player's own colour, and of
the part a player takes in a pair that crosses a score-group boundary. The routes that prune
the graph use it; every pairing they return is costed again with ``pair_cost`` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rules.formats.woc.swiss import BLACK, BYE, WHITE, PairCost, SwissPlayer, colour_cost

UP, DOWN, PARTNER = "up", "down", "bye"  # kinds of crossing role (see ``role_cost``)


class Table:
    """Per-vertex data and weighted costs for ``entrants`` (players, then the BYE if any)."""

    def __init__(self, entrants: Sequence[SwissPlayer], modified: bool, scale: Sequence[int]):
        self.entrants = list(entrants)
        self.modified = modified
        self.scale = tuple(scale)
        wb, _, wd, _, wf, _ = self.scale
        self.wb = wb
        self.half = [_twice(p.points) for p in entrants]
        self.bye = [p.id == BYE for p in entrants]
        self.index = {p.id: i for i, p in enumerate(entrants)}
        self.country = [p.country for p in entrants]
        self.down = [p.last_float == "down" for p in entrants]
        self.up = [p.last_float == "up" for p in entrants]
        self.limit = 2 if modified else 1
        # rule (a): the vertices each vertex may not meet (either side's record counts)
        self.blocked: list[set[int]] = [set() for _ in entrants]
        index, blocked = self.index, self.blocked
        for i, p in enumerate(entrants):
            for other, times in p.opponents.items():
                if times >= self.limit:
                    j = index.get(other)
                    if j is not None:
                        blocked[i].add(j)
                        blocked[j].add(i)
        # weighted colour cost of each seat: (Black, White)
        self.seat: list[tuple[int, int]] = []
        # a player's colour costs depend on his balance and last colour only: a few kinds
        kinds: dict[tuple[int, int | None], tuple[int, int]] = {}
        for p in entrants:
            if p.id == BYE:
                self.seat.append((0, 0))
                continue
            kind = (p.balance, p.seats[-1] if p.seats else None)
            seat = kinds.get(kind)
            if seat is None:
                (db, fb), (dw, fw) = colour_cost(p, BLACK), colour_cost(p, WHITE)
                seat = kinds[kind] = (wd * db + wf * fb, wd * dw + wf * fw)
            self.seat.append(seat)

    def __len__(self) -> int:
        return len(self.entrants)

    def allowed(self, i: int, j: int) -> bool:
        """Rule (a) between vertices ``i`` and ``j``."""
        return j not in self.blocked[i]

    def weight(self, i: int, j: int) -> int:
        """The weighted cost of pairing ``i`` and ``j`` (which rule (a) allows)."""
        # called a few hundred thousand times in a large round: no ``min``, no unpacking
        diff = self.half[i] - self.half[j]
        cost = self.wb * diff * diff
        if self.bye[i] or self.bye[j]:
            return cost
        if self.modified and self.entrants[i].opponents.get(self.entrants[j].id, 0):
            cost += self.scale[1]
        if diff > 0:
            cost += self.scale[3] * (self.down[i] + self.up[j])
        elif diff < 0:
            cost += self.scale[3] * (self.up[i] + self.down[j])
        seat_i, seat_j = self.seat[i], self.seat[j]
        one, two = seat_i[0] + seat_j[1], seat_j[0] + seat_i[1]
        cost += one if one < two else two
        country = self.country[i]
        if country and country == self.country[j]:
            cost += self.scale[5]
        return cost

    def role_cost(self, i: int, kind: str, seat: int | None) -> int:
        """What vertex ``i`` adds when it takes a role in a crossing pair: ``UP`` (it meets a
        higher group and plays ``seat``), ``DOWN`` (it meets a lower group), or ``PARTNER``
        (it meets the BYE, which costs nothing beyond rule b)."""
        if kind == PARTNER or self.bye[i]:
            return 0
        assert seat is not None
        we = self.scale[3]
        flag = self.up[i] if kind == UP else self.down[i]
        return self.seat[i][seat] + we * flag

    def cost_of(self, pair: PairCost) -> int:
        return sum(w * c for w, c in zip(self.scale, pair.costs, strict=True))


def _twice(points: Fraction) -> int:
    """``int(2 * points)`` without building a Fraction (10,000 players: a few hundredths
    of a second)."""
    numerator, denominator = points.numerator, points.denominator
    return 2 * numerator // denominator if numerator >= 0 else int(2 * points)
