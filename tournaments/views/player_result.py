"""A player enters their own match's result, under double entry only (docs/double-entry.md):
the entry waits for a director's, and the two must agree before anything is saved. The
page shows one result row with the format's own inputs, as the results screen does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from accounts.permissions import event_for_viewer
from tournaments import selectors
from tournaments.formats import ui_for
from tournaments.formats.base import FormatUI
from tournaments.models import Event, Match, Round
from tournaments.services import corrections, double_entry
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult

# the results screen's row: the same inputs, the same errors, the same typed values kept
from tournaments.views.manage_rounds import _errors, _keep_typed, _row, _settings

PAGE = "tournaments/player_result.html"


def _match(request: HttpRequest, event: Event, match_id: int) -> Match:
    match = selectors.match_with_seats_and_games(event, match_id, published=True)
    if match is None:
        raise Http404("No such match.")
    players = {p.entrant.user_id for p in match.participants.all() if p.entrant}
    if request.user.pk not in players:
        raise PermissionDenied  # a player's own match only; directors use the results screen
    return match


def _closed(event: Event, match: Match) -> str:
    """Why a player cannot enter this match now ('' when they can)."""
    if not event.double_entry or not ui_for(event).player_entry:
        return "In this event the directors enter the results."
    if match.round.status != Round.Status.PUBLISHED or corrections.needs_preview(match):
        return f"{match.round.label} is over: ask the director if its result is wrong."
    if match.result and match.result.get("complete"):
        return "The result is in. Ask the director if it is wrong."
    if len(match.participants.all()) < 2:
        return "This is a bye: there is no result to enter."
    return ""


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_result(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    match = _match(request, event, match_id)
    ui = ui_for(event)
    settings = _settings(event)
    closed = _closed(event, match)
    extra: dict[str, Any] = {}
    status = 200
    if request.method == "POST":
        if closed:
            extra = {"errors": {"match": [closed]}}
            status = 422
        else:
            extra, status = _enter(request, match, ui, settings)
        match = _match(request, event, match_id)
        closed = _closed(event, match)
    row = _row(ui, match, settings, **extra)
    found = double_entry.states(event, [match], request.user)
    row["entry"] = found.get(match.pk)
    if "posted" in extra:
        _keep_typed(row, request.POST)
    context = {"event": event, "match": match, "round": match.round, "row": row, "ui": ui}
    context["closed"] = closed
    return render(request, PAGE, context, status=status)


def _enter(
    request: HttpRequest, match: Match, ui: FormatUI, settings: Mapping[str, Any]
) -> tuple[dict[str, Any], int]:
    seats = len(match.participants.all())
    games, problems = ui.parse(request.POST, seats, settings)
    details, detail_problems = ui.parse_match_details(request.POST, match)
    problems = [*problems, *detail_problems]
    if problems:
        return {"errors": _errors(problems), "posted": request.POST}, 422
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1
    try:
        entered = double_entry.enter(
            match, games, expected_version=version, by=request.user, match_details=details
        )
    except StaleResult as conflict:
        return {"errors": {"match": conflict.messages}, "posted": request.POST}, 409
    except InvalidResult as refused:
        return {"errors": _errors(refused.problems), "posted": request.POST}, 422
    except ServiceError as refused:
        return {"errors": {"match": refused.messages}, "posted": request.POST}, 422
    status = 409 if entered.state == double_entry.DISAGREED else 200
    return {"saved": entered.saved, "entered": entered.state}, status
