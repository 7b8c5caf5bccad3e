"""Places: the one machine behind registration and qualification (issue 32).

An event has N places and an ordered line of entries (tournaments/models_entries.py). A
place is either taken at once (someone who entered through the form while a place was
free) or OFFERED to the next in line with a deadline; the person confirms or declines by
their own link. A decline, a withdrawal, the director's refusal or move to the waiting
list, and a missed deadline all free a place, and ``fill`` offers each free place to the
next entry in order. A missed deadline is found by the beat sweep (``sweep``) and on every
read of an event's entries (``check_due``): whichever comes first passes the place on.

Concurrency: every change locks the event row first (tournaments/services/locking.py, one
lock order: event, then entry), so "places held" is counted and changed by one writer at a
time: never over capacity, and the line's order is given by one writer too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import Problem
from tournaments.models import Entry, Event, Registration
from tournaments.services import audit, locking, notifications
from tournaments.services.errors import ServiceError

Status = Entry.Status


def registration_of(event: Event) -> Registration:
    """The event's registration settings (made, closed, on first use)."""
    found = Registration.objects.filter(event=event).first()
    if found is not None:
        return found
    return Registration.objects.get_or_create(event=event)[0]


def held(event: Event) -> int:
    """Places held: accepted entries and open offers."""
    return Entry.objects.filter(event=event, status__in=Entry.HOLDING).count()


def _next_order(event: Event) -> int:
    return (Entry.objects.filter(event=event).aggregate(n=Max("order"))["n"] or 0) + 1


def _free(registration: Registration, event: Event) -> int | None:
    """Free places now (None: no limit). Call under the event's lock."""
    if registration.capacity is None:
        return None
    return max(0, registration.capacity - held(event))


def _said(entry: Entry) -> dict[str, Any]:
    return {"status": entry.status, "order": entry.order}


def _set(entry: Entry, status: str, *, now: datetime) -> None:
    entry.status = status
    entry.decided_at = now
    if status != Status.OFFERED:
        entry.offered_at = None
        entry.offer_expires_at = None
    entry.save(update_fields=["status", "decided_at", "offered_at", "offer_expires_at", "order"])


def _offer(entry: Entry, registration: Registration, *, now: datetime, by: Any) -> None:
    entry.status = Status.OFFERED
    entry.offered_at = now
    entry.offer_expires_at = now + timedelta(hours=registration.confirm_hours)
    entry.decided_at = now
    entry.save(update_fields=["status", "offered_at", "offer_expires_at", "decided_at"])
    audit.log(
        entry.event,
        "entry.offered",
        actor=by,
        at=now,
        subject=entry.name,
        after={"order": entry.order, "until": entry.offer_expires_at.isoformat()},
    )
    notifications.entry_mail(entry, "offer", now=now)


def _expire_due(event: Event, *, now: datetime) -> list[Entry]:
    """Offers past their deadline: EXPIRED (each audited and mailed). Under the event lock."""
    due = list(
        Entry.objects.select_for_update()
        .filter(event=event, status=Status.OFFERED, offer_expires_at__lte=now)
        .order_by("order")
    )
    for entry in due:
        _set(entry, Status.EXPIRED, now=now)
        audit.log(event, "entry.expired", actor=None, at=now, subject=entry.name)
        notifications.entry_mail(entry, "expired", now=now)
    return due


def fill(event: Event, *, now: datetime, by: Any = None) -> list[Entry]:
    """Pass on missed offers, then offer each free place to the next waiting entry in
    order. Call inside a transaction holding the event's lock. Returns the entries offered."""
    registration = registration_of(event)
    _expire_due(event, now=now)
    free = _free(registration, event)
    waiting = Entry.objects.select_for_update().filter(event=event, status=Status.WAITING)
    chosen = list(waiting.order_by("order") if free is None else waiting.order_by("order")[:free])
    for entry in chosen:
        entry.event = event
        _offer(entry, registration, now=now, by=by)
    return chosen


def _join(
    event: Event, entry: Entry, registration: Registration, *, now: datetime, by: Any
) -> None:
    """Put a confirmed form entry in the line: a free place at once (nobody waiting
    before it), else the waiting list in order of entry."""
    entry.order = _next_order(event)
    entry.joined_at = now
    free = _free(registration, event)
    someone_waits = Entry.objects.filter(event=event, status=Status.WAITING).exists()
    place = (free is None or free > 0) and not someone_waits
    entry.status = Status.ACCEPTED if place else Status.WAITING
    entry.decided_at = now
    entry.save(update_fields=["order", "joined_at", "status", "decided_at"])
    audit.log(
        event,
        "entry.accepted" if place else "entry.waitlisted",
        actor=by,
        at=now,
        subject=entry.name,
        after=_said(entry),
    )
    notifications.entry_mail(entry, "accepted" if place else "waiting", now=now)


