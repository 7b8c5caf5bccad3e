"""Freestyle screens: outside draws, tiebreaker games, withdrawals; public draws and bracket.

Thin: permission (accounts/permissions.py), a form, one service or reader, a template.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from accounts.permissions import event_for_director, event_for_viewer
from tournaments import selectors
from tournaments.formats.freestyle import pages as freestyle_pages
from tournaments.formats.freestyle import services as service
from tournaments.models import Entrant, Event, Round
from tournaments.services import corrections
from tournaments.services.errors import ServiceError
from tournaments.views.manage_rounds import redraw_number, seen_version
from tournaments.words import sentence

TEMPLATES = "tournaments/formats/freestyle/"


class DrawValueForm(forms.Form):
    key = forms.CharField(widget=forms.HiddenInput, max_length=120)
    value = forms.CharField(label=gettext_lazy("Drawn"), max_length=400)


class TiebreakerForm(forms.Form):
    key = forms.CharField(widget=forms.HiddenInput, max_length=120)
    winner = forms.CharField(max_length=20)
    note = forms.CharField(
        label=gettext_lazy("Score of the game (optional)"), max_length=200, required=False
    )


class WithdrawForm(forms.Form):
    when = forms.ChoiceField(
        label=gettext_lazy("When"),
        widget=forms.RadioSelect,
        choices=(
            ("during", gettext_lazy("During the round in play: its games do not count")),
            ("between", gettext_lazy("After the last round: its games count")),
        ),
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300, required=False)


def _freestyle(event: Event) -> Event:
    if event.format != "freestyle":
        raise Http404("This event is not a Freestyle tournament.")
    return event


def _render(
    request: HttpRequest, page: str, partial: str, context: dict[str, Any], **kw: Any
) -> HttpResponse:
    name = f"{TEMPLATES}{page}"
    if getattr(request, "htmx", False):
        name = f"{name}#{partial}"
    return render(request, name, context, **kw)


def _add_errors(form: forms.Form, error: ServiceError, default: str) -> None:
    for problem in error.problems:
        field = problem.field if problem.field in form.fields else default
        form.add_error(field, sentence(problem))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def manage_draws(request: HttpRequest, slug: str) -> HttpResponse:
    """Type in the digit (or lot) the engine waits for, one attempt after another."""
    event = _freestyle(event_for_director(request.user, slug))
    form = DrawValueForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                draw = service.enter_draw(
                    event, form.cleaned_data["key"], form.cleaned_data["value"], by=request.user
                )
            except ServiceError as error:
                _add_errors(form, error, "value")
            else:
                messages.success(request, _("Recorded: %(v)s.") % {"v": draw.value})
                return redirect("tournaments:freestyle_manage_draws", slug=slug)
        status = 422
    waiting = service.waiting_draw(event) if event.external_draws else None
    if waiting is not None and request.method != "POST":
        form = DrawValueForm(initial={"key": waiting.key})
    last = event.rounds.order_by("-number").first()
    context = {
        "event": event,
        "form": form,
        "waiting": waiting,
        "ready": last is None or last.status == Round.Status.COMPLETED,
        "sections": freestyle_pages.draw_sections(event, include_drafts=True),
    }
    return _render(request, "manage_draws.html", "draw-entry", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def manage_tiebreakers(request: HttpRequest, slug: str) -> HttpResponse:
    """Record the winner of each tiebreaker game the standings wait for."""
    event = _freestyle(event_for_director(request.user, slug))
    form = TiebreakerForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                service.record_tiebreaker(
                    event,
                    form.cleaned_data["key"],
                    form.cleaned_data["winner"],
                    note=form.cleaned_data["note"],
                    by=request.user,
                )
            except ServiceError as error:
                _add_errors(form, error, "winner")
            else:
                messages.success(request, _("The tiebreaker game is recorded."))
                return redirect("tournaments:freestyle_tiebreakers", slug=slug)
        status = 422
    pending = service.pending_tiebreakers(event)
    names = dict(event.entrants.values_list("number", "name"))
    items = [
        {
            "decision": item,
            "options": [(o, names.get(int(o), o)) for o in item.options],
            "errors": form.errors if form.data.get("key") == item.key else {},
        }
        for item in pending
    ]
    context = {
        "event": event,
        "items": items,
        "form": form,
        "recorded": [
            s
            for s in freestyle_pages.draw_sections(event, include_drafts=True)
            if s.key == "tiebreakers"
        ],
    }
    return _render(request, "tiebreakers.html", "tiebreakers", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def manage_withdraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Withdraw a player the Freestyle way: during the round in play, or between rounds.
    Once rounds are paired the withdrawal is previewed and saved only when confirmed."""
    event = _freestyle(event_for_director(request.user, slug))
    entrant = Entrant.objects.filter(event=event, number=number).first()
    if entrant is None:
        raise Http404("No such entrant.")
    current = event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    in_play = current is not None and current.status == Round.Status.PUBLISHED
    form = WithdrawForm(
        request.POST if request.method == "POST" else None,
        initial={"when": "during" if in_play else "between"},
    )
    status = 200
    preview = None
    stale: list[str] = []
    paired = event.rounds.exists()
    if request.method == "POST":
        status = 422
        if form.is_valid():
            during = form.cleaned_data["when"] == "during"
            reason = form.cleaned_data["reason"]
            digest = request.POST.get("confirm", "")
            try:
                if digest:
                    try:
                        corrections.confirm_withdrawal(
                            entrant,
                            results_version=seen_version(request),
                            digest=digest,
                            by=request.user,
                            reason=reason,
                            during=during,
                            write=lambda: service.withdraw(
                                entrant, during=during, reason=reason, by=request.user
                            ),
                            redraw=redraw_number(request),
                        )
                    except corrections.StalePreview as error:
                        stale = error.messages
                        preview = corrections.preview_withdrawal(entrant, during=during)
                        status = 409
                elif paired:
                    service.check_withdrawal(event, entrant, during=during)
                    preview = corrections.preview_withdrawal(entrant, during=during)
                    status = 200
                else:
                    service.withdraw(entrant, during=during, reason=reason, by=request.user)
            except ServiceError as error:
                _add_errors(form, error, "when")
            else:
                if preview is None:
                    messages.success(request, _("%(name)s is withdrawn.") % {"name": entrant.name})
                    if note := corrections.redraw_note(event, redraw_number(request)):
                        messages.success(request, note)
                    return redirect("tournaments:manage_entrants", slug=slug)
    context = {"event": event, "entrant": entrant, "form": form, "current": current}
    context.update(in_play=in_play, paired=paired, preview=preview, stale=stale)
    return _render(request, "withdraw.html", "withdraw", context, status=status)


def _public(request: HttpRequest, slug: str) -> tuple[Event, list[Round]]:
    event = _freestyle(event_for_viewer(request.user, slug))
    return event, selectors.public_rounds(event)


@require_safe
def public_draws(request: HttpRequest, slug: str) -> HttpResponse:
    """Every random digit and lot of the event, with the grouping or seeding it decided."""
    event, rounds = _public(request, slug)
    context = {
        "event": event,
        "rounds": rounds,
        "sections": freestyle_pages.draw_sections(event),
    }
    return _render(request, "draws.html", "draws", context)


@require_safe
def public_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The semi-finals, the final and the third place game."""
    event, rounds = _public(request, slug)
    context = {"event": event, "rounds": rounds, **freestyle_pages.bracket(event)}
    return _render(request, "bracket.html", "bracket", context)
