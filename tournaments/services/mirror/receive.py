"""The public copy's side (docs/venue.md, "Push", "Takeover", "Pull"): a push applied once,
in order, under the event's lock; the takeover that makes the copy the writer; the pull
that hands the event to a venue machine. Each bumps or checks the epoch, so that one
machine writes the event at any time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tournaments.models import Event, MirrorChange, MirrorLink, Round
from tournaments.models_venue import new_writer_id
from tournaments.services import audit, live, locking
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile import export_event
from tournaments.services.eventfile.importing import replace_event
from tournaments.services.eventfile.parts import apply_parts
from tournaments.services.mirror import outbox
from tournaments.services.mirror.outbox import _clock
from tournaments.views import pagecache

PROTOCOL = 1
MAX_CHANGES = 100_000


@dataclass(frozen=True)
class Outcome:
    status: int
    body: dict[str, Any] = field(default_factory=dict)


def _refuse(status: int, code: str, message: str, **more: Any) -> Outcome:
    return Outcome(status, {"code": code, "message": message, **more})


def _checked(payload: Any) -> tuple[dict[str, Any], str]:
    """The push's fields, or the first problem in words."""
    if not isinstance(payload, dict):
        return {}, _("The push is not a JSON object.")
    if payload.get("protocol") != PROTOCOL:
        return {}, _("protocol: must be %(n)s.") % {"n": PROTOCOL}
    for name in ("epoch", "base", "version"):
        value = payload.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return {}, _("%(name)s: must be a whole number, 0 or more.") % {"name": name}
    if payload["epoch"] < 1:
        return {}, _("epoch: must be 1 or more.")
    if payload["version"] <= payload["base"]:
        return {}, _("version: must be more than base.")
    writer = payload.get("writer")
    if not isinstance(writer, str) or not 1 <= len(writer) <= 40:
        return {}, _("writer: must be the venue's writer id.")
    changes = payload.get("changes")
    if not isinstance(changes, list) or len(changes) > MAX_CHANGES:
        return {}, _("changes: must be a list of the changes pushed.")
    for place, change in enumerate(changes):
        if (
            not isinstance(change, dict)
            or not isinstance(change.get("version"), int)
            or not isinstance(change.get("kind"), str)
            or parse_datetime(str(change.get("at", ""))) is None
        ):
            return {}, _("changes[%(n)s]: needs a version, a kind and a time.") % {"n": place}
    # the whole file, or the parts of it the changes touched (eventfile/parts.py)
    if isinstance(payload.get("file"), dict) == isinstance(payload.get("parts"), dict):
        return {}, _("file: must be the event file (or parts: the parts of it that changed).")
    return payload, ""


def _public_rounds(event_id: int) -> int:
    return Round.objects.filter(event_id=event_id).exclude(status=Round.Status.DRAFT).count()


def _stale(event: Event, link: MirrorLink) -> Outcome:
    """The refusal of a push from an earlier writer, with the copy's reason in words."""
    when = _clock(event, link.epoch_at)
    if link.epoch_reason == "pulled":
        message = _(
            "The event was pulled to another venue machine at %(time)s (epoch %(epoch)s): "
            "this machine no longer publishes it, and its changes since are not public."
        )
    else:
        message = _(
            "The event was taken over on the public copy at %(time)s (epoch %(epoch)s): "
            "this machine no longer publishes it, and its changes since are not public."
        )
    return _refuse(
        409,
        "stale_epoch",
        message % {"time": when or "-", "epoch": link.epoch},
        epoch=link.epoch,
        reason=link.epoch_reason or "taken_over",
        at=link.epoch_at.isoformat() if link.epoch_at else None,
    )


