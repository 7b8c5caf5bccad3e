"""Who may do what. Every view calls one of these; templates only mirror them."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from tournaments.models import Event, EventDirector


def is_director(user: Any, event: Event) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return EventDirector.objects.filter(event=event, user=user).exists()


def can_view(user: Any, event: Event) -> bool:
    if event.public:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return is_director(user, event) or event.entrants.filter(user=user).exists()


def event_for_viewer(user: Any, slug: str) -> Event:
    """The event if this user may see it; a private event is a 404 to others, not a 403,
    so its existence does not leak."""
    event = Event.objects.filter(slug=slug).first()
    if event is None or not can_view(user, event):
        raise Http404("No such event.")
    return event


def event_for_director(user: Any, slug: str) -> Event:
    event = Event.objects.filter(slug=slug).first()
    if event is None or not is_director(user, event):
        raise Http404("No such event.")
    return event
