"""The standings' stored form: a snapshot and its rows (written by COPY, or by difference
from the last snapshot on PostgreSQL), and the outlook (contention) attached to them."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import compress
from operator import is_, not_
from typing import Any

from django.db import connection, transaction
from django.db.models import Field
from psycopg import Cursor

from rules.contention import Contention, Verdict
from rules.contract import Standings
from tournaments.models import Entrant, Event, StandingsRow, StandingsSnapshot
from tournaments.services.standings_rows import complete, own_rows_sql
from tournaments.services.state import jsonable
from tournaments.words import stored


def verdict_json(verdict: Verdict | None) -> dict[str, Any] | None:
    if verdict is None:
        return None
    return {
        "status": verdict.status.value,
        "method": verdict.method.value,
        **stored(verdict.reason),
    }


def contention_json(result: Contention | None) -> dict[str, Any]:
    """The snapshot's part: what the stage is and how the answers were found."""
    if result is None:
        return {}
    return {
        "stage_key": result.stage_key,
        "stage_name": result.stage_name,
        "method": result.method.value,
        "notes": [stored(n) for n in result.notes],
    }


def entrant_contention_json(result: Contention | None) -> dict[str, dict[str, Any]]:
    """Per entrant id: {"win": verdict, "stage": verdict or None}."""
    if result is None:
        return {}
    return {
        row.entrant: {"win": verdict_json(row.win), "stage": verdict_json(row.stage)}
        for row in result.entrants
    }


def store_outlook(snapshot_id: int, outlook: Contention | None) -> None:
    """The snapshot's outlook and each of its rows' verdicts: those it holds updated, those
    it shares copied into it with theirs (standings_rows.complete)."""
    per_entrant = entrant_contention_json(outlook)
    StandingsSnapshot.objects.filter(pk=snapshot_id).update(
        contention=contention_json(outlook), outlook_pending=False
    )
    if per_entrant:
        _store_verdicts(snapshot_id, per_entrant)
    if connection.vendor == "postgresql":
        complete(snapshot_id, per_entrant)


def _store_verdicts(snapshot_id: int, per_entrant: dict[str, dict[str, Any]]) -> None:
    """The verdicts of the rows the snapshot holds itself, in one statement."""
    rows = StandingsRow.objects.filter(snapshot_id=snapshot_id).values_list(
        "pk", "entrant__number", "details"
    )
    # a row that hides its values (results not public yet) carries no outlook
    changes = [
        (pk, per_entrant[str(number)])
        for pk, number, details in rows
        if str(number) in per_entrant and not details.get("hidden")
    ]
    if connection.vendor != "postgresql":
        StandingsRow.objects.bulk_update(
            [StandingsRow(pk=pk, contention=c) for pk, c in changes], ["contention"], 500
        )
        return
    table = connection.ops.quote_name(StandingsRow._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS r SET contention = d.c::jsonb "
            "FROM unnest(%s::bigint[], %s::text[]) AS d(id, c) WHERE r.id = d.id",
            [[pk for pk, _ in changes], [json.dumps(c) for _, c in changes]],
        )


