"""Template tags for the format extension point (tournaments/formats/)."""

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django_stubs_ext import StrOrPromise

from tournaments import audit_words
from tournaments.endings import ending_notes
from tournaments.formats import ui_for
from tournaments.models import Entrant, Event, Match
from tournaments.words import label

register = template.Library()


@register.simple_tag
def format_links(event: Event, director: bool = False) -> list[tuple[Any, str]]:
    """The format's own pages for the event's navigation: [(label, url), ...]."""
    ui = ui_for(event)
    return ui.director_links(event) if director else ui.public_links(event)


@register.simple_tag
def player_links(event: Event, user: Any) -> list[tuple[Any, str]]:
    """The pages a player acts on (GokoDom's "My match"), for a player of the event only:
    a director or a visitor with no match there is not offered one."""
    from accounts.permissions import entrant_of

    if not getattr(user, "is_authenticated", False) or entrant_of(user, event) is None:
        return []
    return ui_for(event).player_links(event)


@register.simple_tag
def check_in_offered(event: Event) -> bool:
    """Whether the format has a check-in before each round (a bot contest has none)."""
    return ui_for(event).check_in


@register.simple_tag
def withdraw_url(event: Event, entrant: Entrant) -> str | None:
    """The format's own withdrawal screen for this entrant, or None for the generic one."""
    return ui_for(event).withdraw_url(event, entrant)


@register.simple_tag
def row_explanation(event: Event, row: Any) -> str:
    """How the row's tiebreak value is built, in one sentence (or "")."""
    return ui_for(event).row_explanation(row)


@register.simple_tag
def match_notes(event: Event, match: Match) -> list[str]:
    """The public notes on a match: forfeits and resignations, then the format's own
    (colours, choices)."""
    return ending_notes(match) + ui_for(event).match_notes(match)


STATUS_LABELS = {
    "withdrawn": _("withdrawn"),
    "removed": _("removed"),
    "qualified": _("qualified"),
    "eliminated": _("eliminated"),
    "champion": _("champion"),
    "virtual": _("virtual opponent"),
    "playoff_loser": _("lost the playoff"),
    "tiebreaker": _("tiebreaker game to play"),
    # a bot contest entrant's bracket (rules/formats/bot_contest)
    "winners": pgettext_lazy("bracket", "winners"),
    "losers": pgettext_lazy("bracket", "losers"),
}


@register.filter
def action_text(action: str) -> str:
    """An audit action code ("round.published") in words."""
    return audit_words.action_text(action)


@register.filter
def audit_subject(entry: Any) -> str:
    """What an audit entry is about, in words."""
    return audit_words.subject_text(entry.action, entry.subject, entry.after)


# A seat's role as the engines name it (rules/contract.py Participant.role), in words; a
# letter (A, B, X, O) reads the same in every language and passes through.
ROLE_WORDS = {
    "black": pgettext_lazy("seat", "black"),
    "white": pgettext_lazy("seat", "white"),
    "red": pgettext_lazy("seat", "red"),
    "blue": pgettext_lazy("seat", "blue"),
}


@register.filter
def role_label(role: str) -> StrOrPromise:
    """A seat's role ("black") in the page's language."""
    return ROLE_WORDS.get(role, role)


@register.filter
def status_label(status: str) -> StrOrPromise:
    """A standings row's status code ("playoff_loser") in words."""
    return STATUS_LABELS.get(status, str(status).replace("_", " "))


@register.filter
def cell(value: Any) -> Any:
    """A standings cell: a status code or a label from rules/ said in the page's language;
    a number is left to the template (it is localised there)."""
    if not isinstance(value, str):
        return value
    found = STATUS_LABELS.get(value)
    return found if found is not None else label(value)