def apply_push(event_id: int, payload: Any, *, now: datetime | None = None) -> Outcome:
    """Apply a venue's push to the public copy of event ``event_id`` (the token already
    checked): once (a version already applied is a duplicate), in order (a gap answers the
    first missing version), from the current writer only (a stale epoch is refused with
    why). The file replaces the event's contents in one transaction; the live stream and
    the standings recompute follow the commit as for a local save."""
    now = now or timezone.now()
    push, problem = _checked(payload)
    if problem:
        return _refuse(422, "invalid_push", problem)
    kinds: set[str] = set()
    with transaction.atomic(), outbox.applying():
        event = locking.lock_event(event_id)
        link = MirrorLink.objects.select_for_update().filter(event_id=event_id).first()
        state = event.mirror_state
        if state in (outbox.VENUE, outbox.FENCED) or (state == "" and link is not None):
            return _refuse(
                409, "not_a_copy", _("This event is written on this machine: it is no copy.")
            )
        if link is not None and push["epoch"] < link.epoch:
            return _stale(event, link)
        if state == outbox.WRITER:
            return _stale(event, link) if link is not None else _refuse(409, "not_a_copy", "")
        if link is not None and (push["epoch"] > link.epoch or push["writer"] != link.writer):
            return _refuse(
                409,
                "other_writer",
                _(
                    "Another machine publishes this event (epoch %(epoch)s): "
                    "this one may not. Pull the event to make this machine its writer."
                )
                % {"epoch": link.epoch},
            )
        current = link.version if link is not None else 0
        if push["version"] <= current:
            return Outcome(200, {"status": "duplicate", "epoch": push["epoch"], "version": current})
        if push["base"] > current:
            return _refuse(
                409,
                "gap",
                _("Changes %(first)s to %(base)s never arrived: send from %(first)s.")
                % {"first": current + 1, "base": push["base"]},
                expected=current + 1,
                version=current,
            )
        epoch = push["epoch"]
        known = _last_file(event_id, epoch, current)
        file = push.get("file")
        if file is None:  # parts: laid over the copy's file at its own version
            if known is None:
                return _refuse(
                    409,
                    "base_missing",
                    _(
                        "This copy no longer has the event file at change %(version)s to "
                        "lay the changed parts over: send the whole file."
                    )
                    % {"version": current},
                    version=current,
                )
            try:
                file = apply_parts(known, push["parts"])
            except ValueError as error:
                return _refuse(422, "invalid_push", str(error))
        slug = (file.get("event") or {}).get("slug") if isinstance(file, dict) else None
        if slug != event.slug:
            return _refuse(
                422,
                "slug_mismatch",
                _("The file is the event '%(file)s'; this is '%(here)s'.")
                % {"file": slug, "here": event.slug},
            )
        shown = _public_rounds(event_id)
        try:
            replace_event(event, file, by=None, now=now, current=known)
        except ServiceError as error:
            transaction.set_rollback(True)
            return _refuse(422, "invalid_file", "; ".join(error.messages))
        if link is None:
            link = MirrorLink(event=event, writer=push["writer"], epoch=push["epoch"])
        new = [c for c in push["changes"] if current < c["version"] <= push["version"]]
        MirrorChange.objects.bulk_create(
            [
                MirrorChange(
                    event=event,
                    version=c["version"],
                    kind=c["kind"][:60],
                    at=parse_datetime(c["at"]) or now,
                )
                for c in new
            ],
            ignore_conflicts=True,
        )
        kinds = {c["kind"] for c in new}
        link.version = push["version"]
        link.save()
        Event.objects.filter(pk=event_id).update(mirror_state=outbox.COPY, mirrored_at=now)
        audit.log(
            event,
            "mirror.applied",
            actor=None,
            at=now,
            subject=event.slug,
            after={"epoch": push["epoch"], "base": push["base"], "version": push["version"]},
        )
        if "round.published" in kinds or _public_rounds(event_id) != shown:
            live.changed(event_id, live.ROUND_PUBLISHED)
        version = push["version"]
        transaction.on_commit(lambda: _keep_file(event_id, epoch, version, file, current))
    return Outcome(
        200,
        {
            "status": "applied",
            "epoch": push["epoch"],
            "version": push["version"],
            "applied_at": now.isoformat(),
        },
    )


