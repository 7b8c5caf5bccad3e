"""The one writer of a result change: every format's service saves a match's result here.

A change is three writes that belong together: the match's version rises by one (a form
read at the old version is then stale), a ResultChange row keeps who changed what from
what (services/history.py replays these rows to the stored record), and the event's
results version rises, with a standings recompute queued for after the commit. The caller
holds the locks (locking.lock_match: event, then match) and has set the match's new values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction

from tournaments.models import Event, Match, ResultChange, Round
from tournaments.services import standings, webhooks
from tournaments.services.errors import StaleResult


def write(
    event: Event,
    match: Match,
    *,
    fields: Iterable[str],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    by: Any,
    source: str,
    reason: str,
    now: datetime,
    refresh: bool = True,
) -> int:
    """Save ``fields`` of ``match`` as its next version with its ResultChange row; returns
    the new version. ``refresh=False`` when the caller changes several matches in one action
    and raises the event's results version once itself (standings.results_changed)."""
    match.version += 1
    match.save(update_fields=[*fields, "version"])
    try:
        with transaction.atomic():
            ResultChange.objects.create(
                match=match,
                version=match.version,
                before=dict(before),
                after=dict(after),
                changed_by=by if getattr(by, "is_authenticated", False) else None,
                changed_at=now,
                source=source,
                reason=reason[:300],
            )
    except IntegrityError:
        # Only reachable if the row lock was bypassed: the database still refuses a second
        # change for the same version.
        raise StaleResult(match.version, None) from None
    if refresh:
        standings.results_changed(event, matches=[match.pk])
    webhooks.notify(event, "result.saved", lambda: _about(match, before), now=now)
    return match.version


def _about(match: Match, before: Mapping[str, Any]) -> dict[str, Any]:
    """What a webhook says of a saved result: the match, its version, whether it replaced
    a result (a correction) and the round to read it in."""
    rnd = Round.objects.filter(pk=match.round_id).values_list("number", flat=True).first()
    about = {"match": match.code, "match_version": match.version}
    return {**about, "correction": bool(before.get("result")), "round": rnd}
