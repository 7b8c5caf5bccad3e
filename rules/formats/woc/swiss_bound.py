"""A lower bound on the cost of any pairing of a Swiss round (woc II.6.2), by score group.

Rule (b) dominates, so the proof starts there. Sort the vertices (players, and the BYE of an
odd field with 0 points) into score groups, best first. Across each boundary between two
neighbouring groups, an odd number of vertices above means at least one pair crosses it.
A pair's rule-(b) cost is the square of its points gap, and the square of a sum exceeds the
sum of the squares, so ``score_bound`` (the squared gaps of the odd boundaries) is the least
rule-(b) cost of any pairing, and a pairing meets it only when every pair stays in its group
or crosses one boundary, each odd boundary once and no even one.

A rule weight outweighs everything below it over the whole round, so when the pairing found
meets ``score_bound``, every better pairing has that shape too, and the rest of the bound may
assume it. Groups are cut into blocks: a large group alone, or a run of small groups. Per
block and per state of the crossings at its two edges (the colour the upper player of the
crossing pair takes, or "meets the BYE"), a table gives the least cost the block can have:
- a run of small groups: solved exactly (all allowed pairs, with a placeholder vertex for
  each crossing that charges the member taking it its colour and float cost);
- a large group: counted by entrant type, leaving out rules (a), (c) and (g): each player's
  cheaper colour, plus, when one colour preference outnumbers the other and the indifferent,
  the cheapest way to pair the surplus among themselves (each pair pays the smaller extra of
  its two: the smallest half of the extras); the members who take a crossing (or
  the BYE) are chosen by type at their exact cost. Rule (g) adds the pairs forced when one
  country holds more than half of the group, and the crossings between two such groups
  that must join two players of that country (``country_chain``).
``chain`` minimises the sum over the states of the crossings. The crossing pairs' own rule
(c) and (g) costs are left out. Every part is a least cost, so their sum is a lower bound:
a pairing whose cost equals it is an optimum of the round (the certificate).

When a pairing cannot meet ``score_bound``, ``window_bound`` gives the least rule-(b) cost of
any pairing with a pair that crosses ``span`` or more consecutive boundaries; a pairing
found among the shorter pairs that costs less than that is optimal (the wider fallback).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import rustworkx

from rules.formats.woc.swiss_weigh import DOWN, PARTNER, UP, Table

BLACK, WHITE, MEETS_BYE = 0, 1, 2  # crossing states: the upper player's colour, or the BYE
State = int | None  # None: no pair crosses this boundary
Tables = dict[tuple[State, State], int | None]  # least block cost by (upper, lower) edge state
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
    total: int  # weighted cost no pairing can beat (when it meets the score bound)
    states: tuple[State, ...]  # the cheapest state below each block


def layout(table: Table) -> Layout:
    order = sorted(range(len(table)), key=lambda i: (-table.half[i], table.bye[i], i))
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


def lower_bound(table: Table, lay: Layout, blocks: Sequence[Block]) -> Bound | None:
    """The bound, or None when no pairing of the score bound's shape exists."""
    tables = [exact(table, lay, b) if b.exact else counted(table, lay, b.first) for b in blocks]
    best = chain(tables)
    if best is None:
        return None
    value, below = best
    crossing = sum(
        lay.gaps[b.last] ** 2 for b in blocks[:-1] if lay.odd[b.last]
    )  # the crossings between blocks; those inside exact blocks are in their tables
    forced = country_chain(table, lay, {b.first for b in blocks if not b.exact})
    return Bound(table.wb * crossing + value + table.scale[5] * forced, tuple(below))


def chain(tables: Sequence[Tables]) -> tuple[int, list[State]] | None:
    """The least sum of the block tables over the states of the crossings between them."""
    best: dict[State, tuple[int, list[State]]] = {None: (0, [])}
    for table in tables:
        after: dict[State, tuple[int, list[State]]] = {}
        for (upper, lower), value in table.items():
            if value is None or upper not in best:
                continue
            total = best[upper][0] + value
            if lower not in after or total < after[lower][0]:
                after[lower] = (total, [*best[upper][1], lower])
        best = after
    return best.get(None)