def store_snapshot(
    event: Event,
    standings: Standings,
    version: int,
    *,
    now: datetime,
    published: bool,
    contention: Contention | None = None,
    outlook_pending: bool = False,
    previous: tuple[int, Standings] | None = None,
    entrants: dict[str, int] | None = None,
    after_round: int | None = None,
) -> StandingsSnapshot:
    """Store ``standings`` as the snapshot of ``version``. ``previous``: (snapshot id,
    standings) of a snapshot of the same entrants; on PostgreSQL the rows equal in both but
    for their place are copied from it by the server, at their new places, and only the
    others are written (a result changes a few rows of thousands, and moves hundreds).
    ``outlook_pending``: the contention follows (``attach_outlook``).
    ``entrants`` (number -> id) and ``after_round``: when the caller knows them."""
    if entrants is None:
        entrants = entrant_ids(event)
    if after_round is None:
        # "After round 7" only once round 7 is complete; a round in play shows beside it
        after_round = (
            event.rounds.filter(status="completed")
            .order_by("-number")
            .values_list("number", flat=True)
        ).first() or 0
    as_text = connection.vendor == "postgresql"
    snapshot, created = StandingsSnapshot.objects.get_or_create(
        event=event,
        results_version=version,
        defaults={
            "computed_at": now,
            "after_round": after_round,
            "published": published,
            "final": standings.final,
            "tables": [] if as_text else [table_json(t) for t in standings.tables],
            "pending": [
                {**stored(p), "key": p.key, "options": list(p.options)} for p in standings.pending
            ],
            "contention": contention_json(contention),
            "outlook_pending": outlook_pending,
        },
    )
    if not created:
        return snapshot
    per_entrant = entrant_contention_json(contention)
    shared_from = None
    # the rows to write: (table key, position, row), every row but those copied or shared
    written: list[tuple[str, int, Any]] | None = None
    if previous is not None and as_text and not per_entrant:
        source = _rows_source(previous[0])
        if source is not None:
            compared = _compare(previous[1], standings, entrants)
            written = compared.others
            if outlook_pending and compared.same_entrants:
                # the rows that did not move stay where they are (the outlook copies
                # them); those that moved are written with the others, from memory
                shared_from = source[1] or previous[0]
                written = written + _rows_to_hold(previous[0], source[1], compared)
            else:
                copied = compared.same()
                if _copy_rows(previous[0], source[1], snapshot.pk, copied) != len(copied):
                    # the previous snapshot is not what it was: every row written here
                    StandingsRow.objects.filter(snapshot=snapshot).delete()
                    written = None
    if as_text:
        _store_tables(snapshot.pk, tables_text(event.pk, standings.tables), shared_from)
        del snapshot.tables  # read again from the database if asked for (a deferred field)
        snapshot.rows_from = shared_from
    _insert_rows(
        event.pk,
        (
            (
                snapshot.pk,
                key,
                position,
                entrants[row.entrant],
                row.rank,
                _float(row.values.get("points")),
                row.values,
                row.status,
                row.details,
                # a row that hides its values (results not public yet) carries no outlook
                {} if row.details.get("hidden") else per_entrant.get(row.entrant, {}),
            )
            for key, position, row in (
                written
                if written is not None
                else (
                    (table.key, position, row)
                    for table in standings.tables
                    for position, row in enumerate(table.rows, start=1)
                    # virtual players (a WPF bye filler) are rows of the engine, not entrants
                    if row.entrant in entrants
                )
            )
        ),
    )
    return snapshot


def _store_tables(snapshot_id: int, text: str, rows_from: int | None) -> None:
    """The snapshot's tables (1.2 MB of JSON at 10,000 entrants) sent as a parameter of
    their own (server-side binding): Django's cursor binds on the client, which escaped
    the text into the statement, 5 to 10 ms on every saved result."""
    meta = StandingsSnapshot._meta
    quote = connection.ops.quote_name
    statement = (
        f"UPDATE {quote(meta.db_table)} SET {quote(_column(meta.get_field('tables')))} = %s, "
        f"{quote(_column(meta.get_field('rows_from')))} = %s WHERE id = %s"
    )
    connection.ensure_connection()
    with Cursor(connection.connection) as cursor:
        cursor.execute(statement, [text, rows_from, snapshot_id])


# Snapshots deleted by one prune at most: each is a transaction of its own (10,000 rows at
# the WOC), and a recompute waiting behind them is a result not yet public.
PRUNE_BATCH = 10


