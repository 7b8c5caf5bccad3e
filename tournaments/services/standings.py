"""Standings: computed by the engine from the event's record, stored as snapshots.

The database is the truth about pending work: ``Event.results_version`` rises with every
change that can move the standings and ``Event.standings_version`` names the newest
snapshot published. A recompute is idempotent (one snapshot per results version) and
never publishes standings older than those already published.
"""

from __future__ import annotations

import gc
import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings as conf
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Field, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

import rules.contention as contention_module
from rules.contention import Contention, Verdict
from rules.contention import contention as contention_of
from rules.contract import EventState, Standings
from tournaments.models import Entrant, Event, Match, StandingsRow, StandingsSnapshot
from tournaments.services import locking, queue, standings_kept
from tournaments.services.state import jsonable, load_event_state
from tournaments.words import stored

log = logging.getLogger(__name__)

# The pending marker outlives the countdown by this much: if its task is lost, the next
# change after it expires (or the sweep) sends another.
PENDING_MARKER_MARGIN = 30


def compute(event: Event) -> Standings:
    """The standings of the record: published rounds and their draws. A draft (and the draws
    made with it, such as GokoDom's coin flips for the seeding) moves nothing until it is
    published: before, drafting one changed the public ranks without a recompute, and
    deleting it left them changed."""
    return event.engine.standings(record_state(event))


def record_state(event: Event) -> EventState:
    return load_event_state(event, drafts=False)


def compute_state(state: EventState, engine: Any) -> tuple[Standings, Contention | None]:
    """The engine's standings and the contention of one event state (loaded once; the
    standings computed once and handed to the contention, which ranks the same state)."""
    standings = engine.standings(state)
    return standings, contention_or_none(state, standings)


def contention_or_none(
    state: EventState, standings: Standings | None = None, *, reuse: Any = None
) -> Contention | None:
    """Contention never holds the standings back: a format it does not know, or a state it
    cannot read, publishes the standings without it (and says so in the log). ``standings``:
    the engine's standings of ``state``, when the caller has them; ``reuse``: what the last
    outlook proved (rules/contention's Reuse)."""
    if not state.rounds:
        return None  # nothing played: everyone can still do everything, no mark is useful
    try:
        if reuse is not None:
            reusing: Any = contention_of  # (the reuse keyword: rules/contention, issue 33)
            result: Contention = reusing(state, standings, reuse=reuse)
            return result
        return contention_of(state, standings)
    except Exception:
        log.exception("contention failed for a %s event", state.format)
        return None


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


def results_changed(event: Event, *, matches: Iterable[int] = ()) -> int:
    """Call inside the transaction that changed results: bumps the version and schedules
    a recompute for after the commit. Returns the new results version.

    ``matches``: the ids of the matches whose results (games, result, details) are the
    whole change (result_changes.write); they are stamped with the new version, which lets
    the refresh reload just them. Any other change (no ``matches``) is recorded as the
    event's ``shape_version``, and the next refresh loads the whole event."""
    changed = list(matches)
    bump: dict[str, Any] = {"results_version": F("results_version") + 1}
    if not changed:  # (F reads the row as it was: the new results version)
        bump["shape_version"] = F("results_version") + 1
    Event.objects.filter(pk=event.pk).update(**bump)
    version = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
    if changed:
        Match.objects.filter(pk__in=changed).update(results_version=version)
    event.results_version = version
    event_id = event.pk
    transaction.on_commit(lambda: schedule_recompute(event_id, version))
    return version


def _pending_key(event_id: int) -> str:
    return f"standings:pending:{event_id}"


def _running_key(event_id: int) -> str:
    return f"standings:running:{event_id}"


# A recompute running longer than this is taken for dead (its worker killed): a save then
# no longer waits for it (the task was redelivered, or the sweep sends another).
RUNNING_MARKER_SECONDS = 120


