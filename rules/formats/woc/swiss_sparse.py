"""A sparse candidate graph for one large score group (woc II.6.2).

The cheap pairings of a group are known by type (see ``swiss_bound``): players who prefer
opposite colours meet; the surplus of one preference, the ones for whom the other colour
costs least, meet among themselves; players of one country, and rematches, are avoided.
The graph gives each player a handful of partners that can make such a pairing:
- a band between the two preferences: the minority (then the indifferent) against the
  majority ordered by how much the other colour would cost them, most first, so that the
  least demanding of the majority are the ones left over;
- inside each preference, for the surplus, the least demanding against the most demanding
  (a pair of one preference pays the smaller extra of its two) and next neighbours;
- a few partners spread over the whole group, so that the graph has no narrow places;
and, along the way, partners from other countries and allowed by rule (a) are sought out.
Nothing here is needed for exactness: a pairing found on this graph counts only when it
meets the lower bound, and the route widens otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.formats.woc.swiss_weigh import Table

Edges = dict[tuple[int, int], int]


def sparse_edges(table: Table, group: Sequence[int], width: int) -> Edges:
    """Candidate pairs of ``group`` (vertex indices) with their weighted costs; ``width``
    sets how many partners each player seeks of each kind."""
    edges: Edges = {}
    real = [i for i in group if not table.bye[i]]
    for i in group:
        if table.bye[i]:  # the BYE may meet anyone it is allowed to
            for j in real:
                _add(table, edges, i, j)
    sides: tuple[list[int], list[int], list[int]] = ([], [], [])
    for i in real:
        black, white = table.seat[i]
        sides[0 if black < white else 1 if white < black else 2].append(i)
    countries = Counter(table.country[i] for i in real if table.country[i])
    crowded = bool(countries) and 2 * max(countries.values()) >= len(real)
    for side in sides:
        if crowded:  # one country holds half the group: spread it along the lines
            _order(table, side)
        else:
            side.sort(key=lambda i: (-_delta(table, i), i))
    major, minor = (sides[0], sides[1]) if len(sides[0]) >= len(sides[1]) else sides[1::-1]
    others = minor + sides[2]
    for position, i in enumerate(others):
        _seek(table, edges, i, major, position, width)
    for side in sides:  # the surplus: the least demanding meet the most demanding
        rising = side[::-1]
        last = len(rising) - 1
        for position, i in enumerate(rising):
            _seek(table, edges, i, rising, last - position, max(2, width // 2))
            _seek(table, edges, i, rising, position + 1, 1, forward=True)
    count = len(real)
    if count > 2:
        for position, i in enumerate(real):
            for step in range(1, 3):
                j = real[(position * 7 + step * (count // 3 + 1)) % count]
                if j != i:
                    _add(table, edges, i, j)
    return edges


def _order(table: Table, line: list[int]) -> None:
    """Sort ``line`` by the extra cost of the other colour, most first, and within one such
    cost spread each country evenly over the run (the k-th of n players of a country at
    (k + 1/2) / n of it): any stretch of the line then holds the countries in about their
    shares, so the players the band leaves over (those who pair within their preference)
    are not, by the accident of their numbers, all of one country."""
    seen: Counter[tuple[int, str]] = Counter()
    rank: dict[int, tuple[int, str]] = {}
    for i in sorted(line):
        key = (_delta(table, i), table.country[i])
        rank[i] = (key[0], key[1])
        seen[key] += 1
    place: dict[int, float] = {}
    count: Counter[tuple[int, str]] = Counter()
    for i in sorted(line):
        key = rank[i]
        place[i] = (count[key] + 0.5) / seen[key]
        count[key] += 1
    line.sort(key=lambda i: (-rank[i][0], place[i], table.country[i], i))


def _delta(table: Table, i: int) -> int:
    black, white = table.seat[i]
    return abs(black - white)


def _seek(
    table: Table,
    edges: Edges,
    i: int,
    line: Sequence[int],
    centre: int,
    want: int,
    *,
    forward: bool = False,
) -> None:
    """Link ``i`` to the members of ``line`` near ``centre``: every allowed one within
    ``want`` places, then on until ``want`` allowed partners from another country."""
    # the hottest loop of a large round (a few hundred thousand steps at 10,000 players):
    # ``_add`` and ``Table.allowed`` written out
    blocked = table.blocked[i]
    country = table.country
    own = country[i]
    weight = table.weight
    size = len(line)
    found = 0
    for distance in range(min(size, 8 * want + 10)):  # to 8 x want + 9: far enough
        ahead = centre + distance
        behind = -1 if forward else centre - distance - 1
        if ahead >= size and behind < 0:
            return  # past both ends of the line
        for position in (ahead, behind):
            if not 0 <= position < size:
                continue
            j = line[position]
            if j == i or j in blocked:
                continue
            if own != country[j] or not own:
                found += 1
            elif distance >= want:
                continue
            key = (i, j) if i < j else (j, i)
            if key not in edges:
                edges[key] = weight(i, j)
        if found >= want and distance >= want:
            return


def _add(table: Table, edges: Edges, i: int, j: int) -> None:
    key = (i, j) if i < j else (j, i)
    if key not in edges and table.allowed(i, j):
        edges[key] = table.weight(i, j)


def prepair(
    table: Table, group: Sequence[int], keep: set[int], spare: int
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair off, greedily, players of opposite colour preference whose pair costs nothing
    beyond their cheaper colours (allowed, no rematch, other countries): such a pair is as
    cheap as the bound counts it. When one country holds half the group or more, each such
    pair joins one of its players with one from elsewhere: two players from elsewhere paired
    here would leave more of that country to meet each other (the bound counts those).
    ``keep`` (the best partners for the crossings) and ``spare`` players of every type, and
    the last ``spare`` of the minority, stay for the exact solve of the rest. Returns the
    pairs and the rest."""
    real = [i for i in group if not table.bye[i]]
    countries = Counter(table.country[i] for i in real if table.country[i])
    main = min(countries, key=lambda c: (-countries[c], c)) if countries else None
    mixed = main is not None and 2 * countries[main] >= len(real)
    reserved = set(keep)
    seen: dict[tuple[int, int, bool, bool, bool], int] = {}
    for i in real:
        kind = (*table.seat[i], table.up[i], table.down[i], table.country[i] == main)
        if seen.get(kind, 0) < spare:
            seen[kind] = seen.get(kind, 0) + 1
            reserved.add(i)
    black = [i for i in real if table.seat[i][0] < table.seat[i][1]]
    white = [i for i in real if table.seat[i][1] < table.seat[i][0]]
    major, minor = (black, white) if len(black) >= len(white) else (white, black)
    major.sort(key=lambda i: (-_delta(table, i), i))
    minor.sort(key=lambda i: (-_delta(table, i), i))
    cheap = {i: min(table.seat[i]) for i in real}
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    # the free majority, by country side (main or not), each in the order above
    lines: dict[bool, list[int]] = {True: [], False: []}
    for i in major:
        if i not in reserved:
            lines[table.country[i] == main].append(i)
    starts = {True: 0, False: 0}
    for i in minor[: max(0, len(minor) - spare)]:
        if i in reserved:
            continue
        own = table.country[i] == main
        for side in (not own,) if mixed else (not own, own):
            free = lines[side]
            start = starts[side]
            while start < len(free) and free[start] in used:
                start += 1
            starts[side] = start
            partner = next(
                (
                    j
                    for j in free[start : start + 4 * spare + 8]
                    if j not in used
                    and table.allowed(i, j)
                    and table.weight(i, j) == cheap[i] + cheap[j]
                ),
                None,
            )
            if partner is not None:
                used.update((i, partner))
                pairs.append((i, partner))
                break
    rest = [i for i in group if i not in used]
    return pairs, rest
