"""The director's entrant screens: add and edit inline, CSV import with preview, withdraw."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import event_for_director
from tournaments.forms import CsvImportForm, EntrantForm
from tournaments.models import Entrant
from tournaments.services import entrants as entrant_service
from tournaments.services import events
from tournaments.services.errors import ServiceError

PAGE = "tournaments/manage/entrants.html"


def _entrant(event, number: int) -> Entrant:
    entrant = event.entrants.select_related("team").filter(number=number).first()
    if entrant is None:
        raise Http404("No such entrant.")
    return entrant


@login_required
@require_http_methods(["GET", "POST"])
def entrant_list(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    form = EntrantForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            entrant = events.add_entrant(
                event,
                name=data["name"],
                rating=data["rating"],
                seed=data["seed"],
                country=data["country"],
                gender=data["gender"],
                team=data["team_name"],
                flags=entrant_service.parse_flags(data["flags_text"]),
                by=request.user,
            )
        except ServiceError as error:
            for problem in error.problems:
                form.add_error(
                    problem.field if problem.field in form.fields else None, problem.text
                )
        else:
            if getattr(request, "htmx", False):
                return render(
                    request,
                    f"{PAGE}#added",
                    {"event": event, "entrant": entrant, "form": EntrantForm(event=event)},
                )
            messages.success(request, f"{entrant.name} is registered.")
            return redirect("tournaments:manage_entrants", slug=slug)
    if request.method == "POST" and getattr(request, "htmx", False):
        return render(request, f"{PAGE}#add-form", {"event": event, "form": form}, status=422)
    entrants = event.entrants.select_related("team", "user").order_by("number")
    return render(request, PAGE, {"event": event, "entrants": entrants, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def entrant_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_director(request.user, slug)
    entrant = _entrant(event, number)
    if request.method == "POST":
        form = EntrantForm(request.POST, instance=entrant, event=event)
        if form.is_valid():
            entrant_service.update(
                entrant,
                form.cleaned_data,
                flags=entrant_service.parse_flags(form.cleaned_data["flags_text"]),
                team=form.cleaned_data["team_name"],
                by=request.user,
            )
            entrant.refresh_from_db()
            return render(request, f"{PAGE}#row", {"event": event, "entrant": entrant})
        return render(
            request,
            f"{PAGE}#edit-row",
            {"event": event, "entrant": entrant, "form": form},
            status=422,
        )
    if request.GET.get("cancel"):
        return render(request, f"{PAGE}#row", {"event": event, "entrant": entrant})
    form = EntrantForm(instance=entrant, event=event)
    return render(request, f"{PAGE}#edit-row", {"event": event, "entrant": entrant, "form": form})


@login_required
@require_POST
def entrant_withdraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_director(request.user, slug)
    entrant = _entrant(event, number)
    try:
        events.withdraw(entrant, by=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{entrant.name} has withdrawn.")
    return redirect("tournaments:manage_entrants", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def entrant_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload or paste a CSV; see every row and its problems; save only a valid file."""
    event = event_for_director(request.user, slug)
    preview = None
    csv_text = ""
    if request.method == "POST" and request.POST.get("confirm"):
        csv_text = request.POST.get("csv", "")
        try:
            created = entrant_service.import_csv(event, csv_text, by=request.user)
        except ServiceError:
            preview = entrant_service.preview_csv(event, csv_text)
        else:
            messages.success(request, f"{len(created)} entrants imported.")
            return redirect("tournaments:manage_entrants", slug=slug)
        form = CsvImportForm()
    else:
        form = CsvImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            csv_text = form.cleaned_data["csv"]
            preview = entrant_service.preview_csv(event, csv_text)
    return render(
        request,
        "tournaments/manage/import.html",
        {"event": event, "form": form, "preview": preview, "csv": csv_text},
    )
