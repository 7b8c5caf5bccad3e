"""The comparison of two standings that decides which rows a snapshot writes, which it
copies at a new place and which it shares (services/standings_store.py, issue 33): found
by identity where the engine kept its row objects, it must classify every row as a plain
row-by-row comparison does, wherever the changed rows lie in the field."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contract import StandingRow, Standings, StandingsTable
from tournaments.services.standings_store import _compare


def table(rows: list[StandingRow]) -> Standings:
    return Standings(
        tables=(StandingsTable(key="overall", title="", columns=(), rows=tuple(rows)),)
    )


def plainly(before: list[StandingRow], after: list[StandingRow], entrants: dict[str, int]):
    """Each row of ``after`` looked up by its entrant in ``before`` and compared field by field."""
    was = {row.entrant: (position, row) for position, row in enumerate(before, start=1)}
    moved, unmoved, others = {}, {}, []
    for position, row in enumerate(after, start=1):
        if row.entrant not in entrants:
            continue
        found = was.get(row.entrant)
        key = ("overall", entrants[row.entrant])
        if found is None or (found[1].values, found[1].status, found[1].details) != (
            row.values,
            row.status,
            row.details,
        ):
            others.append(("overall", position, row.entrant))
        elif found[0] == position and found[1].rank == row.rank:
            unmoved[key] = position
        else:
            moved[key] = (position, row.rank)
    return moved, unmoved, sorted(others)


@st.composite
def changes(draw):
    size = draw(st.integers(2, 60))
    before = [
        StandingRow(entrant=str(n), rank=n, values={"points": size - n}, details={"n": n})
        for n in range(1, size + 1)
    ]
    after = list(before)
    for step in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["move", "changed", "equal copy", "rank", "new", "gone"]))
        index = draw(st.integers(0, len(after) - 1))
        row = after[index]
        if kind == "move":  # a result moves a player past many rows: they shift by one
            after.insert(draw(st.integers(0, len(after) - 1)), after.pop(index))
        elif kind == "changed":  # an opponent's Brightwell terms change
            after[index] = dataclasses.replace(row, values={"points": -1, "n": index})
        elif kind == "equal copy":  # the same content in another object
            after[index] = dataclasses.replace(row, values=dict(row.values))
        elif kind == "rank":
            after[index] = dataclasses.replace(row, rank=row.rank + 1)
        elif kind == "new":
            after.insert(index, StandingRow(entrant=f"new{step}", rank=1, values={}))
        elif len(after) > 1:
            after.pop(index)
    return before, after


@settings(max_examples=300, deadline=None)
@given(changes(), st.booleans())
def test_the_rows_found_by_identity_are_those_a_plain_comparison_finds(case, virtual):
    before, after = case
    everyone = {row.entrant for row in before + after}
    # a WPF bye filler is a row of the engine, not an entrant's
    entrants = {e: n for n, e in enumerate(sorted(everyone)) if not (virtual and e == "2")}
    compared = _compare(table(before), table(after), entrants)
    moved, unmoved, others = plainly(before, after, entrants)
    assert {k: (p, row.rank) for k, (p, row) in compared.moved.items()} == moved
    assert {k: p for k, (p, _) in compared.unmoved()} == unmoved
    assert sorted((k, p, row.entrant) for k, p, row in compared.others) == others
    same = {row.entrant for row in before if row.entrant in entrants} == {
        row.entrant for row in after if row.entrant in entrants
    }
    assert compared.same_entrants == same
    assert compared.same() == {
        **{k: (p, a.rank) for k, p in unmoved.items() for a in [after[p - 1]]},
        **moved,
    }
