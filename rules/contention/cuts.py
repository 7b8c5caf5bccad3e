"""Where a ranked table leaves each entrant against a cut (first place, top 8, ...).

A completed outcome's standings order everyone, but not every split is settled by the games the
enumeration chose: two entrants level after the steps that depend only on results (points,
head-to-head, wins) may be split by a step that depends on scores the enumeration did not vary
(score difference), by a lot, or not at all (a shared rank, a tiebreaker game still to play).
Those entrants are OPEN in that outcome when their block straddles the cut, so the verdicts never
rest on a split the enumeration could not control.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence

from rules.contract import StandingsTable

from .types import Finish


def cut_finishes(
    order: Sequence[str],
    firm: Collection[tuple[str, str]],
    places: int,
) -> dict[str, Finish]:
    """``order``: the table order; ``firm``: (ahead, behind) neighbours split by a firm step.

    Entrants form blocks joined by non-firm links; a block wholly inside the first ``places`` is
    IN, wholly outside OUT, and a block across the cut OPEN.
    """
    result: dict[str, Finish] = {}
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and (order[end], order[end + 1]) not in firm:
            end += 1
        block = order[start : end + 1]
        if end < places:
            finish = Finish.IN
        elif start >= places:
            finish = Finish.OUT
        else:
            finish = Finish.OPEN
        for entrant in block:
            result[entrant] = finish
        start = end + 1
    return result


def table_finishes(
    table: StandingsTable,
    places: int,
    firm_steps: Collection[str],
    *,
    eligible: Mapping[str, bool] | None = None,
) -> dict[str, Finish]:
    """Finishes against the top ``places`` of a contract standings table.

    A neighbour pair is firm when the table's ``decided`` names a step in ``firm_steps`` for it
    and their ranks differ. Entrants marked not ``eligible`` (withdrawn) are OUT and take no
    place.
    """
    rows = [r for r in table.rows if eligible is None or eligible.get(r.entrant, True)]
    order = [r.entrant for r in rows]
    rank = {r.entrant: r.rank for r in rows}
    steps = {(d.ahead, d.behind): d.step for d in table.decided}
    # The first firm step is the table's first column (points): neighbours with different values
    # there are split by it even where ``decided`` records the split against another entrant.
    first = next(iter(firm_steps), "")
    values = {r.entrant: r.values.get(first) for r in rows}
    firm = {
        (a, b)
        for a, b in itertools.pairwise(order)
        if rank[a] != rank[b] and (steps.get((a, b)) in firm_steps or values[a] != values[b])
    }
    result = cut_finishes(order, firm, places)
    for row in table.rows:
        result.setdefault(row.entrant, Finish.OUT)
    return result
