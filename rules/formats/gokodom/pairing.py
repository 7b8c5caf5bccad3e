"""Swiss pairing, II.F-H: top of the order down, each unpaired player takes the highest
player below who (1) has not played them, (2) is within the match-point window, (3) has the
opposite colour; failing that, the highest meeting (1) and (2); failing that, (1) alone.
With an odd count the last unpaired player gets the bye.

Where the top-down pass would leave players who have all met, the fewest of the latest
choices are undone: the pairing kept is the one that keeps the longest run of top-down
choices (found without trial and error by asking, before each choice, whether the players
left could still all be paired). Only when no pairing at all avoids a rematch do rematches
come in, as the last choice of each player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import rustworkx

from rules.contract import Reason


def window_for_round(number: int) -> int:
    """F.2: +-1 after rounds 1 and 2, +-2 after rounds 3 and 4, +-3 after later rounds."""
    after = number - 1
    if after <= 2:
        return 1
    if after <= 4:
        return 2
    return 3


@dataclass(frozen=True)
class Pairing:
    pairs: tuple[tuple[str, str, int], ...]  # (higher, lower, tier of the choice)
    bye: str | None
    reasons: tuple[Reason, ...]  # undone choices, rematches
    undone: bool = False
    rematches: bool = False


class _Pairer:
    def __init__(
        self,
        order: Sequence[str],
        points: Mapping[str, int],
        colours: Mapping[str, str],
        met: Callable[[str, str], bool],
        window: int,
        names: Mapping[str, str],
    ):
        self.names = names
        self.order = list(order)
        self.points = points
        self.colours = colours
        self.met = met
        self.window = window
        self.position = {p: i for i, p in enumerate(order)}

    def options(self, player: str, below: Sequence[str], rematches: bool) -> list[tuple[str, int]]:
        tiers: dict[int, list[str]] = {1: [], 2: [], 3: [], 4: []}
        for other in below:
            if self.met(player, other):
                tiers[4].append(other)
            elif abs(self.points[player] - self.points[other]) > self.window:
                tiers[3].append(other)
            elif self.colours[player] == self.colours[other]:
                tiers[2].append(other)
            else:
                tiers[1].append(other)
        last = 4 if rematches else 3
        return [(o, t) for t in range(1, last + 1) for o in tiers[t]]

    def feasible(self, players: Sequence[str], spare: int, rematches: bool) -> bool:
        """Whether ``players`` can all be paired, leaving at most ``spare`` unpaired."""
        if rematches:
            return len(players) <= spare + 2 * (len(players) // 2)
        graph = rustworkx.PyGraph()
        graph.add_nodes_from(list(players))
        edges = [
            (i, j, 1)
            for i in range(len(players))
            for j in range(i + 1, len(players))
            if not self.met(players[i], players[j])
        ]
        graph.add_edges_from(edges)
        matching = rustworkx.max_weight_matching(graph, max_cardinality=True)
        return len(players) - 2 * len(matching) <= spare

    def walk(
        self, *, guided: bool, rematches: bool
    ) -> tuple[list[tuple[str, str, int]], list[str], list[Reason]]:
        unpaired = list(self.order)
        spare = len(unpaired) % 2
        pairs: list[tuple[str, str, int]] = []
        left: list[str] = []
        undone: list[Reason] = []
        while unpaired:
            player = unpaired.pop(0)
            options = self.options(player, unpaired, rematches)
            chosen: tuple[str, int] | None = None
            for other, tier in options:
                if not guided or self.feasible(
                    [p for p in unpaired if p != other], spare - len(left), rematches
                ):
                    chosen = (other, tier)
                    break
            if options and chosen != options[0]:
                undone.append(self._undone_reason(player, options[0][0], chosen))
            if chosen is None:
                left.append(player)
                continue
            unpaired.remove(chosen[0])
            pairs.append((player, chosen[0], chosen[1]))
        return pairs, left, undone

    def _undone_reason(self, player: str, first: str, chosen: tuple[str, int] | None) -> Reason:
        name = self.names.get
        params = {
            "player": player,
            "first_choice": first,
            "chosen": chosen[0] if chosen else None,
            "name": name(player, player),
            "first_name": name(first, first),
        }
        if chosen is None:
            return Reason("gokodom.pairing_undone.bye", rule="GokoDom II.F-G", params=params)
        return Reason(
            "gokodom.pairing_undone",
            rule="GokoDom II.F-G",
            params={**params, "chosen_name": name(chosen[0], chosen[0])},
        )


def pair(
    order: Sequence[str],
    points: Mapping[str, int],
    colours: Mapping[str, str],
    met: Callable[[str, str], bool],
    window: int,
    names: Mapping[str, str] | None = None,
) -> Pairing:
    """Pair ``order`` (best first) under II.F-H."""
    names = names or {}
    pairer = _Pairer(order, points, colours, met, window, names)
    spare = len(order) % 2
    pairs, left, _ = pairer.walk(guided=False, rematches=False)
    if len(left) <= spare:
        return Pairing(tuple(pairs), left[0] if left else None, ())
    reasons = [
        Reason(
            "gokodom.pairing_stuck",
            rule="GokoDom II.F-G",
            params={"left": left, "names": ", ".join(names.get(p, p) for p in left)},
        )
    ]
    rematches = not pairer.feasible(order, spare, rematches=False)
    if rematches:
        reasons.append(Reason("gokodom.rematch", rule="GokoDom II.F.1 (document silent)"))
    pairs, left, undone = pairer.walk(guided=True, rematches=rematches)
    assert len(left) <= spare
    return Pairing(
        tuple(pairs),
        left[0] if left else None,
        tuple(reasons + undone),
        undone=True,
        rematches=rematches,
    )
