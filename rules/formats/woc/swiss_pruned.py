"""The fast exact route to a Swiss round's pairing (woc II.6.2), with its proof.

``pair`` returns the same optimum as the complete graph of allowed pairs
(``swiss.pair_complete``), rule by rule, and says how it was proven:
- ``"bound"``: the score groups are solved block by block, top down (a large group on a
  sparse candidate graph after its obvious pairs are paired off, runs of small groups on all
  their pairs; the player floating in from above is a real vertex, the one floating out a
  placeholder charged what the bound's cheapest crossing would charge him), and the pairing
  has the least rule-(b) cost and costs exactly the lower bound of ``swiss_bound``: no
  pairing can be better;
- ``"window N"``: the whole round solved exactly on all pairs across at most N score-group
  boundaries, and the result costs less on rule (b) than any pairing with a longer pair
  could. Small fields (up to ``WINDOWS_UP_TO`` vertices) start here, which is faster than
  the complete graph and needs no bound; larger ones come here when the bound is not met (a
  rematch or a country the count cannot see);
- ``"complete"``: the complete graph, when no window proves its result.
A pairing is never called optimal on the strength of the sparse graph alone.

The route works within a ``Budget`` (``swiss_budget``: the director's time limit, counted
in solver work, not read from a clock). The bound and the first solve of the blocks always
run; a later try, a window or the complete graph starts only when its work fits. When the
budget ends the proof, the outcome is ``"best found"``: the cheapest pairing found, with
``bound`` the floor no pairing of the round can go below, so its distance from the optimum
is at most ``cost - bound``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rules.formats.woc import swiss
from rules.formats.woc.swiss_bound import (
    MEETS_BYE,
    Block,
    Bound,
    Edges,
    Layout,
    State,
    block_size,
    join,
    layout,
    lower_bound,
    min_cost_perfect,
    plan_blocks,
    score_bound,
    window_bound,
)
from rules.formats.woc.swiss_budget import Budget, solve_work
from rules.formats.woc.swiss_sparse import prepair, sparse_edges
from rules.formats.woc.swiss_weigh import DOWN, PARTNER, Table

WINDOWS_UP_TO = 120  # vertices; up to this the window solves are the fastest exact route
LARGE = 40  # a score group of this many vertices is solved on a sparse graph
RUN = 80  # small neighbouring groups are solved together up to this many vertices
# the tries on the sparse graph: (pair off the obvious pairs first, partners sought per kind).
# The greedy try with 8 partners came in on 3 Dec 2026 (issue 33): where the first two miss
# the bound it often meets it on blocks a fifth of the size, so a round that once needed the
# whole-group solve (10,000 players: 1.5 s of matchings) may now record another of its equal
# optima (docs/formats/woc.md, "Which optimum a round records").
TRIES = ((True, 3), (True, 5), (True, 8), (False, 8), (True, 16))
PREPAIR = 150  # groups of this many vertices get their obvious pairs paired off first
JOINED = 1_500  # the largest exact block made by joining blocks across extra crossings
SPARE = 6  # of each type, and best partners of each crossing, kept for the exact solve


@dataclass(frozen=True)
class Tuning:
    """The route's sizes (tests shrink them to reach every path on small fields)."""

    windows_up_to: int = WINDOWS_UP_TO
    large: int = LARGE
    run: int = RUN
    prepair: int = PREPAIR
    joined: int = JOINED


UNPROVEN = "best found"


@dataclass(frozen=True)
class Outcome:
    pairings: list[swiss.Pairing]
    method: str  # "bound", "window N", "complete", or ``UNPROVEN``
    cost: int  # the weighted cost of the pairing (rule weights of ``swiss.weights``)
    bound: int | None  # a floor no pairing of the round goes below, when one was computed
    tries: tuple[str, ...] = field(default=())  # what was tried before, in order
    work: int = 0  # the solver work spent (``swiss_budget``)

    @property
    def proven(self) -> bool:
        return self.method != UNPROVEN

    def details(self) -> dict[str, object]:
        """What a round records about its proof of optimality."""
        proven_by = {"bound": "lower bound", UNPROVEN: None}.get(self.method, "exact solve")
        found: dict[str, object] = {
            "method": self.method,
            "proven_by": proven_by,
            "tries": list(self.tries),
        }
        if not self.proven:
            found["cost"] = self.cost
            found["floor"] = self.bound
        return found