def _roles(lay: Layout, group: int, upper: State, lower: State) -> list[tuple[str, int | None]]:
    """The crossing parts the members of ``group`` must take."""
    roles: list[tuple[str, int | None]] = []
    if upper != MEETS_BYE:  # else the BYE itself meets the group above
        if upper is not None:
            roles.append((UP, 1 - upper))
        if lay.bye_group == group:
            roles.append((PARTNER, None))
    if lower == MEETS_BYE:
        roles.append((PARTNER, None))
    elif lower is not None:
        roles.append((DOWN, lower))
    return roles


def exact(table: Table, lay: Layout, block: Block) -> Tables:
    """Least cost of a run of small groups, solved for every state of its two crossings."""
    members = [i for k in range(block.first, block.last + 1) for i in lay.groups[k]]
    inner = {
        (a, b): table.weight(a, b)
        for n, a in enumerate(members)
        for b in members[n + 1 :]
        if table.allowed(a, b)
    }
    result: Tables = {}
    for upper in states(lay, block.first - 1):
        for lower in states(lay, block.last):
            edges = dict(inner)
            vertices = len(members)
            if upper == MEETS_BYE:
                edges = {k: w for k, w in edges.items() if not (table.bye[k[0]] or table.bye[k[1]])}
                vertices -= 1
            for slot, kind, state, group in (
                (-1, UP, upper, block.first),
                (-2, DOWN, lower, block.last),
            ):
                if state is None or (kind == UP and state == MEETS_BYE):
                    continue
                role, seat = _slot_role(kind, state)
                for i in lay.groups[group]:
                    if not table.bye[i]:
                        edges[(i, slot)] = table.role_cost(i, role, seat)
                vertices += 1
            found = min_cost_perfect(edges, vertices)
            result[(upper, lower)] = None if found is None else found[1]
    return result


def _slot_role(kind: str, state: int) -> tuple[str, int | None]:
    """The role and colour a member takes in the crossing pair of ``state``: the upper player
    of a crossing plays ``state``, the lower one the other colour."""
    if state == MEETS_BYE:
        return PARTNER, None
    return kind, (1 - state if kind == UP else state)


def counted(table: Table, lay: Layout, group: int) -> Tables:
    """Least colour and float cost of one large group, counted by entrant type."""
    members = [i for i in lay.groups[group] if not table.bye[i]]
    kinds: Counter[tuple[int, int, bool, bool]] = Counter(
        (*table.seat[i], table.up[i], table.down[i]) for i in members
    )
    base = sum(min(b, w) * n for (b, w, _, _), n in kinds.items())
    classes: Counter[tuple[int, int]] = Counter()
    for kind, n in kinds.items():
        classes[_class(kind)] += n
    we = table.scale[3]
    result: Tables = {}
    for upper in states(lay, group - 1):
        for lower in states(lay, group):
            roles = _roles(lay, group, upper, lower)
            extra = _assign(kinds, classes, roles, we)
            result[(upper, lower)] = None if extra is None else base + extra
    return result


def country_chain(table: Table, lay: Layout, counted: set[int]) -> int:
    """Rule (g) pairs forced in the counted groups and in the crossings between two of them.

    In each counted group take its most common country X. A member of X who takes a
    crossing frees the group of one X member, but when the member across the boundary is of
    X too, the crossing pair itself is a same-country pair. Chained over the boundaries
    (is the crossing member of X or not, on each side), the least total counts both: per
    group, the X members left inside beyond the others (paired among themselves), plus each
    X-X crossing between two counted groups. Any pairing of the score bound's shape has at
    least this many same-country pairs there."""
    main: list[str | None] = []
    for k, group in enumerate(lay.groups):
        countries = Counter(table.country[i] for i in group if table.country[i])
        main.append(countries.most_common(1)[0][0] if k in counted and countries else None)
    inf = len(table)
    best: dict[int, int] = {0: 0}  # X-ness of the member above the next boundary -> least
    for k, group in enumerate(lay.groups):
        up = k > 0 and lay.odd[k - 1]
        down = k < len(lay.gaps) and lay.odd[k]
        size = len(group)
        x = main[k]
        members = sum(1 for i in group if x is not None and table.country[i] == x)
        after: dict[int, int] = {}
        for above, least in best.items():
            for b_in in (0, 1) if up else (0,):
                crossing = int(bool(above and b_in and x is not None and main[k - 1] == x))
                for a_out in (0, 1) if down else (0,):
                    leaving = b_in + a_out
                    others = int(up) + int(down) - leaving
                    if leaving > members or others > size - members:
                        continue
                    inside = size - int(up) - int(down)
                    forced = max(0, 2 * (members - leaving) - inside) // 2
                    total = least + crossing + forced
                    if total < after.get(a_out, inf):
                        after[a_out] = total
        best = after
    return min(best.values(), default=0)


