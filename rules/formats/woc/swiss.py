"""Swiss pairing for rounds 2 and later (woc II.6.2), computed as an optimum.

Every allowed pair (rule a) gets a cost vector (b, c, d, e, f, g), one entry per rule of
II.6.2 in falling priority. The round's pairing is a maximum-weight perfect matching
(rustworkx) where each rule's weight is larger than the most that every lower rule can
add up to over a whole round, so the matching minimises the rule totals in lexicographic
order: no pairing of the round breaks a higher rule less. Colours of each pair are chosen
by rules (d) then (f); each pair carries the rules that had to give way.

Costs, per pair (a bye is a pair with the dummy "BYE", which has 0 points):
  b  (2 x points difference)^2: equal points cost nothing, one large float costs more
     than two small ones;
  c  1 when the two met before (modified Swiss only);
  d  for each player, the colour imbalance after the round, squared, above the least the
     player could have had with either colour;
  e  1 for each player who floats in the direction of their last float;
  f  1 for each player who gets the colour of their last game;
  g  1 when both are registered for the same country.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import rustworkx

from rules import words
from rules.contract import Reason
from rules.tiebreaks import show_number
from rules.words import message

BYE = "BYE"
RULES = ("b", "c", "d", "e", "f", "g")
BLACK, WHITE = 0, 1
# a colour as a part of a sentence ("plays {colour} though due {due}")
_COLOUR = (message("woc.colour.black"), message("woc.colour.white"))


@dataclass(frozen=True)
class SwissPlayer:
    id: str
    points: Fraction
    seats: tuple[int, ...] = ()  # colours played so far, in order (0 Black, 1 White)
    last_float: str | None = None  # "up" or "down"
    opponents: Mapping[str, int] = field(default_factory=dict)  # BYE counts byes
    country: str = ""
    name: str = ""

    @property
    def balance(self) -> int:
        """Blacks minus whites (every seat that is not Black counts as White)."""
        # tuple.count: a round of 10,000 asks for every player's balance a few times
        return 2 * self.seats.count(BLACK) - len(self.seats)

    @property
    def due(self) -> int | None:
        if self.balance:
            return WHITE if self.balance > 0 else BLACK
        if self.seats:
            return 1 - self.seats[-1]
        return None

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class PairCost:
    first: str  # Black (or the player with the bye)
    second: str  # White, or BYE
    costs: tuple[int, int, int, int, int, int]  # b, c, d, e, f, g


@dataclass(frozen=True)
class Pairing:
    black: str
    white: str | None  # None: a bye
    cost: PairCost
    reasons: tuple[Reason, ...]


class PairingImpossible(Exception):
    """No pairing of the round obeys rule (a); ``code`` says why (a words code)."""

    def __init__(self, code: str) -> None:
        super().__init__(words.render(code, {}))
        self.code = code


def colour_cost(player: SwissPlayer, seat: int) -> tuple[int, int]:
    """(d, f) for ``player`` taking ``seat``."""
    k = player.balance
    after = k + 1 if seat == BLACK else k - 1
    least = min((k + 1) ** 2, (k - 1) ** 2)
    repeat = 1 if player.seats and player.seats[-1] == seat else 0
    return after * after - least, repeat


def allowed(a: SwissPlayer, b: SwissPlayer, modified: bool) -> bool:
    """Rule (a): no rematch in an unmodified Swiss; no third meeting in a modified one."""
    met = a.opponents.get(b.id, 0)
    return met < (2 if modified else 1)


def pair_cost(a: SwissPlayer, b: SwissPlayer, modified: bool, order: Mapping[str, int]) -> PairCost:
    """The cost of pairing ``a`` with ``b``, with the better colours (d, then f)."""
    # int((2 * (a.points - b.points)) ** 2) in whole numbers (Fraction arithmetic is slow
    # and this runs for every pair of a round): gap / under is the doubled difference
    x, y = a.points, b.points
    gap = 2 * (x.numerator * y.denominator - y.numerator * x.denominator)
    under = x.denominator * y.denominator
    score = gap * gap // (under * under)
    if b.id == BYE or a.id == BYE:
        player = b if a.id == BYE else a
        return PairCost(player.id, BYE, (score, 0, 0, 0, 0, 0))
    rematch = 1 if modified and a.opponents.get(b.id, 0) else 0
    floats = 0
    if gap:
        high, low = (a, b) if gap > 0 else (b, a)
        floats = int(high.last_float == "down") + int(low.last_float == "up")
    country = 1 if a.country and a.country == b.country else 0
    options = []
    for black, white in ((a, b), (b, a)):
        d1, f1 = colour_cost(black, BLACK)
        d2, f2 = colour_cost(white, WHITE)
        options.append(((d1 + d2, f1 + f2), black, white))
    if options[0][0] != options[1][0]:
        (d, f), black, white = min(options, key=lambda o: o[0])
    else:
        (d, f), black, white = options[0][0], *_tie_colours(a, b, order)
    return PairCost(black.id, white.id, (score, rematch, d, floats, f, country))


def _tie_colours(
    a: SwissPlayer, b: SwissPlayer, order: Mapping[str, int]
) -> tuple[SwissPlayer, SwissPlayer]:
    """Equal costs either way: the higher-placed player gets the colour due, else Black."""
    high, low = (a, b) if order.get(a.id, 0) <= order.get(b.id, 0) else (b, a)
    if high.due is not None:
        return (high, low) if high.due == BLACK else (low, high)
    if low.due is not None:
        return (low, high) if low.due == BLACK else (high, low)
    return high, low


def weights(players: Sequence[SwissPlayer]) -> tuple[int, ...]:
    """Multipliers for b..g: each exceeds the most all lower rules can add up to."""
    n = len(players) + len(players) % 2
    pairs = n // 2
    most = {
        "g": pairs,
        "f": n,
        "e": n,
        "d": sum(4 * abs(p.balance) + 4 for p in players),
        "c": pairs,
    }
    result = [1]
    for rule in ("g", "f", "e", "d", "c"):
        result.append(result[-1] * (most[rule] + 1))
    return tuple(reversed(result))  # b, c, d, e, f, g


def total(costs: Sequence[PairCost]) -> tuple[int, ...]:
    return tuple(sum(c.costs[i] for c in costs) for i in range(len(RULES)))


def pair_round(players: Sequence[SwissPlayer], modified: bool) -> list[Pairing]:
    """The best pairing of ``players`` (a BYE is added to an odd field), by the fast route
    of ``swiss_pruned`` (score groups, a lower bound as the certificate, wider exact solves
    when it is not met); ``pair_complete`` is the plain complete-graph reference."""
    from rules.formats.woc import swiss_pruned  # it builds on this module

    return swiss_pruned.pair(players, modified).pairings


def pair_complete(players: Sequence[SwissPlayer], modified: bool) -> list[Pairing]:
    """The best pairing on the complete graph of allowed pairs (the reference)."""
    entrants = field_of(players)
    return describe(entrants, complete_matching(entrants, modified), modified)


def field_of(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """The vertices of the round: the players, then a BYE when the field is odd."""
    entrants = list(players)
    if len(entrants) % 2:
        entrants.append(SwissPlayer(BYE, Fraction(0)))
    return entrants


def complete_matching(entrants: Sequence[SwissPlayer], modified: bool) -> list[tuple[int, int]]:
    """The maximum-weight perfect matching over every pair rule (a) allows."""
    scale = weights(entrants)
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(len(entrants)))
    edges = _edges(entrants, modified, scale)
    if not edges:
        raise PairingImpossible("woc.pairing.no_pairs")
    top = max(weight for _, _, weight in edges) + 1
    graph.add_edges_from([(i, j, top - weight) for i, j, weight in edges])
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    if 2 * len(matching) != len(entrants):
        raise PairingImpossible("woc.pairing.rule_a")
    return [(i, j) for i, j in matching]


def describe(
    entrants: Sequence[SwissPlayer], pairs: Sequence[tuple[int, int]], modified: bool
) -> list[Pairing]:
    """The pairs as ``Pairing``, best placed first and the BYE last, with their colours and
    the rules that gave way."""
    order = {p.id: i for i, p in enumerate(entrants)}
    chosen = [pair_cost(entrants[i], entrants[j], modified, order) for i, j in pairs]
    by_id = {p.id: p for p in entrants}
    chosen.sort(key=lambda c: (c.second == BYE, min(order[c.first], order[c.second])))
    return [
        Pairing(c.first, None if c.second == BYE else c.second, c, explain(c, by_id))
        for c in chosen
    ]


def _edges(
    entrants: Sequence[SwissPlayer], modified: bool, scale: Sequence[int]
) -> list[tuple[int, int, int]]:
    """Every allowed pair with its weighted cost: ``pair_cost`` unrolled for speed (a field
    of 1,000 has half a million pairs). The property test holds the two together."""
    wb, wc, wd, we, wf, wg = scale
    half = [int(2 * p.points) for p in entrants]
    colour = [(colour_cost(p, BLACK), colour_cost(p, WHITE)) for p in entrants]
    down = [p.last_float == "down" for p in entrants]
    up = [p.last_float == "up" for p in entrants]
    bye = [p.id == BYE for p in entrants]
    limit = 2 if modified else 1
    edges: list[tuple[int, int, int]] = []
    for i, a in enumerate(entrants):
        met = a.opponents
        (dbi, fbi), (dwi, fwi) = colour[i]
        for j in range(i + 1, len(entrants)):
            b = entrants[j]
            times = met.get(b.id, 0)
            if times >= limit:
                continue
            diff = half[i] - half[j]
            weight = wb * diff * diff
            if bye[i] or bye[j]:
                edges.append((i, j, weight))
                continue
            if times:
                weight += wc
            if diff > 0:
                weight += we * (down[i] + up[j])
            elif diff < 0:
                weight += we * (up[i] + down[j])
            (dbj, fbj), (dwj, fwj) = colour[j]
            one = wd * (dbi + dwj) + wf * (fbi + fwj)
            two = wd * (dbj + dwi) + wf * (fbj + fwi)
            weight += one if one < two else two
            if a.country and a.country == b.country:
                weight += wg
            edges.append((i, j, weight))
    return edges


def explain(cost: PairCost, players: Mapping[str, SwissPlayer]) -> tuple[Reason, ...]:
    """Which rules of II.6.2 gave way in this pair, and why."""
    first = players[cost.first]
    rule = "woc II.6.2"
    if cost.second == BYE:
        return (
            Reason(
                "woc.pairing.bye",
                rule="woc II.7",
                params={
                    "points": show_number(first.points),
                    "entrant": first.id,
                    "name": first.label,
                },
            ),
        )
    second = players[cost.second]
    b, c, _, e, _, g = cost.costs
    reasons: list[Reason] = []
    if b:
        reasons.append(
            Reason(
                "woc.pairing.points_differ",
                rule=f"{rule}(b)",
                params={
                    "difference": show_number(abs(first.points - second.points)),
                    "first_points": show_number(first.points),
                    "second_points": show_number(second.points),
                },
            )
        )
    if c:
        reasons.append(
            Reason(
                "woc.pairing.rematch",
                rule=f"{rule}(c)",
                params={"first": first.label, "second": second.label},
            )
        )
    for player, seat in ((first, BLACK), (second, WHITE)):
        excess, repeat = colour_cost(player, seat)
        if excess:
            reasons.append(
                Reason(
                    "woc.pairing.colour_balance",
                    rule=f"{rule}(d)",
                    params={
                        "entrant": player.id,
                        "balance": player.balance,
                        "name": player.label,
                        "colour": _COLOUR[seat],
                        "due": _COLOUR[1 - seat],
                    },
                )
            )
        elif repeat:
            reasons.append(
                Reason(
                    "woc.pairing.colour_repeat",
                    rule=f"{rule}(f)",
                    params={"entrant": player.id, "name": player.label, "colour": _COLOUR[seat]},
                )
            )
    if e:
        reasons.append(Reason("woc.pairing.float_repeat", rule=f"{rule}(e)"))
    if g:
        reasons.append(
            Reason("woc.pairing.same_country", rule=f"{rule}(g)", params={"country": first.country})
        )
    if not reasons:
        reasons.append(Reason("woc.pairing.ideal", rule=rule))
    return tuple(reasons)