# -- the public form ---------------------------------------------------------------------


def entry_problems(
    event: Event,
    registration: Registration,
    *,
    name: str,
    email: str,
    external_id: str,
    now: datetime,
) -> list[Problem]:
    """Why this entry cannot be taken, each naming its field (empty: it can)."""
    problems = []
    if not registration.open or registration.source != Registration.Source.FORM:
        problems.append(Problem("entry.closed", "", _("Entries for this event are closed.")))
    elif registration.closes_at is not None and now >= registration.closes_at:
        problems.append(
            Problem(
                "entry.deadline",
                "",
                _("The entry deadline (%(when)s) has passed.")
                % {"when": notifications.shown_time(event, registration.closes_at)},
            )
        )
    if not name.strip():
        problems.append(Problem("entry.name", "name", _("Name: give the name you play under.")))
    if Entry.objects.filter(event=event, email__iexact=email, status__in=Entry.IN_LINE).exists():
        problems.append(
            Problem(
                "entry.duplicate",
                "email",
                _("E-mail: %(email)s has already entered this event.") % {"email": email},
            )
        )
    if registration.needs_rating_list and not problems:
        problems.extend(eligibility_problems(event, registration, name, external_id))
    return problems


def eligibility_problems(
    event: Event, registration: Registration, name: str, external_id: str
) -> list[Problem]:
    from tournaments.services import rating_list

    row = rating_list.find(event, name=name, external_id=external_id)
    if row is None:
        return [
            Problem(
                "entry.not_listed",
                "external_id" if external_id else "name",
                _("%(name)s is not on this event's rating list; entries need a rating.")
                % {"name": name.strip()},
            )
        ]
    problems = []
    if registration.min_rating is not None and (row.rating or 0) < registration.min_rating:
        problems.append(
            Problem(
                "entry.rating",
                "name",
                _("%(name)s is rated %(rating)s; this event asks for %(least)s or more.")
                % {"name": row.name, "rating": row.rating or 0, "least": registration.min_rating},
            )
        )
    allowed = registration.federation_list
    if allowed and row.federation.upper() not in allowed:
        problems.append(
            Problem(
                "entry.federation",
                "name",
                _("%(name)s is listed for %(federation)s; this event takes members of %(list)s.")
                % {
                    "name": row.name,
                    "federation": row.federation or "-",
                    "list": ", ".join(allowed),
                },
            )
        )
    return problems


def enter(
    event: Event,
    *,
    name: str,
    email: str,
    user: Any = None,
    external_id: str = "",
    now: datetime | None = None,
) -> Entry:
    """An entry through the public form. With an account whose address is the one typed,
    the entry joins the line at once; otherwise a mail asks to confirm the address first
    (the line's order is the order of confirmation)."""
    from tournaments.services import rating_list

    now = now or timezone.now()
    email = email.strip().lower()
    with transaction.atomic():
        event = locking.lock_event(event)
        registration = registration_of(event)
        problems = entry_problems(
            event, registration, name=name, email=email, external_id=external_id, now=now
        )
        if problems:
            raise ServiceError(problems)
        row = rating_list.find(event, name=name, external_id=external_id)
        signed_in = getattr(user, "is_authenticated", False)
        entry = Entry.objects.create(
            event=event,
            name=name.strip(),
            email=email,
            user=user if signed_in else None,
            external_id=(row.external_id if row else external_id.strip())[:40],
            rating=row.rating if row else None,
            federation=row.federation if row else "",
            created_at=now,
        )
        audit.log(event, "entry.entered", actor=user, at=now, subject=entry.name)
        if signed_in and user.email and user.email.lower() == email:
            _join(event, entry, registration, now=now, by=user)
        else:
            notifications.entry_mail(entry, "confirm", now=now)
    return entry


# -- the entrant's own links ---------------------------------------------------------------


def _locked(entry: Entry) -> tuple[Event, Entry]:
    event = locking.lock_event(entry.event_id)
    locked = Entry.objects.select_for_update().get(pk=entry.pk)
    locked.event = event
    return event, locked


def confirm_email(entry: Entry, *, now: datetime | None = None) -> Entry:
    """The confirmation link: the entry joins the line (idempotent)."""
    now = now or timezone.now()
    with transaction.atomic():
        event, entry = _locked(entry)
        if entry.status != Status.UNCONFIRMED:
            return entry
        audit.log(event, "entry.email_confirmed", actor=None, at=now, subject=entry.name)
        _join(event, entry, registration_of(event), now=now, by=None)
    return entry


