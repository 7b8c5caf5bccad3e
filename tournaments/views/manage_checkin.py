"""The director's check-in screen: who plays the next round, marked before it is drafted.

Each entrant has a present/absent toggle (a form per row: htmx swaps the row and the
counts; without JavaScript the form posts and the page comes back). The draft button says
how many are present. Thin: permission, one service, render.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from accounts.permissions import event_for_director
from tournaments.formats import ui_for
from tournaments.models import CheckIn, Event
from tournaments.services import checkin
from tournaments.services.errors import ServiceError

PAGE = "tournaments/manage/checkin.html"


def _context(event: Event, **extra: Any) -> dict[str, Any]:
    ui = ui_for(event)
    sheet = checkin.sheet(event)
    last = event.rounds.order_by("-number").first()
    return {
        "event": event,
        "sheet": sheet,
        "note": ui.absence_note(event),
        "offered": ui.check_in,
        # the draft button is offered where the dashboard offers it
        "can_draft": last is None or last.status == "completed",
        **extra,
    }


@login_required
@require_safe
def checkin_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    return render(request, PAGE, _context(event))


@login_required
@require_POST
def checkin_toggle(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Mark entrant ``number`` present or absent for the round the page showed."""
    event = event_for_director(request.user, slug)
    ui = ui_for(event)
    if not ui.check_in:
        raise Http404("This format has no check-in.")
    entrant = event.entrants.filter(number=number).first()
    if entrant is None:
        raise Http404("No such entrant.")
    present = request.POST.get("present") == "1"
    try:
        shown = int(request.POST.get("round", ""))
    except ValueError:
        shown = None
    error = ""
    try:
        # the round the page showed must still be the next one (not drafted since)
        ui.set_presence(
            entrant, present=present, by=request.user, source=CheckIn.Source.DIRECTOR, number=shown
        )
    except ServiceError as problem:
        error = " ".join(problem.messages)
    if getattr(request, "htmx", False):
        context = _context(event, error=error)
        line = next((x for x in context["sheet"].lines if x.entrant.pk == entrant.pk), None)
        if line is None:  # withdrawn meanwhile: the whole sheet again
            return render(request, f"{PAGE}#sheet", context, status=422)
        return render(
            request, f"{PAGE}#toggled", {**context, "line": line}, status=422 if error else 200
        )
    if error:
        messages.error(request, error)
    else:
        state = "present" if present else "absent"
        messages.success(request, f"{entrant.name} is {state} for the next round.")
    return redirect(f"{reverse('tournaments:manage_checkin', args=[slug])}#checkin-{number}")
