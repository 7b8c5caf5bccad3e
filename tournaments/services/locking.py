"""Row locks for writes, taken in one order everywhere: the event, then the match.

Two writers that lock the same rows in two orders can each hold the row the other waits
for: PostgreSQL then kills one of them as a deadlock. So every service that changes an
event's results locks the event row first (it serialises the event's writes, and the
results version lives on it) and only then the match it changes. A round or an entrant,
when a service locks one too, comes after the event; nothing locks a match and then the
event. Call these inside ``transaction.atomic()``: a lock lasts until the commit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction
from django.utils.translation import gettext as _
from django_stubs_ext import StrOrPromise

from tournaments.match_reads import with_seats_and_games
from tournaments.models import Event, Match
from tournaments.services.errors import ServiceError


def lock_event(event: Event | int, *, format: str = "", refusal: StrOrPromise = "") -> Event:
    """The event's row, locked and read afresh. With ``format``, an event of another
    format is refused with ``refusal`` ("a bot contest": "X is not a bot contest.")."""
    pk = event.pk if isinstance(event, Event) else event
    locked = Event.objects.select_for_update().get(pk=pk)
    if format and locked.format != format:
        raise ServiceError(
            _("%(event)s is not %(kind)s.") % {"event": locked.name, "kind": refusal or format}
        )
    return locked


def lock_match(match: Match, *, seats: bool = False) -> tuple[Event, Match]:
    """The match's event, then the match, both locked and read afresh (the match with its
    round, and with ``seats`` its seats' entrants and its games)."""
    # One query finds and locks the event from the match alone (OF: only the event row is
    # locked, not the round and match the join reads).
    event = Event.objects.select_for_update(of=("self",)).get(rounds__matches=match.pk)
    rows = Match.objects.select_for_update(of=("self",)).select_related("round")
    if seats:
        rows = with_seats_and_games(rows)
    locked = rows.get(pk=match.pk)
    locked.round.event = event  # the locked row, so nobody reads a stale copy of it
    return event, locked


@contextmanager
def read_snapshot() -> Iterator[None]:
    """Reads that must see the database at one instant (an event loaded in several
    queries while desks save): one REPEATABLE READ transaction on PostgreSQL. Inside a
    caller's transaction its snapshot rules; SQLite's reads see one state per transaction
    only when they hold the write lock, which a reader must not take, so they run as they are."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield
