"""A lower bound on the cost of any pairing of a Swiss round (woc II.6.2), by score group.

Rule (b) dominates, so the proof starts there. Sort the vertices (players, and the BYE of an
odd field with 0 points) into score groups, best first. Across each boundary between two
neighbouring groups, an odd number of vertices above means at least one pair crosses it.
A pair's rule-(b) cost is the square of its points gap, and the square of a sum exceeds the
sum of the squares, so ``score_bound`` (the squared gaps of the odd boundaries) is the least
rule-(b) cost of any pairing, and a pairing meets it only when every pair stays in its group
or crosses one boundary, each odd boundary once and no even one.

A rule weight outweighs everything below it over the whole round. Groups are cut into
blocks: a large group alone, or a run of small groups. Per block and per state of the
crossings at its two edges (the colour the upper player of the crossing pair takes, or
"meets the BYE"; whether that player is of the main country across the crossing; extra
crossings), a table gives the least cost the block can have:
- a run of small groups: solved exactly (all allowed pairs, with a placeholder vertex for
  each crossing that charges the member taking it its colour and float cost);
- a large group: counted by entrant type, leaving out rules (a) and (c): each player's
  cheaper colour, plus, when one colour preference outnumbers the other and the indifferent,
  the cheapest way to pair the surplus among themselves (each pair pays the smaller extra of
  its two: the smallest half of the extras), and among the pairings of that least colour
  cost the fewest pairs of two players of the group's main country (``_pool``: colour and
  country counted together); the members who take a crossing (or the BYE) are chosen by
  type at their exact cost.
``chain`` minimises the sum over the states of the crossings, adding a crossing that joins
two players of one main country. The crossing pairs' own rule (c) costs, and their rule (g)
costs where no main country is told apart, are left out. Every part is a least cost, so the
sum is a lower bound over the pairings of the bound's class (see ``lower_bound``), and with
``outside`` (the least rule-(b) cost of any other pairing) a floor for the whole round: a
pairing whose cost equals the floor is an optimum of the round (the certificate).

When a pairing cannot meet the floor, ``window_bound`` gives the least rule-(b) cost of
any pairing with a pair that crosses ``span`` or more consecutive boundaries; a pairing
found among the shorter pairs that costs less than that is optimal (the wider fallback).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import rustworkx

from rules.formats.woc.swiss_budget import Budget, solve_work
from rules.formats.woc.swiss_weigh import DOWN, PARTNER, UP, Table

BLACK, WHITE, MEETS_BYE = 0, 1, 2  # crossing states: the upper player's colour, or the BYE
State = int | None  # None: no pair crosses this boundary
Side = int | None  # the crossing member is of the block's main country (1) or not (0); None:
# not counted (an exact block, or no crossing of two players)
EXTRA = 2  # extra crossings a boundary next to an exact block may have (see ``lower_bound``)
Edge = tuple[State, Side, int]  # a boundary's crossing: colour, side, extra crossings (0 or 2)
Tables = dict[tuple[Edge, Edge], int | None]  # least block cost by (upper, lower) edge
Edges = dict[tuple[int, int], int]


@dataclass(frozen=True)
class Layout:
    groups: tuple[tuple[int, ...], ...]  # vertex indices by score group, best first
    gaps: tuple[int, ...]  # half points between group k and group k + 1
    odd: tuple[bool, ...]  # an odd number of vertices above boundary k
    bye_group: int | None  # the group that holds the BYE


@dataclass(frozen=True)
class Block:
    first: int  # first and last group
    last: int
    exact: bool  # solved exactly (small groups) or counted (one large group)


@dataclass(frozen=True)
class Bound:
    total: int  # weighted cost no pairing of the bound's class can beat (see ``lower_bound``)
    states: tuple[State, ...]  # the cheapest state below each block
    extras: tuple[int, ...]  # per block: extra crossings below it on the cheapest path
    score: int  # the rule-(b) part of ``total``
    outside: int | None  # the least rule-(b) cost of a pairing outside the class (None: none)
    floor: int  # no pairing of the round costs less: ``total``, or less when ``outside`` is low
    ties: tuple[tuple[int, int], ...]  # runs of groups (first, last) to solve as one block
    entries: tuple[Side, ...] = ()  # per block: its upper crossing member of its main country
    exits: tuple[Side, ...] = ()  # per block: its lower crossing member of its main country
    # per block: the country each side refers to (upper, lower); None: not told apart
    refs: tuple[tuple[str | None, str | None], ...] = ()


def layout(table: Table) -> Layout:
    # by points, the BYE last of its group, then by place (the keys built at once: a
    # lambda per vertex costs more at 10,000)
    keys = zip([-h for h in table.half], table.bye, range(len(table)), strict=True)
    order = [i for _, _, i in sorted(keys)]
    groups: list[list[int]] = []
    for i in order:
        if groups and table.half[groups[-1][0]] == table.half[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    gaps, odd, above = [], [], 0
    for upper, lower in pairwise(groups):
        above += len(upper)
        gaps.append(table.half[upper[0]] - table.half[lower[0]])
        odd.append(above % 2 == 1)
    bye = next((k for k, g in enumerate(groups) if any(table.bye[i] for i in g)), None)
    return Layout(tuple(tuple(g) for g in groups), tuple(gaps), tuple(odd), bye)


def score_bound(lay: Layout) -> int:
    """The least rule-(b) cost of any pairing (in the units of ``pair_cost``)."""
    return sum(gap * gap for gap, odd in zip(lay.gaps, lay.odd, strict=True) if odd)


def window_bound(lay: Layout, span: int) -> int | None:
    """The least rule-(b) cost of a pairing with a pair across ``span`` or more consecutive
    boundaries (None: no pair can cross so many). Widening a crossing by one boundary adds
    at least twice the product of the gaps, so windows of exactly ``span`` are the least."""
    if span > len(lay.gaps):
        return None
    least = score_bound(lay)
    best: int | None = None
    for start in range(len(lay.gaps) - span + 1):
        window = range(start, start + span)
        spread = sum(lay.gaps[k] for k in window)
        value = spread * spread + least
        for k in window:
            value += -(lay.gaps[k] ** 2) if lay.odd[k] else lay.gaps[k] ** 2
        best = value if best is None else min(best, value)
    return best


def states(lay: Layout, boundary: int) -> tuple[State, ...]:
    """The possible crossings of ``boundary`` (below group ``boundary``) in a pairing that
    meets the score bound."""
    if boundary < 0 or boundary >= len(lay.gaps) or not lay.odd[boundary]:
        return (None,)
    if lay.bye_group == boundary + 1:
        if len(lay.groups[boundary + 1]) == 1:
            return (MEETS_BYE,)
        return (BLACK, WHITE, MEETS_BYE)
    return (BLACK, WHITE)


def plan_blocks(lay: Layout, large: int, run: int) -> list[Block]:
    """A group of ``large`` or more vertices is a block of its own; smaller neighbours are
    joined in runs of up to ``run`` vertices."""
    blocks: list[Block] = []
    start, size = -1, 0
    for k, group in enumerate(lay.groups):
        if len(group) >= large:
            if start >= 0:
                blocks.append(Block(start, k - 1, True))
                start = -1
            blocks.append(Block(k, k, False))
            continue
        if start >= 0 and size + len(group) > run:
            blocks.append(Block(start, k - 1, True))
            start = -1
        if start < 0:
            start, size = k, 0
        size += len(group)
    if start >= 0:
        blocks.append(Block(start, len(lay.groups) - 1, True))
    return blocks


def join(blocks: Sequence[Block], first: int, last: int) -> list[Block]:
    """``blocks`` with the blocks that hold groups ``first`` to ``last`` made one exact
    block."""
    inside = [b for b in blocks if b.last >= first and b.first <= last]
    merged = Block(inside[0].first, inside[-1].last, True)
    return [b for b in blocks if b.last < first] + [merged] + [b for b in blocks if b.first > last]


def block_size(lay: Layout, block: Block) -> int:
    return sum(len(lay.groups[k]) for k in range(block.first, block.last + 1))


def lower_bound(
    table: Table,
    lay: Layout,
    blocks: Sequence[Block],
    *,
    extras: bool = False,
    regions: Sequence[Block] = (),
    budget: Budget | None = None,
) -> Bound | None:
    """The least cost of any pairing of the bound's class, or None when it has none.

    The class: every pair lies inside a block or crosses one boundary between two blocks;
    each such boundary is crossed the least number of times its parity allows, or, with
    ``extras`` and an exact block on either side, that or ``EXTRA`` more (an exact block may
    need it, say when two of a small group have met). ``outside`` is the least rule-(b) cost of any
    pairing outside the class; when it exceeds the bound's own rule-(b) cost, no pairing
    outside the class can be better (rule b outweighs the rest), and the bound is a lower
    bound on every pairing of the round.

    Why the class needs no more: a pair across two or more boundaries, not inside one
    exact block, or more crossings at a boundary next to an exact block than the class
    allows, costs at least ``_outside`` on rule (b); extra crossings between two counted
    blocks only add rule-(b) cost to a pairing of the class (a counted block has no rule-(b)
    cost of its own), so they cost at least 2 x gap^2 more than the bound's rule-(b) cost.
    ``ties`` names the runs of groups where a pairing outside the class could cost no more
    on rule (b) than the bound: solved as one exact block, they join the class."""
    mains = [
        None if block.exact else main_country(table, lay.groups[block.first]) for block in blocks
    ]
    tables: list[Tables] = []
    refs: list[tuple[str | None, str | None]] = []
    last = len(blocks) - 1
    for n, block in enumerate(blocks):
        above = extras and n > 0 and (block.exact or blocks[n - 1].exact)
        below = extras and n < last and (block.exact or blocks[n + 1].exact)
        if block.exact:
            # an exact block's crossing member is told apart by the country of the counted
            # block across that crossing
            ref = (mains[n - 1] if n else None, mains[n + 1] if n < last else None)
            tables.append(exact(table, lay, block, ref, (above, below), budget))
        else:
            ref = (mains[n], mains[n])
            tables.append(counted(table, lay, block.first, mains[n], (above, below)))
        refs.append(ref)
    extra_cost = [
        table.wb * EXTRA * lay.gaps[b.last] ** 2 if n < last else 0 for n, b in enumerate(blocks)
    ]
    best = chain(tables, refs, table.scale[5], extra_cost)
    if best is None:
        return None
    value, path = best
    crossing = sum(
        lay.gaps[b.last] ** 2 for b in blocks[:-1] if lay.odd[b.last]
    )  # the crossings between blocks; those inside exact blocks are in their tables
    total = table.wb * crossing + value
    outside, ties = _outside(table, lay, blocks, extras, total // table.wb, regions, budget)
    floor = total if outside is None else min(total, table.wb * outside)
    return Bound(
        total,
        tuple(lower for _, lower, _, _ in path),
        tuple(extra for _, _, _, extra in path),
        total // table.wb,
        outside,
        floor,
        tuple(ties),
        tuple(x_in for x_in, _, _, _ in path),
        tuple(x_out for _, _, x_out, _ in path),
        tuple(refs),
    )


def _outside(
    table: Table,
    lay: Layout,
    blocks: Sequence[Block],
    extras: bool,
    score: int,
    regions: Sequence[Block] = (),
    budget: Budget | None = None,
) -> tuple[int | None, list[tuple[int, int]]]:
    """The least rule-(b) cost of a pairing outside the bound's class (None: none is), and
    the runs of groups across which such a pairing costs ``score`` or less.

    Such a pairing has a pair across a window of two or more boundaries not inside one
    exact block (``_windows``), or more crossings at a boundary next to an exact block than
    the class allows. Each of these costs a least excess over ``score_bound`` on its own
    boundaries. When that alone does not exceed the bound's ``score``, the excess each
    exact block (and each run of groups in ``regions``) needs on its own boundaries
    (``local_excess``, ``leaving_excess``) is added, over runs whose boundaries are apart
    from each other and from the window's: the rule-(b) cost of a pair is the square of the
    gaps it spans, at least the sum of the squares of its parts on disjoint sets of
    boundaries, so the excesses on disjoint sets add up."""
    least = score_bound(lay)
    items = [(set(range(a, b + 1)), value - least) for (a, b), value in _windows(lay, blocks)]
    for n, block in enumerate(blocks[:-1]):
        if block.exact or blocks[n + 1].exact:
            more = (2 if extras else 1) * EXTRA * lay.gaps[block.last] ** 2
            items.append(({block.last}, more))
    own: list[tuple[int, set[int]]] | None = None
    best: int | None = None
    ties: list[tuple[int, int]] = []
    for spanned, excess in items:
        if excess <= score - least:
            if own is None:
                runs = {b for b in [*blocks, *regions] if b.exact}
                own = [(local_excess(table, lay, b, budget), _boundaries(lay, b)) for b in runs]
                own += [(leaving_excess(table, lay, b, budget), _boundaries(lay, b)) for b in runs]
                own.sort(key=lambda item: (-item[0], len(item[1]), sorted(item[1])))
            taken = set(spanned)
            for value, bounds in own:
                if value > 0 and not bounds & taken:
                    excess += value
                    taken |= bounds
        best = least + excess if best is None else min(best, least + excess)
        if least + excess <= score:
            ties.append((min(spanned), max(spanned) + 1))
    return best, ties


def _boundaries(lay: Layout, block: Block) -> set[int]:
    """The boundaries inside ``block`` and at its two edges."""
    return {k for k in range(block.first - 1, block.last + 1) if 0 <= k < len(lay.gaps)}


def local_excess(table: Table, lay: Layout, block: Block, budget: Budget | None = None) -> int:
    """The least excess over ``score_bound``, on the boundaries of an exact block and its
    edges, that any pairing has: per pair, the square of the part of its gap on those
    boundaries, less the squares of the odd ones. Solved on the block's players with
    placeholders for pairs that leave it across an edge (charged the part up to the edge)
    or pass over it (placeholder to placeholder), for the least crossings at each edge and
    ``EXTRA`` more; more still costs at least 2 x ``EXTRA`` x gap^2 at that edge, which caps
    it."""
    members = [i for k in range(block.first, block.last + 1) for i in lay.groups[k]]
    half = table.half
    top = half[lay.groups[block.first - 1][0]] if block.first > 0 else None
    bottom = half[lay.groups[block.last + 1][0]] if block.last + 1 < len(lay.groups) else None
    inner = {
        (a, b): (half[a] - half[b]) ** 2
        for n, a in enumerate(members)
        for b in members[n + 1 :]
        if table.allowed(a, b)
    }
    odd = sum(lay.gaps[k] ** 2 for k in _boundaries(lay, block) if lay.odd[k])
    edges = [k for k in (block.first - 1, block.last) if 0 <= k < len(lay.gaps)]
    best = min((2 * EXTRA * lay.gaps[k] ** 2 for k in edges), default=None)
    ups = (0,) if top is None else _counts(lay.odd[block.first - 1])
    downs = (0,) if bottom is None else _counts(lay.odd[block.last])
    for up in ups:
        for down in downs:
            graph = dict(inner)
            for n in range(up):
                assert top is not None
                for i in members:
                    graph[(i, -1 - n)] = (top - half[i]) ** 2
                for m in range(down):
                    assert bottom is not None
                    graph[(-1 - n, -100 - m)] = (top - bottom) ** 2
            for m in range(down):
                assert bottom is not None
                for i in members:
                    graph[(i, -100 - m)] = (half[i] - bottom) ** 2
            found = min_cost_perfect(graph, len(members) + up + down, budget)
            if found is not None:
                value = found[1] - odd
                best = value if best is None else min(best, value)
    return max(0, best or 0)


def leaving_excess(table: Table, lay: Layout, block: Block, budget: Budget | None = None) -> int:
    """As ``local_excess``, without the parity of the edges: any player of the block may
    leave it, across the nearer edge, for the square of his gap to the group beyond (a
    partner there, or further: only the part on the block's boundaries counts); pairs that
    pass over the block count nothing. The least cost is the players' leaving costs less a
    maximum-weight matching of the savings of pairing inside."""
    members = [i for k in range(block.first, block.last + 1) for i in lay.groups[k]]
    half = table.half
    far = 10**9  # no group beyond: the player cannot leave that way
    top = half[lay.groups[block.first - 1][0]] if block.first > 0 else None
    bottom = half[lay.groups[block.last + 1][0]] if block.last + 1 < len(lay.groups) else None
    leave = {
        i: min(
            far if top is None else (top - half[i]) ** 2,
            far if bottom is None else (half[i] - bottom) ** 2,
        )
        for i in members
    }
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(members)
    local = {v: n for n, v in enumerate(members)}
    saving = []
    for n, a in enumerate(members):
        for b in members[n + 1 :]:
            gain = leave[a] + leave[b] - (half[a] - half[b]) ** 2
            if gain > 0 and table.allowed(a, b):
                saving.append((local[a], local[b], gain))
    graph.add_edges_from(saving)
    if budget is not None:
        budget.charge(solve_work(len(saving), len(members)))
    matching = rustworkx.max_weight_matching(graph, weight_fn=lambda w: w)
    gains = {(x, y): w for x, y, w in saving}
    saved = sum(gains.get((x, y), gains.get((y, x), 0)) for x, y in matching)
    odd = sum(lay.gaps[k] ** 2 for k in _boundaries(lay, block) if lay.odd[k])
    return max(0, min(sum(leave.values()) - saved - odd, far))


def _counts(odd: bool) -> tuple[int, ...]:
    least = 1 if odd else 0
    return (least, least + EXTRA)


def _windows(lay: Layout, blocks: Sequence[Block]) -> list[tuple[tuple[int, int], int]]:
    """Per window of two or more boundaries not inside one exact block, the least rule-(b)
    cost of a pairing with a pair across it. As in ``window_bound``: the crossing's square,
    with each boundary it spans crossed once by it and otherwise the least its parity
    allows."""
    least = score_bound(lay)
    found = []
    for start in range(len(lay.gaps)):
        spread = 0
        change = 0
        for end in range(start, len(lay.gaps)):
            spread += lay.gaps[end]
            change += -(lay.gaps[end] ** 2) if lay.odd[end] else lay.gaps[end] ** 2
            if end > start and not _one_block(blocks, start, end):
                found.append(((start, end), spread * spread + least + change))
    return found


def _one_block(blocks: Sequence[Block], start: int, end: int) -> bool:
    """Boundaries ``start`` to ``end`` all lie inside one exact block."""
    return any(b.exact and b.first <= start and end < b.last for b in blocks)


def main_country(table: Table, group: Sequence[int]) -> str | None:
    """The most common country of ``group``, when it holds a third of it or more (None:
    no country is told apart; with fewer, rule g seldom binds and the count would only
    cost time: the bound stays a bound either way)."""
    members = [i for i in group if not table.bye[i]]
    countries = Counter(table.country[i] for i in members if table.country[i])
    if not countries:
        return None
    main = min(countries, key=lambda c: (-countries[c], c))
    return main if 3 * countries[main] >= len(members) else None


def chain(
    tables: Sequence[Tables],
    refs: Sequence[tuple[str | None, str | None]],
    wg: int,
    extra_cost: Sequence[int],
) -> tuple[int, list[tuple[Side, State, Side, int]]] | None:
    """The least sum of the block tables over the states of the crossings between them.

    A state is the crossing's colour, whether the block's member in the crossing is of the
    country the block's side of that crossing refers to (``refs``: per block, for its upper
    and its lower crossing; None: not told apart), and the extra crossings (each extra pair
    of crossings below block n costs ``extra_cost[n]`` on rule b). When the members on both
    sides are of one and the same country, the crossing pair itself breaks rule (g) and
    costs ``wg``. The path gives, per block, (side of its upper crossing, colour below, side
    below, extra crossings below)."""
    Path = list[tuple[Side, State, Side, int]]
    best: dict[Edge, tuple[int, Path]] = {(None, None, 0): (0, [])}
    above: str | None = None
    for n, (table, (upper_ref, lower_ref)) in enumerate(zip(tables, refs, strict=True)):
        after: dict[Edge, tuple[int, Path]] = {}
        for ((upper, x_in, more), (lower, x_out, less)), value in table.items():
            if value is None:
                continue
            for (colour, x_above, extra), (sofar, path) in best.items():
                if colour != upper or extra != more:
                    continue
                same = x_above == 1 and x_in == 1 and upper_ref is not None and upper_ref == above
                total = sofar + value + (wg if same else 0) + (extra_cost[n] if less else 0)
                key = (lower, x_out, less)
                if key not in after or total < after[key][0]:
                    after[key] = (total, [*path, (x_in, lower, x_out, less)])
        best = after
        above = lower_ref
    return best.get((None, None, 0))


Role = tuple[str, int | None, Side]  # kind, seat, main-country side (None: either)


def _roles(
    lay: Layout, group: int, upper: State, lower: State, x_in: Side = None, x_out: Side = None
) -> list[Role]:
    """The crossing parts the members of ``group`` must take."""
    roles: list[Role] = []
    if upper != MEETS_BYE:  # else the BYE itself meets the group above
        if upper is not None:
            roles.append((UP, 1 - upper, x_in))
        if lay.bye_group == group:
            roles.append((PARTNER, None, None))
    if lower == MEETS_BYE:
        roles.append((PARTNER, None, None))
    elif lower is not None:
        roles.append((DOWN, lower, x_out))
    return roles


def exact(
    table: Table,
    lay: Layout,
    block: Block,
    refs: tuple[str | None, str | None] = (None, None),
    extras: tuple[bool, bool] = (False, False),
    budget: Budget | None = None,
) -> Tables:
    """Least cost of a run of small groups, solved for every state of its two crossings
    (where ``refs`` names the country of the counted block across a crossing, for a member
    of that country taking it, or not; where ``extras`` allows, with ``EXTRA`` more
    crossings, whose members are charged their cheapest colour and nothing for rule g)."""
    members = [i for k in range(block.first, block.last + 1) for i in lay.groups[k]]
    inner = {
        (a, b): table.weight(a, b)
        for n, a in enumerate(members)
        for b in members[n + 1 :]
        if table.allowed(a, b)
    }
    top, bottom = lay.groups[block.first], lay.groups[block.last]
    below_bye = lay.bye_group == block.last + 1  # an extra crossing below may meet the BYE
    result: Tables = {}
    for upper in states(lay, block.first - 1):
        for x_in in _sides(refs[0], upper):
            for more in (0, EXTRA) if extras[0] else (0,):
                for lower in states(lay, block.last):
                    for x_out in _sides(refs[1], lower):
                        for less in (0, EXTRA) if extras[1] else (0,):
                            edges = dict(inner)
                            vertices = len(members)
                            if upper == MEETS_BYE:
                                edges = {
                                    k: w
                                    for k, w in edges.items()
                                    if not (table.bye[k[0]] or table.bye[k[1]])
                                }
                                vertices -= 1
                            for slot, kind, state, group, side, ref in (
                                (-1, UP, upper, block.first, x_in, refs[0]),
                                (-2, DOWN, lower, block.last, x_out, refs[1]),
                            ):
                                if state is None or (kind == UP and state == MEETS_BYE):
                                    continue
                                role, seat = _slot_role(kind, state)
                                for i in lay.groups[group]:
                                    if table.bye[i]:
                                        continue
                                    if side is not None and (table.country[i] == ref) != bool(side):
                                        continue
                                    edges[(i, slot)] = table.role_cost(i, role, seat)
                                vertices += 1
                            for n in range(more):
                                for i in top:
                                    if table.bye[i]:
                                        if upper != MEETS_BYE:
                                            edges[(i, -3 - n)] = 0
                                        continue
                                    edges[(i, -3 - n)] = _cheapest(table, i, UP)
                                vertices += 1
                            for n in range(less):
                                for i in bottom:
                                    if not table.bye[i]:
                                        cost = 0 if below_bye else _cheapest(table, i, DOWN)
                                        edges[(i, -3 - EXTRA - n)] = cost
                                vertices += 1
                            found = min_cost_perfect(edges, vertices, budget)
                            key = ((upper, x_in, more), (lower, x_out, less))
                            result[key] = None if found is None else found[1]
    return result


def _sides(ref: str | None, state: State) -> tuple[Side, ...]:
    """The sides a crossing member may take: told apart only for a crossing of two players
    next to a counted block."""
    return (0, 1) if ref is not None and state in (BLACK, WHITE) else (None,)


def _cheapest(table: Table, i: int, kind: str) -> int:
    """What ``i`` costs in a crossing of ``kind`` at his cheaper colour."""
    return min(table.role_cost(i, kind, BLACK), table.role_cost(i, kind, WHITE))


def _slot_role(kind: str, state: int) -> tuple[str, int | None]:
    """The role and colour a member takes in the crossing pair of ``state``: the upper player
    of a crossing plays ``state``, the lower one the other colour."""
    if state == MEETS_BYE:
        return PARTNER, None
    return kind, (1 - state if kind == UP else state)


Kind = tuple[int, int, bool, bool, bool]  # seat costs (Black, White), last float up, down; main
Class = tuple[int, int, bool]  # preferred colour (2: none), extra of the other colour, main


def counted(
    table: Table,
    lay: Layout,
    group: int,
    main: str | None,
    extras: tuple[bool, bool] = (False, False),
) -> Tables:
    """Least colour, float and country cost of one large group, counted by entrant type.

    Per state of the two crossings, including whether each crossing member is of the group's
    main country, the members who take the crossings are chosen by type at their exact cost
    and the rest are paired at the least colour cost and, among such pairings, with the
    fewest pairs of two players of the main country (``_pool``). With ``EXTRA`` more
    crossings at an edge (where ``extras`` allows), only the members' cheaper colours are
    counted: a weak bound, but those states cost more on rule (b), and the route makes the
    blocks across such a crossing one exact block when the cheapest path takes one."""
    members = [i for i in lay.groups[group] if not table.bye[i]]
    kinds: Counter[Kind] = Counter(
        (*table.seat[i], table.up[i], table.down[i], main is not None and table.country[i] == main)
        for i in members
    )
    base = sum(min(b, w) * n for (b, w, _, _, _), n in kinds.items())
    pool: Counter[Class] = Counter()
    for kind, n in kinds.items():
        pool[_class(kind)] += n
    we, wg = table.scale[3], table.scale[5]
    cache: dict[tuple[Class, ...], int] = {}
    result: Tables = {}
    for upper in states(lay, group - 1):
        for x_in in _sides(main, upper):
            for lower in states(lay, group):
                for x_out in _sides(main, lower):
                    roles = _roles(lay, group, upper, lower, x_in, x_out)
                    extra = _assign(kinds, pool, roles, we, wg, cache)
                    key = ((upper, x_in, 0), (lower, x_out, 0))
                    result[key] = None if extra is None else base + extra
                    for more, less in ((EXTRA, 0), (0, EXTRA), (EXTRA, EXTRA)):
                        if (more and not extras[0]) or (less and not extras[1]):
                            continue
                        fits = len(members) >= len(roles) + more + less
                        key = ((upper, x_in, more), (lower, x_out, less))
                        result[key] = base if extra is not None and fits else None
    return result


def _class(kind: Kind) -> Class:
    """(preferred colour, or 2 for none; the extra cost of the other colour; main country)."""
    black, white = kind[0], kind[1]
    side = BLACK if black < white else WHITE if white < black else 2
    return side, abs(black - white), kind[4]


def _extra(kind: Kind, role: Role, we: int) -> int:
    """What taking ``role`` costs a player of ``kind`` above his cheaper colour."""
    black, white, up, down, _ = kind
    name, seat, _ = role
    if name == PARTNER:
        cost = 0
    else:
        assert seat is not None
        cost = (black, white)[seat] + we * (up if name == UP else down)
    return cost - min(black, white)


def _assign(
    kinds: Counter[Kind],
    pool: Counter[Class],
    roles: Sequence[Role],
    we: int,
    wg: int,
    cache: dict[tuple[Class, ...], int],
) -> int | None:
    """The least extra cost of giving ``roles`` to members and pairing the rest."""
    if sum(pool.values()) < len(roles):
        return None
    options: list[dict[Class, list[tuple[int, Kind]]]] = []
    for role in roles:
        per: dict[Class, list[tuple[int, Kind]]] = {}
        for kind in kinds:
            if role[2] is not None and kind[4] != bool(role[2]):
                continue
            per.setdefault(_class(kind), []).append((_extra(kind, role, we), kind))
        for found in per.values():
            found.sort()
        options.append(per)

    def rest(taken: tuple[Class, ...]) -> int:
        key = tuple(sorted(taken))
        if key not in cache:
            left = pool.copy()
            left.subtract(key)
            colour, same = _pool(left)
            cache[key] = colour + wg * same
        return cache[key]

    if not roles:
        return rest(())
    if len(roles) == 1:
        return min(
            (found[0][0] + rest((c,)) for c, found in options[0].items()),
            default=None,
        )
    first, second = options
    best: int | None = None
    for c1, one in first.items():
        for c2, two in second.items():
            if c1 != c2:
                extra = one[0][0] + two[0][0]
            else:
                pairs = [
                    e1 + e2
                    for e1, k1 in one[:2]
                    for e2, k2 in two[:2]
                    if k1 != k2 or kinds[k1] >= 2
                ]
                if not pairs:
                    continue
                extra = min(pairs)
            value = extra + rest((c1, c2))
            best = value if best is None else min(best, value)
    return best


def _pool(pool: Counter[Class]) -> tuple[int, int]:
    """The least extra colour cost of pairing a pool, and the fewest pairs of two players of
    the main country among the pairings of that cost (rules a and c left out).

    Opposite preferences, and the indifferent, pair at no extra cost. When one preference
    (M) outnumbers the other and the indifferent (Q), its surplus of 2p players pairs among
    itself, each pair paying the smaller extra of its two: the p payers are distinct players,
    so the least cost is that of the p smallest extras of M, and a pairing of that cost has
    exactly p pairs inside M, with those smallest extras as payers (the ties of the last
    extra taken may be any of its players) and the rest of M meeting Q one to one. With u
    main-country players among the 2p in those pairs, at least max(0, u - p) of them join
    two of the main country, and at least max(0, r + q - |Q|) of the pairs between the rest
    of M (r of the main country) and Q (q) do; u ranges over what the choice of payers and
    their partners allows, and the least sum over it is reached (pair main with others)."""
    count = [0, 0, 0]
    main = [0, 0, 0]
    for (side, _, is_main), n in pool.items():
        count[side] += n
        if is_main:
            main[side] += n
    big = BLACK if count[BLACK] >= count[WHITE] else WHITE
    small = 1 - big
    others = count[small] + count[2]
    if count[big] < others:  # no surplus: every pair can have its colours (some indifferent)
        size, mains = sum(count), sum(main)
        return 0, max(0, 2 * mains - size) // 2
    payers = (count[big] - others) // 2
    by_delta: dict[int, list[int]] = {}
    for (side, delta, is_main), n in pool.items():
        if side == big and n > 0:
            by_delta.setdefault(delta, [0, 0])[0 if is_main else 1] += n
    colour = 0
    need = payers
    fixed = 0  # main-country payers of the extras below the last one taken
    rest_main = main[big]  # main-country players of M from the last extra taken on
    rest_other = count[big] - main[big]
    last_main = last_other = 0
    for delta in sorted(by_delta):
        x, y = by_delta[delta]
        if need >= x + y and need > 0:
            colour += delta * (x + y)
            need -= x + y
            fixed += x
            rest_main -= x
            rest_other -= y
            continue
        colour += delta * need
        last_main, last_other = x, y
        break
    take = need + payers  # from the last extra on: the rest of the payers and the partners
    low = fixed + max(0, need - last_other, take - rest_other)
    high = fixed + min(rest_main, take - max(0, need - last_main))
    q_main = main[small] + main[2]

    def same(u: int) -> int:
        return max(0, u - payers) + max(0, main[big] - u + q_main - others)

    candidates = {low, high, min(high, max(low, payers))}
    candidates.add(min(high, max(low, main[big] + q_main - others)))
    return colour, min(same(u) for u in candidates)


def min_cost_perfect(
    edges: Edges, vertices: int, budget: Budget | None = None
) -> tuple[list[tuple[int, int]], int] | None:
    """The least-cost perfect matching of the graph ``edges`` spans (``vertices`` of them,
    counting any without an edge), or None. Its work is charged to ``budget``."""
    if vertices == 0:
        return [], 0
    if vertices % 2 or not edges:
        return None
    ids = sorted(set(itertools.chain.from_iterable(edges)))
    if len(ids) != vertices:
        return None
    local = {v: n for n, v in enumerate(ids)}
    if budget is not None:
        budget.charge(solve_work(len(edges), vertices))
    top = max(edges.values()) + 1
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(len(ids)))
    graph.add_edges_from([(local[a], local[b], top - w) for (a, b), w in edges.items()])
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != vertices:
        return None
    pairs = []
    total = 0
    for x, y in matching:
        a, b = ids[x], ids[y]
        key = (a, b) if (a, b) in edges else (b, a)
        total += edges[key]
        pairs.append(key)
    return pairs, total
