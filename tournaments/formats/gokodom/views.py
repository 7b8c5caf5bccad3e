"""GokoDom players' own screens, and the public bracket.

A player sees their current match with its deadline in the event's time zone and acts on
it: report, confirm or dispute, message the director, ask for a Bye by Request. A player
acts only on their own match (403 otherwise); HTMX requests get the ``match-card``
partial, normal requests are redirected back to the page (or get it with the errors).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from accounts.permissions import entrant_of, event_for_viewer, is_player_of
from tournaments import ratelimit, selectors
from tournaments.formats.gokodom import claims, schedule
from tournaments.formats.gokodom import services as service
from tournaments.formats.gokodom import services_absence as absence_service
from tournaments.formats.gokodom.ui import GAMES, parse_games
from tournaments.models import CheckIn, Entrant, Event, Match, MatchParticipant, Round
from tournaments.services import checkin
from tournaments.services.errors import NotAllowed, ServiceError

PAGE = "tournaments/formats/gokodom/player.html"
BRACKET = "tournaments/formats/gokodom/bracket.html"


def _match_queryset() -> QuerySet[Match]:
    return selectors.with_seats_and_games()


def _player(request: HttpRequest, slug: str) -> tuple[Event, Entrant]:
    event = event_for_viewer(request.user, slug)
    if event.format != "gokodom":
        raise Http404("Not a GokoDom event.")
    entrant = entrant_of(request.user, event)
    if entrant is None:
        raise PermissionDenied
    return event, entrant


def _current(event: Event, entrant: Entrant) -> Match | None:
    """The entrant's match in the newest public round (None: no round yet, or no match)."""
    rnd = event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    if rnd is None:
        return None
    return _match_queryset().filter(round=rnd, participants__entrant=entrant).first()


def _card(event: Event, entrant: Entrant, match: Match | None, now: datetime) -> dict[str, Any]:
    """What the match card shows: opponent, colours, times, the report's state, actions."""
    number = service.next_round_number(event)
    upcoming = checkin.next_round_number(event)  # "I can't play next round" (check-in)
    context: dict[str, Any] = {
        "event": event,
        "entrant": entrant,
        "match": match,
        "bye_round": number,
        "bye_refusal": service.bye_refusal(event, number, now),
        "bye_asked": number in (entrant.flags.get("bye_requests") or []),
        "games_range": range(1, GAMES + 1),
        "absence_round": upcoming,
        "absent": CheckIn.objects.filter(
            entrant=entrant, round_number=upcoming, present=False
        ).exists(),
        "absence_outcome": absence_service.outcome(event, upcoming, now),
    }
    if match is None:
        return context
    rnd = match.round
    me = str(entrant.number)
    seats = list(match.participants.all())
    opponent = next((p for p in seats if p.entrant_id and p.entrant_id != entrant.pk), None)
    report = match.details.get("report") or {}
    end = schedule.deadline(event, rnd)
    is_open = rnd.status == Round.Status.PUBLISHED and (end is None or now < end)
    complete = bool(match.result and match.result.get("complete"))
    context.update(
        round=rnd,
        seats=seats,
        mine=next(p for p in seats if p.entrant_id == entrant.pk),
        opponent=opponent,
        starts=schedule.starts_at(event, rnd),
        deadline=end,
        open=is_open,
        swiss=schedule.stage(rnd) == schedule.SWISS,
        complete=complete,
        report=report,
        reported_by_me=report.get("by") == me,
        claim_lines=[claims.for_player(c, me, _names(seats)) for c in claims.claims(match)],
        countered=bool(report.get("counter")),
        messaged=me in [str(m) for m in match.details.get("messages", [])],
        ask_first=event.resolved_settings()["first_seat"] == "entered",
        drawn_first=match.details.get("first_seat"),
    )
    return context


def _names(seats: list[MatchParticipant]) -> dict[str, str]:
    return {str(p.entrant.number): p.entrant.name for p in seats if p.entrant is not None}


