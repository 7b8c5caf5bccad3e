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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings as conf
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Field
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from rules.contention import Contention, Verdict
from rules.contention import contention as contention_of
from rules.contract import EventState, Standings
from tournaments.models import Entrant, Event, StandingsRow, StandingsSnapshot
from tournaments.services import locking, queue, webhooks
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


def contention_or_none(state: EventState, standings: Standings | None = None) -> Contention | None:
    """Contention never holds the standings back: a format it does not know, or a state it
    cannot read, publishes the standings without it (and says so in the log). ``standings``:
    the engine's standings of ``state``, when the caller has them."""
    if not state.rounds:
        return None  # nothing played: everyone can still do everything, no mark is useful
    try:
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


def results_changed(event: Event) -> int:
    """Call inside the transaction that changed results: bumps the version and schedules
    a recompute for after the commit. Returns the new results version."""
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    version = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
    event.results_version = version
    event_id = event.pk
    transaction.on_commit(lambda: schedule_recompute(event_id, version))
    return version


def _pending_key(event_id: int) -> str:
    return f"standings:pending:{event_id}"


def schedule_recompute(event_id: int, version: int, *, delay: float | None = None) -> bool:
    """Enqueue one recompute for a burst of changes.

    The first change of a burst sets a short-lived "pending" marker in the cache and
    enqueues the task with a short countdown; later changes see the marker and enqueue
    nothing, because the task computes the event's newest results version when it runs
    (it clears the marker as it starts, so a change made during a recompute schedules the
    next one). Neither the cache nor the broker is trusted: if either is down the change
    is already safe in the database and the periodic sweep (``sweep``) enqueues the
    recompute when the broker is back. Returns True if a task was sent.
    """
    delay = conf.ARBITER_STANDINGS_DELAY if delay is None else delay
    key = _pending_key(event_id)
    try:
        fresh = cache.add(key, version, timeout=int(delay) + PENDING_MARKER_MARGIN)
    except Exception:  # the cache is down: send the task anyway
        log.warning("cache unavailable: recompute of event %s sent without coalescing", event_id)
        fresh = True
    if not fresh:
        return False
    try:
        queue.send("tournaments.tasks.recompute_standings", event_id, version, countdown=delay)
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


def lagging_events() -> list[tuple[int, int]]:
    """(event id, results version) of every event whose published standings lag."""
    return list(
        Event.objects.filter(standings_version__lt=F("results_version")).values_list(
            "pk", "results_version"
        )
    )


def sweep() -> int:
    """Re-enqueue the recompute of every event whose standings lag its results (a lost task,
    a broker that was down). Returns how many were sent."""
    return sum(schedule_recompute(pk, version, delay=0) for pk, version in lagging_events())


def refresh(
    event_id: int,
    results_version: int,
    *,
    now: datetime | None = None,
    after_compute: Callable[[], None] | None = None,
) -> bool:
    """Compute and publish the standings of the event as it is now, if they are behind.

    Returns True if a new snapshot was published. Safe to run twice or concurrently: a
    version already published is never computed again, and an older one is never
    published over a newer one. The engine runs outside the event's row lock, so saving
    results never waits for a recompute: the version is read before the state, so the
    state is at least as new as the version it is published under, and the final check
    under the lock refuses to publish anything not newer than what is published.
    """
    now = now or timezone.now()
    _forget_pending(event_id)
    event = Event.objects.filter(pk=event_id).first()
    if event is None or event.standings_version >= event.results_version:
        return False
    version = event.results_version  # the newest: covers results_version and any later
    with collector_paused():
        computed, contention = compute_state(record_state(event), event.engine)
        if after_compute is not None:
            after_compute()  # a test hook: kill the worker in the middle of a recompute
        with transaction.atomic():
            event = locking.lock_event(event_id)
            if event.standings_version >= version:
                return False
            store_snapshot(event, computed, version, now=now, published=True, contention=contention)
            Event.objects.filter(pk=event.pk).update(standings_version=version)
            webhooks.notify(event, "standings.changed", {"standings_version": version}, now=now)
            return True


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
) -> StandingsSnapshot:
    entrants = {
        str(number): pk
        for number, pk in Entrant.objects.filter(event=event).values_list("number", "pk")
    }
    # "After round 7" only once round 7 is complete; a round in play shows beside it
    after_round = (
        event.rounds.filter(status="completed").order_by("-number").values_list("number", flat=True)
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
        },
    )
    per_entrant = entrant_contention_json(contention)
    if created:
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
            if row.entrant in entrants
        )
    return snapshot


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