def schedule_recompute(event_id: int, version: int, *, delay: float | None = None) -> bool:
    """Enqueue one recompute for a burst of changes.

    The first change sets a short-lived "pending" marker in the cache and enqueues the task
    at once: a lone result waits for nothing. Later changes see the marker and enqueue
    nothing, because the task computes the event's newest results version when it runs (it
    clears the marker as it starts, so a change made during a recompute schedules the
    next one). While a recompute of the event is running, that next one waits
    ARBITER_STANDINGS_DELAY seconds: the running task publishes its standings, sees that
    the results version rose meanwhile and recomputes at once (``recompute``), so a burst
    makes one recompute more, not one per save; the delayed task then finds nothing left
    to do (or does what a lost worker left). Neither the cache nor the broker is trusted:
    if either is down the change is already safe in the database and the periodic sweep
    (``sweep``) enqueues the recompute when the broker is back. Returns True if a task was
    sent.
    """
    window = conf.ARBITER_STANDINGS_DELAY
    key = _pending_key(event_id)
    busy = False
    try:
        fresh = cache.add(key, version, timeout=int(window) + PENDING_MARKER_MARGIN)
        if fresh and delay is None:
            busy = cache.get(_running_key(event_id)) is not None
    except Exception:  # the cache is down: send the task anyway
        log.warning("cache unavailable: recompute of event %s sent without coalescing", event_id)
        fresh = True
    if not fresh:
        return False
    countdown = delay if delay is not None else (window if busy else 0)
    try:
        queue.send("tournaments.tasks.recompute_standings", event_id, version, countdown=countdown)
    except Exception:
        if conf.CELERY_TASK_ALWAYS_EAGER:
            raise  # eager: the error is the task's own, not the broker's
        log.warning("broker unavailable: recompute of event %s left to the sweep", event_id)
        _forget_pending(event_id)
        return False
    return True


def _forget_pending(event_id: int) -> None:
    try:
        cache.delete(_pending_key(event_id))
    except Exception:
        log.warning("cache unavailable: pending marker of event %s not cleared", event_id)


@contextmanager
def _running(event_id: int) -> Iterator[None]:
    """The "recompute running" marker of the event, while the block runs (best effort)."""
    try:
        cache.set(_running_key(event_id), 1, timeout=RUNNING_MARKER_SECONDS)
    except Exception:
        log.warning("cache unavailable: running marker of event %s not set", event_id)
    try:
        yield
    finally:
        try:
            cache.delete(_running_key(event_id))
        except Exception:
            log.warning("cache unavailable: running marker of event %s not cleared", event_id)


def lagging_events() -> list[tuple[int, int]]:
    """(event id, results version) of every event whose published standings lag, or whose
    outlook lags its standings (a worker lost between the two)."""
    return list(
        Event.objects.filter(
            Q(standings_version__lt=F("results_version"))
            | Q(outlook_version__lt=F("standings_version"))
        ).values_list("pk", "results_version")
    )


def sweep() -> int:
    """Re-enqueue the recompute of every event whose standings lag its results (a lost task,
    a broker that was down). Returns how many were sent."""
    return sum(schedule_recompute(pk, version, delay=0) for pk, version in lagging_events())


# A burst that never ends must not keep one task forever: after this many passes the
# task ends and the next save (or the delayed task) carries on.
RECOMPUTE_PASSES = 20


def recompute(
    event_id: int,
    *,
    after_compute: Callable[[], None] | None = None,
    on_published: Callable[[str], None] | None = None,
) -> bool:
    """The standings task's body: publish the event's newest standings, then their outlook,
    again as long as results were saved meanwhile (a save during a recompute is published
    by the same task as soon as it is done, rather than after a countdown). Returns True if
    standings were published."""
    stored = False
    with _running(event_id):
        for _ in range(RECOMPUTE_PASSES):
            fresh = publish_standings(event_id, after_compute=after_compute)
            if fresh and on_published is not None:
                on_published("standings")
            stored |= fresh
            if _lagging(event_id):
                continue  # newer results first: this outlook would be stale at once
            if attach_outlook(event_id) and on_published is not None:
                on_published("outlook")
            if not _lagging(event_id):
                break
    return stored


def _lagging(event_id: int) -> bool:
    return Event.objects.filter(pk=event_id, standings_version__lt=F("results_version")).exists()


