"""Standings: computed by the engine from the event's record, stored as snapshots.

The database is the truth about pending work: ``Event.results_version`` rises with every
change that can move the standings and ``Event.standings_version`` names the newest
snapshot published. A recompute is idempotent (one snapshot per results version) and
never publishes standings older than those already published.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings as conf
from django.core.cache import cache
from django.db import DatabaseError, connection, transaction
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

import rules.contention as contention_module
from rules.contention import Contention
from rules.contention import contention as contention_of
from rules.contract import EventState, Standings
from tournaments import signals
from tournaments.models import Event, Match, StandingsSnapshot
from tournaments.services import at_commit, live, locking, queue, standings_kept, webhooks
from tournaments.services.mirror import outbox
from tournaments.services.standings_store import (  # noqa: F401 (the standings API)
    ROW_FIELDS,
    contention_json,
    entrant_contention_json,
    entrant_ids,
    prune_snapshots,
    store_outlook,
    store_snapshot,
    table_json,
    verdict_json,
)
from tournaments.services.state import load_event_state

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


def results_changed(event: Event, *, matches: Iterable[int] = ()) -> int:
    """Call inside the transaction that changed results: bumps the version and schedules
    a recompute for after the commit. Returns the new results version.

    ``matches``: the ids of the matches whose results (games, result, details) are the
    whole change (result_changes.write); they are stamped with the new version, which lets
    the refresh reload just them. Any other change (no ``matches``) is recorded as the
    event's ``shape_version``, and the next refresh loads the whole event."""
    changed = list(matches)
    outbox.record(event, "result.changed", matches=changed)
    bump: dict[str, Any] = {"results_version": F("results_version") + 1}
    if not changed:  # (F reads the row as it was: the new results version)
        bump["shape_version"] = F("results_version") + 1
    Event.objects.filter(pk=event.pk).update(**bump)
    version = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
    if changed:
        Match.objects.filter(pk__in=changed).update(results_version=version)
    event.results_version = version
    event_id = event.pk
    live.changed(event_id, live.RESULT_SAVED)
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
    # outside the running marker: a save meanwhile is sent at once, not after the delay
    prune(event_id)
    return stored


# Events whose old snapshots one sweep deletes at most (PRUNE_BATCH each).
PRUNE_EVENTS = 5


def prune_backlog() -> int:
    """Old snapshots of events that no recompute reaches any more (a finished event, or
    snapshots stored before pruning existed): a few events per sweep, those with the most
    snapshots per round first. Returns how many snapshots were deleted."""
    crowded = (
        StandingsSnapshot.objects.filter(final=False)  # every final one is kept
        .values("event_id")
        .annotate(count=Count("pk"), rounds=Count("after_round", distinct=True))
        .filter(count__gt=F("rounds"))  # more than the newest of each round
        .order_by(F("rounds") - F("count"))
        .values_list("event_id", flat=True)[:PRUNE_EVENTS]
    )
    return sum(prune(event_id) for event_id in list(crowded))


def prune(event_id: int) -> int:
    """The event's old snapshots deleted (standings_store.prune_snapshots), stopping as
    soon as newer results wait. Never fails the recompute: what is left goes next time."""
    if not conf.ARBITER_STANDINGS_PRUNE:
        return 0
    try:
        return prune_snapshots(event_id, stop=lambda: _lagging(event_id))
    except DatabaseError:
        log.warning("old standings snapshots of event %s not deleted", event_id, exc_info=True)
        return 0


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
    live.publish(event_id, live.OUTLOOK_CHANGED if part == "outlook" else live.STANDINGS_CHANGED)


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
        computed_at = time.perf_counter()
        with transaction.atomic():
            derived_commit()
            event = locking.lock_event(event_id)
            if event.standings_version >= version:
                standings_kept.keep(kept)  # still the record as of ``version``
                return False
            stores = at_commit.registered()  # (before the event's update: its hooks first)
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
            webhooks.notify(event, "standings.changed", {"standings_version": version}, now=now)
            # a release's crowd asks for its entrants' new placings at this commit
            stores.prepare(signals.standings_publishing, event_id=event_id, version=version)
            transaction.on_commit(lambda: published(event_id, version, "standings"))
            stored_at = time.perf_counter()
        committed_at = time.perf_counter()
        standings_kept.keep(kept)
        # read by bench/latency.py (the standings part of a save's way to the public page,
        # and its phases: the record read and computed, the snapshot stored, the commit
        # with its hooks)
        log.info(
            "standings of event %s v%s published in %.3f s (%s; compute %.3f, store %.3f, "
            "commit %.3f)",
            event_id,
            version,
            committed_at - started,
            "whole" if computed.changed is None else f"{len(computed.changed)} matches changed",
            computed_at - started,
            stored_at - computed_at,
            committed_at - stored_at,
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
            derived_commit()
            event = locking.lock_event(event_id)
            if event.standings_version != version or event.outlook_version >= version:
                return False
            stores = at_commit.registered()  # (before the event's update: its hooks first)
            if snapshot.outlook_pending:
                store_outlook(snapshot.pk, outlook)
            Event.objects.filter(pk=event_id).update(outlook_version=version)
            stores.prepare(signals.standings_publishing, event_id=event_id, version=version)
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


def derived_commit() -> None:
    """Inside a transaction that stores standings or their outlook: its commit does not
    wait for the disk (PostgreSQL's asynchronous commit). They are derived from the
    results, whose own commits still wait: a crash can lose the last fraction of a second
    of snapshots, never a result, and an event whose snapshot was lost lags its results
    again, so the sweep recomputes it. At 10,000 entrants a snapshot is 10,000 rows, and
    on a busy disk their flush was a third of the standings' time."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


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


def latest_published(event: Event) -> StandingsSnapshot | None:
    return (
        StandingsSnapshot.objects.filter(event=event, published=True)
        .order_by("-results_version")
        .first()
    )
