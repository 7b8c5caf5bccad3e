"""Reports: the director asks for a file, a task builds it, the page shows its progress
(HTMX polls one row) and offers the download. Thin: permission, form, one service call."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.permissions import event_for_director, event_for_viewer, is_director
from tournaments import selectors
from tournaments.models import Event, Report
from tournaments.services import rating_report, reports
from tournaments.services.errors import ServiceError
from tournaments.services.report_files import ROUND_KINDS

PAGE = "tournaments/reports/index.html"
CONTENT_TYPES = {"pdf": "application/pdf", "csv": "text/csv; charset=utf-8"}


class ReportForm(forms.Form):
    kind = forms.ChoiceField(label=_("Report"), choices=Report.Kind.choices)
    round_number = forms.IntegerField(
        label=_("Round"),
        required=False,
        min_value=1,
        help_text=_("For pairings sheets and result slips; empty: the latest round."),
    )


def _choices(event: Event) -> dict[str, Any]:
    return {
        "all_rounds": reports.rounds_for_choice(event),
        "round_kinds": sorted(ROUND_KINDS),
    }


def _page(request: HttpRequest, event: Event, form: ReportForm, status: int = 200) -> HttpResponse:
    return render(
        request,
        PAGE,
        {
            "event": event,
            "form": form,
            "reports": reports.for_event(event),
            "rating_report": rating_report.eligible(event),
            **_choices(event),
        },
        status=status,
    )


@require_safe
def reports_index(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    return _page(request, event, ReportForm())


@require_POST
def reports_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Ask for a report. Asking again for the same report (a second click while it builds)
    is answered with the same one, and the page says so: never a second build, never a
    click lost without a word."""
    event = event_for_director(request.user, slug)
    form = ReportForm(request.POST)
    htmx = getattr(request, "htmx", False)
    if form.is_valid():
        now = timezone.now()
        try:
            report = reports.request(
                event,
                form.cleaned_data["kind"],
                round_number=form.cleaned_data["round_number"],
                by=request.user,
                base_url=request.build_absolute_uri("/"),  # invitation slips print links
                now=now,
            )
        except ServiceError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            # a report made by this request carries this request's time
            asked = {"report": report, "again": report.requested_at != now}
            if htmx:  # the list again: asking twice shows one row, marked
                context = {"event": event, "reports": reports.for_event(event), "asked": asked}
                return render(request, f"{PAGE}#report-rows", context)
            kind = report.get_kind_display()
            if asked["again"]:
                messages.info(
                    request,
                    _(
                        "%(report)s: already asked for with the same results, so it is the "
                        "same report (marked below); it is not built twice."
                    )
                    % {"report": kind},
                )
            else:
                messages.success(
                    request,
                    _("%(report)s: asked for; it is built in the background (marked below).")
                    % {"report": kind},
                )
            return redirect("tournaments:reports_index", slug=event.slug)
    if htmx:
        # the form again with its errors, in place of the form (manage.js swaps a 422)
        response = render(
            request,
            f"{PAGE}#report-form",
            {"event": event, "form": form, **_choices(event)},
            status=422,
        )
        response["HX-Retarget"] = "#report-form"
        response["HX-Reswap"] = "outerHTML"
        return response
    return _page(request, event, form, status=422)


@require_safe
def reports_status(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One report's row: what the page polls while the report builds."""
    event = event_for_director(request.user, slug)
    report = get_object_or_404(Report, pk=pk, event=event)
    if getattr(request, "htmx", False):
        response = render(request, f"{PAGE}#report-row", {"event": event, "report": report})
    else:
        response = _page(request, event, ReportForm())
    patch_vary_headers(response, ["HX-Request"])
    return response


def _file_response(report: Report) -> FileResponse:
    name = report.file.name.rsplit("/", 1)[-1].split("-", 1)[-1]
    ext = name.rsplit(".", 1)[-1]
    return FileResponse(
        report.file.open("rb"),
        as_attachment=ext == "csv",
        filename=name,
        content_type=CONTENT_TYPES.get(ext, "application/octet-stream"),
    )


@require_safe
def reports_download(request: HttpRequest, slug: str, pk: int) -> FileResponse:
    event = event_for_director(request.user, slug)
    report = get_object_or_404(Report, pk=pk, event=event, status=Report.Status.DONE)
    return _file_response(report)


@require_http_methods(["GET", "HEAD"])
def reports_public_standings(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The standings as PDF: public for a public event, directors only for a private one.
    Built once per published standings version; while it builds, a page that reloads."""
    event = event_for_viewer(request.user, slug)
    if not event.public and not is_director(request.user, event):
        raise Http404("No such event.")
    report = reports.public_standings_pdf(event)
    report.refresh_from_db()
    htmx = getattr(request, "htmx", False)
    if report.status == Report.Status.DONE:
        if htmx:  # the waiting page's poller: the browser fetches the file itself
            return HttpResponse(status=204, headers={"HX-Redirect": request.path})
        return _file_response(report)
    template = "tournaments/reports/public_wait.html"
    response = render(
        request,
        f"{template}#wait" if htmx else template,
        {"event": event, "report": report, "rounds": selectors.public_rounds(event)},
        status=503 if report.status == Report.Status.FAILED else 202,
    )
    patch_vary_headers(response, ["HX-Request"])
    return response
