"""GokoDom director screens: the season page (dates, the current round's match states,
decisions the engine asks for), result codes and 'who goes through' from the results grid,
and closing a round by the unplayed-match rule."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST, require_safe
from django_stubs_ext import StrOrPromise

from accounts.permissions import event_for_director
from rules.contract import NeedsDecision, Problem
from rules.draws import DrawNeeded, DrawSource, InvalidDraw
from rules.formats.gokodom.schedule import season as season_dates
from tournaments import selectors
from tournaments.formats import ui_for
from tournaments.formats.gokodom import claims, schedule
from tournaments.formats.gokodom import services_director as director
from tournaments.models import Event, Match, MatchParticipant, Round
from tournaments.services import corrections
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult
from tournaments.services.state import load_event_state
from tournaments.views.manage_rounds import redraw_number, seen_version
from tournaments.words import sentence

PAGE = "tournaments/formats/gokodom/manage.html"
GRID = "tournaments/manage/round.html#result-row"


def _event(request: HttpRequest, slug: str) -> Event:
    event = event_for_director(request.user, slug)
    if event.format != "gokodom":
        raise Http404("Not a GokoDom event.")
    return event


# A match's state on the season page, in the page's language (the codes stay for the logic).
STATE_LABELS = {
    "confirmed": pgettext_lazy("report state", "confirmed"),
    "reported": pgettext_lazy("report state", "reported"),
    "disputed": pgettext_lazy("report state", "disputed"),
    "no result": pgettext_lazy("report state", "no result"),
}


def _state_of(match: Match) -> str:
    report = match.details.get("report") or {}
    if match.result and match.result.get("complete"):
        return "confirmed"
    if report.get("status") in ("reported", "disputed"):
        return str(report["status"])
    return "no result"


def pending_decision(event: Event, last: Round | None) -> NeedsDecision | None:
    """What the engine asks before the next round (e.g. 8th/9th: coin or playoff)."""
    if last is not None and last.status != Round.Status.COMPLETED:
        return None
    state = load_event_state(event)
    try:
        answer = event.engine.next_round(state, DrawSource(event.random_seed, state.draws))
    except (DrawNeeded, InvalidDraw, ServiceError, Exception):  # shown on the dashboard
        return None
    return answer if isinstance(answer, NeedsDecision) else None


@login_required
@require_safe
def season(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    last = event.rounds.order_by("-number").first()
    current = None
    rows: list[dict[str, Any]] = []
    if last is not None and last.status != Round.Status.DRAFT:
        current = last
        matches = last.matches.order_by("order").prefetch_related(
            Prefetch(
                "participants",
                queryset=MatchParticipant.objects.order_by("seat").select_related("entrant"),
            )
        )
        rows = [
            {"match": m, "state": _state_of(m), "claims": claims.claim_lines(m)} for m in matches
        ]
    counts: dict[str, int] = {}
    for row in rows:
        row["state_label"] = STATE_LABELS.get(row["state"], row["state"])
        label = str(row["state_label"])
        counts[label] = counts.get(label, 0) + 1
    open_matches = [
        r["match"]
        for r in rows
        if r["match"].result
        and any(
            x.get("code") in ("gokodom.tied", "gokodom.both_messaged")
            for x in r["match"].result.get("reasons", [])
        )
    ]
    settings = event.resolved_settings()
    context: dict[str, Any] = {
        "event": event,
        "current": current,
        "rows": rows,
        "counts": counts,
        "open_matches": open_matches,
        "decision": pending_decision(event, last),
        "first_round_start": settings["first_round_start"],
        "planned": season_dates(settings, schedule.swiss_rounds(event)),
        "opens_at": schedule.ROUND_OPENS_AT,
        "closes_at": schedule.ROUND_CLOSES_AT,
    }
    if current is not None:
        context.update(
            starts=schedule.starts_at(event, current), deadline=schedule.deadline(event, current)
        )
    with timezone.override(schedule.zone(event)):
        return render(request, PAGE, context)


@login_required
@require_POST
def schedule_view(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    text = request.POST.get("first_round_start", "").strip()
    try:
        day = datetime.date.fromisoformat(text) if text else None
    except ValueError:
        messages.error(request, f"First round start: '{text}' is not a date like 2025-02-10.")
        return redirect("tournaments:gokodom_manage", slug=slug)
    try:
        director.set_first_round_start(event, day, by=request.user)
        messages.success(request, "The season's dates are set.")
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("tournaments:gokodom_manage", slug=slug)


def _moment(event: Event, text: str, label: StrOrPromise, field: str) -> datetime.datetime | None:
    if not text.strip():
        return None
    try:
        naive = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ServiceError(
            [
                Problem(
                    "gokodom.moment",
                    field,
                    _("%(label)s: '%(text)s' is not a date and time.")
                    % {"label": label, "text": text},
                )
            ]
        ) from None
    return naive.replace(tzinfo=schedule.zone(event))


@login_required
@require_POST
def round_times(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug)
    rnd = event.rounds.filter(number=number).first()
    if rnd is None:
        raise Http404("No such round.")
    try:
        starts = _moment(event, request.POST.get("starts_at", ""), _("Start"), "starts_at")
        ends = _moment(event, request.POST.get("deadline", ""), _("Deadline"), "deadline")
        director.set_round_times(rnd, starts, ends, by=request.user)
        messages.success(request, f"{rnd.label}: times saved.")
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("tournaments:gokodom_manage", slug=slug)


@login_required
@require_POST
def close(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Apply the unplayed-match rule now (at or before the deadline) and close the round."""
    event = _event(request, slug)
    rnd = event.rounds.filter(number=number).first()
    if rnd is None:
        raise Http404("No such round.")
    try:
        outcome = director.close_at_deadline(rnd.pk, by=request.user, force=True)
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("tournaments:gokodom_manage", slug=slug)
    if outcome.closed:
        applied = len(outcome.applied)
        messages.success(request, f"{rnd.label} is closed ({applied} results applied).")
    elif outcome.ran:
        left = "; ".join(f"{code}: {why}" for code, why in outcome.left.items())
        messages.warning(request, f"{rnd.label} stays open. Settle first: {left}.")
    else:
        messages.error(request, f"{rnd.label} is not open.")
    return redirect("tournaments:gokodom_manage", slug=slug)