def refresh(
    event_id: int,
    results_version: int,
    *,
    now: datetime | None = None,
    after_compute: Callable[[], None] | None = None,
) -> bool:
    """Compute and publish the standings of the event as it is now, if they are behind, then
    their outlook (``publish_standings``, ``attach_outlook``). Returns True if a new
    snapshot was published."""
    stored = publish_standings(event_id, now=now, after_compute=after_compute)
    attach_outlook(event_id)
    return stored


def published(event_id: int, version: int, part: str) -> None:
    """Called once a change of the public standings is committed: ``part`` is "standings"
    (a new snapshot, its outlook still to come) or "outlook" (the snapshot's contention
    attached). The one place that announces it (a live stream hooks here)."""
    log.debug("event %s: %s of results version %s published", event_id, part, version)


def publish_standings(
    event_id: int,
    *,
    now: datetime | None = None,
    after_compute: Callable[[], None] | None = None,
) -> bool:
    """Compute and publish the standings of the event as it is now, if they are behind,
    without their outlook (it follows: ``attach_outlook``).

    Returns True if a new snapshot was published. Safe to run twice or concurrently: a
    version already published is never computed again, and an older one is never
    published over a newer one. The engine runs outside the event's row lock, so saving
    results never waits for a recompute: the version is read before the state, so the
    state is at least as new as the version it is published under, and the final check
    under the lock refuses to publish anything not newer than what is published. When only
    match results changed since this process's last recompute of the event, the state and
    the standings are updated from it (services/standings_kept.py).
    """
    started = time.perf_counter()
    now = now or timezone.now()
    _forget_pending(event_id)
    event = Event.objects.filter(pk=event_id).first()
    if event is None or event.standings_version >= event.results_version:
        return False
    version = event.results_version  # the newest: covers results_version and any later
    with collector_paused():
        computed = standings_kept.compute(event, version, standings_kept.take(event_id))
        kept = computed.kept
        if after_compute is not None:
            after_compute()  # a test hook: kill the worker in the middle of a recompute
        with transaction.atomic():
            event = locking.lock_event(event_id)
            if event.standings_version >= version:
                standings_kept.keep(kept)  # still the record as of ``version``
                return False
            previous = computed.previous
            if kept.entrant_ids is None:
                kept.entrant_ids = entrant_ids(event)
            snapshot = store_snapshot(
                event,
                kept.standings,
                version,
                now=now,
                published=True,
                outlook_pending=bool(kept.state.rounds),
                entrants=kept.entrant_ids,
                after_round=standings_kept.after_round(kept.state),
                previous=(
                    (previous.snapshot_id, previous.standings)
                    if previous is not None and previous.snapshot_id is not None
                    else None
                ),
            )
            kept.snapshot_id = snapshot.pk
            update: dict[str, Any] = {"standings_version": version}
            if not kept.state.rounds:
                update["outlook_version"] = version  # nothing played: no outlook to wait for
            Event.objects.filter(pk=event.pk).update(**update)
            transaction.on_commit(lambda: published(event_id, version, "standings"))
        standings_kept.keep(kept)
        # read by bench/latency.py (the standings part of a save's way to the public page)
        log.info(
            "standings of event %s v%s published in %.3f s (%s)",
            event_id,
            version,
            time.perf_counter() - started,
            "whole" if computed.changed is None else f"{len(computed.changed)} matches changed",
        )
        return True


