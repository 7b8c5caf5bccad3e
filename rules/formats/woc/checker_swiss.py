"""The WOC Swiss pairing rules II.6.2 as costs, and an exhaustive search for small fields.

The checker measures a round's pairing rule by rule, with the costs the decisions document
(docs/formats/woc.md, "Pairing") gives each rule, and compares the totals, in the rules'
order of priority, with the best any pairing of the same players could reach. The search
enumerates every perfect matching (a field of 10 and the BYE: 10,395), so it is used only on
fields of at most :data:`EXHAUSTIVE_LIMIT` players.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

BYE = "BYE"
BLACK, WHITE = 0, 1
EXHAUSTIVE_LIMIT = 10
RULE_NAMES = {
    "b": "woc II.6.2(b) The two players paired together should have the same number of points",
    "c": "woc II.6.2(c) players who have already played against each other should not be "
    "paired together again",
    "d": "woc II.6.2(d) Players should tend to play black and white the same number of times",
    "e": 'woc II.6.2(e) A player who has already "floated up" should "float down"',
    "f": "woc II.6.2(f) Players should alternate colours from round to round",
    "g": "woc II.6.2(g) Two players registered for the same country should not play together",
}
RULES = tuple(RULE_NAMES)


@dataclass
class History:
    """One player's Swiss history before a round."""

    points: Fraction = Fraction(0)
    colours: list[int] = field(default_factory=list)
    last_float: str | None = None
    met: dict[str, int] = field(default_factory=dict)  # BYE counts byes
    country: str = ""

    @property
    def balance(self) -> int:
        return sum(1 if c == BLACK else -1 for c in self.colours)


def colour_cost(player: History, colour: int) -> tuple[int, int]:
    """(d, f) of ``player`` taking ``colour``: imbalance squared above the least reachable,
    and 1 for repeating the colour of the previous game."""
    k = player.balance
    after = k + 1 if colour == BLACK else k - 1
    least = min((k + 1) ** 2, (k - 1) ** 2)
    repeat = int(bool(player.colours) and player.colours[-1] == colour)
    return after * after - least, repeat


def allowed(a: str, b: str, players: Mapping[str, History], modified: bool) -> bool:
    """Rule (a); the BYE counts as an opponent (a second bye is a rematch with it)."""
    first = players[a] if a != BYE else players[b]
    other = b if a != BYE else a
    return first.met.get(other, 0) < (2 if modified else 1)


def pair_cost(
    black: str, white: str, players: Mapping[str, History], modified: bool
) -> tuple[int, ...]:
    """(b, c, d, e, f, g) of a pair as seated; ``white`` BYE (or ``black`` BYE) is a bye."""
    if BYE in (black, white):
        player = players[white if black == BYE else black]
        return (int((2 * player.points) ** 2), 0, 0, 0, 0, 0)
    a, b = players[black], players[white]
    diff = 2 * (a.points - b.points)
    floats = 0
    if a.points != b.points:
        high, low = (a, b) if a.points > b.points else (b, a)
        floats = int(high.last_float == "down") + int(low.last_float == "up")
    d1, f1 = colour_cost(a, BLACK)
    d2, f2 = colour_cost(b, WHITE)
    return (
        int(diff * diff),
        int(modified and a.met.get(white, 0) > 0),
        d1 + d2,
        floats,
        f1 + f2,
        int(bool(a.country) and a.country == b.country),
    )


def best_pair_cost(
    a: str, b: str, players: Mapping[str, History], modified: bool
) -> tuple[int, ...]:
    return min(pair_cost(a, b, players, modified), pair_cost(b, a, players, modified))


def total(costs: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    return tuple(sum(c[i] for c in costs) for i in range(len(RULES)))


def _matchings(nodes: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for index, other in enumerate(rest):
        for tail in _matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, other), *tail]


def optimum(
    entrants: Sequence[str], players: Mapping[str, History], modified: bool
) -> tuple[tuple[int, ...], list[tuple[str, str]]] | None:
    """The lexicographically least rule totals over every pairing rule (a) allows."""
    nodes = list(entrants) + ([BYE] if len(entrants) % 2 else [])
    cache: dict[tuple[str, str], tuple[int, ...] | None] = {}
    best: tuple[tuple[int, ...], list[tuple[str, str]]] | None = None
    for matching in _matchings(nodes):
        costs = []
        for a, b in matching:
            if (a, b) not in cache:
                cache[(a, b)] = (
                    best_pair_cost(a, b, players, modified)
                    if allowed(a, b, players, modified)
                    else None
                )
            cost = cache[(a, b)]
            if cost is None:
                break
            costs.append(cost)
        else:
            summed = total(costs)
            if best is None or summed < best[0]:
                best = (summed, matching)
    return best