# The copy's own file after a push is the pushed file (the import is lossless: the copy
# exports the same bytes), so the next push compares with it instead of exporting the copy
# again (an export costs as much as the event is large), and a push of parts is laid over
# it. Kept in the cache, shared by the server's processes, under the epoch and version it
# is the copy's file at, the previous version's dropped (one file per event); a miss
# (another version, a cache down or emptied) exports for the compare, and answers a push
# of parts with base_missing. A day: a venue quiet for hours still sends parts.
LAST_FILE_SECONDS = 24 * 3600


def _file_key(event_id: int, epoch: int, version: int) -> str:
    return f"mirror-file:{event_id}:{epoch}:{version}"


def _last_file(event_id: int, epoch: int, version: int) -> dict[str, Any] | None:
    found = pagecache.cache_call("get", _file_key(event_id, epoch, version))
    return found if isinstance(found, dict) else None


def _keep_file(
    event_id: int, epoch: int, version: int, file: dict[str, Any], replaces: int | None = None
) -> None:
    pagecache.cache_call("set", _file_key(event_id, epoch, version), file, LAST_FILE_SECONDS)
    if replaces is not None and replaces != version:
        pagecache.cache_call("delete", _file_key(event_id, epoch, replaces))


def take_over(event: Event, *, by: Any, now: datetime | None = None) -> MirrorLink:
    """ "Take over here" on the public copy: one epoch more, the copy becomes the writer at
    the last version it received, and the venue's next push is refused as stale."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = locking.lock_event(event)
        link = MirrorLink.objects.select_for_update().filter(event_id=event.pk).first()
        if locked.mirror_state != outbox.COPY or link is None:
            raise ServiceError(_("Only a public copy of a venue's event can be taken over."))
        link.epoch += 1
        link.writer = new_writer_id()
        link.epoch_reason = "taken_over"
        link.epoch_at = now
        link.save()
        Event.objects.filter(pk=event.pk).update(mirror_state=outbox.WRITER)
        audit.log(
            locked,
            "mirror.taken_over",
            actor=by,
            at=now,
            subject=locked.slug,
            after={"epoch": link.epoch, "version": link.version},
        )
    event.mirror_state = outbox.WRITER
    return link


def pull(event_id: int, payload: Any, *, now: datetime | None = None) -> Outcome:
    """Hand the event to the machine that pulls it: one epoch more, its writer id recorded,
    this copy read-only again; the answer is the event file with its epoch and version."""
    now = now or timezone.now()
    writer = payload.get("writer") if isinstance(payload, dict) else None
    if not isinstance(writer, str) or not 1 <= len(writer) <= 40:
        return _refuse(422, "invalid_push", _("writer: must be the puller's writer id."))
    with transaction.atomic(), outbox.applying():
        event = locking.lock_event(event_id)
        if event.mirror_state in (outbox.VENUE, outbox.FENCED):
            return _refuse(
                409, "not_a_copy", _("This event is written on a venue machine: pull it there.")
            )
        link = MirrorLink.objects.select_for_update().filter(event_id=event_id).first()
        if link is None:
            # a plain event handed to a venue machine: its changes so far are one version
            link = MirrorLink(event=event, epoch=0, version=1)
        link.epoch += 1
        link.writer = writer
        link.epoch_reason = "pulled"
        link.epoch_at = now
        link.save()
        Event.objects.filter(pk=event_id).update(mirror_state=outbox.COPY, mirrored_at=now)
        audit.log(
            event,
            "mirror.pulled",
            actor=None,
            at=now,
            subject=event.slug,
            after={"epoch": link.epoch, "version": link.version, "writer": writer},
        )
        file = export_event(event)
        # the puller's first push may be of parts, laid over this file
        epoch, version = link.epoch, link.version
        transaction.on_commit(lambda: _keep_file(event_id, epoch, version, file))
    return Outcome(
        200, {"epoch": link.epoch, "version": link.version, "writer": writer, "file": file}
    )
