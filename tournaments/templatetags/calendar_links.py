"""The subscribe links of the calendar feeds (tournaments/api/calendar_views.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django import template
from django.conf import settings
from django.urls import reverse

from tournaments.models import Event

register = template.Library()


@register.inclusion_tag("tournaments/_calendar_links.html")
def calendar_links(event: Event, number: int | None = None) -> dict[str, Any]:
    """A webcal:// address (a calendar app subscribes and keeps it current) and the file
    itself. Built from ARBITER_SITE_URL, not the request's host: the page is cached and
    shared by every visitor."""
    if number is None:
        path = reverse("api_event_calendar", args=[event.slug])
    else:
        path = reverse("api_entrant_calendar", args=[event.slug, number])
    site = urlsplit(settings.ARBITER_SITE_URL)
    return {
        "download": path,
        "webcal": f"webcal://{site.netloc}{path}",
        "filename": f"{event.slug}.ics" if number is None else f"{event.slug}-{number}.ics",
        "player": number is not None,
    }
