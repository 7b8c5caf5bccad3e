"""``{{ message|said }}``: an engine's message in the page's language (a builtin of every
template, config/settings.py)."""

from typing import Any

from django import template

from tournaments.words import sentence, subject

register = template.Library()


@register.filter
def said(message: Any) -> str:
    """A Reason, a Problem, or a message as a snapshot stored it."""
    return sentence(message)


@register.filter
def said_subject(text: str) -> str:
    """A subject with a label at its head ("Round 2, R2-T1: Ann - Bob"), the label said."""
    return subject(str(text or ""))