def confirm_place(entry: Entry, *, now: datetime | None = None) -> Entry:
    """The person offered a place takes it. Refused once the deadline has passed (the place
    has gone, or goes now, to the next in line) or when the offer is no longer open."""
    now = now or timezone.now()
    refusal = ""
    with transaction.atomic():
        event, entry = _locked(entry)
        if entry.status == Status.ACCEPTED:
            return entry
        due = entry.offer_expires_at is not None and entry.offer_expires_at <= now
        if entry.status == Status.OFFERED and due:
            fill(event, now=now)  # the check on read: the place goes to the next in line
            entry.refresh_from_db()
        if entry.status != Status.OFFERED:
            # said after the commit: the expiry just written must stay
            refusal = _offer_gone(event, entry)
        else:
            _set(entry, Status.ACCEPTED, now=now)
            audit.log(event, "entry.confirmed", actor=None, at=now, subject=entry.name)
            notifications.entry_mail(entry, "accepted", now=now)
    if refusal:
        raise ServiceError(refusal)
    return entry


def _offer_gone(event: Event, entry: Entry) -> str:
    if entry.status == Status.EXPIRED:
        return _("The time to confirm this place ran out; it was offered to the next in line.")
    return _("There is no place offered to this entry to confirm (%(status)s).") % {
        "status": entry.get_status_display()
    }


def decline(entry: Entry, *, now: datetime | None = None) -> Entry:
    """The person offered a place declines it: the next in line is offered it."""
    now = now or timezone.now()
    with transaction.atomic():
        event, entry = _locked(entry)
        if entry.status == Status.DECLINED:
            return entry
        if entry.status not in (Status.OFFERED, Status.WAITING):
            raise ServiceError(_offer_gone(event, entry))
        _set(entry, Status.DECLINED, now=now)
        audit.log(event, "entry.declined", actor=None, at=now, subject=entry.name)
        fill(event, now=now)
    return entry


def withdraw(entry: Entry, *, now: datetime | None = None) -> Entry:
    """The person withdraws by their link (a place held is passed on)."""
    now = now or timezone.now()
    with transaction.atomic():
        event, entry = _locked(entry)
        if entry.status == Status.WITHDRAWN:
            return entry
        if entry.status not in Entry.IN_LINE:
            raise ServiceError(_("This entry is no longer in the line; nothing to withdraw."))
        if entry.entrant_id is not None:
            raise ServiceError(
                _("You are already an entrant of this event: ask its director to withdraw you.")
            )
        before = _said(entry)
        _set(entry, Status.WITHDRAWN, now=now)
        audit.log(event, "entry.withdrawn", actor=None, at=now, subject=entry.name, before=before)
        fill(event, now=now)
    return entry


# -- the director ---------------------------------------------------------------------------


def director_accept(entry: Entry, *, by: Any, now: datetime | None = None) -> Entry:
    """Give this entry a place (out of turn if the director says so), when one is free."""
    now = now or timezone.now()
    with transaction.atomic():
        event, entry = _locked(entry)
        if entry.status == Status.ACCEPTED:
            return entry
        registration = registration_of(event)
        free = _free(registration, event)
        holds = entry.status == Status.OFFERED
        if free is not None and free <= 0 and not holds:
            raise ServiceError(
                _("The event is full (%(n)s places): refuse an entry or raise the capacity.")
                % {"n": registration.capacity}
            )
        before = _said(entry)
        if entry.order is None:
            entry.order = _next_order(event)
        _set(entry, Status.ACCEPTED, now=now)
        audit.log(
            event,
            "entry.director_accepted",
            actor=by,
            at=now,
            subject=entry.name,
            before=before,
            after=_said(entry),
        )
        notifications.entry_mail(entry, "accepted", now=now)
    return entry


def director_refuse(
    entry: Entry, *, by: Any, reason: str = "", now: datetime | None = None
) -> Entry:
    now = now or timezone.now()
    with transaction.atomic():
        event, entry = _locked(entry)
        if entry.entrant_id is not None:
            raise ServiceError(_("This entry is already an entrant: withdraw the entrant."))
        before = _said(entry)
        _set(entry, Status.REFUSED, now=now)
        audit.log(
            event,
            "entry.refused",
            actor=by,
            at=now,
            subject=entry.name,
            before=before,
            reason=reason.strip(),
        )
        notifications.entry_mail(entry, "refused", now=now)
        fill(event, now=now, by=by)
    return entry


