"""A round's start time, for every format (issue 28, item 10c): Round.starts_at, the field
GokoDom's schedule reads too, so one time is shown on the public pages, the projector and the
pairing mails whatever the format. The director types it in the event's time zone."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Event, Round
from tournaments.services import audit, locking
from tournaments.services.errors import ServiceError


def event_zone(event: Event) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(event.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def local_input(event: Event, moment: datetime | None) -> str:
    """The value of a datetime-local input: the moment on the event's clock."""
    if moment is None:
        return ""
    return timezone.localtime(moment, event_zone(event)).strftime("%Y-%m-%dT%H:%M")


def set_start_time(
    rnd: Round, starts_at: datetime | None, *, by: object, now: datetime | None = None
) -> Round:
    """The round starts at ``starts_at`` (None: no start time shown). A closed round keeps
    the time it was played at."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status == Round.Status.COMPLETED:
            raise ServiceError(
                _("%(round)s is closed: its start time can no longer change.")
                % {"round": rnd.label}
            )
        if starts_at is not None and rnd.deadline is not None and starts_at >= rnd.deadline:
            raise ServiceError(_("Start time: the round must start before its deadline."))
        before = rnd.starts_at
        if before == starts_at:
            return rnd
        rnd.starts_at = starts_at
        rnd.save(update_fields=["starts_at"])
        audit.log(
            event,
            "round.start_time",
            actor=by,
            at=now,
            subject=rnd.label,
            before={"starts_at": before.isoformat() if before else ""},
            after={"starts_at": starts_at.isoformat() if starts_at else ""},
        )
        # the public pages are cached by the event's stamp: a saved event moves it
        event.save(update_fields=["updated_at"])
    return rnd
