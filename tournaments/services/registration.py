"""An event's registration settings (issue 32, docs/registration.md): open, places,
entry deadline, time to confirm an offer, eligibility. Changed by the director, audited
with what changed; a raised capacity offers the new places to the waiting list at once."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import Problem
from tournaments.models import Event, Registration
from tournaments.services import audit, locking, places
from tournaments.services.errors import ServiceError

SETTINGS = (
    "open",
    "capacity",
    "closes_at",
    "confirm_hours",
    "min_rating",
    "federations",
    "source",
)


def update_settings(
    event: Event, values: dict[str, Any], *, by: Any, now: datetime | None = None
) -> Registration:
    """Change the registration settings (audited, with what changed). A raised capacity
    offers the new places to the waiting list at once."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event)
        registration = places.registration_of(event)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if values.get("capacity") is not None and values["capacity"] < places.held(event):
            raise ServiceError(
                [
                    Problem(
                        "registration.capacity",
                        "capacity",
                        _(
                            "Capacity: %(held)s places are already held; refuse or move "
                            "entries to the waiting list before lowering it to %(n)s."
                        )
                        % {"held": places.held(event), "n": values["capacity"]},
                    )
                ]
            )
        before, after = {}, {}
        for key in SETTINGS:
            if key in values and getattr(registration, key) != values[key]:
                before[key] = _plain(getattr(registration, key))
                after[key] = _plain(values[key])
                setattr(registration, key, values[key])
        if not after:
            return registration
        registration.save()
        # the public event page shows the entry form's link while entries are open
        event.updated_at = now
        event.save(update_fields=["updated_at"])
        audit.log(
            event,
            "registration.settings_changed",
            actor=by,
            at=now,
            before=before,
            after=after,
        )
        places.fill(event, now=now, by=by)
    return registration


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value