def director_to_waiting(entry: Entry, *, by: Any, now: datetime | None = None) -> Entry:
    """Move an entry to the END of the waiting list; the place it held goes to the first
    waiting entry (docs/registration.md says why the end)."""
    now = now or timezone.now()
    with transaction.atomic():
        event, entry = _locked(entry)
        registration = registration_of(event)
        if registration.capacity is None:
            raise ServiceError(_("This event has no capacity: nobody waits. Set a capacity first."))
        if entry.entrant_id is not None:
            raise ServiceError(_("This entry is already an entrant: withdraw the entrant."))
        before = _said(entry)
        entry.order = _next_order(event)
        _set(entry, Status.WAITING, now=now)
        audit.log(
            event,
            "entry.moved_to_waiting",
            actor=by,
            at=now,
            subject=entry.name,
            before=before,
            after=_said(entry),
        )
        fill(event, now=now, by=by)
    return entry


def make_entrants(event: Event, *, by: Any, now: datetime | None = None) -> list[int]:
    """Accepted entries that are not entrants yet become entrants, in the line's order; an
    entry made with an account is claimed by it. Returns the new entrants' numbers."""
    from tournaments.models import Entrant
    from tournaments.services import events

    now = now or timezone.now()
    numbers = []
    with transaction.atomic():
        event = locking.lock_event(event)
        rows = Entry.objects.select_for_update().filter(
            event=event, status=Status.ACCEPTED, entrant__isnull=True
        )
        for entry in rows.order_by("order"):
            entrant = events.add_entrant(
                event,
                name=entry.name,
                rating=entry.rating,
                country=entry.federation,
                external_id=_free_external_id(event, entry.external_id),
                flags=_qualified_flags(event, entry),
                by=by,
                now=now,
            )
            taken = (
                entry.user_id is not None
                and Entrant.objects.filter(event=event, user_id=entry.user_id).exists()
            )
            if entry.user_id is not None and not taken:
                entrant.user_id = entry.user_id
                entrant.save(update_fields=["user"])
            entry.entrant = entrant
            entry.save(update_fields=["entrant"])
            numbers.append(entrant.number)
        seeded = _series_seeds(event) if numbers else {}
        audit.log(
            event,
            "entries.made_entrants",
            actor=by,
            at=now,
            subject=str(len(numbers)),
            after={"numbers": numbers, **({"seeds_from_series": seeded} if seeded else {})},
        )
    return numbers


def _qualified_flags(event: Event, entry: Entry) -> dict[str, Any]:
    """A WPF playoffs entrant qualified from a series or a ranked list: its eligibility
    score and place come from the list, and it confirmed ("Express an intention to be
    present"), instead of flags typed by hand (rules/formats/wpf_playoffs/eligibility.py)."""
    if event.format != "wpf_playoffs" or entry.source != Entry.Source.QUALIFIED:
        return {}
    if entry.score is None:
        return {"attending": True, "gp_position": entry.order}
    score = int(entry.score) if float(entry.score).is_integer() else entry.score
    return {"gp_total": score, "attending": True, "gp_position": entry.order}


def _series_seeds(event: Event) -> dict[str, Any]:
    """A WPF playoffs event whose line came from a series reads its seeds from the series
    (tournaments/formats/wpf_playoffs/series_link.py): its total, rank and attendance
    replace the list's score and line order written above."""
    if event.format != "wpf_playoffs":
        return {}
    from tournaments.formats.wpf_playoffs.services import apply_series_seeds

    return apply_series_seeds(event)


def _free_external_id(event: Event, wanted: str) -> str:
    if wanted and not event.entrants.filter(external_id=wanted).exists():
        return wanted
    return ""


# -- deadlines -------------------------------------------------------------------------


def check_due(event: Event, *, now: datetime | None = None) -> bool:
    """The check on read: pass on the event's missed offers now, before a page shows the
    line (one cheap query when nothing is due). Returns whether anything was due."""
    now = now or timezone.now()
    if not Entry.objects.filter(
        event=event, status=Status.OFFERED, offer_expires_at__lte=now
    ).exists():
        return False
    with transaction.atomic():
        fill(locking.lock_event(event), now=now)
    return True


def sweep(*, now: datetime | None = None) -> int:
    """The beat sweep: every event with a missed offer passes it on. Returns how many
    events it changed."""
    now = now or timezone.now()
    due: Sequence[int] = list(
        Entry.objects.filter(status=Status.OFFERED, offer_expires_at__lte=now)
        .values_list("event_id", flat=True)
        .distinct()
    )
    for event_id in due:
        with transaction.atomic():
            fill(locking.lock_event(event_id), now=now)
    return len(due)
