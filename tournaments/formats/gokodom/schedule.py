"""GokoDom round times in the event's time zone (reads only; no writes here).

The engine computes dates only (rules/formats/gokodom/schedule.py, decision 17): each round
starts on ``details["starts"]`` and ends on ``details["ends"]``. The hours are the service
layer's: I.C says a round lasts "from Monday near 1500 EDT to Monday near 0600 EDT", so a
round opens at 15:00 on its start date and closes at 06:00 on its end date, in the event's
time zone. A time the director set on the round (Round.starts_at / Round.deadline) wins.
"""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

from rules.formats.gokodom.context import auto_rounds
from rules.formats.gokodom.schedule import parse_date
from tournaments.models import Event, Round

ROUND_OPENS_AT = datetime.time(15, 0)
ROUND_CLOSES_AT = datetime.time(6, 0)
SWISS, PLAYOFF, KNOCKOUT = "swiss", "playoff", "knockout"


def zone(event: Event) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(event.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _at(event: Event, value: Any, hour: datetime.time) -> datetime.datetime | None:
    day = parse_date(value)
    if day is None:
        return None
    return datetime.datetime.combine(day, hour, tzinfo=zone(event))


def starts_at(event: Event, rnd: Round) -> datetime.datetime | None:
    return rnd.starts_at or _at(event, rnd.details.get("starts"), ROUND_OPENS_AT)


def deadline(event: Event, rnd: Round) -> datetime.datetime | None:
    """When the round ends: the director's time, else the engine's end date at 06:00."""
    return rnd.deadline or _at(event, rnd.details.get("ends"), ROUND_CLOSES_AT)


def stage(rnd: Round) -> str:
    return str(rnd.details.get("stage", SWISS))


def swiss_rounds(event: Event) -> int:
    """I.B: the rounds of the Swiss portion (the setting, else ceil(log2 N)). Two queries."""
    setting = event.settings.get("swiss_rounds", 0)
    if isinstance(setting, int) and setting > 0:
        return setting
    first = event.rounds.filter(number=1).exclude(status=Round.Status.DRAFT).first()
    if first is not None and "initial_order" in first.details:
        return auto_rounds(len(first.details["initial_order"]))
    return auto_rounds(event.entrants.filter(status="active").count())
