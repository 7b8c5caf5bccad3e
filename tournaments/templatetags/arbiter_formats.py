"""Template tags for the format extension point (tournaments/formats/)."""

from django import template

from tournaments.formats import ui_for

register = template.Library()


@register.simple_tag
def format_links(event, director=False):
    """The format's own pages for the event's navigation: [(label, url), ...]."""
    ui = ui_for(event)
    return ui.director_links(event) if director else ui.public_links(event)


@register.simple_tag
def withdraw_url(event, entrant):
    """The format's own withdrawal screen for this entrant, or None for the generic one."""
    return ui_for(event).withdraw_url(event, entrant)
