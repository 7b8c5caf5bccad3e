"""Stores the draws an engine made, and gives engines the event's recorded draws."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from rules.contract import DrawMethod, DrawRecord, EventState
from rules.draws import DrawSource
from tournaments.models import Event, RandomDraw, Round
from tournaments.services import audit, standings
from tournaments.services.errors import ServiceError
from tournaments.services.mirror import outbox


def source_for(event: Event, state: EventState) -> DrawSource:
    return DrawSource(event.random_seed, state.draws, external=event.external_draws)


def store(
    event: Event,
    records: Iterable[DrawRecord],
    *,
    by: Any,
    at: datetime,
    round: Round | None = None,
) -> list[RandomDraw]:
    stored = []
    for record in records:
        stored.append(
            RandomDraw.objects.create(
                event=event,
                round=round,
                key=record.key,
                purpose=record.purpose,
                method=str(record.method),
                value=record.value,
                details=dict(record.details),
                drawn_by=by if getattr(by, "is_authenticated", False) else None,
                drawn_at=at,
            )
        )
    return stored


def enter_external(
    event: Event, key: str, value: Any, *, purpose: str, by: Any, at: datetime
) -> RandomDraw:
    """A draw typed in by the director from an outside draw (a die, a digit from a lottery).
    A draw can decide ranks (WOC's lot for players equal on points, BQ and discs), so the
    standings are recomputed: before, they kept the tie until a later result came in."""
    with transaction.atomic(), outbox.touching("draws"):
        if RandomDraw.objects.filter(event=event, key=key).exists():
            raise ServiceError(
                _("The draw '%(key)s' has already been made; a draw is never redone.")
                % {"key": key}
            )
        (draw,) = store(
            event,
            [DrawRecord(key, value, DrawMethod.EXTERNAL, purpose)],
            by=by,
            at=at,
        )
        audit.log(event, "draw.entered", actor=by, at=at, subject=key, after={"value": value})
        standings.results_changed(event)
    return draw