def attach_outlook(event_id: int, *, now: datetime | None = None) -> bool:
    """Compute the outlook (contention) of the published standings, if it is missing, and
    attach it to their snapshot and its rows. Returns True if it was attached. An outlook
    computed for standings that were replaced meanwhile is dropped: the pages never show
    one as current that is not the current standings'."""
    found = (
        Event.objects.filter(pk=event_id)
        .values_list("results_version", "standings_version", "outlook_version")
        .first()
    )
    if found is None or found[2] >= found[1] or found[0] > found[1]:
        return False  # no outlook missing, or newer results to publish first
    version = found[1]
    snapshot = (
        StandingsSnapshot.objects.filter(event_id=event_id, results_version=version)
        .only("pk", "outlook_pending")
        .first()
    )
    if snapshot is None:
        return False
    started = time.perf_counter()
    with collector_paused():
        kept = standings_kept.peek(event_id)
        if kept is None or kept.version != version:
            event = Event.objects.get(pk=event_id)
            kept = standings_kept.compute(event, version, standings_kept.take(event_id)).kept
            if kept.version != version:
                standings_kept.keep(kept)
                return False  # the results moved on: the next pass publishes those
        outlook = outlook_of(kept) if snapshot.outlook_pending else None
        with transaction.atomic():
            event = locking.lock_event(event_id)
            if event.standings_version != version or event.outlook_version >= version:
                return False
            if snapshot.outlook_pending:
                _store_outlook(snapshot.pk, outlook)
            Event.objects.filter(pk=event_id).update(outlook_version=version)
            transaction.on_commit(lambda: published(event_id, version, "outlook"))
        if snapshot.outlook_pending:
            kept.outlook, kept.outlook_state = outlook, kept.state
            kept.outlook_version, kept.since_outlook = version, frozenset()
            standings_kept.keep(kept)
    log.info(
        "outlook of event %s v%s attached in %.3f s",
        event_id,
        version,
        time.perf_counter() - started,
    )
    return True


def outlook_of(kept: standings_kept.Kept) -> Contention | None:
    """The contention of the kept state, reusing the last outlook's verdicts where the
    rules allow (rules/contention's Reuse, when it exists)."""
    reuse = None
    reuse_type = getattr(contention_module, "Reuse", None)
    if (
        reuse_type is not None
        and kept.outlook is not None
        and kept.outlook_state is not None
        and kept.since_outlook is not None
    ):
        reuse = reuse_type(
            previous_state=kept.outlook_state, previous=kept.outlook, changed=kept.since_outlook
        )
    return contention_or_none(kept.state, kept.standings, reuse=reuse)


def _store_outlook(snapshot_id: int, outlook: Contention | None) -> None:
    """The snapshot's outlook and each of its rows' verdicts, in two statements."""
    per_entrant = entrant_contention_json(outlook)
    StandingsSnapshot.objects.filter(pk=snapshot_id).update(
        contention=contention_json(outlook), outlook_pending=False
    )
    if not per_entrant:
        return
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


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for one recompute: a large event's state is
    hundreds of thousands of objects that live until the snapshot is stored, and the
    collector walked them again and again (a quarter to a third of the recompute's time
    at 10,000 entrants). They hold no cycles, so reference counting frees them as before."""
    if not gc.isenabled():  # paused already (a nested call) or by the process: leave it so
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@dataclass(frozen=True)
class StandingsState:
    """What the director sees: are the public standings current, or being recomputed?"""

    current: bool
    results_version: int
    standings_version: int
    computed_at: datetime | None

    @property
    def label(self) -> StrOrPromise:
        return _("current") if self.current else _("being recomputed")


def standings_state(event: Event) -> StandingsState:
    """Reads the versions fresh from the database (one query, plus one for the time)."""
    results_version, standings_version = Event.objects.values_list(
        "results_version", "standings_version"
    ).get(pk=event.pk)
    computed_at = (
        StandingsSnapshot.objects.filter(event_id=event.pk, results_version=standings_version)
        .values_list("computed_at", flat=True)
        .first()
    )
    return StandingsState(
        current=standings_version >= results_version,
        results_version=results_version,
        standings_version=standings_version,
        computed_at=computed_at,
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
    standings) of a snapshot of the same entrants; on PostgreSQL the rows equal in both are
    copied from it by the server, and only the others are written (a result moves a few
    rows of thousands). ``outlook_pending``: the contention follows (``attach_outlook``).
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
    snapshot, created = StandingsSnapshot.objects.get_or_create(
        event=event,
        results_version=version,
        defaults={
            "computed_at": now,
            "after_round": after_round,
            "published": published,
            "final": standings.final,
            "tables": [table_json(t) for t in standings.tables],
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
    same: set[tuple[str, int]] = set()
    if previous is not None and connection.vendor == "postgresql" and not per_entrant:
        same = _same_rows(previous[1], standings, entrants)
        if same and _copy_rows(previous[0], snapshot.pk, same) != len(same):
            # the previous snapshot is gone (or not what it was): every row written here
            StandingsRow.objects.filter(snapshot=snapshot).delete()
            same = set()
    _insert_rows(
        (
            snapshot.pk,
            table.key,
            position,
            entrants[row.entrant],
            row.rank,
            _float(row.values.get("points")),
            jsonable(row.values),
            row.status,
            jsonable(row.details),
            # a row that hides its values (results not public yet) carries no outlook
            {} if row.details.get("hidden") else per_entrant.get(row.entrant, {}),
        )
        for table in standings.tables
        for position, row in enumerate(table.rows, start=1)
        # virtual players (a WPF bye filler) are rows of the engine, not entrants
        if row.entrant in entrants and (table.key, position) not in same
    )
    return snapshot


def entrant_ids(event: Event) -> dict[str, int]:
    """Entrant number (the engine's id) -> row id."""
    return {
        str(number): pk
        for number, pk in Entrant.objects.filter(event=event).values_list("number", "pk")
    }


def _same_rows(
    before: Standings, after: Standings, entrants: dict[str, int]
) -> set[tuple[str, int]]:
    """(table key, position) of the stored rows equal in both standings."""
    old = {table.key: table.rows for table in before.tables}
    same = set()
    for table in after.tables:
        rows = old.get(table.key)
        if rows is None:
            continue
        for position, (row, was) in enumerate(zip(table.rows, rows, strict=False), start=1):
            if row == was and row.entrant in entrants:
                same.add((table.key, position))
    return same


def _copy_rows(source: int, target: int, rows: set[tuple[str, int]]) -> int:
    """Copy the rows ``rows`` of snapshot ``source`` into snapshot ``target``, server-side,
    without their outlook (the new snapshot's follows). Returns how many were copied."""
    meta = StandingsRow._meta
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    columns = [quote(_column(meta.get_field(f))) for f in ROW_FIELDS]
    kept = ", ".join(columns[1:-1])
    keys, positions = zip(*sorted(rows), strict=True)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) "
            f"SELECT %s, {kept}, '{{}}'::jsonb FROM {table} AS r "
            f"JOIN unnest(%s::text[], %s::int[]) AS s(k, p) "
            f"ON r.{columns[1]} = s.k AND r.{columns[2]} = s.p "
            f"WHERE r.{columns[0]} = %s",
            [target, list(keys), list(positions), source],
        )
        return int(cursor.rowcount)


