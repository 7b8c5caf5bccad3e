"""Round dates, I.C: weekly rounds from the first round's start date (set by the director);
the last Swiss round lasts up to two weeks; each elimination round lasts one week.

The engine works in dates only; the hours ("Monday near 1500 EDT to Monday near 0600 EDT")
and the time zone are the service layer's. No clock is read: the start date comes from the
``first_round_start`` setting.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from .record import KNOCKOUT, PLAYOFF, SWISS


def parse_date(value: Any) -> datetime.date | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        return None


def duration(settings: Mapping[str, Any], stage: str, number: int, swiss_rounds: int) -> int:
    """Days a round lasts."""
    if stage == SWISS:
        key = "last_swiss_round_days" if number == swiss_rounds else "round_days"
    elif stage == PLAYOFF:
        key = "playoff_days"
    else:
        key = "knockout_round_days"
    return int(settings[key])


def round_dates(
    settings: Mapping[str, Any],
    stages: Sequence[str],
    swiss_rounds: int,
    recorded_end: datetime.date | None = None,
) -> tuple[datetime.date, datetime.date] | None:
    """Start and end of the round that comes after rounds of ``stages[:-1]``.

    A recorded end of the previous round (the director may extend a round) wins over the
    computed one. None when no first round date is set.
    """
    start = parse_date(settings.get("first_round_start"))
    if start is None:
        return None
    for index, stage in enumerate(stages[:-1]):
        start += datetime.timedelta(days=duration(settings, stage, index + 1, swiss_rounds))
    if recorded_end is not None:
        start = recorded_end
    days = duration(settings, stages[-1], len(stages), swiss_rounds)
    return start, start + datetime.timedelta(days=days)


def season(
    settings: Mapping[str, Any], swiss_rounds: int
) -> list[tuple[str, datetime.date, datetime.date]]:
    """The whole season's planned rounds (without a playoff for 8th place)."""
    stages = [SWISS] * swiss_rounds + [KNOCKOUT] * 3
    labels = [f"Round {n}" for n in range(1, swiss_rounds + 1)] + [
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    out = []
    for index in range(len(stages)):
        dates = round_dates(settings, stages[: index + 1], swiss_rounds)
        if dates is None:
            return []
        out.append((labels[index], dates[0], dates[1]))
    return out