def _class(kind: tuple[int, int, bool, bool]) -> tuple[int, int]:
    """(preferred colour, or 2 for none; the extra cost of the other colour)."""
    black, white = kind[0], kind[1]
    side = BLACK if black < white else WHITE if white < black else 2
    return side, abs(black - white)


def _extra(kind: tuple[int, int, bool, bool], role: tuple[str, int | None], we: int) -> int:
    """What taking ``role`` costs a player of ``kind`` above his cheaper colour."""
    black, white, up, down = kind
    name, seat = role
    if name == PARTNER:
        cost = 0
    else:
        assert seat is not None
        cost = (black, white)[seat] + we * (up if name == UP else down)
    return cost - min(black, white)


def _assign(
    kinds: Counter[tuple[int, int, bool, bool]],
    classes: Counter[tuple[int, int]],
    roles: Sequence[tuple[str, int | None]],
    we: int,
) -> int | None:
    """The least extra cost of giving ``roles`` to members and pairing the rest."""
    if sum(classes.values()) < len(roles):
        return None
    best_by_class: list[dict[tuple[int, int], list[tuple[int, tuple[int, int, bool, bool]]]]] = []
    for role in roles:
        per: dict[tuple[int, int], list[tuple[int, tuple[int, int, bool, bool]]]] = {}
        for kind in kinds:
            per.setdefault(_class(kind), []).append((_extra(kind, role, we), kind))
        for options in per.values():
            options.sort()
        best_by_class.append(per)
    if not roles:
        return _surplus(classes)
    if len(roles) == 1:
        return min(
            options[0][0] + _surplus(classes - Counter([c]))
            for c, options in best_by_class[0].items()
        )
    first, second = best_by_class
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
            value = extra + _surplus(classes - Counter([c1, c2]))
            best = value if best is None else min(best, value)
    return best


def _surplus(classes: Counter[tuple[int, int]]) -> int:
    """Least extra colour cost of pairing a pool: opposite preferences and the indifferent
    pair at no extra cost; the surplus of one preference (2m players) pairs among itself,
    each pair paying the smaller extra of its two. The m payers are distinct players, so the
    sum is at least that of the m smallest extras of the side, and pairing the smallest with
    the largest reaches it."""
    count = [0, 0, 0]
    for (side, _), n in classes.items():
        count[side] += n
    side = BLACK if count[BLACK] >= count[WHITE] else WHITE
    payers = (abs(count[BLACK] - count[WHITE]) - count[2]) // 2
    total = 0
    for (s, delta), n in sorted(classes.items(), key=lambda item: item[0][1]):
        if s != side or payers <= 0:
            continue
        take = min(n, payers)
        total += delta * take
        payers -= take
    return total


def min_cost_perfect(edges: Edges, vertices: int) -> tuple[list[tuple[int, int]], int] | None:
    """The least-cost perfect matching of the graph ``edges`` spans (``vertices`` of them,
    counting any without an edge), or None."""
    if vertices == 0:
        return [], 0
    if vertices % 2 or not edges:
        return None
    ids = sorted({v for pair in edges for v in pair})
    if len(ids) != vertices:
        return None
    local = {v: n for n, v in enumerate(ids)}
    top = max(edges.values()) + 1
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(len(ids)))
    graph.add_edges_from([(local[a], local[b], top - w) for (a, b), w in edges.items()])
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
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
