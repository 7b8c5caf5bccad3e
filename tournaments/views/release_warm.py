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
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils import timezone, translation

from accounts.permissions import activate_zone
from tournaments import selectors
from tournaments.models import Event, Round
from tournaments.views import entrant_book

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


def _read_in(event: Event, rounds: list[Round], read: Read) -> list[str]:
    """The site's languages in which ``read`` finds the event read (the page's first), or
    the site's own language when it is read in none (a first release, an empty cache)."""
    found = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            if read(event, rounds):
                found.append(language)
    return found or [settings.LANGUAGE_CODE]
