"""E-mail to players and directors (docs/notifications.md).

Three things are mailed: a player's pairing when a round is published, a disputed
GokoDom result (to both players and the event's directors), and the director's decision
on it (to both players). The database holds the work:
the action that causes a mail (publishing, disputing) writes one Notification row per
recipient in its own transaction and enqueues the sending task after the commit. The task
sends each row still pending under the row's lock and marks it sent in the same transaction,
so a retried or duplicated task never mails twice (only a crash between the SMTP server's
answer and the commit can repeat one mail). A mail that cannot be sent never touches the
action: the row stays pending with its error, the task retries with a backoff, and a sweep
(beat) sends the rows whose task was lost; after MAX_ATTEMPTS the row is marked failed.

Who gets mail: a player (an entrant claimed by a user) with an e-mail address who has not
turned mail off for the event (Entrant.emails_off) or for everything (User.emails_off); a
director unless they turned it off for the event (EventDirector.emails_off) or for
everything. Every mail carries signed unsubscribe links that need no sign-in.
"""

from __future__ import annotations

import contextlib
import logging
import zoneinfo
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as conf
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from tournaments.models import (
    AuditEntry,
    Entrant,
    EventDirector,
    Match,
    MatchParticipant,
    Notification,
    Round,
)
from tournaments.services import queue

log = logging.getLogger(__name__)

# Attempts before a mail is given up (the task's own retries, then the sweep's).
MAX_ATTEMPTS = 8
# The sweep leaves a row this long to its own task before sending it itself.
SWEEP_AFTER = timedelta(minutes=2)
SALT = "arbiter.unsubscribe"
ENTRANT, DIRECTOR, USER = "entrant", "director", "user"


class MailNotSent(Exception):
    """Some mails could not be sent now: the task retries them (the rows say why)."""


# -- writing the work, inside the action's transaction --------------------------------------


def pairings_published(rnd: Round, *, now: datetime) -> list[int]:
    """One pairing mail per player of ``rnd`` who can get one; sent after the commit. Call
    inside the transaction that publishes the round."""
    seats = (
        MatchParticipant.objects.filter(match__round=rnd, entrant__isnull=False)
        .filter(entrant__user__isnull=False, entrant__emails_off=False)
        .filter(entrant__user__emails_off=False)
        .exclude(entrant__user__email="")
        .select_related("entrant")
    )
    rows = {
        entrant.pk: Notification(
            key=f"pairing:{rnd.pk}:{entrant.pk}",
            event_id=rnd.event_id,
            kind=Notification.Kind.PAIRING,
            user_id=user_id,
            entrant_id=entrant.pk,
            round=rnd,
            created_at=now,
        )
        for entrant, user_id in _claimed(seats)
    }
    return _store(rows.values())


def _claimed(seats: Iterable[MatchParticipant]) -> Iterator[tuple[Entrant, int]]:
    """Each seat's entrant with the user who claimed it (the callers' queries keep only
    such seats)."""
    for seat in seats:
        if seat.entrant is not None and seat.entrant.user_id is not None:
            yield seat.entrant, seat.entrant.user_id


def dispute_opened(
    match: Match,
    logged: AuditEntry,
    *,
    by: Entrant,
    note: str,
    lines: Sequence[str],
    now: datetime,
) -> list[int]:
    """Both players and the event's directors are told that ``by`` disputed ``match``'s
    result (``logged``: the dispute's audit row, so one dispute mails each person once).
    ``lines``: the players' accounts in words, kept as they were at the dispute."""
    event_id = match.round.event_id
    details = {"by": by.name, "note": note, "lines": list(lines)}
    rows: dict[int, Notification] = {}
    players = (
        MatchParticipant.objects.filter(match=match, entrant__user__isnull=False)
        .filter(entrant__emails_off=False, entrant__user__emails_off=False)
        .exclude(entrant__user__email="")
        .select_related("entrant")
    )
    for entrant, user_id in _claimed(players):
        rows[user_id] = Notification(
            key=f"dispute:{logged.pk}:{user_id}",
            event_id=event_id,
            kind=Notification.Kind.DISPUTE,
            user_id=user_id,
            entrant_id=entrant.pk,
            match=match,
            details=details,
            created_at=now,
        )
    directors = (
        EventDirector.objects.filter(event_id=event_id, emails_off=False)
        .filter(user__emails_off=False)
        .exclude(user__email="")
    )
    for director in directors:
        # a director who also plays the match gets the player's mail, once
        rows.setdefault(
            director.user_id,
            Notification(
                key=f"dispute:{logged.pk}:{director.user_id}",
                event_id=event_id,
                kind=Notification.Kind.DISPUTE,
                user_id=director.user_id,
                match=match,
                details={**details, "director": True},
                created_at=now,
            ),
        )
    return _store(rows.values())