def prunable(event_id: int) -> list[int]:
    """The event's snapshots that nothing reads any more, oldest first. Kept: the newest
    (the public standings, and the one the next snapshot is copied from), the newest
    published, every final one, and the newest published one of each round (what the
    standings were after that round). The pages, the API, the projector, the embeds and
    the reports read the newest published snapshot alone; the others are history."""
    found = StandingsSnapshot.objects.filter(event_id=event_id).order_by("-results_version")
    kept: set[int] = set()
    rounds: set[int] = set()
    published_seen = False
    ordered = list(found.values_list("pk", "after_round", "published", "final", "rows_from"))
    for pk, after_round, published, final, _ in ordered:
        if not kept or final or (published and (after_round not in rounds or not published_seen)):
            kept.add(pk)
        if published:
            rounds.add(after_round)
            published_seen = True
    # and the snapshots whose rows a kept one shares (standings_rows)
    kept |= {rows_from for pk, *_, rows_from in ordered if pk in kept and rows_from}
    return [pk for pk, *_ in reversed(ordered) if pk not in kept]


def prune_snapshots(
    event_id: int, *, batch: int = PRUNE_BATCH, stop: Callable[[], bool] | None = None
) -> int:
    """Delete up to ``batch`` of the event's prunable snapshots, one transaction each,
    oldest first; before each, ``stop()`` may say that newer work waits (a result to
    publish). Returns how many were deleted. Run by the worker after publishing: a
    snapshot per result is 10,000 rows at the WOC, and none was ever deleted."""
    deleted = 0
    for pk in prunable(event_id)[:batch]:
        if stop is not None and stop():
            break
        with transaction.atomic():
            # the rows with their snapshot (Django's CASCADE: one DELETE by snapshot); its
            # tables (1.2 MB of JSON at the WOC) are not read to be deleted
            StandingsSnapshot.objects.filter(pk=pk, event_id=event_id).defer(
                "tables", "pending", "contention"
            ).delete()
        deleted += 1
    return deleted


def entrant_ids(event: Event) -> dict[str, int]:
    """Entrant number (the engine's id) -> row id."""
    return {
        str(number): pk
        for number, pk in Entrant.objects.filter(event=event).values_list("number", "pk")
    }


@dataclass
class Compared:
    """Two standings of the same event, row by row."""

    # (table key, entrant row id) -> (position, row) now, of the rows whose stored
    # content is the same in both but for their place, and which moved (another position
    # or rank)
    moved: dict[tuple[str, int], tuple[int, Any]]
    # the same tables of the same entrants in both
    same_entrants: bool
    # (table key, position, row) now of the entrants' other rows: those to be written
    others: list[tuple[str, int, Any]]
    # the rows in place, the same content at the same position with the same rank: those
    # found one by one, and per table (key, rows now, whether each index holds the
    # engine's same object in both) the others, listed only when asked (``unmoved``)
    unmoved_found: dict[tuple[str, int], tuple[int, Any]]
    in_place: list[tuple[str, Any, list[bool]]]
    entrants: dict[str, int]

    def unmoved(self) -> Iterator[tuple[tuple[str, int], tuple[int, Any]]]:
        """(table key, entrant row id), (position, row) of each row in place."""
        yield from self.unmoved_found.items()
        entrants = self.entrants
        for key, rows, same_place in self.in_place:
            for index in compress(range(len(same_place)), same_place):
                row = rows[index]
                entrant = entrants.get(row.entrant)
                if entrant is not None:  # (a virtual player is no entrant's row)
                    yield (key, entrant), (index + 1, row)

    def same(self) -> dict[tuple[str, int], tuple[int, int]]:
        """Every row the same in both but for its place, moved or not: (position, rank)."""
        found = {key: (position, row.rank) for key, (position, row) in self.unmoved()}
        found.update((key, (position, row.rank)) for key, (position, row) in self.moved.items())
        return found


