"""The director's round screens: draft, review with reasons, swap, publish, results, close."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.permissions import event_for_director
from rules import checkers
from rules.contract import Problem
from tournaments import selectors
from tournaments.endings import ending_notes
from tournaments.formats import ui_for
from tournaments.formats.base import FormatUI
from tournaments.forms import DrawForm, RoundStartForm, SwapForm
from tournaments.models import Entrant, Event, Match, Round
from tournaments.services import (
    conformance,
    corrections,
    double_entry,
    draws,
    results,
    round_times,
    rounds,
)
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult
from tournaments.words import sentence

PAGE = "tournaments/manage/round.html"


def _round(event: Event, number: int) -> Round:
    """The round with its matches, seats, entrants and games in four queries."""
    rnd = (
        event.rounds.filter(number=number)
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=selectors.with_seats_and_games(Match.objects.order_by("order", "code")),
            )
        )
        .first()
    )
    if rnd is None:
        raise Http404("No such round.")
    return rnd


def _round_context(event: Event, rnd: Round, **extra: Any) -> dict[str, Any]:
    ui = ui_for(event)
    settings = _settings(event)
    matches = list(rnd.matches.all())
    rows = [_row(ui, match, settings) for match in matches]
    entered = sum(1 for m in matches if m.result and m.result.get("complete"))
    correcting = corrections.has_later_rounds(rnd)
    return {
        # a round just closed offers the next draft at once
        "offer_next": rnd.status == Round.Status.COMPLETED and not correcting,
        "event": event,
        "round": rnd,
        "rows": rows,
        "ui": ui,
        "entered": entered,
        "total": len(matches),
        "swap_form": SwapForm(),
        "start_form": RoundStartForm(
            initial={"starts_at": round_times.local_input(event, rnd.starts_at)},
            zone=round_times.event_zone(event),
        ),
        # results typed here are corrections, previewed before they are saved
        "correcting": correcting,
        # who was checked in as absent when the round was drafted (rules/absence.py)
        "absent": _absent(event, rnd),
        # the pairing's proof did not finish within its budget: publish, or search longer
        "unproven": rounds.is_unproven(rnd),
        # draft -> check -> publish: the rules check of the draft, before anyone sees it
        "draft_check": (
            conformance.check_drafted_round(event, rnd.number)
            if rnd.status == Round.Status.DRAFT
            else None
        ),
        **extra,
    }


def _absent(event: Event, rnd: Round) -> list[Entrant]:
    numbers = [int(e) for e in rnd.details.get("absent", []) if str(e).isdigit()]
    return list(event.entrants.filter(number__in=numbers).order_by("number")) if numbers else []


def _settings(event: Event) -> dict[str, Any]:
    """The event's settings with the engine's defaults filled in."""
    return event.resolved_settings()


def _row(ui: FormatUI, match: Match, settings: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    participants = list(match.participants.all())
    games = ui.rows(match, settings)
    for game in games:
        for seat, score in enumerate(game["scores"]):
            entrant = participants[seat].entrant if seat < len(participants) else None
            score["label"] = entrant.name if entrant else ""
    return {
        "match": match,
        "participants": participants,
        "games": games,
        "choices": ui.match_rows(match),
        "endings": ending_notes(match),
        "errors": {},
        **extra,
    }


@login_required
@require_POST
def draft_next(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    try:
        outcome = rounds.draft_next_round(event, by=request.user)
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("tournaments:manage", slug=slug)
    if outcome.finished is not None:
        messages.info(
            request,
            _("The event is finished: %(reason)s") % {"reason": sentence(outcome.finished.reason)},
        )
        return redirect("tournaments:manage", slug=slug)
    if outcome.decision is not None:
        decision = outcome.decision
        messages.warning(request, sentence(decision))
        # the format's own screen for this question, else the outside-draw screen
        target = ui_for(event).decision_url(event, decision)
        if target:
            return redirect(target)
        if decision.code == "draw.needed" or (
            decision.key and decision.code.endswith("draw_needed")
        ):
            query = urlencode(
                {"key": decision.key}
                | {
                    k: decision.params[k]
                    for k in ("low", "high")
                    if decision.params.get(k) is not None
                }
            )
            return redirect(f"{_draws_url(slug)}?{query}")
        return redirect("tournaments:manage", slug=slug)
    assert outcome.round is not None  # neither finished nor waiting: a round was drafted
    return redirect("tournaments:manage_round", slug=slug, number=outcome.round.number)


def _draws_url(slug: str) -> str:
    from django.urls import reverse

    return reverse("tournaments:manage_draws", args=[slug])


@login_required
@require_safe
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_director(request.user, slug)
    rnd = _round(event, number)
    # the hall's screen shows what the public sees: a round that is public, not a draft
    projector = rnd.pk in {r.pk for r in selectors.public_rounds(event)}
    context = _round_context(event, rnd, projector=projector)
    _with_entries(event, context["rows"], request.user)
    return render(request, PAGE, context)


def _with_entries(event: Event, rows: list[dict[str, Any]], user: Any) -> None:
    """Under double entry, what each row may show of the entries made (never another
    person's numbers before the result is saved)."""
    found = double_entry.states(event, [row["match"] for row in rows], user)
    for row in rows:
        row["entry"] = found.get(row["match"].pk)


@login_required
@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    rnd = event.rounds.filter(number=number).first()
    if rnd is None:
        raise Http404("No such round.")
    try:
        if action == "publish":
            rounds.publish_round(rnd, by=request.user)
            messages.success(request, f"{rnd.label} is published: players see it now.")
        elif action == "delete":
            rounds.delete_draft(rnd, by=request.user)
            messages.success(request, f"The draft of {rnd.label} is deleted.")
            return redirect("tournaments:manage", slug=slug)
        elif action == "close":
            rounds.complete_round(rnd, by=request.user)
            messages.success(request, f"{rnd.label} is closed.")
        elif action == "search":
            outcome = rounds.search_longer(rnd, by=request.user)
            event.refresh_from_db()
            seconds = event.settings.get("pairing_seconds")
            if outcome.round is not None and rounds.is_unproven(outcome.round):
                messages.warning(
                    request,
                    f"{rnd.label} is paired again with {seconds} seconds: still not proven "
                    "optimal.",
                )
            else:
                messages.success(request, f"{rnd.label} is paired again with {seconds} seconds.")
        else:
            raise Http404("No such action.")
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("tournaments:manage_round", slug=slug, number=number)


@login_required
@require_POST
def round_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round's start time, typed on the event's clock; shown on the public pages, the
    projector and the pairing mails."""
    event = event_for_director(request.user, slug)
    rnd = _round(event, number)
    form = RoundStartForm(request.POST, zone=round_times.event_zone(event))
    if not form.is_valid():
        context = _round_context(event, rnd, start_form=form)
        return render(request, PAGE, context, status=422)
    try:
        rnd = round_times.set_start_time(rnd, form.cleaned_data["starts_at"], by=request.user)
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("The start time of the round is saved."))
    return redirect("tournaments:manage_round", slug=slug, number=number)


@login_required
@require_POST
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_director(request.user, slug)
    rnd = _round(event, number)
    form = SwapForm(request.POST)
    if form.is_valid():
        try:
            warnings = rounds.swap(
                rnd,
                form.cleaned_data["first"],
                form.cleaned_data["second"],
                by=request.user,
                reason=form.cleaned_data["reason"],
            )
        except ServiceError as error:
            for problem in error.problems:
                form.add_error(
                    problem.field if problem.field in form.fields else None, sentence(problem)
                )
        else:
            for warning in warnings:
                messages.warning(request, warning)
            for violation in conformance.check_draft(event, number):
                # an override's note says what it departs from; a rule broken is named
                overridden = violation.rule == checkers.OVERRIDE
                said = sentence(violation)
                messages.warning(request, said if overridden else f"{said} ({violation.rule})")
            messages.success(request, _("The pairing is changed and marked as your override."))
            return redirect("tournaments:manage_round", slug=slug, number=number)
    context = _round_context(event, _round(event, number), swap_form=form)
    return render(request, PAGE, context, status=422)


@login_required
@require_POST
def save_result(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """One match's result, saved in place: the row comes back saved, refused or in conflict."""
    event = event_for_director(request.user, slug)
    match = selectors.match_with_seats_and_games(event, match_id)
    if match is None:
        raise Http404("No such match.")
    ui = ui_for(event)
    settings = _settings(event)
    seats = len(match.participants.all())
    games, problems = ui.parse(request.POST, seats, settings)
    match_details, detail_problems = ui.parse_match_details(request.POST, match)
    problems = [*problems, *detail_problems]
    status = 200
    extra: dict[str, Any] = {}
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1
    if problems:
        extra = {"errors": _errors(problems), "posted": request.POST}
        status = 422
    else:
        try:
            if corrections.needs_preview(match):
                # an earlier round: later rounds were paired on the old result
                extra = _correction(request, match, games, match_details, version)
            elif event.double_entry:
                # saved only when a second person's entry agrees (docs/double-entry.md)
                entry = double_entry.enter(
                    match,
                    games,
                    expected_version=version,
                    by=request.user,
                    match_details=match_details,
                )
                extra = {"saved": entry.saved, "entered": entry.state}
                if entry.state == double_entry.DISAGREED:
                    status = 409
            else:
                results.record(
                    match,
                    games,
                    expected_version=version,
                    by=request.user,
                    match_details=match_details,
                )
                extra = {"saved": True}
        except StaleResult as conflict:
            extra = {"conflict": conflict, "posted": request.POST}
            status = 409
        except InvalidResult as refused:
            extra = {"errors": _errors(refused.problems), "posted": request.POST}
            status = 422
        except ServiceError as refused:  # e.g. a later round that can no longer be paired again
            extra = {"errors": {"match": refused.messages}, "posted": request.POST}
            status = 422
        if extra.get("stale"):
            status = 409
    match = selectors.with_seats_and_games(Match.objects.filter(pk=match.pk)).get()
    row = _row(ui, match, settings, **extra)
    _with_entries(event, [row], request.user)
    if "posted" in extra:
        _keep_typed(row, request.POST)
    for game in row["games"]:
        number = game["number"]
        game["invalid"] = any(
            key == f"g{number}" or key.startswith(f"g{number}-") for key in row["errors"]
        )
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
    return render(request, f"{PAGE}#result-row", context, status=status)


def _correction(
    request: HttpRequest,
    match: Match,
    games: list[dict[str, Any]],
    match_details: dict[str, Any],
    version: int,
) -> dict[str, Any]:
    """A result in an earlier round: preview it, or save the preview the director confirms.
    A stale confirmation is refused and the new preview shown in its place."""
    digest = request.POST.get("confirm", "")
    if digest:
        seen = seen_version(request)
        try:
            corrections.confirm_result(
                match,
                games,
                expected_version=version,
                results_version=seen,
                digest=digest,
                by=request.user,
                match_details=match_details,
                reason=request.POST.get("reason", ""),
                redraw=redraw_number(request),
            )
        except (corrections.StalePreview, corrections.ReasonNeeded) as stale:
            preview = corrections.preview_result(
                match, games, expected_version=version, match_details=match_details
            )
            return {"preview": preview, "stale": stale.messages, "posted": request.POST}
        return {"saved": True, "corrected": True, "redrawn": _redrawn(request, match)}
    preview = corrections.preview_result(
        match, games, expected_version=version, match_details=match_details
    )
    return {"preview": preview, "posted": request.POST}


def _redrawn(request: HttpRequest, match: Match) -> str:
    """What became of the later round the director chose to pair again, if any."""
    return corrections.redraw_note(match.round.event, redraw_number(request))


def seen_version(request: HttpRequest) -> int:
    """The results version a confirmed preview was computed from (-1: none, so stale)."""
    try:
        return int(request.POST.get("results_version", ""))
    except ValueError:
        return -1


def redraw_number(request: HttpRequest) -> int:
    """The later round the director chose to pair again (0: none)."""
    try:
        return max(0, int(request.POST.get("redraw", "") or 0))
    except ValueError:
        return 0


def _errors(problems: Iterable[Problem]) -> dict[str, list[str]]:
    """Engine fields ('games[0].scores') and form fields ('g1-s0') -> the row's inputs."""
    errors: dict[str, list[str]] = {}
    for problem in problems:
        field = problem.field
        if field.startswith("games[") and "]" in field:
            index = int(field[6 : field.index("]")])
            field = f"g{index + 1}"
        errors.setdefault(field or "match", []).append(sentence(problem))
    return errors


def _keep_typed(row: dict[str, Any], data: Mapping[str, Any]) -> None:
    """Show what the director typed, not the stored values, when a save did not go in."""
    for game in row["games"]:
        for score in game["scores"]:
            score["value"] = data.get(score["name"], "")
        game["ending"] = data.get(f"g{game['number']}-ending", game["ending"])


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def draw_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """Record an outside draw the engine waits for (or see every draw made so far)."""
    event = event_for_director(request.user, slug)
    form = DrawForm(
        request.POST if request.method == "POST" else None,  # an empty POST: its errors
        initial={k: request.GET.get(k, "") for k in ("key", "low", "high")},
    )
    if request.method == "POST" and form.is_valid():
        try:
            draws.enter_external(
                event,
                form.cleaned_data["key"],
                form.cleaned_data["value"],
                purpose=request.POST.get("purpose", ""),
                by=request.user,
                at=timezone.now(),
            )
        except ServiceError as error:
            form.add_error(None, " ".join(error.messages))
        else:
            messages.success(request, "The draw is recorded. Draft the round again.")
            return redirect("tournaments:manage", slug=slug)
    names = {str(n): name for n, name in event.entrants.values_list("number", "name")}
    rows = [
        {"draw": d, "order": _drawn_order(d.value, names)}
        for d in event.draws.select_related("drawn_by", "round")
    ]
    return render(
        request,
        "tournaments/manage/draws.html",
        {"event": event, "form": form, "rows": rows},
        status=422 if request.method == "POST" else 200,
    )


def _drawn_order(value: object, names: dict[str, str]) -> list[str] | None:
    """A draw that ordered entrants, as their names in the order drawn (None: a number)."""
    if isinstance(value, list) and value and all(str(v) in names for v in value):
        return [f"{names[str(v)]} (#{v})" for v in value]
    return None