def dispute_settled(
    match: Match,
    logged: AuditEntry,
    *,
    decision: str,
    codes: dict[str, str],
    lines: Sequence[str],
    now: datetime,
) -> list[int]:
    """Both players (those who can get mail) are told the director's decision on their
    disputed ``match`` (``logged``: the decision's audit row, so it mails each once).
    ``lines``: the accounts the director decided between, as they were."""
    details = {"decision": decision, "codes": dict(codes), "lines": list(lines)}
    players = (
        MatchParticipant.objects.filter(match=match, entrant__user__isnull=False)
        .filter(entrant__emails_off=False, entrant__user__emails_off=False)
        .exclude(entrant__user__email="")
        .select_related("entrant")
    )
    rows = {
        user_id: Notification(
            key=f"settled:{logged.pk}:{user_id}",
            event_id=match.round.event_id,
            kind=Notification.Kind.SETTLED,
            user_id=user_id,
            entrant_id=entrant.pk,
            match=match,
            details=details,
            created_at=now,
        )
        for entrant, user_id in _claimed(players)
    }
    return _store(rows.values())


def entry_mail(entry: Any, what: str, *, now: datetime) -> list[int]:
    """One mail about an entry (services/places.py): ``what`` is confirm (the address),
    accepted, waiting, offer (a place to confirm by its deadline), expired or refused. Sent
    to the address the entry gave, account or not: the person asked for these."""
    row = Notification(
        key=f"entry:{entry.pk}:{what}:{now.timestamp():.6f}"[:120],
        event_id=entry.event_id,
        kind=Notification.Kind.ENTRY,
        user_id=entry.user_id,
        email=entry.email,
        entry_id=entry.pk,
        details={"what": what},
        created_at=now,
    )
    return _store([row])


def _store(rows: Iterable[Notification]) -> list[int]:
    rows = list(rows)
    if not rows:
        return []
    # a key already there (the same action twice) is not a second mail
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    ids = list(
        Notification.objects.filter(
            key__in=[r.key for r in rows], status=Notification.Status.PENDING
        ).values_list("pk", flat=True)
    )
    transaction.on_commit(lambda: send_later(ids), robust=True)
    return ids


def send_later(ids: Sequence[int]) -> bool:
    """Enqueue the sending task. Neither the broker nor the mail server may fail the action
    that is already committed: a task that cannot be sent is left to the sweep."""
    if not ids:
        return False
    try:
        if queue.runs_eagerly():
            # no worker: one attempt inside the request, never the task's retries (a mail
            # server that is down would hold the page for each of them)
            deliver(ids)
        else:
            queue.send("tournaments.tasks.send_notifications", list(ids))
    except Exception:
        log.warning("mail not sent now (%s rows): left to the sweep", len(ids), exc_info=True)
        return False
    return True


# -- sending, in the task ----------------------------------------------------------------