def _compare(before: Standings, after: Standings, entrants: dict[str, int]) -> Compared:
    """A result moves the player up or down past hundreds of rows of a large field; each
    of those is the same row one place further (copied, not written again), and the others
    are the same rows where they were (shared, not copied). The engine keeps the objects
    of the rows it did not touch (rules/reranking.py): the rows in place are found by
    identity in one pass of C (``map(is_, ...)``), and only the others are compared row
    by row (the first and last of those are far apart: a result changes the Brightwell
    terms of opponents all over the field)."""
    old = {table.key: table.rows for table in before.tables}
    moved: dict[tuple[str, int], tuple[int, Any]] = {}
    unmoved_found: dict[tuple[str, int], tuple[int, Any]] = {}
    in_place: list[tuple[str, Any, list[bool]]] = []
    others: list[tuple[str, int, Any]] = []
    same_entrants = len(old) == len(after.tables)
    for table in after.tables:
        key_of = table.key
        rows_before = old.get(key_of)
        rows_after = table.rows
        if rows_before is None:
            same_entrants = False
            others.extend(
                (key_of, position, row)
                for position, row in enumerate(rows_after, start=1)
                if row.entrant in entrants
            )
            continue
        common = min(len(rows_before), len(rows_after))
        same_place = list(map(is_, rows_before, rows_after))  # (stops at the shorter)
        in_place.append((key_of, rows_after, same_place))
        # the rows not in place, and those beyond the shorter table's end: a row moved
        # there was not in place before either (its old place holds another row now)
        differ = list(compress(range(common), map(not_, same_place)))
        differ.extend(range(common, max(len(rows_before), len(rows_after))))
        placed_by = {
            row.entrant: (index + 1, row)
            for index in differ
            if index < len(rows_before) and (row := rows_before[index]).entrant in entrants
        }
        after_count = 0
        for position, row in (
            (index + 1, rows_after[index]) for index in differ if index < len(rows_after)
        ):
            entrant = entrants.get(row.entrant)
            if entrant is None:
                continue  # a virtual player (a WPF bye filler) is no entrant's row
            after_count += 1
            placed = placed_by.get(row.entrant)
            if placed is None:
                same_entrants = False
                others.append((key_of, position, row))
                continue
            was = placed[1]
            key = (key_of, entrant)
            # the engine's unchanged rows (or their parts) are often the same objects
            if row is was or (
                (row.values is was.values or row.values == was.values)
                and row.status == was.status
                and (row.details is was.details or row.details == was.details)
            ):
                if placed[0] == position and was.rank == row.rank:
                    unmoved_found[key] = (position, row)
                else:
                    moved[key] = (position, row)
            else:
                others.append((key_of, position, row))
        # the same entrants' rows: each found before, and as many (the rows in place are
        # the same objects in both)
        if after_count != len(placed_by):
            same_entrants = False
    return Compared(moved, same_entrants, others, unmoved_found, in_place, entrants)


def _rows_source(snapshot_id: int) -> tuple[int, int | None] | None:
    """(id, rows_from) of the snapshot the new one is stored from, locked against its
    deletion until the commit (a prune meanwhile waits); None if it is gone."""
    table = connection.ops.quote_name(StandingsSnapshot._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, rows_from FROM {table} WHERE id = %s FOR KEY SHARE",
            [snapshot_id],
        )
        found = cursor.fetchone()
    return None if found is None else (int(found[0]), found[1])


def _rows_to_hold(
    previous: int, previous_from: int | None, compared: Compared
) -> list[tuple[str, int, Any]]:
    """Of the rows the same in both standings but for their place, those a snapshot
    sharing rows must hold itself, as (table key, position, row): the moved ones, and the
    unmoved ones the previous snapshot held itself when it shared rows too (the new one
    shares the same source). Written from memory: copied from the previous snapshot, each
    was found by a join the planner chose from statistics older than that snapshot (one
    row expected of 10,000), which hashed all its rows to pick a few hundred."""
    held_rows = [(key, position, row) for (key, _), (position, row) in compared.moved.items()]
    if previous_from is not None:
        held = set(
            StandingsRow.objects.filter(snapshot_id=previous).values_list("table_key", "entrant_id")
        )
        if held:
            held_rows.extend(
                (key[0], position, row)
                for key, (position, row) in compared.unmoved()
                if key in held
            )
    return held_rows


