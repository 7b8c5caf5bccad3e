"""Check-in: who plays the next round, marked before it is drafted (issue 21).

The next round is the one after the event's latest round, drafted or not: once a round is
drafted the check-in moves on to the one after it (a fresh list: everyone present). The
absent entrants of round N reach the engine when round N is drafted (rounds.py passes
``absent_ids``); the engine leaves them out as its format says and records them in the
round. Deleting a draft brings its check-in back into force.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from rules.contract import Problem
from rules.words_common import ROUND
from tournaments.models import CheckIn, Entrant, Event
from tournaments.services import audit, locking
from tournaments.services.errors import ServiceError
from tournaments.services.mirror import outbox


def next_round_number(event: Event) -> int:
    """The round the check-in is for: the one after the latest round, drafted or not."""
    return (event.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


@dataclass(frozen=True)
class Line:
    entrant: Entrant
    present: bool
    mark: CheckIn | None  # who said so and when; None: present by default


@dataclass(frozen=True)
class Sheet:
    number: int
    lines: list[Line]

    @property
    def total(self) -> int:
        return len(self.lines)

    @property
    def present(self) -> int:
        return sum(1 for line in self.lines if line.present)

    @property
    def absent(self) -> list[Entrant]:
        return [line.entrant for line in self.lines if not line.present]


def sheet(event: Event) -> Sheet:
    """The active entrants with their presence for the next round (two queries)."""
    number = next_round_number(event)
    marks = {
        mark.entrant_id: mark
        for mark in CheckIn.objects.filter(event=event, round_number=number).select_related(
            "changed_by"
        )
    }
    entrants = Entrant.objects.filter(event=event, status=Entrant.Status.ACTIVE).order_by("number")
    lines = [
        Line(e, marks[e.pk].present if e.pk in marks else True, marks.get(e.pk)) for e in entrants
    ]
    return Sheet(number, lines)


def absent_ids(event: Event, number: int) -> tuple[str, ...]:
    """The engine ids (registration numbers) of the entrants absent for round ``number``."""
    numbers = CheckIn.objects.filter(
        event=event, round_number=number, present=False, entrant__status=Entrant.Status.ACTIVE
    ).values_list("entrant__number", flat=True)
    return tuple(str(n) for n in sorted(numbers))


def set_presence(
    entrant: Entrant,
    *,
    present: bool,
    by: Any,
    source: str = CheckIn.Source.DIRECTOR,
    number: int | None = None,
    now: datetime | None = None,
) -> CheckIn:
    """Mark the entrant present or absent for the next round (or round ``number``, which
    must be that round: a drafted round's check-in is closed)."""
    now = now or timezone.now()
    # a check-in is the machine's own (the event file has none): the push is the header
    with transaction.atomic(), outbox.touching():
        event = locking.lock_event(entrant.event_id)
        locked = Entrant.objects.select_for_update().get(pk=entrant.pk)
        upcoming = next_round_number(event)
        if number is not None and number != upcoming:
            text = (
                f"Round {number} is already drafted: the check-in is now for round "
                f"{upcoming}. To change round {number}, delete its draft first."
                if 1 <= number < upcoming
                else f"The check-in is for round {upcoming}, not round {number}."
            )
            raise ServiceError([Problem("checkin.closed", "round", text)])
        if locked.status != Entrant.Status.ACTIVE:
            raise ServiceError(
                [Problem("checkin.withdrawn", "entrant", f"{locked.name} has withdrawn.")]
            )
        mark, _ = CheckIn.objects.select_for_update().get_or_create(
            entrant=locked,
            round_number=upcoming,
            defaults={"event": event, "present": True, "changed_at": now},
        )
        if mark.present == present:
            return mark  # nothing changes (a new row is present, as no row was)
        was = mark.present
        mark.present = present
        mark.source = source
        mark.changed_by = by if getattr(by, "is_authenticated", False) else None
        mark.changed_at = now
        mark.save()
        audit.log(
            event,
            "checkin.present" if present else "checkin.absent",
            actor=by,
            at=now,
            subject=f"{locked.name}: {ROUND.format(n=upcoming)}",  # said in French on reading
            before={"present": was},
            after={"present": present, "by": str(source)},
        )
    return mark