def deliver(ids: Sequence[int], *, now: datetime | None = None) -> int:
    """Send the pending mails among ``ids``; returns how many were sent. Each row is locked
    while its mail is sent and marked in the same transaction: a twin task waits for the
    lock and then finds the row sent. Raises MailNotSent when some could not be sent now
    (their rows keep the error and stay pending, for the retry)."""
    sent = 0
    failed = []
    connection = get_connection()
    with contextlib.suppress(Exception):  # each mail tries again and records its failure
        connection.open()
    try:
        for pk in ids:
            with transaction.atomic():
                row = (
                    Notification.objects.select_for_update()
                    .filter(pk=pk, status=Notification.Status.PENDING)
                    .first()
                )
                if row is None:
                    continue  # sent by a twin, skipped, or gone with its round
                outcome = _deliver_one(row, connection, now or timezone.now())
            if outcome == Notification.Status.SENT:
                sent += 1
            elif outcome == Notification.Status.PENDING:
                failed.append(pk)
    finally:
        try:
            connection.close()
        except Exception:
            log.warning("closing the mail connection failed", exc_info=True)
    if failed:
        raise MailNotSent(f"{len(failed)} mail(s) not sent yet: {failed[:10]}")
    return sent


def _deliver_one(row: Notification, connection: Any, now: datetime) -> str:
    skip = _skip_reason(row)
    if skip:
        row.status = Notification.Status.SKIPPED
        row.last_error = skip
        row.save(update_fields=["status", "last_error"])
        return row.status
    try:
        message = _message(row, connection)
        message.send()
    except Exception as error:
        row.attempts += 1
        row.last_error = f"{error.__class__.__name__}: {error}"[:300]
        if row.attempts >= MAX_ATTEMPTS:
            row.status = Notification.Status.FAILED
            log.error("mail %s given up after %s attempts: %s", row.key, row.attempts, error)
        else:
            log.warning("mail %s not sent (attempt %s): %s", row.key, row.attempts, error)
        row.save(update_fields=["status", "attempts", "last_error"])
        return row.status
    row.status = Notification.Status.SENT
    row.attempts += 1
    row.sent_at = now
    row.last_error = ""
    row.save(update_fields=["status", "attempts", "sent_at", "last_error"])
    return row.status


def _skip_reason(row: Notification) -> str:
    """Why a pending mail is no longer to be sent (turned off since it was written)."""
    if row.kind == Notification.Kind.ENTRY:
        # an entry's own mails (its links, its place) are what the person asked for
        return "" if row.email else "no e-mail address"
    if row.user_id is None:
        return "no e-mail address"
    user = get_user_model().objects.filter(pk=row.user_id).first()
    if user is None or not user.email:
        return "no e-mail address"
    if user.emails_off:
        return "the person turned all e-mail off"
    if row.entrant_id is not None:
        if Entrant.objects.filter(pk=row.entrant_id, emails_off=True).exists():
            return "the player turned e-mail about this event off"
    else:
        director = EventDirector.objects.filter(event_id=row.event_id, user_id=row.user_id).first()
        if director is None:
            return "no longer a director of the event"
        if director.emails_off:
            return "the director turned e-mail about this event off"
    return ""


def sweep(*, now: datetime | None = None) -> int:
    """Send again what was never sent (a lost task, a mail server that was down): pending
    rows older than SWEEP_AFTER, one task for them all. Returns how many rows it sent for."""
    now = now or timezone.now()
    ids = list(
        Notification.objects.filter(
            status=Notification.Status.PENDING, created_at__lt=now - SWEEP_AFTER
        )
        .order_by("created_at")
        .values_list("pk", flat=True)[:500]
    )
    send_later(ids)
    return len(ids)


# -- the mails --------------------------------------------------------------------------


