"""What a round's release is about to be asked for, built by its task after the commit.

Within seconds of a release the players of a hall open their own entrant page and the new
round through the API: hundreds of requests, none cached yet. The first ones used to wait
for the entrant book's matches part (0.3 to 0.4 s for 3,000 matches on a quiet machine)
while holding the web workers (docs/performance.md, "A round release"). The release's task
(tournaments/tasks.py, warm_release) builds the book and the API's answer for the round,
in each language the event is being read in (the page's first), and no other: a language
is read when its book of the version before the release is kept or stored (in a hall the
players read their pages during the round), else the site's own language alone. A book
added to is the released round's matches (tens of milliseconds), a book built whole every
round's (a second at 1,000 entrants): built for a language nobody reads, it took the one
worker and the web workers' cores in the release's first second (docs/performance.md).
Its first visitor builds it, and the others wait for that build. A visitor that comes
during any build waits for it, as for another visitor's build. Only an optimisation: the
pages build what is missing themselves.

The crowd comes at the commit, before the worker picks the task up: what it asks for
first (the released round added to the book, the round's API answer, then the placings
of the standings that follow) is built inside the transactions that make those versions
and stored at their commits (``at_release``, ``at_standings`` below); the tasks then find
them stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation

from accounts.permissions import activate_zone
from tournaments import selectors
from tournaments.models import Event, Round
from tournaments.views import entrant_book, pagecache

Read = Callable[[Event, list[Round]], bool]


def after_release(event_id: int, round_id: int, version: int) -> None:
    """The entrant book and the API round of the round ``round_id`` just released, stored
    unless already there (for the event's current versions: ``version``, the one the
    release made, is the logs' and the task's name for it)."""
    from tournaments.api.main import store_round

    event = Event.objects.filter(pk=event_id, public=True).first()
    released = Round.objects.filter(pk=round_id, event_id=event_id).first()
    if event is None or released is None:
        return
    rounds = selectors.public_rounds(event)
    for language in _read_in(event, rounds, entrant_book.read_before_release):
        with translation.override(language):
            activate_zone(event)
            try:
                entrant_book.warm(event)
                store_round(event.slug, released.number)
            finally:
                timezone.deactivate()


def after_standings(event_id: int) -> None:
    """After the standings of a release (or their outlook): the entrant book's placings
    of the event's newest standings, and the API's answer for its newest public round (its
    key holds the standings' versions too: the one stored at the release is not the one
    asked for after them). Nothing after a result's standings."""
    from tournaments.api.main import store_round
    from tournaments.services.rounds import released

    event = Event.objects.filter(pk=event_id, public=True).first()
    if event is None:
        return
    if released(event.pk, event.results_version) is None:
        # A result's standings, not a release's: no crowd is about to ask for every
        # entrant at once, and at 10,000 entrants this warming is seconds of the worker
        # that the next result's standings would wait for (docs/performance.md).
        return
    rounds = selectors.public_rounds(event)
    for language in _read_in(event, rounds, entrant_book.read_now):
        with translation.override(language):
            activate_zone(event)
            try:
                entrant_book.warm_placings(event, rounds)
                if rounds:
                    store_round(event.slug, rounds[-1].number)
            finally:
                timezone.deactivate()


# -- inside the transaction, stored at its commit (tournaments/signals.py) ----------------
#
# The crowd comes at the release's commit, before the worker picks up the release's task:
# its first visitor built the released round's part (75 to 90 ms of CPU, half a second of
# wall time beside the others) while every other visitor waited, and again the new
# placings after the standings. So the release's transaction builds the released round's
# part and the round's API answer, and the transactions of its standings and their
# outlook build the new placings; each claims its keys and stores them at its commit,
# before the commit moves the event's stamp: no visitor builds them. The tasks above then
# find them stored (and build what these leave: a book read whole, a language first read).


def at_release(event: Event, rnd: Round, **ignored: Any) -> Callable[[], None] | None:
    """Inside the release of ``rnd`` (services/rounds.py, publish_round, its writes done):
    in each language the event is read in, the released round added to the entrant book
    of the version before (when it is there) and the round's API answer, built and claimed;
    answers what stores them at the commit. Never for a private event or a round the format
    does not show yet."""
    from tournaments.api.caching import Prepared, put
    from tournaments.api.main import prepare_round

    if not settings.ARBITER_PAGE_CACHE or not event.public:
        return None
    if rnd.matches.count() > settings.ARBITER_RELEASE_BUILD_MATCHES:
        # a field of thousands: seconds more of the director's publish, with the event's
        # row locked; its task builds them right after the commit instead
        return None
    with transaction.atomic():  # (a failure leaves the release's transaction as it was)
        version = pagecache.version_at_commit(event.pk)
        rounds = selectors.public_rounds(event)
        if version is None or not rounds or rounds[-1].pk != rnd.pk:
            return None
        parts: list[entrant_book.Prepared | None] = []
        answers: list[Prepared | None] = []

        def read(event: Event, rounds: list[Round]) -> bool:
            return entrant_book.read_before_release(event, rounds, version)

        try:
            for language in _read_in(event, rounds, read):
                with _speaking(event, language):
                    parts.append(entrant_book.release_part(event, rounds, version))
                    answers.append(prepare_round(event.slug, rnd.number, version))
        except BaseException:
            _unclaim([*parts, *answers])
            raise

    def store() -> None:
        for part in parts:
            if part is not None:
                entrant_book.store(part)
        for answer in answers:
            if answer is not None:
                put(answer)

    return store


def at_standings(event_id: int, version: int, **ignored: Any) -> Callable[[], None] | None:
    """Inside the transaction that publishes the standings of results version ``version``
    or their outlook (services/standings.py, its writes done): after a release only, the
    entrant book's new placings in each language the book is read in, built and claimed;
    answers what stores them at the commit. Nothing after a result's standings (as
    ``after_standings``)."""
    from tournaments.services.rounds import released

    if not settings.ARBITER_PAGE_CACHE or released(event_id, version) is None:
        return None
    with transaction.atomic():
        event = Event.objects.filter(pk=event_id, public=True).first()
        stamp = pagecache.version_at_commit(event_id)
        if event is None or stamp is None:
            return None
        rounds = selectors.public_rounds(event)
        parts: list[entrant_book.Prepared | None] = []

        def read(event: Event, rounds: list[Round]) -> bool:
            return entrant_book.read_now(event, rounds, stamp)

        try:
            for language in _read_in(event, rounds, read):
                with _speaking(event, language):
                    parts.append(entrant_book.placings_part(event, rounds, stamp))
        except BaseException:
            _unclaim(parts)
            raise

    def store() -> None:
        for part in parts:
            if part is not None:
                entrant_book.store(part)

    return store


def _unclaim(made: list[Any]) -> None:
    """The claims of what was built before a failure, let go (the visitors build it)."""
    for found in made:
        if found is not None:
            pagecache.let_go(found[0])


@contextmanager
def _speaking(event: Event, language: str) -> Iterator[None]:
    """``language`` and the event's zone, and back to the caller's after (a director's
    request publishes)."""
    with translation.override(language), timezone.override(None):
        activate_zone(event)
        yield


def _read_in(event: Event, rounds: list[Round], read: Read) -> list[str]:
    """The site's languages in which ``read`` finds the event read (the page's first), or
    the site's own language when it is read in none (a first release, an empty cache)."""
    found = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            if read(event, rounds):
                found.append(language)
    return found or [settings.LANGUAGE_CODE]
