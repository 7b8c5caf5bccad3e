"""Embeds and the stream overlay (issue 30, step 5).

- ``standings_widget``: the top of the standings as a small page made to sit in another
  site's iframe (320-600 px wide), live like the public pages.
- ``standings_snippet``: the same table as a bare HTML fragment (no script, no class the
  host site must define, absolute links) for a site that includes it in its own page.
- ``overlay``: a page for streaming software (an OBS browser source, 1920 x 1080): a
  transparent background, the current round's pairings, the top of the table and the
  round's label in large outlined type, following the event's stream.
- ``embed_panel``: the public page that shows the codes to paste, with copy buttons and a
  live preview.

Only the widget, the snippet and the overlay may be framed by another site: each says so in
its own headers (X-Frame-Options left out, CSP ``frame-ancestors`` replaced); every other
page keeps refusing. Options come from the query string, so each set of options is its own
page in the page cache: built once per change of the event, a constant number of queries.
They need no cookie: nothing here posts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from csp.decorators import csp_replace
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from accounts.permissions import event_for_viewer
from tournaments import selectors
from tournaments.formats import ui_for
from tournaments.models import Event, Round
from tournaments.services.live import version_token
from tournaments.views.pagecache import cached_public_page
from tournaments.views.public import POLL_SECONDS, _page, _zone

WIDGET_ROWS, OVERLAY_ROWS, MAX_ROWS = 10, 8, 50
OVERLAY_BOARDS, MAX_BOARDS = 8, 40  # pairings of the current round shown on the overlay
COLUMNS = 2  # the score and the first tiebreak: the full page has every column
THEMES = ("light", "dark")
OVERLAY_PARTS = ("round", "pairings", "standings")
# Who may frame the embeddable pages: any site by default (a federation's, a club's);
# ARBITER_EMBED_FRAME_ANCESTORS narrows it (CSP source expressions).
FRAME_ANCESTORS = ["*"]


def framable(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Let other sites frame this view's pages, and only this view's."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        ancestors = getattr(settings, "ARBITER_EMBED_FRAME_ANCESTORS", FRAME_ANCESTORS)
        inner = csp_replace({"frame-ancestors": list(ancestors)})(view)
        return xframe_options_exempt(inner)(request, *args, **kwargs)

    return wrapper


def _number(request: HttpRequest, name: str, default: int, top: int) -> int:
    try:
        return max(1, min(top, int(request.GET.get(name, default))))
    except ValueError:
        return default


def _language(request: HttpRequest) -> str:
    """?lang=fr: the host site's language, whatever the viewer's browser says."""
    wanted = request.GET.get("lang", "")
    known = {code for code, _ in settings.LANGUAGES}
    return wanted if wanted in known else translation.get_language() or settings.LANGUAGE_CODE


def _table(tables: list[dict[str, Any]], key: str, rows: int) -> dict[str, Any] | None:
    """The asked table (?table=<key>, as the API names it), else the first, cut to its top
    rows and first columns."""
    table = next((t for t in tables if t["key"] == key), tables[0] if tables else None)
    if table is None:
        return None
    return {
        **table,
        "columns": table["columns"][:COLUMNS],
        "rows": [{**row, "cells": row["cells"][:COLUMNS]} for row in table["rows"][:rows]],
        "more": len(table["rows"]) > rows,
    }


def _absolute(name: str, slug: str) -> str:
    """An address for another site's page: the site's own (ARBITER_SITE_URL, as in mail),
    not the request's host, so a cached page is right whatever name it was asked by."""
    return settings.ARBITER_SITE_URL + reverse(f"tournaments:{name}", args=[slug])


def _base(event: Event, rounds: list[Round]) -> dict[str, Any]:
    hidden = ui_for(event).hides_results(event, rounds)
    return {
        "event": event,
        "rounds": rounds,
        "results_hidden": hidden,
        "version_token": version_token(event, len(rounds), hidden),
        "poll_seconds": getattr(settings, "ARBITER_POLL_SECONDS", POLL_SECONDS),
        "shared_page": True,  # nothing here posts: no CSRF token, no cookie
    }


