"""Public pages: no sign-in needed for public events. Thin: permission, selector, render."""

from __future__ import annotations

from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.permissions import event_for_viewer, is_director
from tournaments import selectors


def _template(request: HttpRequest, page: str, partial: str) -> str:
    """HTMX requests get the named partial of the page's own template."""
    return f"{page}#{partial}" if getattr(request, "htmx", False) else page


@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    events = selectors.visible_events(request.user).order_by("-starts_on", "name")
    return render(request, "tournaments/event_list.html", {"events": events})


@require_GET
def event_home(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    current = selectors.round_with_matches(event, rounds[-1].number) if rounds else None
    snapshot, tables = selectors.published_standings(event)
    return render(
        request,
        "tournaments/event.html",
        {
            "event": event,
            "rounds": rounds,
            "round": current,
            "snapshot": snapshot,
            "tables": tables[:1],
            "is_director": is_director(request.user, event),
        },
    )


@require_GET
def round_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    rnd = selectors.round_with_matches(event, number)
    if rnd is None:
        raise Http404("No such round.")
    return render(
        request,
        _template(request, "tournaments/round.html", "pairings"),
        {"event": event, "round": rnd, "rounds": selectors.public_rounds(event)},
    )


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    snapshot, tables = selectors.published_standings(event)
    return render(
        request,
        _template(request, "tournaments/standings.html", "standings"),
        {
            "event": event,
            "snapshot": snapshot,
            "tables": tables,
            "rounds": selectors.public_rounds(event),
        },
    )


@require_GET
def version(request: HttpRequest, slug: str) -> JsonResponse:
    """What public pages poll: cheap, and changes whenever something public changes."""
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    return JsonResponse(
        {
            "results_version": event.results_version,
            "standings_version": event.standings_version,
            "rounds": len(rounds),
        }
    )


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