def _zone(event: Any) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(event.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def shown_time(event: Any, moment: datetime | None) -> str:
    """A time in the event's zone, the zone named: 'Sat 14 Mar 2026 06:00 (Europe/Paris)'."""
    if moment is None:
        return ""
    zone = _zone(event)
    # the pattern is the language's: French writes the month in lower case ("déc")
    when = date_format(timezone.localtime(moment, zone), gettext("D j M Y H:i"))
    return f"{when} ({zone.key})"


def site_url(path: str) -> str:
    return f"{conf.ARBITER_SITE_URL}{path}"


def _message(row: Notification, connection: Any) -> EmailMultiAlternatives:
    row = Notification.objects.select_related("event", "user", "entrant", "round", "match").get(
        pk=row.pk
    )
    if row.kind == Notification.Kind.ENTRY:
        return _entry_message(row, connection)
    assert row.user is not None and row.user_id is not None  # only an entry's mail has none
    event = row.event
    if row.entrant_id is not None:
        scope, pk = ENTRANT, row.entrant_id
    else:
        scope = DIRECTOR
        pk = EventDirector.objects.get(event=event, user_id=row.user_id).pk
    context: dict[str, Any] = {
        "event": event,
        "user": row.user,
        "entrant": row.entrant,
        "zone": _zone(event).key,
        "event_url": site_url(reverse("tournaments:event", args=[event.slug])),
        "stop_event_url": unsubscribe_url(scope, pk),
        "stop_all_url": unsubscribe_url(USER, row.user_id),
    }
    if row.entrant is not None:
        context["entrant_url"] = site_url(
            reverse("tournaments:entrant", args=[event.slug, row.entrant.number])
        )
    if row.kind == Notification.Kind.PAIRING:
        context.update(_pairing_context(row))
    elif row.kind == Notification.Kind.SETTLED:
        context.update(_settled_context(row))
    else:
        context.update(_dispute_context(row))
    name = str(row.kind)
    with timezone.override(_zone(event)):
        subject_text = render_to_string(f"tournaments/email/{name}_subject.txt", context)
        subject = " ".join(subject_text.split())  # one line, whatever the template's spacing
        text = render_to_string(f"tournaments/email/{name}.txt", context)
        html = render_to_string(f"tournaments/email/{name}.html", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[row.user.email],
        connection=connection,
        headers={
            # RFC 8058: a mail client's own "unsubscribe" button posts here, no sign-in
            "List-Unsubscribe": f"<{one_click_url(scope, pk)}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _entry_message(row: Notification, connection: Any) -> EmailMultiAlternatives:
    from tournaments.models import Entry

    assert row.entry_id is not None  # an entry's mail names it
    entry = Entry.objects.select_related("event").get(pk=row.entry_id)
    event = entry.event
    ahead = Entry.objects.filter(
        event=event, status=Entry.Status.WAITING, order__lt=entry.order or 0
    ).count()
    context: dict[str, Any] = {
        "event": event,
        "entry": entry,
        "what": row.details.get("what", ""),
        "position": ahead + 1,
        "deadline": shown_time(event, entry.offer_expires_at),
        "entry_url": site_url(reverse("tournaments:entry", args=[event.slug, entry.token])),
        "event_url": site_url(reverse("tournaments:event", args=[event.slug])),
    }
    with timezone.override(_zone(event)):
        subject_text = render_to_string("tournaments/email/entry_subject.txt", context)
        text = render_to_string("tournaments/email/entry.txt", context)
        html = render_to_string("tournaments/email/entry.html", context)
    message = EmailMultiAlternatives(
        subject=" ".join(subject_text.split()),
        body=text,
        to=[row.email],
        connection=connection,
    )
    message.attach_alternative(html, "text/html")
    return message


def _pairing_context(row: Notification) -> dict[str, Any]:
    from tournaments.formats import ui_for

    rnd = row.round
    event = row.event
    assert rnd is not None and row.entrant_id is not None  # a pairing names both
    matches = (
        Match.objects.filter(round=rnd, participants__entrant_id=row.entrant_id)
        .select_related("group")
        .prefetch_related(
            Prefetch(
                "participants",
                queryset=MatchParticipant.objects.order_by("seat").select_related("entrant"),
            )
        )
        .order_by("order", "code")
        .distinct()
    )
    pairings = []
    for match in matches:
        seats = list(match.participants.all())
        mine = next(s for s in seats if s.entrant_id == row.entrant_id)
        others = [s for s in seats if s.pk != mine.pk]
        pairings.append(
            {
                "match": match,
                "table": match.table,
                "group": match.group.label if match.group else "",
                "bye": not others,
                "opponents": [
                    {"name": s.entrant.name if s.entrant else "", "role": s.role} for s in others
                ],
                "role": mine.role,
                "seat": mine.seat + 1,
                "seats": len(seats),
            }
        )
    return {
        "round": rnd,
        "pairings": pairings,
        "starts": shown_time(event, rnd.starts_at),
        "deadline": shown_time(event, ui_for(event).round_deadline(event, rnd)),
        "round_url": site_url(reverse("tournaments:round", args=[event.slug, rnd.number])),
    }


def _dispute_context(row: Notification) -> dict[str, Any]:
    match = row.match
    details = row.details
    director = bool(details.get("director"))
    # the director's link opens the match's own page, where they settle it
    manage = (
        reverse("tournaments:gokodom_settle", args=[row.event.slug, match.pk])
        if match is not None
        else reverse("tournaments:manage", args=[row.event.slug])
    )
    return {
        "match": match,
        "round": match.round if match else None,
        "by": details.get("by", ""),
        "note": details.get("note", ""),
        "lines": details.get("lines", []),
        "director": director,
        "act_url": site_url(manage) if director else "",
    }


def _settled_context(row: Notification) -> dict[str, Any]:
    match = row.match
    details = row.details
    return {
        "match": match,
        "round": match.round if match else None,
        "decision": details.get("decision", ""),
        "lines": details.get("lines", []),
    }


# -- opting out ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OptOut:
    """What a signed unsubscribe link turns off, in words."""

    scope: str
    pk: int
    text: str


def unsubscribe_token(scope: str, pk: int) -> str:
    return signing.dumps({"s": scope, "id": pk}, salt=SALT, compress=False)


def unsubscribe_url(scope: str, pk: int) -> str:
    return site_url(reverse("tournaments:unsubscribe", args=[unsubscribe_token(scope, pk)]))


def one_click_url(scope: str, pk: int) -> str:
    token = unsubscribe_token(scope, pk)
    return site_url(reverse("tournaments:unsubscribe_one_click", args=[token]))


def read_token(token: str) -> OptOut | None:
    """What the link ``token`` turns off; None for a link that was not made here (or was
    changed, or names something gone)."""
    try:
        data = signing.loads(token, salt=SALT)
        scope, pk = data["s"], int(data["id"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    if scope == ENTRANT:
        entrant = Entrant.objects.select_related("event").filter(pk=pk).first()
        if entrant is None:
            return None
        return OptOut(scope, pk, f"e-mail to {entrant.name} about {entrant.event.name}")
    if scope == DIRECTOR:
        row = EventDirector.objects.select_related("event", "user").filter(pk=pk).first()
        if row is None:
            return None
        return OptOut(scope, pk, f"e-mail to {row.user} about {row.event.name}")
    if scope == USER:
        user = get_user_model().objects.filter(pk=pk).first()
        if user is None:
            return None
        return OptOut(scope, pk, f"all e-mail from Arbiter to {user}")
    return None


def unsubscribe(token: str) -> OptOut | None:
    """Turn off what the link says (idempotent); None for a bad link."""
    found = read_token(token)
    if found is None:
        return None
    model: Any = {ENTRANT: Entrant, DIRECTOR: EventDirector, USER: get_user_model()}[found.scope]
    model.objects.filter(pk=found.pk).update(emails_off=True)
    return found


def set_player_emails(entrant: Entrant, *, event_on: bool, all_on: bool) -> None:
    """A player's own choice on their page: mail about this event, and mail at all."""
    with transaction.atomic():
        Entrant.objects.filter(pk=entrant.pk).update(emails_off=not event_on)
        if entrant.user_id is not None:
            get_user_model().objects.filter(pk=entrant.user_id).update(emails_off=not all_on)
