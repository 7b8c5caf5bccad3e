"""The director's entrant screens: add and edit inline, CSV import with preview, withdraw."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import event_for_director
from tournaments.forms import ENTRANT_LABELS, CsvConfirmForm, CsvImportForm, EntrantForm
from tournaments.models import Entrant, Event
from tournaments.services import corrections, events, invitations
from tournaments.services import entrants as entrant_service
from tournaments.services.errors import ServiceError
from tournaments.views.manage_import import forget_long_paste
from tournaments.views.manage_rounds import redraw_number, seen_version
from tournaments.words import sentence

PAGE = "tournaments/manage/entrants.html"
EDIT_PAGE = "tournaments/manage/entrant_edit.html"
WITHDRAW_PAGE = "tournaments/manage/withdraw.html"


def _entrant(event: Event, number: int) -> Entrant:
    entrant = event.entrants.select_related("team").filter(number=number).first()
    if entrant is None:
        raise Http404("No such entrant.")
    return entrant


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def entrant_list(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    # bound on every POST, even an empty one, so that a refusal always says why
    form = EntrantForm(request.POST if request.method == "POST" else None, event=event)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            entrant = events.add_entrant(
                event,
                name=data["name"],
                family_name=data["family_name"],
                given_name=data["given_name"],
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
                    problem.field if problem.field in form.fields else None, sentence(problem)
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
@require_http_methods(["GET", "HEAD", "POST"])
def entrant_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_director(request.user, slug)
    entrant = _entrant(event, number)
    htmx = getattr(request, "htmx", False)
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
            if not htmx:
                messages.success(request, f"{entrant.name} is saved.")
                return redirect("tournaments:manage_entrants", slug=slug)
            return render(request, f"{PAGE}#row", {"event": event, "entrant": entrant})
        return render(
            request,
            f"{PAGE}#edit-row" if htmx else EDIT_PAGE,
            {"event": event, "entrant": entrant, "form": form},
            status=422,
        )
    if request.GET.get("cancel"):
        if not htmx:
            return redirect("tournaments:manage_entrants", slug=slug)
        return render(request, f"{PAGE}#row", {"event": event, "entrant": entrant})
    form = EntrantForm(instance=entrant, event=event)
    # The "edit" link opens the row in place with htmx; followed without it (no script, a
    # new tab) it is a page of its own.
    template = f"{PAGE}#edit-row" if htmx else EDIT_PAGE
    return render(request, template, {"event": event, "entrant": entrant, "form": form})


@login_required
@require_POST
def entrant_withdraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Once rounds are paired, a withdrawal is previewed (standings, contention, the draft's
    pairing) and saved only when the director confirms that preview."""
    event = event_for_director(request.user, slug)
    entrant = _entrant(event, number)
    reason = request.POST.get("reason", "")
    digest = request.POST.get("confirm", "")
    stale: list[str] = []
    try:
        if digest:
            seen = seen_version(request)
            corrections.confirm_withdrawal(
                entrant,
                results_version=seen,
                digest=digest,
                by=request.user,
                reason=reason,
                redraw=redraw_number(request),
            )
        elif event.rounds.exists():
            preview = corrections.preview_withdrawal(entrant)
            return render(request, WITHDRAW_PAGE, _withdraw_context(event, entrant, preview))
        else:
            events.withdraw(entrant, by=request.user, reason=reason)
    except corrections.StalePreview as error:
        stale = error.messages
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("tournaments:manage_entrants", slug=slug)
    if stale:
        preview = corrections.preview_withdrawal(entrant)
        context = _withdraw_context(event, entrant, preview, stale=stale, reason=reason)
        return render(request, WITHDRAW_PAGE, context, status=409)
    messages.success(request, f"{entrant.name} has withdrawn.")
    if note := corrections.redraw_note(event, redraw_number(request) if digest else 0):
        messages.success(request, note)
    return redirect("tournaments:manage_entrants", slug=slug)


@login_required
@require_POST
def entrant_invite(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A new invite link for the entrant: the old one stops working (and a claim made with
    it is released)."""
    event = event_for_director(request.user, slug)
    entrant = _entrant(event, number)
    renewed = invitations.renew_code(
        entrant, by=request.user, reason=request.POST.get("reason", "")
    )
    if getattr(request, "htmx", False):
        return render(request, f"{PAGE}#row", {"event": event, "entrant": renewed})
    messages.success(request, f"{renewed.name} has a new invite link; the old one no longer works.")
    return redirect(f"{reverse('tournaments:manage_entrants', args=[slug])}#entrant-{number}")


def _withdraw_context(
    event: Event, entrant: Entrant, preview: object, **extra: Any
) -> dict[str, Any]:
    return {"event": event, "entrant": entrant, "preview": preview, **extra}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def entrant_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload or paste a CSV; see every row and its problems; save only a valid file."""
    event = event_for_director(request.user, slug)
    preview = None
    sealed = ""
    status = 200
    context: dict[str, Any] = {}
    if request.method == "POST" and request.POST.get("confirm"):
        form = CsvImportForm()
        confirm = CsvConfirmForm(request.POST)
        if not confirm.is_valid():
            context["refused"] = confirm.errors["sealed"]
            status = 400
        else:
            sealed_file = confirm.cleaned_data["sealed"]
            csv_text, order = sealed_file["csv"], sealed_file["order"]
            try:
                created = entrant_service.import_csv(event, csv_text, by=request.user, order=order)
            except ServiceError:
                preview = entrant_service.preview_csv(event, csv_text, order)
                status = 422
            else:
                messages.success(request, f"{len(created)} entrants imported.")
                return redirect("tournaments:manage_entrants", slug=slug)
    else:
        # every POST is bound, an empty one too: it is refused with a message
        bound = request.method == "POST"
        form = CsvImportForm(request.POST if bound else None, request.FILES if bound else None)
        if request.method == "POST" and form.is_valid():
            sealed = form.cleaned_data["sealed"]
            data = form.cleaned_data
            preview = entrant_service.preview_csv(event, data["csv"], data["order"])
        elif request.method == "POST":
            status = 422
        if status == 422 or (preview is not None and not preview.valid):
            forget_long_paste(form, context)
    context |= {
        "event": event,
        "form": form,
        "preview": preview,
        "table": preview_table(preview) if preview else None,
        "sealed": sealed,
        "max_rows": f"{entrant_service.MAX_ROWS:,}",
        "max_megabytes": entrant_service.MAX_BYTES // 1_000_000,
    }
    return render(
        request,
        "tournaments/manage/import.html",
        context,
        status=status,
    )


# The preview's column headings: every column the importer reads (issue 28: gender, flags and
# external_id were read and saved without being shown).
COLUMN_HEADINGS = ENTRANT_LABELS


def preview_table(preview: entrant_service.Preview) -> dict[str, Any]:
    """The preview's headings and, per row, each shown column's value as it will be saved."""

    def shown(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, dict):
            return "; ".join(k if v is True else f"{k}={v}" for k, v in value.items())
        return str(value)

    columns = preview.columns
    return {
        "headings": [COLUMN_HEADINGS[c] for c in columns],
        "rows": [(row, [shown(row.values.get(c)) for c in columns]) for row in preview.rows],
    }