def pair(
    players: Sequence[swiss.SwissPlayer],
    modified: bool,
    *,
    route: str = "auto",
    tuning: Tuning = Tuning(),
    budget: Budget | None = None,
) -> Outcome:
    """The optimum pairing of ``players``, or within ``budget`` (None: no limit) the best
    found with its floor. ``route``: ``"auto"``, ``"pruned"`` (never the complete graph
    first, for tests) or ``"complete"``."""
    budget = budget if budget is not None else Budget()
    entrants = swiss.field_of(players)
    table = Table(entrants, modified, swiss.weights(entrants))
    if route == "complete":
        return _complete(table, (), None, budget)
    lay = layout(table)
    if route == "auto" and len(entrants) <= tuning.windows_up_to:
        # a few hundredths of a second at most: small fields are always solved exactly
        return _widen(table, lay, None, [], Budget(), None)
    blocks = plan_blocks(lay, tuning.large, tuning.run)
    tries: list[str] = []
    bound, blocks = _bound(table, lay, blocks, tuning, tries, budget)
    best: Outcome | None = None
    cheapest: tuple[list[tuple[int, int]], int] | None = None  # a try's pairs and cost
    if bound is not None and not any(bound.extras):
        work = 0
        for n, (greedy, width) in enumerate(TRIES):
            name = f"blocks {width}" + (" greedy" if greedy else "")
            if n and not budget.affords(2 * work):
                tries.append(f"{name}: over the time budget")
                break
            before = budget.spent
            pairs = solve_blocks(
                table,
                lay,
                blocks,
                bound,
                width,
                greedy=greedy,
                prepair_from=tuning.prepair,
                budget=budget,
            )
            work = budget.spent - before
            if pairs is None:
                tries.append(f"{name}: no complete pairing")
                continue
            cost = _cost(table, pairs)
            # the floor holds for every pairing of the round: meeting it proves the optimum
            if cost == bound.floor:
                return _outcome(table, pairs, "bound", bound.floor, tries, budget)
            # a try that misses it is described only if no later pairing beats it (10,000
            # players: about 0.1 s each)
            cheapest = (pairs, cost) if cheapest is None or cost < cheapest[1] else cheapest
            tries.append(f"{name}: {cost - bound.floor} above the bound")
            if not any(b.exact is False for b in blocks):
                break  # every block was solved on all its pairs: a wider graph cannot help
        if cheapest is not None:
            best = _outcome(table, cheapest[0], "bound", bound.floor, tries, budget)
    elif bound is not None:
        tries.append("the bound needs extra crossings the blocks cannot take")
    else:
        tries.append("no pairing of the bound's class")
    return _widen(table, lay, bound, tries, budget, best)