@login_required
@require_POST
def eighth_place(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    try:
        director.choose_eighth_place(event, request.POST.get("method", ""), by=request.user)
        messages.success(request, "Recorded. Draft the next round.")
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("tournaments:gokodom_manage", slug=slug)


def _grid_match(event: Event, match_id: int) -> Match:
    match = selectors.match_with_seats_and_games(event, match_id)
    if match is None:
        raise Http404("No such match.")
    return match


def _version(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return -1


def _grid_row(
    request: HttpRequest, event: Event, match_id: int, extra: dict[str, Any], status: int
) -> HttpResponse:
    """The results grid's row for the match, as the generic results screen renders it."""
    ui = ui_for(event)
    match = _grid_match(event, match_id)
    settings = event.resolved_settings()
    participants = list(match.participants.all())
    row = {
        "match": match,
        "participants": participants,
        "games": ui.rows(match, settings),
        "errors": {},
        **extra,
    }
    if extra.get("posted"):
        # What the director chose stays chosen while it is previewed or refused.
        for game in row["games"]:
            for code in game.get("codes", ()):
                code["value"] = request.POST.get(code["name"], "").strip().upper()
        row["advances"] = request.POST.get("advances", "").strip()
    rnd = match.round
    entered = sum(1 for m in rnd.matches.all() if m.result and m.result.get("complete"))
    context = {
        "event": event,
        "round": rnd,
        "row": row,
        "ui": ui,
        "entered": entered,
        "total": rnd.matches.count(),
        "correcting": corrections.has_later_rounds(rnd),
        "oob": True,
    }
    if not getattr(request, "htmx", False) and not extra.get("preview"):
        for texts in extra.get("errors", {}).values():
            for text in texts:
                messages.error(request, text)
        if extra.get("conflict"):
            messages.error(request, extra["conflict"].messages[0])
        url = redirect("tournaments:manage_round", slug=event.slug, number=rnd.number)
        url["Location"] += f"#match-{match.pk}"
        return url
    return render(request, GRID, context, status=status)


def _save(
    request: HttpRequest,
    event: Event,
    match_id: int,
    write: Callable[[], dict[str, Any] | None],
) -> HttpResponse:
    """Run ``write``; it returns the row's extra context (a preview) or None once saved."""
    try:
        extra = write()
    except StaleResult as conflict:
        return _grid_row(request, event, match_id, {"conflict": conflict}, 409)
    except InvalidResult as refused:
        errors = {"match": [sentence(p) for p in refused.problems]}
        return _grid_row(request, event, match_id, {"errors": errors, "posted": True}, 422)
    except ServiceError as error:
        errors = {"match": error.messages}
        return _grid_row(request, event, match_id, {"errors": errors, "posted": True}, 422)
    if extra is None:
        return _grid_row(request, event, match_id, {"saved": True}, 200)
    return _grid_row(request, event, match_id, extra, 409 if extra.get("stale") else 200)


@login_required
@require_POST
def codes(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Result codes of a Swiss match, from its row in the results grid. In a round that is
    not the latest the codes are a correction: previewed, and saved once confirmed."""
    event = _event(request, slug)
    match = _grid_match(event, match_id)
    typed = {
        str(p.entrant.number): request.POST.get(f"code-{p.entrant.number}", "").strip().upper()
        for p in match.participants.all()
        if p.entrant
    }
    chosen = typed if any(typed.values()) else None
    version = _version(request)

    def save() -> None:
        director.record_codes(match, chosen, expected_version=version, by=request.user)

    if not corrections.needs_preview(match):
        return _save(request, event, match_id, save)

    def correct() -> dict[str, Any] | None:
        details = director.details_with_codes(match, chosen)
        return _correction(
            request,
            match,
            details,
            version,
            "tournaments:gokodom_codes",
            lambda reason: director.record_codes(
                match,
                chosen,
                expected_version=version,
                by=request.user,
                reason=reason or "result codes corrected after their preview",
            ),
        )

    return _save(request, event, match_id, correct)


def _correction(
    request: HttpRequest,
    match: Match,
    details: dict[str, Any],
    version: int,
    url_name: str,
    write: Any,
) -> dict[str, Any] | None:
    """A change to a round that is not the latest: preview it, or save the preview the
    director confirms through ``write(reason)`` (None once saved)."""
    url = reverse(url_name, args=[match.round.event.slug, match.pk])
    shown = {"posted": True, "confirm_url": url}
    digest = request.POST.get("confirm", "")
    reason = request.POST.get("reason", "")[:300]
    if digest:
        seen = seen_version(request)
        try:
            corrections.confirm_details(
                match,
                details,
                expected_version=version,
                results_version=seen,
                digest=digest,
                by=request.user,
                reason=reason,
                write=lambda: write(reason),
                redraw=redraw_number(request),
            )
        except (corrections.StalePreview, corrections.ReasonNeeded) as stale:
            preview = corrections.preview_details(match, details, expected_version=version)
            return {"preview": preview, "stale": stale.messages, **shown}
        note = corrections.redraw_note(match.round.event, redraw_number(request))
        return {"saved": True, "corrected": True, "redrawn": note}
    preview = corrections.preview_details(match, details, expected_version=version)
    return {"preview": preview, **shown}


@login_required
@require_POST
def advances(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Who goes through from an elimination match the rules leave open (IV.A.4)."""
    event = _event(request, slug)
    match = _grid_match(event, match_id)
    chosen = request.POST.get("advances", "").strip()
    version = _version(request)

    def save(reason: str = "") -> None:
        director.decide_advances(
            match, chosen, expected_version=version, by=request.user, reason=reason
        )

    if not corrections.needs_preview(match):
        return _save(request, event, match_id, save)

    def correct() -> dict[str, Any] | None:
        details = director.details_with_advances(match, chosen)
        return _correction(request, match, details, version, "tournaments:gokodom_advances", save)

    return _save(request, event, match_id, correct)
