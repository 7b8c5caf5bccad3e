"""Who may do what. Every view calls one of these; templates only mirror them.

Roles (issue 3): an admin is a Django staff user; a director of an event has an
EventDirector row for it (the creator gets one); a player is a user linked to an entrant
(Entrant.user) through the entrant's claim code; anyone else is anonymous or a stranger.
A private event is a 404 to strangers (its existence does not leak); a visible thing the
user may not change is a 403.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, IntegerField, OuterRef, Value
from django.http import Http404
from django.utils import timezone

from tournaments.models import (
    Entrant,
    Event,
    EventDirector,
    Match,
    MatchParticipant,
    Round,
    Series,
    SeriesDirector,
)


def _signed_in(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def is_director(user: Any, event: Event) -> bool:
    if not _signed_in(user):
        return False
    if user.is_staff:
        return True
    if _roles_read_for(user, event):
        return bool(event.viewer_directs)  # type: ignore[attr-defined]
    return EventDirector.objects.filter(event=event, user=user).exists()


# The name the issue uses; one function decides.
can_direct = is_director


def is_head_director(user: Any, event: Event) -> bool:
    """Who settles two entries of a result that disagree (docs/double-entry.md): the
    event's creator while they direct it, and admins. When the creator no longer directs
    it (or nobody created it: a restored or imported event), every director is head."""
    if not is_director(user, event):
        return False
    if user.is_staff:
        return True
    creator = event.created_by_id
    if creator is not None and EventDirector.objects.filter(event=event, user_id=creator).exists():
        return bool(user.pk == creator)
    return True


def can_view(user: Any, event: Event) -> bool:
    if event.public:
        return True
    if not _signed_in(user):
        return False
    if is_director(user, event):
        return True
    if _roles_read_for(user, event):
        return bool(event.viewer_plays)  # type: ignore[attr-defined]
    return event.entrants.filter(user=user).exists()


def _roles_read_for(user: Any, event: Event) -> bool:
    """The event was read with this user's roles (_event_with_roles), not another's."""
    return bool(getattr(event, "viewer_id", None) == user.pk)


def _event_with_roles(user: Any, slug: str) -> Event | None:
    """The event and, for a signed-in user, whether they direct it or play in it, in one
    query. A private event and a missing one then cost a stranger the same work: with the
    roles asked only once the event was found, a private event answered its 404 measurably
    later than a missing one (issue 29 finding 3)."""
    events = Event.objects.filter(slug=slug)
    if _signed_in(user) and not user.is_staff:
        events = events.annotate(
            viewer_id=Value(user.pk, output_field=IntegerField()),
            viewer_directs=Exists(EventDirector.objects.filter(event=OuterRef("pk"), user=user)),
            viewer_plays=Exists(Entrant.objects.filter(event=OuterRef("pk"), user=user)),
        )
    return events.first()


def is_player_of(user: Any, entrant: Entrant) -> bool:
    """The user claimed this entrant (a director is not the entrant's player)."""
    return _signed_in(user) and entrant.user_id is not None and entrant.user_id == user.pk


def entrant_of(user: Any, event: Event) -> Entrant | None:
    """The entrant this user plays as in the event, if any."""
    if not _signed_in(user):
        return None
    return event.entrants.filter(user=user).first()


def can_report_for(user: Any, match: Match) -> bool:
    """Directors may report any match of their event; a player only their own match, and
    only while its round is published (not a draft nobody has seen, not a closed round)."""
    event = match.round.event
    if is_director(user, event):
        return True
    if not _signed_in(user) or match.round.status != Round.Status.PUBLISHED:
        return False
    return MatchParticipant.objects.filter(match=match, entrant__user=user).exists()


def require(allowed: bool, *, hide: bool = False) -> None:
    """Refuse unless allowed: a 404 when the thing must stay hidden (hide=True), else a 403."""
    if not allowed:
        if hide:
            raise Http404("Not found.")
        raise PermissionDenied


def event_for_viewer(user: Any, slug: str) -> Event:
    """The event if this user may see it; a private event is a 404 to others, not a 403,
    so its existence does not leak. The rest of the request reads times in the event's
    time zone (tournaments.middleware.EventTimeZoneMiddleware resets it after)."""
    event = _event_with_roles(user, slug)
    if event is None or not can_view(user, event):
        raise Http404("No such event.")
    activate_zone(event)
    return event


def event_for_director(user: Any, slug: str) -> Event:
    event = _event_with_roles(user, slug)
    if event is None or not is_director(user, event):
        raise Http404("No such event.")
    activate_zone(event)
    return event


def activate_zone(event: Event) -> None:
    """Times on this request's pages in the event's own zone (a bad stored zone: UTC)."""
    try:
        timezone.activate(zoneinfo.ZoneInfo(event.time_zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.activate(zoneinfo.ZoneInfo("UTC"))


def match_for_reporter(user: Any, slug: str, match_id: int) -> Match:
    """A match of a visible event the user may report; 404 if hidden, 403 if not theirs."""
    event = event_for_viewer(user, slug)
    match = (
        Match.objects.select_related("round__event")
        .filter(pk=match_id, round__event=event)
        .exclude(round__status=Round.Status.DRAFT)
        .first()
    )
    if match is None and is_director(user, event):
        match = (
            Match.objects.select_related("round__event")
            .filter(pk=match_id, round__event=event)
            .first()
        )
    if match is None:
        raise Http404("No such match.")
    require(can_report_for(user, match))
    return match


# --- series (issue 32) -------------------------------------------------------------------
# A series is public or private like an event; its directors (SeriesDirector rows, the
# creator gets one) and admins change it. A private series is a 404 to everyone else.


def is_series_director(user: Any, series: Series) -> bool:
    if not _signed_in(user):
        return False
    if user.is_staff:
        return True
    return SeriesDirector.objects.filter(series=series, user=user).exists()


def can_view_series(user: Any, series: Series) -> bool:
    return series.public or is_series_director(user, series)


def series_for_viewer(user: Any, slug: str) -> Series:
    series = Series.objects.filter(slug=slug).first()
    if series is None or not can_view_series(user, series):
        raise Http404("No such series.")
    return series


def series_for_director(user: Any, slug: str) -> Series:
    series = Series.objects.filter(slug=slug).first()
    if series is None or not is_series_director(user, series):
        raise Http404("No such series.")
    return series
