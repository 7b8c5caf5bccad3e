"""The venue mode's line on every director page of a mirrored event (docs/venue.md, "The
desk's line"): what waits to be published and when the last push went, or where the event
is run when this machine does not write it. One query, and none for a plain event."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Event, MirrorLink

register = template.Library()


@register.inclusion_tag("tournaments/manage/_mirror_banner.html")
def mirror_banner(event: Event) -> dict[str, Any]:
    link = None
    if event.mirror_state:
        link = MirrorLink.objects.filter(event_id=event.pk).first()
    return {"event": event, "link": link, "state": event.mirror_state}
