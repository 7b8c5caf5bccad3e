"""Projector pages: a round as a "find your table" list and the top of the standings, in big
type for a screen in the playing hall. They scroll by themselves (static/arbiter/
projector.js) and refresh themselves as the public pages do (the version poll swaps the
main partial). Visible exactly when the round page and the standings page are: the same
event check, the same public rounds (a format that hides rounds for a while hides them
here too), a fixed number of queries whatever the event's size.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from accounts.permissions import event_for_viewer
from tournaments import selectors
from tournaments.formats import ui_for
from tournaments.models import Event, Round
from tournaments.services.live import version_token
from tournaments.views.pagecache import PLACEHOLDER, building_for_cache, cached_public_page
from tournaments.views.public import POLL_SECONDS

TOP_ROWS = 30  # of each standings table: a projector shows the top, the page has the rest
COLUMNS = 4  # the score and the first tiebreaks; the standings page has every column
# How long the list rests at its top and bottom, or shows each screenful when the viewer's
# system asks for reduced motion (then it turns pages instead of scrolling).
PAUSE_SECONDS = 6


def _render(
    request: HttpRequest, event: Event, rounds: list[Round], page: str, context: dict[str, Any]
) -> HttpResponse:
    hidden = ui_for(event).hides_results(event, rounds)
    context.update(
        event=event,
        rounds=rounds,
        results_hidden=hidden,
        version_token=version_token(event, len(rounds), hidden),
        poll_seconds=getattr(settings, "ARBITER_POLL_SECONDS", POLL_SECONDS),
        pause_seconds=getattr(settings, "ARBITER_PROJECTOR_PAUSE_SECONDS", PAUSE_SECONDS),
    )
    if building_for_cache(request):  # each visitor's own token goes in when it is served
        context["csrf_token"] = PLACEHOLDER
        context["shared_page"] = True  # no htmx token in the body: nothing here posts by htmx
    template = f"{page}#projector" if getattr(request, "htmx", False) else page
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
@cached_public_page  # rebuilt once per change of the event
def round_projector(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    context: dict[str, Any] = {"number": number}
    if number in {r.number for r in rounds}:
        rnd = selectors.round_with_matches(event, number)
        assert rnd is not None  # a public round exists
        matches = list(rnd.matches.all())
        context.update(
            round=rnd,
            rows=selectors.projector_rows(matches),
            has_tables=any(m.table is not None for m in matches),
        )
    else:
        # Withdrawn to be paired again: the screen says so and shows the new pairing once it
        # is published (the poll brings it), rather than freezing on the old one.
        context["withdrawn"] = selectors.withdrawn_pairing(event, number)
        if context["withdrawn"] is None:
            raise Http404("No such round.")
    return _render(request, event, rounds, "tournaments/projector/round.html", context)


@require_safe
@cached_public_page  # rebuilt once per change of the event
def standings_projector(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    snapshot, tables = selectors.published_standings(event)
    shown = [
        {
            **table,
            "columns": table["columns"][:COLUMNS],
            "rows": [{**row, "cells": row["cells"][:COLUMNS]} for row in table["rows"]],
        }
        for table in selectors.top_of(tables, TOP_ROWS)
    ]
    context = {
        "snapshot": snapshot,
        "tables": shown,
        "more_rows": any(len(table["rows"]) > TOP_ROWS for table in tables),
        "top_rows": TOP_ROWS,
    }
    return _render(request, event, rounds, "tournaments/projector/standings.html", context)
