"""``{{ message|said }}``: an engine's message in the page's language (a builtin of every
template, config/settings.py)."""

from typing import Any

from django import template

from tournaments.words import sentence

register = template.Library()


@register.filter
def said(message: Any) -> str:
    """A Reason, a Problem, or a message as a snapshot stored it."""
    return sentence(message)
