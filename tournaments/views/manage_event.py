"""The director's event screens: create an event, its dashboard, standings preview."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.permissions import event_for_director, is_head_director, require
from rules import registry
from tournaments import ratelimit, selectors
from tournaments.formats import ui_for
from tournaments.forms import EventForm, SettingsForm
from tournaments.services import checkin, double_entry, events, standings
from tournaments.services.errors import ServiceError
from tournaments.words import decided_detail, sentence


def _saving(request: HttpRequest) -> bool:
    return request.method == "POST" and "save" in request.POST


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@ratelimit.limit("event_create", when=_saving)
@ratelimit.limit("event_create_address", ratelimit.ip_key, when=_saving)
def create_event(request: HttpRequest) -> HttpResponse:
    """Any signed-in user may create an event and becomes its director."""
    form = EventForm(request.POST or None)
    settings_form = None
    format_key = request.POST.get("format") or request.GET.get("format")
    if format_key and format_key in registry.formats():  # the form's format choices
        settings_form = SettingsForm(format_key, request.POST if "save" in request.POST else None)
    saving = request.method == "POST" and "save" in request.POST
    if saving and form.is_valid() and settings_form is not None and settings_form.is_valid():
        data = form.cleaned_data
        try:
            event = events.create_event(
                slug=data["slug"],
                name=data["name"],
                format=data["format"],
                by=request.user,
                settings=settings_form.cleaned_data["settings"],
                public=data["public"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                time_zone=data["time_zone"],
                venue=data["venue"],
            )
        except ServiceError as error:
            for problem in error.problems:
                field = problem.field if problem.field in form.fields else None
                form.add_error(field, sentence(problem))
        else:
            messages.success(request, f"{event.name} is created. Add its entrants next.")
            return redirect("tournaments:manage_entrants", slug=event.slug)
    template = "tournaments/manage/create.html"
    if getattr(request, "htmx", False) and "save" not in request.POST:
        template += "#settings"
    return render(request, template, {"form": form, "settings_form": settings_form})


@login_required
@require_safe
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    rounds = list(event.rounds.order_by("number"))
    return render(
        request,
        "tournaments/manage/dashboard.html",
        {
            "event": event,
            "rounds": rounds,
            "last": rounds[-1] if rounds else None,
            "entrant_count": event.entrants.count(),
            "active_count": event.entrants.filter(status="active").count(),
            "audit": event.audit_entries.select_related("actor")[:15],
            "standings_state": standings.standings_state(event),
            "directors": event.directors.order_by("username"),
            "head": is_head_director(request.user, event),
            # what waits for this director: generic items, then the format's own
            "needs": [
                *double_entry.needs_director(event, request.user),
                *ui_for(event).needs_director(event),
            ],
            # the projector shows the newest round the public sees (none before one)
            "projected": next(reversed(selectors.public_rounds(event)), None),
            # who plays the next round (issue 21), where the format has a check-in
            "checkin": checkin.sheet(event) if ui_for(event).check_in else None,
        },
    )


@login_required
@require_safe
def standings_preview(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as the engine computes them now, beside what the public sees."""
    event = event_for_director(request.user, slug)
    live = standings.compute(event)
    names = {str(e.number): e for e in event.entrants.all()}
    snapshot, _ = selectors.published_standings(event)
    tables = [
        {
            "title": table.title,
            "columns": table.columns,
            "rows": [
                {
                    "rank": row.rank,
                    "entrant": names.get(row.entrant),
                    "status": row.status,
                    "cells": [row.values.get(c.key) for c in table.columns],
                }
                for row in table.rows
            ],
            "decided": [
                {
                    "ahead": names.get(d.ahead),
                    "behind": names.get(d.behind),
                    "detail": decided_detail(d),
                }
                for d in table.decided
            ],
        }
        for table in live.tables
    ]
    return render(
        request,
        "tournaments/manage/standings.html",
        {"event": event, "tables": tables, "pending": live.pending, "snapshot": snapshot},
    )


@login_required
@require_POST
def publish_standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    if standings.refresh(event.pk, event.results_version):
        messages.success(request, "The standings are published.")
    else:
        messages.info(request, "The published standings were already current.")
    return redirect(reverse("tournaments:manage_standings", args=[event.slug]))


@login_required
@require_safe
def conformance_verdict(request: HttpRequest, slug: str) -> HttpResponse:
    """The rules checker's verdict on the record (loaded into the dashboard by HTMX)."""
    from tournaments.services import conformance

    event = event_for_director(request.user, slug)
    verdict = conformance.check_event(event)
    template = "tournaments/manage/check.html"
    if getattr(request, "htmx", False):
        template += "#verdict"
    return render(request, template, {"event": event, "verdict": verdict})


@login_required
@require_POST
def set_double_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """Double entry of results on or off: the head director's choice."""
    event = event_for_director(request.user, slug)
    require(is_head_director(request.user, event))
    enabled = request.POST.get("double_entry") == "on"
    if double_entry.set_enabled(event, enabled, by=request.user):
        if enabled:
            messages.success(
                request, "Double entry is on: a result is saved when two people's entries agree."
            )
        else:
            messages.success(request, "Double entry is off: a result is saved as it is typed.")
    return redirect("tournaments:manage", slug=slug)


@login_required
@require_POST
def add_director(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    try:
        user = events.add_director(event, request.POST.get("username", ""), by=request.user)
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{user} now directs {event.name}.")
    return redirect("tournaments:manage", slug=slug)
