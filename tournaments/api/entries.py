"""An event's entries (issue 32, docs/registration.md and docs/api.md "Entries"): the public
line of an event that takes entries or qualifies its players, as the entry form's page
counts it. Who holds a place (with the reason of their place, as a qualification list
gives it) and the waiting list with each position; never an e-mail address, an account or
an entry's link. Registered on main.py's instance (imported by urls.py); built every time
with its ETag (registration does not move the event's page-cache version), in three
queries whatever the size of the line."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Schema
from ninja.params.functions import Path

from accounts.permissions import event_for_viewer
from tournaments.api.caching import respond_fresh
from tournaments.api.main import ERRORS, api
from tournaments.models import Entry, Event, Registration

EntriesSlug: Any = Path(
    ...,
    pattern=r"^[-a-zA-Z0-9_]+$",
    max_length=80,
    description="The event's slug.",
    example="demo-open-entries",  # the demo event taking entries (manage.py load_demo)
)


class RegistrationOut(Schema):
    source: str
    open: bool
    capacity: int | None
    closes_at: datetime | None
    min_rating: int | None
    federations: list[str]
    source_label: str
    held: int
    waiting: int


class HolderOut(Schema):
    order: int | None
    name: str
    status: str
    rating: int | None
    federation: str
    reason: str
    entrant: int | None


class WaitingOut(Schema):
    position: int
    order: int | None
    name: str
    rating: int | None
    federation: str
    reason: str


class EntriesOut(Schema):
    event: str
    registration: RegistrationOut | None
    holding: list[HolderOut]
    waiting: list[WaitingOut]


# the columns read: nothing private (no e-mail, account, token, dates of a person's acts)
FIELDS = ("order", "name", "status", "rating", "federation", "reason", "entrant__number")


def entries(event: Event) -> dict[str, Any]:
    registration = Registration.objects.filter(event=event).first()
    rows = list(
        Entry.objects.filter(event=event, status__in=[*Entry.HOLDING, Entry.Status.WAITING])
        .order_by("order", "created_at", "pk")
        .values(*FIELDS)
    )
    holding = [r for r in rows if r["status"] in Entry.HOLDING]
    waiting = [r for r in rows if r["status"] == Entry.Status.WAITING]
    return {
        "event": event.slug,
        "registration": None
        if registration is None
        else {
            "source": registration.source,
            "open": registration.open,
            "capacity": registration.capacity,
            "closes_at": registration.closes_at,
            "min_rating": registration.min_rating,
            "federations": registration.federation_list,
            "source_label": registration.source_label,
            "held": len(holding),
            "waiting": len(waiting),
        },
        "holding": [
            {**{k: r[k] for k in FIELDS[:-1]}, "entrant": r["entrant__number"]} for r in holding
        ],
        "waiting": [
            {"position": n, **{k: r[k] for k in FIELDS[:-1] if k != "status"}}
            for n, r in enumerate(waiting, start=1)
        ],
    }


@api.get(
    "/events/{slug}/entries/",
    response={200: EntriesOut, **ERRORS},
    url_name="entries",
    summary="An event's entries: who holds a place, and the waiting list in order",
)
def event_entries(request: HttpRequest, slug: str = EntriesSlug) -> HttpResponse:
    return respond_fresh(request, EntriesOut, lambda: entries(event_for_viewer(request.user, slug)))