def _render(
    request: HttpRequest, event: Event, page: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    with translation.override(context["lang"]), timezone.override(_zone(event)):
        template = f"{page}#{partial}" if getattr(request, "htmx", False) else page
        response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _standings_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    rounds = selectors.public_rounds(event)
    snapshot, tables = selectors.published_standings(event)
    rows = _number(request, "rows", WIDGET_ROWS, MAX_ROWS)
    return {
        **_base(event, rounds),
        "snapshot": snapshot,
        "table": _table(tables, request.GET.get("table", ""), rows),
        "lang": _language(request),
    }


@framable
@require_safe
@cached_public_page  # rebuilt once per change of the event (and set of options)
def standings_widget(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    context = _standings_context(request, event)
    theme = request.GET.get("theme", "")
    context.update(
        theme=theme if theme in THEMES else "light",
        compact=request.GET.get("compact") == "1",
        link=request.GET.get("link") != "0",
        full_url=reverse("tournaments:standings", args=[slug]),  # from the frame's own address
    )
    return _render(request, event, "tournaments/embed/widget.html", "widget", context)


@framable
@require_safe
@cached_public_page
def standings_snippet(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    context = _standings_context(request, event)
    context["full_url"] = _absolute("standings", slug)
    response = _render(request, event, "tournaments/embed/snippet.html", "snippet", context)
    response["Access-Control-Allow-Origin"] = "*"  # a site may fetch it to include it
    return response


def _pairings(rnd: Round, hidden: bool, boards: int) -> tuple[list[dict[str, Any]], int]:
    """The round's first matches (in their order) with their seats and, once in and not
    hidden, the result; and how many matches are left out. Reads prefetched matches
    (round_with_matches): no query."""
    matches = list(rnd.matches.all())
    found = []
    for match in matches[:boards]:
        result = match.result if match.result and not hidden else None
        found.append(
            {
                "match": match,
                "seats": list(match.participants.all()),
                "summary": result.get("summary", "") if result else "",
                "winner": result.get("winner") if result else None,
            }
        )
    return found, max(0, len(matches) - boards)


@framable
@require_safe
@cached_public_page
def overlay(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    context = _base(event, rounds)
    asked = request.GET.get("show", "")
    parts = [p for p in asked.split(",") if p in OVERLAY_PARTS] or list(OVERLAY_PARTS)
    try:
        scale = max(0.5, min(2.0, float(request.GET.get("scale", "1"))))
    except ValueError:
        scale = 1.0
    current = rounds[-1] if rounds else None
    if current is not None and "pairings" in parts:
        rnd = selectors.round_with_matches(event, current.number)
        assert rnd is not None  # a public round exists
        boards = _number(request, "boards", OVERLAY_BOARDS, MAX_BOARDS)
        context["pairings"], context["more_boards"] = _pairings(
            rnd, context["results_hidden"], boards
        )
    if "standings" in parts:
        snapshot, tables = selectors.published_standings(event)
        rows = _number(request, "rows", OVERLAY_ROWS, MAX_ROWS)
        context.update(snapshot=snapshot, table=_table(tables, request.GET.get("table", ""), rows))
    context.update(
        parts=parts,
        current=current,
        scale=f"{scale:.2f}",
        lang=_language(request),
    )
    return _render(request, event, "tournaments/embed/overlay.html", "overlay", context)


@require_safe
@cached_public_page
def embed_panel(request: HttpRequest, slug: str) -> HttpResponse:
    """The codes to paste: the iframe, the static table, the overlay's address, with their
    options chosen by a plain GET form, copy buttons and a live preview. Public events only
    (a private event's director would paste codes that answer 404)."""
    event = event_for_viewer(request.user, slug)
    if not event.public:
        raise Http404("Embeds are for public events.")
    rows = _number(request, "rows", WIDGET_ROWS, MAX_ROWS)
    theme = request.GET.get("theme", "")
    theme = theme if theme in THEMES else "light"
    standings = _standings_context(request, event)
    lang = standings["lang"]
    query = f"?rows={rows}&theme={theme}&lang={lang}"

    def absolute(name: str) -> str:
        return _absolute(name, slug)

    # the static table as the snippet's URL serves it, in the chosen language
    with translation.override(lang), timezone.override(_zone(event)):
        snippet_html = render_to_string(
            "tournaments/embed/snippet.html", {**standings, "full_url": absolute("standings")}
        ).strip()
    context = {
        "rounds": standings["rounds"],
        "rows": rows,
        "theme": theme,
        "lang": lang,
        "themes": THEMES,
        "languages": settings.LANGUAGES,
        "widget_src": absolute("embed_standings") + query,
        "preview_src": reverse("tournaments:embed_standings", args=[slug]) + query,
        "snippet_url": absolute("embed_snippet") + f"?rows={rows}&lang={lang}",
        "snippet_html": snippet_html,
        "overlay_url": absolute("overlay") + f"?lang={lang}",
        "overlay_parts": OVERLAY_PARTS,
        "overlay_rows": OVERLAY_ROWS,
        "overlay_boards": OVERLAY_BOARDS,
    }
    return _page(request, event, "tournaments/embed/panel.html", "panel", context)