ROW_FIELDS = (
    "snapshot_id", "table_key", "position", "entrant_id", "rank", "points", "values", "status",
    "details", "contention",
)  # fmt: skip
JSON_FIELDS = frozenset({"values", "details", "contention"})


def _insert_rows(rows: Iterable[tuple[Any, ...]]) -> None:
    """Standings rows (values in ROW_FIELDS order) in one statement. On PostgreSQL a COPY:
    10,000 rows through bulk_create took seconds (a model instance each, every value
    quoted into arrays); COPY streams them as they are."""
    if connection.vendor != "postgresql":
        StandingsRow.objects.bulk_create(
            StandingsRow(**dict(zip(ROW_FIELDS, row, strict=True))) for row in rows
        )
        return
    meta = StandingsRow._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(meta.get_field(f))) for f in ROW_FIELDS)
    encoded = [i for i, f in enumerate(ROW_FIELDS) if f in JSON_FIELDS]
    statement = f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            values = list(row)
            for i in encoded:
                values[i] = json.dumps(values[i])
            copy.write_row(values)


def table_json(table: Any) -> dict[str, Any]:
    return {
        "key": table.key,
        "title": table.title,
        "columns": [{"key": c.key, "label": c.label, "help": c.help} for c in table.columns],
        "decided": [
            {
                "ahead": d.ahead,
                "behind": d.behind,
                "step": d.step,
                "detail": d.detail,
                **({"params": jsonable(dict(d.params))} if d.params else {}),
            }
            for d in table.decided
        ],
        "notes": [stored(n) for n in table.notes],
    }


def latest_published(event: Event) -> StandingsSnapshot | None:
    return (
        StandingsSnapshot.objects.filter(event=event, published=True)
        .order_by("-results_version")
        .first()
    )


def _float(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def _column(field: object) -> str:
    """The database column of one of a row's own fields."""
    assert isinstance(field, Field) and field.column is not None
    return field.column
