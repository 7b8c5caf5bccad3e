"""The venue's set-up (docs/venue.md, "Configuring the venue" and "Pull"): link an event to
its public copy, stop publishing, or pull an event from its public copy and become its
writer."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import Problem
from tournaments.models import Event, EventDirector, MirrorChange, MirrorLink
from tournaments.models_venue import new_writer_id
from tournaments.services import audit, locking
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile import import_event
from tournaments.services.eventfile.importing import replace_event
from tournaments.services.mirror import outbox, push

TOKEN_PREFIX = "arb_"


def _checked(public_url: str, token: str) -> tuple[str, str]:
    problems = []
    url = (public_url or "").strip()
    try:
        push.split_public_url(url)
    except ValueError as error:
        problems.append(Problem("error", "public_url", str(error)))
    token = (token or "").strip()
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        problems.append(
            Problem(
                "error",
                "token",
                _("Paste the mirror token made on the public copy's API tokens screen (arb_...)."),
            )
        )
    if problems:
        raise ServiceError(problems)
    return url, token


def configure(
    event: Event, *, public_url: str, token: str, by: Any, now: datetime | None = None
) -> MirrorLink:
    """Publish ``event`` from this machine to its public copy at ``public_url`` with the
    mirror ``token``. A new link starts at epoch 1 with a new writer id, and its first
    change (the whole event) waits to be pushed; an existing link keeps its versions and
    takes the new address and token."""
    now = now or timezone.now()
    url, token = _checked(public_url, token)
    with transaction.atomic():
        locked = locking.lock_event(event)
        link = MirrorLink.objects.select_for_update().filter(event_id=event.pk).first()
        if locked.mirror_state in (outbox.COPY, outbox.WRITER, outbox.FENCED):
            raise ServiceError(
                outbox.refusal(locked)
                or _("This event is the public copy's: it cannot publish to another copy.")
            )
        if link is None:
            link = MirrorLink(event=locked, public_url=url)
            link.set_token(token)
            link.save()
            Event.objects.filter(pk=event.pk).update(mirror_state=outbox.VENUE)
            locked.mirror_state = outbox.VENUE
            audit.log(locked, "mirror.linked", actor=by, at=now, subject=url)
            outbox.record(locked, "event.linked", at=now)  # the first push: the whole event
        else:
            link.public_url = url
            link.set_token(token)
            link.retry_at, link.failures = None, 0
            link.save(
                update_fields=["public_url", "sealed_token", "retry_at", "failures", "updated_at"]
            )
            audit.log(locked, "mirror.relinked", actor=by, at=now, subject=url)
    event.mirror_state = outbox.VENUE
    return link


def stop(event: Event, *, by: Any, now: datetime | None = None) -> None:
    """Stop publishing ``event`` from this machine: a plain event again, the queue dropped.
    (A fenced venue's event becomes a plain event too: a local copy nobody publishes.)"""
    now = now or timezone.now()
    with transaction.atomic():
        locked = locking.lock_event(event)
        if locked.mirror_state not in (outbox.VENUE, outbox.FENCED):
            raise ServiceError(_("This event is not published from this machine."))
        MirrorChange.objects.filter(event_id=event.pk).delete()
        MirrorLink.objects.filter(event_id=event.pk).delete()
        Event.objects.filter(pk=event.pk).update(mirror_state="")
        audit.log(locked, "mirror.stopped", actor=by, at=now, subject=locked.slug)
    event.mirror_state = ""


def pull_event(
    public_url: str,
    token: str,
    *,
    replace: bool = False,
    director: Any = None,
    now: datetime | None = None,
) -> Event:
    """Pull the event from its public copy and become its writer (docs/venue.md, "Pull"):
    the copy moves to a new epoch with this machine's writer id and answers the event file;
    the event is made here (or replaces this machine's event of that slug, with
    ``replace``) and linked as the venue at that epoch and version."""
    now = now or timezone.now()
    url, token = _checked(public_url, token)
    _base, slug = push.split_public_url(url)
    existing = Event.objects.filter(slug=slug).first()
    if existing is not None and not replace:
        raise ServiceError(
            _(
                "An event '%(slug)s' is already on this machine: pull with --replace to "
                "replace it by the public copy's."
            )
            % {"slug": slug}
        )
    writer = new_writer_id()
    answer = push.post(push.endpoint(url, "pull"), token, {"protocol": 1, "writer": writer})
    body = answer.body
    if answer.status != 200 or not isinstance(body.get("file"), dict):
        said = answer.error or str(body.get("message") or "") or f"HTTP {answer.status}"
        raise ServiceError(
            _("The public copy did not hand the event over: %(why)s") % {"why": said}
        )
    epoch, version = int(body["epoch"]), int(body["version"])
    with transaction.atomic(), outbox.applying():
        if existing is not None:
            event = locking.lock_event(existing)
            replace_event(event, body["file"], by=None, now=now)
            MirrorChange.objects.filter(event=event).delete()
            MirrorLink.objects.filter(event=event).delete()
        else:
            event = import_event(body["file"], by=None, now=now)
        if director is not None:
            EventDirector.objects.get_or_create(event=event, user=director)
        link = MirrorLink(
            event=event,
            public_url=url,
            writer=writer,
            epoch=epoch,
            version=version,
            acked_version=version,
            last_sent_at=now,
        )
        link.set_token(token)
        link.save()
        Event.objects.filter(pk=event.pk).update(mirror_state=outbox.VENUE, mirrored_at=None)
        event.mirror_state = outbox.VENUE
        audit.log(
            event,
            "mirror.pulled_here",
            actor=director,
            at=now,
            subject=url,
            after={"epoch": epoch, "version": version},
        )
    return event
