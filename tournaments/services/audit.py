"""Append-only log of changes other than results (those are ResultChange rows).

Every change goes through here or standings.results_changed: both tell the mirror's outbox
(services/mirror/outbox.py), which counts the change of a mirrored event in the same
transaction, or refuses it on a read-only public copy."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tournaments.models import AuditEntry, Event, Series, SeriesAuditEntry
from tournaments.services.mirror import outbox


def log(
    event: Event,
    action: str,
    *,
    actor: Any,
    at: datetime,
    subject: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    outbox.record(event, action, at=at)
    return AuditEntry.objects.create(
        event=event, **_row(action, actor, at, subject, before, after, reason)
    )


def log_series(
    series: Series,
    action: str,
    *,
    actor: Any,
    at: datetime,
    subject: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> SeriesAuditEntry:
    """A series' change (series.*): its own log, since a series spans events. A series is
    never mirrored (venue mode copies events), so the outbox has nothing to count."""
    return SeriesAuditEntry.objects.create(
        series=series, **_row(action, actor, at, subject, before, after, reason)
    )


def _row(
    action: str, actor: Any, at: datetime, subject: str, before: Any, after: Any, reason: str
) -> dict[str, Any]:
    """The fields every audit row has (models.AuditFields), cut to their columns."""
    return {
        "action": action,
        "actor": actor if getattr(actor, "is_authenticated", False) else None,
        "at": at,
        "subject": subject[:200],
        "before": before,
        "after": after,
        "reason": reason[:300],
    }
