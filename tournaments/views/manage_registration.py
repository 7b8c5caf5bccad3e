"""The director's entries screen (issue 32): registration settings, the rating list, the
qualification list, the line of entries with accept / refuse / move to waiting, and "Make
entrants". Thin: permission, a form, one service, redirect (PRG) or the page with errors."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Case, IntegerField, Value, When
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.permissions import event_for_director
from tournaments.forms_entries import ListUploadForm, QualifyForm, RegistrationForm
from tournaments.models import Entry, Event, RatingListRow
from tournaments.services import places, qualification, rating_list
from tournaments.services import registration as registration_settings
from tournaments.services.errors import ServiceError
from tournaments.views.entries import add_problems

PAGE = "tournaments/manage/entries.html"


def _zone(event: Event) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(event.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _settings_form(event: Event, data: Any = None) -> RegistrationForm:
    registration = places.registration_of(event)
    initial = {
        "open": registration.open,
        "capacity": registration.capacity,
        "closes_at": (
            registration.closes_at.astimezone(_zone(event)).strftime("%Y-%m-%dT%H:%M")
            if registration.closes_at
            else ""
        ),
        "confirm_hours": registration.confirm_hours,
        "min_rating": registration.min_rating,
        "federations": registration.federations,
    }
    return RegistrationForm(data, initial=initial, zone=_zone(event))


def _page(request: HttpRequest, event: Event, status: int = 200, **forms: Any) -> HttpResponse:
    registration = places.registration_of(event)
    in_line = Case(
        When(status__in=Entry.HOLDING, then=Value(0)),
        When(status=Entry.Status.WAITING, then=Value(1)),
        When(status=Entry.Status.UNCONFIRMED, then=Value(2)),
        default=Value(3),
        output_field=IntegerField(),
    )
    entries = list(
        Entry.objects.filter(event=event)
        .select_related("entrant")
        .annotate(line=in_line)
        .order_by("line", "order", "created_at")
    )
    counts = {s: 0 for s in Entry.Status.values}
    for entry in entries:
        counts[entry.status] += 1
    context = {
        "event": event,
        "registration": registration,
        "entries": entries,
        "counts": counts,
        "held": counts["accepted"] + counts["offered"],
        "to_make": sum(1 for e in entries if e.status == "accepted" and e.entrant_id is None),
        "listed": RatingListRow.objects.filter(event=event).count(),
        "form_url": request.build_absolute_uri(reverse("tournaments:enter", args=[event.slug])),
        "settings_form": forms.get("settings_form") or _settings_form(event),
        "list_form": forms.get("list_form") or ListUploadForm(),
        "qualify_form": forms.get("qualify_form") or QualifyForm(),
    }
    return render(request, PAGE, context, status=status)


@login_required
@require_safe
def entries(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    places.check_due(event)
    return _page(request, event)


def _back(slug: str, anchor: str = "") -> HttpResponse:
    return redirect(reverse("tournaments:manage_entries_list", args=[slug]) + anchor)


@login_required
@require_POST
def save_settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    form = _settings_form(event, request.POST)
    if form.is_valid():
        try:
            registration_settings.update_settings(event, dict(form.cleaned_data), by=request.user)
        except ServiceError as error:
            add_problems(form, error)
        else:
            messages.success(request, _("Registration settings saved."))
            return _back(slug)
    return _page(request, event, status=422, settings_form=form)


@login_required
@require_POST
def upload_rating_list(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    form = ListUploadForm(request.POST, request.FILES)
    if form.is_valid():
        text = form.cleaned_data["file"]
        parse = (
            rating_list.parse_wof if form.cleaned_data["kind"] == "wof" else rating_list.parse_csv
        )
        rows, problems = parse(text)
        if problems:
            for problem in problems[:20]:
                form.add_error("file", problem.text or str(problem.code))
        else:
            upload = request.FILES.get("file")
            name = getattr(upload, "name", "") or "file"
            count = rating_list.replace(event, rows, by=request.user, source=name)
            messages.success(request, _("Rating list read: %(n)s players.") % {"n": count})
            return _back(slug)
    return _page(request, event, status=422, list_form=form)


@login_required
@require_POST
def upload_qualification(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    form = QualifyForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            offered = qualification.build_from_form(event, form.cleaned_data, by=request.user)
        except ServiceError as error:
            add_problems(form, error)
        else:
            messages.success(
                request, _("Qualification list built: %(n)s invitations sent.") % {"n": offered}
            )
            return _back(slug)
    return _page(request, event, status=422, qualify_form=form)


DIRECTOR_ACTIONS = {
    "accept": places.director_accept,
    "refuse": places.director_refuse,
    "wait": places.director_to_waiting,
}


@login_required
@require_POST
def entry_action(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    entry = Entry.objects.filter(event=event, pk=pk).first()
    act = DIRECTOR_ACTIONS.get(action)
    if entry is None or act is None:
        raise Http404("No such entry.")
    try:
        act(entry, by=request.user)
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(name)s: done.") % {"name": entry.name})
    return _back(slug, f"#entry-{pk}")


@login_required
@require_POST
def make_entrants(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    numbers = places.make_entrants(event, by=request.user)
    messages.success(request, _("%(n)s entrants made from accepted entries.") % {"n": len(numbers)})
    return _back(slug)