def _render(
    request: HttpRequest,
    event: Event,
    entrant: Entrant,
    match: Match | None,
    *,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = _card(event, entrant, match, timezone.now())
    context["errors"] = errors or []
    template = f"{PAGE}#match-card" if getattr(request, "htmx", False) else PAGE
    with timezone.override(schedule.zone(event)):
        return render(request, template, context, status=status)


@login_required
@require_safe
def my_match(request: HttpRequest, slug: str) -> HttpResponse:
    event, entrant = _player(request, slug)
    return _render(request, event, entrant, _current(event, entrant))


def _own_match(request: HttpRequest, slug: str, match_id: int) -> tuple[Event, Entrant, Match]:
    """The match, if the signed-in user plays in it: 404 when hidden, 403 when not theirs."""
    event = event_for_viewer(request.user, slug)
    if event.format != "gokodom":
        raise Http404("Not a GokoDom event.")
    match = (
        _match_queryset()
        .filter(pk=match_id, round__event=event)
        .exclude(round__status=Round.Status.DRAFT)
        .first()
    )
    if match is None:
        raise Http404("No such match.")
    for participant in match.participants.all():
        entrant = participant.entrant
        if entrant is not None and is_player_of(request.user, entrant):
            return event, entrant, match
    raise PermissionDenied


def _act(
    request: HttpRequest,
    slug: str,
    match_id: int,
    action: Callable[[Match, Entrant], object],
    done: str,
) -> HttpResponse:
    event, entrant, match = _own_match(request, slug, match_id)
    try:
        action(match, entrant)
    except NotAllowed:
        raise PermissionDenied from None
    except ServiceError as error:
        if getattr(request, "htmx", False):
            fresh = _match_queryset().get(pk=match.pk)
            return _render(request, event, entrant, fresh, errors=error.messages, status=422)
        for text in error.messages:
            messages.error(request, text)
        return redirect("tournaments:gokodom_player", slug=slug)
    if getattr(request, "htmx", False):
        return _render(request, event, entrant, _match_queryset().get(pk=match.pk))
    messages.success(request, done)
    return redirect("tournaments:gokodom_player", slug=slug)


@login_required
@require_POST
@ratelimit.limit("self_report")  # per player: a script cannot flood the director
def report(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    def action(match: Match, entrant: Entrant) -> None:
        games, problems = parse_games(request.POST)
        if problems:
            raise ServiceError(problems)
        service.report(
            match,
            entrant,
            outcome=request.POST.get("outcome", ""),
            games=games,
            by=request.user,
        )

    return _act(request, slug, match_id, action, "Result reported: your opponent confirms it.")


@login_required
@require_POST
@ratelimit.limit("self_report")  # per player: a script cannot flood the director
def confirm(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        match_id,
        # the report the player was shown (a report changed since is not confirmed)
        lambda m, e: service.confirm(m, e, by=request.user, seen=request.POST.get("report")),
        "Result confirmed.",
    )


@login_required
@require_POST
@ratelimit.limit("self_report")  # per player: a script cannot flood the director
def dispute(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    note = request.POST.get("note", "")
    outcome = request.POST.get("outcome", "")

    def action(match: Match, entrant: Entrant) -> None:
        games, problems = parse_games(request.POST)
        if problems:
            raise ServiceError(problems)
        service.dispute(match, entrant, note=note, outcome=outcome, games=games, by=request.user)

    return _act(request, slug, match_id, action, "Result disputed: the director decides.")


@login_required
@require_POST
@ratelimit.limit("self_report")  # per player: a script cannot flood the director
def message(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        match_id,
        lambda m, e: service.message_director(m, e, by=request.user),
        "The director knows you could not agree a time.",
    )


@login_required
@require_POST
@ratelimit.limit("self_report")  # per player: a script cannot flood the director
def bye(request: HttpRequest, slug: str) -> HttpResponse:
    event, entrant = _player(request, slug)
    wanted = request.POST.get("action", "request") != "cancel"
    try:
        number = int(request.POST.get("round", ""))
    except ValueError:
        number = 0
    errors: list[str] = []
    try:
        service.set_bye_request(entrant, number, wanted=wanted, by=request.user)
    except ServiceError as error:
        errors = error.messages
    entrant.refresh_from_db()
    match = _current(event, entrant)
    if getattr(request, "htmx", False) or errors:
        return _render(request, event, entrant, match, errors=errors, status=422 if errors else 200)
    messages.success(
        request,
        f"Bye by Request for round {number} asked for."
        if wanted
        else f"Bye by Request for round {number} withdrawn.",
    )
    return redirect("tournaments:gokodom_player", slug=slug)


@login_required
@require_POST
@ratelimit.limit("self_report")  # per player: a script cannot flood the director
def absence(request: HttpRequest, slug: str) -> HttpResponse:
    """ "I can't play next round" (or "I can after all"): the player's own check-in."""
    event, entrant = _player(request, slug)
    present = request.POST.get("action") == "present"
    try:
        number = int(request.POST.get("round", ""))
    except ValueError:
        number = 0
    errors: list[str] = []
    try:
        absence_service.set_absence(
            entrant, present=present, by=request.user, source=CheckIn.Source.PLAYER, number=number
        )
    except ServiceError as error:
        errors = error.messages
    entrant.refresh_from_db()
    match = _current(event, entrant)
    if getattr(request, "htmx", False) or errors:
        return _render(request, event, entrant, match, errors=errors, status=422 if errors else 200)
    messages.success(
        request,
        f"The director knows you can play round {number}."
        if present
        else f"The director knows you cannot play round {number}.",
    )
    return redirect("tournaments:gokodom_player", slug=slug)


# -- the public bracket ----------------------------------------------------------------------


@require_safe
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    from tournaments.formats.gokodom.views_bracket import bracket_context

    event = event_for_viewer(request.user, slug)
    if event.format != "gokodom":
        raise Http404("Not a GokoDom event.")
    with timezone.override(schedule.zone(event)):
        return render(request, BRACKET, bracket_context(event))
