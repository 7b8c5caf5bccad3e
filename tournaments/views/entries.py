"""The public side of registration (issue 32): the entry form and an entry's own page,
whose secret address (mailed) confirms the e-mail, takes or declines an offered place, or
withdraws. Thin: permission, one service, render."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.permissions import event_for_viewer
from tournaments.forms_entries import EntryForm
from tournaments.models import Entry
from tournaments.services import places
from tournaments.services.errors import ServiceError

FORM_PAGE = "tournaments/enter.html"
ENTRY_PAGE = "tournaments/entry.html"


def add_problems(form: forms.Form, error: ServiceError) -> None:
    """A service's refusal on the form: each problem on its field, or above the form."""
    for problem, said in zip(error.problems, error.messages, strict=True):
        field = problem.field if problem.field in form.fields else None
        form.add_error(field, said)


@require_http_methods(["GET", "HEAD", "POST"])
def enter(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    registration = places.registration_of(event)
    user = request.user
    initial = {}
    if user.is_authenticated:
        initial = {"name": str(user), "email": getattr(user, "email", "")}
    form = EntryForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                entry = places.enter(
                    event,
                    name=data["name"],
                    email=data["email"],
                    user=user,
                    external_id=data["external_id"],
                )
            except ServiceError as error:
                add_problems(form, error)
            else:
                return redirect(reverse("tournaments:entry", args=[slug, entry.token]))
        status = 422
    problems = places.entry_problems(
        event, registration, name="-", email="", external_id="", now=timezone.now()
    )
    closed = [p for p in problems if p.field == ""]
    context: dict[str, Any] = {
        "event": event,
        "registration": registration,
        "form": form,
        "closed": closed[0].text if closed else "",
        "held": places.held(event),
    }
    return render(request, FORM_PAGE, context, status=status)


ACTIONS = {
    "confirm_email": places.confirm_email,
    "confirm": places.confirm_place,
    "decline": places.decline,
    "withdraw": places.withdraw,
}


@require_http_methods(["GET", "HEAD", "POST"])
def entry(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """An entry's own page: its address is its secret (no sign-in)."""
    event = event_for_viewer(request.user, slug)
    found = Entry.objects.filter(event=event, token=token).first()
    if found is None:
        raise Http404("No such entry.")
    error = ""
    if request.method == "POST":
        action = ACTIONS.get(request.POST.get("action", ""))
        if action is None:
            error = _("Unknown action.")
        else:
            try:
                action(found)
            except ServiceError as refusal:
                error = " ".join(refusal.messages)
            else:
                return redirect(reverse("tournaments:entry", args=[slug, token]))
    else:
        places.check_due(event)  # a missed deadline is passed on before it is shown
    found.refresh_from_db()
    ahead = 0
    if found.status == Entry.Status.WAITING:
        ahead = Entry.objects.filter(
            event=event, status=Entry.Status.WAITING, order__lt=found.order
        ).count()
    context = {"event": event, "entry": found, "position": ahead + 1, "error": error}
    return render(request, ENTRY_PAGE, context, status=422 if error else 200)
