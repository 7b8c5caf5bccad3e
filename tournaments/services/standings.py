"""Standings: computed by the engine from the event's record, stored as snapshots.

The database is the truth about pending work: ``Event.results_version`` rises with every
change that can move the standings and ``Event.standings_version`` names the newest
snapshot published. A recompute is idempotent (one snapshot per results version) and
never publishes standings older than those already published.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from rules.contract import Standings
from tournaments.models import Entrant, Event, StandingsRow, StandingsSnapshot
from tournaments.services.state import jsonable, load_event_state


def compute(event: Event) -> Standings:
    return event.engine.standings(load_event_state(event))


def results_changed(event: Event) -> int:
    """Call inside the transaction that changed results: bumps the version and schedules
    a recompute for after the commit. Returns the new results version."""
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    version = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
    event.results_version = version
    event_id = event.pk

    def enqueue() -> None:
        from tournaments.tasks import recompute_standings

        recompute_standings.delay(event_id, version)

    transaction.on_commit(enqueue)
    return version


def refresh(event_id: int, results_version: int, *, now: datetime | None = None) -> bool:
    """Compute and publish the standings of the event as it is now, if they are behind.

    Returns True if a new snapshot was published. Safe to run twice or concurrently: the
    event row is locked, and a version already published is never computed again.
    """
    now = now or timezone.now()
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        if event.standings_version >= event.results_version:
            return False
        version = event.results_version  # the newest: covers results_version and any later
        standings = compute(event)
        store_snapshot(event, standings, version, now=now, published=True)
        Event.objects.filter(pk=event.pk).update(standings_version=version)
        return True


def store_snapshot(
    event: Event, standings: Standings, version: int, *, now: datetime, published: bool
) -> StandingsSnapshot:
    entrants = {str(e.number): e.pk for e in Entrant.objects.filter(event=event)}
    after_round = (
        event.rounds.exclude(status="draft").order_by("-number").values_list("number", flat=True)
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
                {"code": p.code, "text": p.text, "key": p.key, "options": list(p.options)}
                for p in standings.pending
            ],
        },
    )
    if created:
        StandingsRow.objects.bulk_create(
            StandingsRow(
                snapshot=snapshot,
                table_key=table.key,
                position=position,
                entrant_id=entrants[row.entrant],
                rank=row.rank,
                points=_float(row.values.get("points")),
                values=jsonable(row.values),
                status=row.status,
                details=jsonable(row.details),
            )
            for table in standings.tables
            for position, row in enumerate(table.rows, start=1)
            # virtual players (a WPF bye filler) are rows of the engine, not entrants
            if row.entrant in entrants
        )
    return snapshot


def table_json(table: Any) -> dict[str, Any]:
    return {
        "key": table.key,
        "title": table.title,
        "columns": [{"key": c.key, "label": c.label, "help": c.help} for c in table.columns],
        "decided": [
            {"ahead": d.ahead, "behind": d.behind, "step": d.step, "detail": d.detail}
            for d in table.decided
        ],
        "notes": [{"code": n.code, "text": n.text, "rule": n.rule} for n in table.notes],
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
