"""Append-only log of changes other than results (those are ResultChange rows)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tournaments.models import AuditEntry, Event


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
    return AuditEntry.objects.create(
        event=event,
        action=action,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        at=at,
        subject=subject[:200],
        before=before,
        after=after,
        reason=reason[:300],
    )
