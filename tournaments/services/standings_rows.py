"""The rows of a standings snapshot, as every reader sees them.

A snapshot published after one result stores only the rows that differ from an earlier
snapshot's, its ``rows_from`` (a result changes a few rows of 10,000 and moves a few
hundred: copying the other 9,000 was the largest part of the standings' way to the
public page, docs/performance.md). The rest are read from that snapshot until the
outlook is attached, which copies them with their verdicts (``complete``). Every reader
asks ``rows_of`` (or ``rows_of_many``): a row read from the earlier snapshot carries the
snapshot's id, like its own rows, and no outlook (the earlier one's is not this one's).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.query import ModelIterable

from tournaments.models import Entrant, StandingsRow, StandingsSnapshot


class _ShownAs(ModelIterable[StandingsRow]):
    def __iter__(self) -> Iterator[StandingsRow]:
        shown: dict[int, int] = getattr(self.queryset, "shown_as", {})
        for row in super().__iter__():
            target = shown.get(row.snapshot_id)
            if target is not None:
                row.snapshot_id = target
                row.contention = {}
            yield row


class RowQuerySet(QuerySet[StandingsRow]):
    """StandingsRow's queryset that reads a snapshot's rows kept in its ``rows_from``
    as the snapshot's own."""

    shown_as: dict[int, int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown_as = {}
        self._iterable_class = _ShownAs

    def _clone(self) -> RowQuerySet:
        clone: RowQuerySet = super()._clone()  # type: ignore[misc]
        clone.shown_as = self.shown_as
        return clone


def rows_of(snapshot: StandingsSnapshot) -> RowQuerySet:
    """The snapshot's rows (a queryset to filter, order and slice as any other). One
    query, whether the snapshot holds all its rows or shares some."""
    return rows_of_many([snapshot])


def rows_of_many(snapshots: Iterable[StandingsSnapshot]) -> RowQuerySet:
    """The rows of several snapshots, of different events (a series' stages): each row
    carries the id of the snapshot it is shown for."""
    found = list({s.pk: s for s in snapshots}.values())
    match = Q(snapshot_id__in=[s.pk for s in found])
    shown: dict[int, int] = {}
    for snapshot in found:
        base = snapshot.rows_from
        if base is None:
            continue
        # one snapshot per source: a row read from it belongs to one snapshot only
        assert base not in shown and base not in {s.pk for s in found}, base
        shown[base] = snapshot.pk
        held = StandingsRow.objects.filter(
            snapshot_id=snapshot.pk,
            table_key=OuterRef("table_key"),
            entrant_id=OuterRef("entrant_id"),
        )
        match |= Q(~Exists(held), snapshot_id=base)
    rows = RowQuerySet(model=StandingsRow).filter(match)
    rows.shown_as = shown
    return rows


def own_rows_sql(alias: str, snapshot: int, base: int | None) -> tuple[str, list[Any]]:
    """A condition on ``alias`` (the rows table) for the rows of ``snapshot``, those it
    shares with ``base`` included, and its parameters."""
    if base is None:
        return f"{alias}.{_column('snapshot')} = %s", [snapshot]
    table = connection.ops.quote_name(StandingsRow._meta.db_table)
    snap, key, entrant = _column("snapshot"), _column("table_key"), _column("entrant")
    return (
        f"({alias}.{snap} = %s OR ({alias}.{snap} = %s AND NOT EXISTS ("
        f"SELECT 1 FROM {table} AS o WHERE o.{snap} = %s AND o.{key} = {alias}.{key} "
        f"AND o.{entrant} = {alias}.{entrant})))",
        [snapshot, base, snapshot],
    )


def complete(snapshot_id: int, per_entrant: dict[str, dict[str, Any]]) -> int:
    """Copy the rows the snapshot shares with its ``rows_from`` into it, each with its
    verdicts from ``per_entrant`` (entrant number -> contention; none on a row that hides
    its values), and end the sharing. Returns how many rows were copied."""
    with transaction.atomic():  # (the outlook's own transaction when it attaches it)
        return _complete(snapshot_id, per_entrant)


def _complete(snapshot_id: int, per_entrant: dict[str, dict[str, Any]]) -> int:
    base = (
        StandingsSnapshot.objects.select_for_update()
        .filter(pk=snapshot_id)
        .values_list("rows_from", flat=True)
        .first()
    )
    if base is None:
        return 0
    quote = connection.ops.quote_name
    table = quote(StandingsRow._meta.db_table)
    entrants = quote(Entrant._meta.db_table)
    fields = [
        "snapshot", "table_key", "position", "entrant", "rank", "points", "values",
        "status", "details", "contention",
    ]  # fmt: skip
    taken = {
        "snapshot": "%s",
        "contention": (
            f"CASE WHEN b.{_column('details')} ->> 'hidden' = 'true' THEN '{{}}'::jsonb "
            "ELSE coalesce(d.c::jsonb, '{}'::jsonb) END"
        ),
    }
    select = ", ".join(taken.get(f, f"b.{_column(f)}") for f in fields)
    numbers = list(per_entrant)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(_column(f) for f in fields)}) "
            f"SELECT {select} FROM {table} AS b "
            f"JOIN {entrants} AS e ON e.id = b.{_column('entrant')} "
            f"LEFT JOIN unnest(%s::text[], %s::text[]) AS d(n, c) ON d.n = e.number::text "
            # the rows the snapshot holds, hashed once (NOT IN): as NOT EXISTS the planner,
            # whose statistics predate the snapshot, scanned them again for each of the
            # 10,000 shared rows (0.7 to 1.2 s of the outlook)
            f"WHERE b.{_column('snapshot')} = %s AND (b.{_column('table_key')}, "
            f"b.{_column('entrant')}) NOT IN (SELECT o.{_column('table_key')}, "
            f"o.{_column('entrant')} FROM {table} AS o WHERE o.{_column('snapshot')} = %s)",
            [
                snapshot_id,
                numbers,
                [json.dumps(per_entrant[n]) for n in numbers],
                base,
                snapshot_id,
            ],
        )
        copied = int(cursor.rowcount)
    StandingsSnapshot.objects.filter(pk=snapshot_id).update(rows_from=None)
    return copied


def _column(name: str) -> str:
    field = StandingsRow._meta.get_field(name)
    column = getattr(field, "column", None)
    assert isinstance(column, str)
    return connection.ops.quote_name(column)
