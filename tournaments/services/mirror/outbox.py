"""The mirror's outbox (docs/venue.md, "The outbox"): one MirrorChange row per change of
a mirrored event, in the transaction of the change, numbered by the event's link under its
row lock; and the refusal of any change to an event this machine does not write.

Called from the two writers every change goes through: audit.log (every change other than
a result) and standings.results_changed (every change of results). Imports only models and
errors: those two modules import it.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterable, Iterator
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Event, MirrorChange, MirrorLink, Round
from tournaments.services.errors import ServiceError
from tournaments.signals import mirror_changed

VENUE = "venue"
COPY = "copy"
WRITER = "writer"
FENCED = "fenced"
# states that count their changes (a writer); a venue also pushes them
COUNTED = frozenset({VENUE, WRITER})
READ_ONLY = frozenset({COPY, FENCED})

# Actions that change nothing the event file holds and stay allowed on a read-only copy:
# its tokens (the mirror token is made there), its webhooks, the mirror's own steps,
# reports and players' claims of the copy.
LOCAL_ACTIONS = ("api_token.", "webhook.", "mirror.", "rating_report.", "entrant.claimed")


class ReadOnlyEvent(ServiceError):
    """A change refused because this machine does not write the event (a public copy, or a
    fenced venue); the message says where the event is run."""


_applying: contextvars.ContextVar[bool] = contextvars.ContextVar("mirror_applying", default=False)


@contextlib.contextmanager
def applying() -> Iterator[None]:
    """Inside: the public copy applies a push (or a pull imports the event), so writes to a
    read-only event are the mirror's own and are not counted as changes."""
    token = _applying.set(True)
    try:
        yield
    finally:
        _applying.reset(token)


def is_applying() -> bool:
    return _applying.get()


WHOLE = "*"  # a change's parts: the whole event file
_PARTS_LENGTH = 200  # MirrorChange.parts

_touching: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar(
    "mirror_touching", default=None
)


@contextlib.contextmanager
def touching(*parts: str, rounds: Iterable[int] = ()) -> Iterator[None]:
    """Inside: the changes recorded touch only these parts of the event file (its header
    aside, which every push carries): "teams", "stages", "entrants", "draws" and the rounds
    numbered ``rounds`` (eventfile/parts.py). A change recorded outside any ``touching``
    is taken to touch the whole file, so a service that does not say what it touches is
    pushed whole: slower, never wrong. Nested, the parts add up."""
    mine = frozenset(parts) | {f"r{number}" for number in rounds}
    outer = _touching.get()
    token = _touching.set(mine if outer is None else outer | mine)
    try:
        yield
    finally:
        _touching.reset(token)


def _parts(event: Event, matches: Iterable[int]) -> str:
    """The parts a change being recorded touches, as MirrorChange.parts keeps them."""
    said = _touching.get()
    ids = list(matches)
    if said is None and not ids:
        return WHOLE
    found = set(said or ())
    if ids:  # a result change: the rounds of its matches (standings.results_changed)
        numbers = Round.objects.filter(event_id=event.pk, matches__pk__in=ids).values_list(
            "number", flat=True
        )
        found |= {f"r{number}" for number in numbers}
    text = " ".join(sorted(found))
    return text if len(text) <= _PARTS_LENGTH else WHOLE


def refusal(event: Event) -> str:
    """Why this machine may not change ``event``, in words; "" when it may."""
    state = event.mirror_state
    if state == COPY:
        link = MirrorLink.objects.filter(event_id=event.pk).first()
        when = _clock(event, link.epoch_at if link else None) or _clock(event, event.mirrored_at)
        if link is not None and link.epoch_reason == "pulled":
            return _(
                "This event is run at the venue (it was pulled to a venue machine at %(time)s): "
                "this is its public copy. Changes are made there."
            ) % {"time": when}
        return _(
            "This event is run at the venue: this is its public copy, updated from the venue "
            "at %(time)s. Changes are made there."
        ) % {"time": _clock(event, event.mirrored_at) or "-"}
    if state == FENCED:
        link = MirrorLink.objects.filter(event_id=event.pk).first()
        said = link.refused if link is not None else ""
        return _("This machine no longer changes this event. %(why)s") % {"why": said}
    return ""


def _clock(event: Event, at: datetime | None) -> str:
    if at is None:
        return ""
    import zoneinfo

    try:
        zone = zoneinfo.ZoneInfo(event.time_zone)
    except Exception:
        zone = zoneinfo.ZoneInfo("UTC")
    return at.astimezone(zone).strftime("%H:%M")


def record(
    event: Event, kind: str, *, at: datetime | None = None, matches: Iterable[int] = ()
) -> int | None:
    """Call inside the transaction of a change of ``event``: on a writer, its next version
    with its outbox row (the pusher woken after the commit); on a read-only copy, refused
    (ServiceError), unless the mirror itself is applying or ``kind`` changes nothing the
    event file holds. None on a plain event. ``matches``: the change is these matches'
    results alone (their rounds are the parts it touches; see ``touching``)."""
    state = event.mirror_state
    if not state or is_applying():
        return None
    if state in READ_ONLY:
        if kind.startswith(LOCAL_ACTIONS):
            return None
        raise ReadOnlyEvent(refusal(event))
    if state not in COUNTED or kind.startswith(LOCAL_ACTIONS):
        return None
    at = at or timezone.now()
    # the update locks the link's row until the commit: versions commit in their order
    if not MirrorLink.objects.filter(event_id=event.pk).update(version=F("version") + 1):
        return None
    version = MirrorLink.objects.values_list("version", flat=True).get(event_id=event.pk)
    MirrorChange.objects.create(
        event_id=event.pk, version=version, kind=kind[:60], at=at, parts=_parts(event, matches)
    )
    if state == VENUE:
        event_id = event.pk
        transaction.on_commit(lambda: mirror_changed.send(sender=Event, event_id=event_id))
    return version