def _bound(
    table: Table,
    lay: Layout,
    blocks: list[Block],
    tuning: Tuning,
    tries: list[str],
    budget: Budget,
) -> tuple[Bound | None, list[Block]]:
    """The lower bound, first without extra crossings (the usual case: the bound's
    rule-(b) cost is the score bound's, and no pairing outside its class comes near). When
    the blocks need more (two of a small group have met, say, and the round costs more on
    rule b), with extra crossings next to exact blocks; and where the cheapest path takes
    extra crossings, or a pair across two boundaries could cost no more on rule (b) than
    the bound, the blocks around it are solved as one exact block, where any pairing is
    seen. A join that the budget cannot afford is not made."""
    bound = lower_bound(table, lay, blocks, budget=budget)
    if bound is not None and (bound.outside is None or bound.outside > bound.score):
        return bound, blocks
    plan = [b for b in blocks if b.exact]  # their own excesses stay valid after joining
    bound = lower_bound(table, lay, blocks, extras=True, regions=plan, budget=budget)
    while bound is not None:
        if any(bound.extras):
            n = next(n for n, extra in enumerate(bound.extras) if extra)
            joined = join(blocks, blocks[n].last, blocks[n].last + 1)
            why = "extra crossings"
        elif bound.ties:
            joined = list(blocks)
            for first, last in bound.ties:
                joined = join(joined, first, last)
            why = "a pair across two boundaries"
        else:
            break
        joined = _absorb(lay, joined, blocks, tuning.joined)
        if max(block_size(lay, b) for b in joined if b.exact) > tuning.joined:
            break
        new = [block_size(lay, b) for b in joined if b not in blocks]
        # an exact block's table takes up to 16 solves on all its pairs (x 4 with extras)
        if not budget.affords(sum(64 * solve_work(n * n // 2, n) for n in new)):
            tries.append("joining blocks: over the time budget")
            break
        tries.extend(
            f"groups {b.first + 1}-{b.last + 1} solved as one ({why})"
            for b in joined
            if b not in blocks
        )
        blocks = joined
        bound = lower_bound(table, lay, blocks, extras=True, regions=plan, budget=budget)
    return bound, blocks


def _absorb(lay: Layout, blocks: list[Block], before: Sequence[Block], most: int) -> list[Block]:
    """Each newly joined block also takes in the exact blocks next to it, up to ``most``
    players: across two exact blocks the bound picks each side's crossing player apart,
    which one exact solve of both does not."""
    changed = True
    while changed:
        changed = False
        for n, block in enumerate(blocks):
            if block in before or not block.exact:
                continue
            for m in (n + 1, n - 1):
                if 0 <= m < len(blocks) and blocks[m].exact:
                    first = min(blocks[m].first, block.first)
                    last = max(blocks[m].last, block.last)
                    joined = join(blocks, first, last)
                    merged = next(b for b in joined if b.first == first)
                    if block_size(lay, merged) <= most:
                        blocks, changed = joined, True
                        break
            if changed:
                break
    return blocks


def solve_blocks(
    table: Table,
    lay: Layout,
    blocks: Sequence[Block],
    bound: Bound,
    width: int,
    *,
    greedy: bool = False,
    prepair_from: int = PREPAIR,
    steer: bool = True,
    budget: Budget | None = None,
) -> list[tuple[int, int]] | None:
    """Pair block by block, top down, steering each crossing to the bound's state (its
    colour and, with ``steer``, whether its members are of the country the bound counted
    them as)."""
    pairs: list[tuple[int, int]] = []
    carry: int | None = None  # the vertex floating down into the next block
    for n, (block, below) in enumerate(zip(blocks, bound.states, strict=True)):
        members = [i for k in range(block.first, block.last + 1) for i in lay.groups[k]]
        enter = exit = None  # which members may take the crossings
        if steer and bound.refs:
            enter = _side_filter(table, bound.refs[n][0], bound.entries[n])
            exit = _side_filter(table, bound.refs[n][1], bound.exits[n])
        if block.exact:
            edges = _all_pairs(table, members)
        else:
            if greedy and len(members) >= prepair_from:
                keep = _keep(table, members, below, carry, enter, exit)
                done, members = prepair(table, members, keep, SPARE)
                pairs.extend(done)
            edges = sparse_edges(table, members, width)
        vertices = len(members)
        if carry is not None:
            vertices += 1
            for j in members:
                if table.allowed(carry, j) and (enter is None or enter(j)):
                    edges[(j, carry)] = table.weight(carry, j)
        slot = -1
        if below is not None:
            vertices += 1
            lowest = set(lay.groups[block.last])
            for j in members:
                if j in lowest and not table.bye[j] and (exit is None or exit(j)):
                    edges[(j, slot)] = _floater(table, j, below)
        found = min_cost_perfect(edges, vertices, budget)
        if found is None:
            return None
        carry = None
        for a, b in found[0]:
            if slot in (a, b):
                carry = a if b == slot else b
            else:
                pairs.append((a, b))
    return pairs


def _side_filter(table: Table, ref: str | None, side: int | None) -> Callable[[int], bool] | None:
    """Members on the bound's side of a crossing (of country ``ref`` or not); None: any."""
    if ref is None or side is None:
        return None
    return lambda j: (table.country[j] == ref) == bool(side)


def _keep(
    table: Table,
    members: Sequence[int],
    below: State,
    carry: int | None,
    enter: Callable[[int], bool] | None = None,
    exit: Callable[[int], bool] | None = None,
) -> set[int]:
    """The best partners for the crossings, kept out of the greedy pairing."""
    keep: set[int] = set()
    if below is not None:
        floaters = [j for j in members if exit is None or exit(j)]
        keep.update(_best(floaters, lambda j: _floater(table, j, below)))
    if carry is not None:
        mover = carry
        allowed = [j for j in members if table.allowed(mover, j) and (enter is None or enter(j))]
        keep.update(_best(allowed, lambda j: table.weight(mover, j)))
    return keep


def _best(members: Sequence[int], cost: Callable[[int], int]) -> list[int]:
    return sorted(members, key=lambda j: (cost(j), j))[:SPARE]


def _floater(table: Table, j: int, state: State) -> int:
    if state == MEETS_BYE:
        return table.role_cost(j, PARTNER, None)
    return table.role_cost(j, DOWN, state)


def _all_pairs(table: Table, members: Sequence[int]) -> Edges:
    return {
        (a, b): table.weight(a, b)
        for n, a in enumerate(members)
        for b in members[n + 1 :]
        if table.allowed(a, b)
    }


def _widen(
    table: Table,
    lay: Layout,
    bound: Bound | None,
    tries: list[str],
    budget: Budget,
    best: Outcome | None,
) -> Outcome:
    """Exact solves on all pairs across at most ``span`` boundaries, widening until the
    result beats on rule (b) every pairing with a longer pair; each only when its work fits
    the budget, else the best pairing found so far, with the floor."""
    # a floor on every pairing of the round: the bound's, or the least rule-(b) cost
    floor = bound.floor if bound else table.wb * score_bound(lay)
    for span in range(1, len(lay.gaps)):
        limit = window_bound(lay, span + 1)
        if limit is None or limit <= score_bound(lay):
            break
        if not budget.affords(solve_work(_window_pairs(lay, span), len(table))):
            tries.append(f"window {span}: over the time budget")
            return _stop(table, lay, tries, floor, best, budget)
        edges: Edges = {}
        for k, group in enumerate(lay.groups):
            reach = [i for g in lay.groups[k : k + span + 1] for i in g]
            for a in group:
                for b in reach:
                    key = (a, b) if a < b else (b, a)
                    if a != b and key not in edges and table.allowed(a, b):
                        edges[key] = table.weight(a, b)
        found = min_cost_perfect(edges, len(table), budget)
        if found is None:
            tries.append(f"window {span}: no complete pairing")
            continue
        outcome = _outcome(table, found[0], f"window {span}", floor, tries, budget)
        if _score(table, found[0]) < limit:
            return outcome
        # every pairing with a longer pair costs ``limit`` or more on rule (b)
        floor = max(floor, min(outcome.cost, table.wb * limit))
        best = outcome if best is None or outcome.cost < best.cost else best
        tries.append(f"window {span}: rule (b) not proven")
    size = len(table)
    if not budget.affords(solve_work(size * (size - 1) // 2, size)):
        tries.append("complete: over the time budget")
        return _stop(table, lay, tries, floor, best, budget)
    return _complete(table, tuple(tries), floor, budget)


def _window_pairs(lay: Layout, span: int) -> int:
    """How many pairs lie within ``span`` boundaries (rule a aside)."""
    sizes = [len(g) for g in lay.groups]
    total = 0
    for k, size in enumerate(sizes):
        total += size * (size - 1) // 2 + size * sum(sizes[k + 1 : k + span + 1])
    return total


def _stop(
    table: Table,
    lay: Layout,
    tries: list[str],
    floor: int,
    best: Outcome | None,
    budget: Budget,
) -> Outcome:
    """The budget is spent: the best pairing found, with the floor. With none found yet (no
    pairing of the bound's class), a pairing on a sparse graph of the whole round; and when
    even that fails, the round must still be paired: the exact solves run on, past the
    budget."""
    if best is None:
        pairs = _rescue(table, lay, budget)
        if pairs is not None:
            best = _outcome(table, pairs, UNPROVEN, floor, tries, budget)
    if best is None:
        tries.append("no pairing found within the budget: solved past it")
        return _widen(table, lay, None, tries, Budget(), None)
    if best.cost <= floor:  # it meets the floor after all: proven
        return Outcome(best.pairings, best.method, best.cost, floor, tuple(tries), budget.spent)
    return Outcome(best.pairings, UNPROVEN, best.cost, floor, tuple(tries), budget.spent)


def _rescue(table: Table, lay: Layout, budget: Budget) -> list[tuple[int, int]] | None:
    """A pairing of the whole round on a sparse graph: each score group's candidate pairs
    (``sparse_edges``) and, to the next group, each player's first few allowed partners."""
    edges: Edges = {}
    for k, group in enumerate(lay.groups):
        edges.update(sparse_edges(table, group, 8))
        below = [j for g in lay.groups[k + 1 : k + 3] for j in g]
        for i in group:
            found = 0
            for j in below:
                if table.allowed(i, j):
                    edges[(i, j) if i < j else (j, i)] = table.weight(i, j)
                    found += 1
                    if found >= 8:
                        break
    matched = min_cost_perfect(edges, len(table), budget)
    return None if matched is None else matched[0]


def _cost(table: Table, pairs: Sequence[tuple[int, int]]) -> int:
    """The weighted cost of ``pairs``: what ``_outcome`` gets from ``swiss.pair_cost``,
    without describing the pairs (``Table.weight`` is ``pair_cost`` weighted: the tests
    hold the two together)."""
    return sum(table.weight(a, b) for a, b in pairs)


def _score(table: Table, pairs: Sequence[tuple[int, int]]) -> int:
    """The rule-(b) cost of ``pairs``."""
    return sum((table.half[a] - table.half[b]) ** 2 for a, b in pairs)


def _complete(
    table: Table, tries: Sequence[str], bound: int | None, budget: Budget | None = None
) -> Outcome:
    size = len(table)
    if budget is not None:
        budget.charge(solve_work(size * (size - 1) // 2, size))
    pairs = swiss.complete_matching(table.entrants, table.modified)
    return _outcome(table, pairs, "complete", bound, tries, budget)


def _outcome(
    table: Table,
    pairs: Sequence[tuple[int, int]],
    method: str,
    bound: int | None,
    tries: Sequence[str],
    budget: Budget | None = None,
) -> Outcome:
    pairings = swiss.describe(table.entrants, pairs, table.modified)
    cost = sum(table.cost_of(p.cost) for p in pairings)
    work = budget.spent if budget is not None else 0
    return Outcome(pairings, method, cost, bound, tuple(tries), work)