def _copy_rows(
    source: int,
    source_from: int | None,
    target: int,
    rows: dict[tuple[str, int], tuple[int, int]],
) -> int:
    """Copy the rows ``rows`` ((table key, entrant row id) -> (position, rank)) of
    snapshot ``source`` (those it shares with ``source_from`` included) into snapshot
    ``target`` at their new places, server-side, without their outlook (the new
    snapshot's follows). Returns how many were copied."""
    if not rows:
        return 0
    meta = StandingsRow._meta
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    column = {f: quote(_column(meta.get_field(f))) for f in ROW_FIELDS}
    taken = {"table_key": "s.k", "entrant_id": "s.e", "position": "s.p", "rank": "s.rk"}
    select = ", ".join(
        "%s" if f == "snapshot_id"
        else "'{}'::jsonb" if f == "contention"
        else taken.get(f, f"r.{column[f]}")
        for f in ROW_FIELDS
    )  # fmt: skip
    ordered = sorted(rows.items())
    where, where_params = own_rows_sql("r", source, source_from)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(column.values())}) "
            f"SELECT {select} FROM {table} AS r "
            f"JOIN unnest(%s::text[], %s::bigint[], %s::int[], %s::int[]) AS s(k, e, p, rk) "
            f"ON r.{column['table_key']} = s.k AND r.{column['entrant_id']} = s.e "
            f"WHERE {where}",
            [
                target,
                _text_array([key for (key, _), _ in ordered]),
                _int_array([entrant for (_, entrant), _ in ordered]),
                _int_array([position for _, (position, _) in ordered]),
                _int_array([rank for _, (_, rank) in ordered]),
                *where_params,
            ],
        )
        return int(cursor.rowcount)


# The copy's four arrays of 10,000 values each, as PostgreSQL's array literals: the driver
# adapted them value by value (a regular expression each for the text), a third of the
# Python time of a 10,000-row store.


def _int_array(values: list[int]) -> str:
    return "{" + ",".join(map(str, values)) + "}"


def _text_array(values: list[str]) -> str:
    quoted = {v: '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in set(values)}
    return "{" + ",".join(quoted[v] for v in values) + "}"


ROW_FIELDS = (
    "snapshot_id", "table_key", "position", "entrant_id", "rank", "points", "values", "status",
    "details", "contention",
)  # fmt: skip
JSON_FIELDS = frozenset({"values", "details", "contention"})
KEPT_FIELDS = frozenset({"values", "details"})  # the engine's own parts (kept_texts)
CONTENTION = ROW_FIELDS.index("contention")


def _insert_rows(event_id: int, rows: Iterable[tuple[Any, ...]]) -> None:
    """Standings rows (values in ROW_FIELDS order, the engine's own values and details)
    in one statement. On PostgreSQL a COPY: 10,000 rows through bulk_create took seconds
    (a model instance each, every value quoted into arrays); COPY streams them as they
    are, their JSON reused from the event's earlier rows where the objects are the same."""
    encoded = [i for i, f in enumerate(ROW_FIELDS) if f in JSON_FIELDS]
    if connection.vendor != "postgresql":
        fields = []
        for row in rows:
            values = list(row)
            for i in encoded:
                values[i] = jsonable(values[i])
            fields.append(StandingsRow(**dict(zip(ROW_FIELDS, values, strict=True))))
        StandingsRow.objects.bulk_create(fields)
        return
    texts = kept_texts("rows", event_id)
    meta = StandingsRow._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(meta.get_field(f))) for f in ROW_FIELDS)
    statement = f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN"
    kept = [i for i, f in enumerate(ROW_FIELDS) if f in KEPT_FIELDS]
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            values = list(row)
            for i in kept:
                values[i] = texts.text(values[i])
            values[CONTENTION] = json.dumps(values[CONTENTION])
            copy.write_row(values)
    texts.trim()


