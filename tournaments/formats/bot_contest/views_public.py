"""The bot contest's public pages: boards per round, the gauntlet table, both brackets drawn
as brackets, the final crosstable. Thin: permission, one read, render."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from accounts.permissions import event_for_viewer
from tournaments.formats.bot_contest import pages
from tournaments.models import Event
from tournaments.views.public import _page

TEMPLATES = "tournaments/formats/bot_contest/"


def _event(request: HttpRequest, slug: str) -> Event:
    event = event_for_viewer(request.user, slug)
    if event.format != "bot_contest":
        raise Http404("Not a bot contest.")
    return event


@require_safe
def boards(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    context = {"boards": pages.boards(event), "tab": "boards"}
    return _page(request, event, TEMPLATES + "boards.html", "contest", context)


@require_safe
def gauntlet(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    context = {"gauntlet": pages.gauntlet(event), "tab": "gauntlet"}
    return _page(request, event, TEMPLATES + "gauntlet.html", "contest", context)


@require_safe
def brackets(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    context = {"drawn": pages.brackets(event), "tab": "brackets"}
    return _page(request, event, TEMPLATES + "brackets.html", "contest", context)


@require_safe
def final(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    context = {"final": pages.final(event), "tab": "final"}
    return _page(request, event, TEMPLATES + "final.html", "contest", context)