def table_json(table: Any) -> dict[str, Any]:
    return {
        **table_json_without_decided(table),
        "decided": [decided_json(d) for d in table.decided],
    }


def decided_json(decided: Any) -> dict[str, Any]:
    return {
        "ahead": decided.ahead,
        "behind": decided.behind,
        "step": decided.step,
        "detail": decided.detail,
        **({"params": jsonable(dict(decided.params))} if decided.params else {}),
    }


def tables_text(event_id: int, tables: Iterable[Any]) -> str:
    """The JSON of ``[table_json(t) for t in tables]``, the reasons' parts reused from the
    event's last tables where they are the same objects."""
    texts = kept_texts("reasons", event_id)
    parts = []
    for table in tables:
        reasons = ", ".join(texts.text(decided) for decided in table.decided)
        head = json.dumps({**table_json_without_decided(table), "decided": []})
        assert head.endswith('"decided": []}')
        parts.append(head[: -len("[]}")] + "[" + reasons + "]}")
    texts.trim()
    return "[" + ", ".join(parts) + "]"


class TextsByIdentity:
    """JSON texts of an event's stored parts, by the part's identity. An update of the
    standings keeps the engine's objects where it did not touch them (rules/reranking.py,
    rules/formats/woc/incremental.py): the 7,000 reasons of a 10,000-entrant table (1.2 MB
    of JSON), and the values and details of a row that only moved, written again at its
    new place. Each text is kept with its part, so an id is never taken for another
    object's; once it holds four times more than the last store used (and more than
    ``least``), it is trimmed to those."""

    __slots__ = ("encode", "last", "least", "texts")

    def __init__(self, encode: Callable[[Any], str], least: int = 0) -> None:
        self.encode = encode
        self.least = least
        self.texts: dict[int, tuple[object, str]] = {}
        self.last: dict[int, tuple[object, str]] = {}

    def text(self, part: Any) -> str:
        found = self.texts.get(id(part))
        if found is None or found[0] is not part:
            found = (part, self.encode(part))
            self.texts[id(part)] = found
        self.last[id(part)] = found
        return found[1]

    def trim(self) -> None:
        """The end of a store: what it used is what the next one likely uses again."""
        if len(self.texts) > 4 * max(len(self.last), self.least):
            self.texts = dict(self.last)
        self.last = {}


# What each kind of part is encoded by, and the parts kept at least (a row's values and
# details at 10,000 entrants: those of rows that did not move this time may move next).
TEXT_KINDS: dict[str, tuple[Callable[[Any], str], int]] = {
    "reasons": (lambda decided: json.dumps(decided_json(decided)), 0),
    "rows": (lambda part: json.dumps(jsonable(part)), 20_000),
}
TEXTS_EVENTS = 8  # events whose texts are kept, the last stored
_texts_of: OrderedDict[tuple[str, int], TextsByIdentity] = OrderedDict()


def kept_texts(kind: str, event_id: int) -> TextsByIdentity:
    """The texts of ``kind`` (TEXT_KINDS) kept for the event."""
    key = (kind, event_id)
    found = _texts_of.pop(key, None)
    if found is None:
        found = TextsByIdentity(*TEXT_KINDS[kind])
    _texts_of[key] = found
    while len(_texts_of) > len(TEXT_KINDS) * TEXTS_EVENTS:
        _texts_of.popitem(last=False)
    return found


def table_json_without_decided(table: Any) -> dict[str, Any]:
    return {
        "key": table.key,
        "title": table.title,
        "columns": [{"key": c.key, "label": c.label, "help": c.help} for c in table.columns],
        "notes": [stored(n) for n in table.notes],
    }


def _float(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def _column(field: object) -> str:
    """The database column of one of a row's own fields."""
    assert isinstance(field, Field) and field.column is not None
    return field.column
