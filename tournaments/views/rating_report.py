"""Send to the rating officer: the check, the file, a confirmation (tournaments/services/
rating_report.py). Thin: permission, form, one service call."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from accounts.permissions import event_for_director
from tournaments.models import Event
from tournaments.services import rating_report
from tournaments.services.errors import ServiceError

PAGE = "tournaments/reports/rating.html"


class HeaderForm(forms.Form):
    country = forms.CharField(
        label=_("Country"),
        max_length=120,
        required=False,
        help_text=_("The header's Country: where the event was played."),
    )
    date = forms.CharField(
        label=_("Date"),
        max_length=120,
        required=False,
        help_text=_("The header's Date: dd/mm/yyyy, or dd/mm/yyyy - dd/mm/yyyy."),
    )
    sender = forms.CharField(
        label=_("Sender"),
        max_length=120,
        required=False,
        help_text=_("The header's Sender: who sends the results (a name)."),
    )
    token = forms.CharField(widget=forms.HiddenInput, required=False)

    def header(self) -> dict[str, str]:
        data = self.cleaned_data
        return {
            "Country": data.get("country") or "",
            "Date": data.get("date") or "",
            "Sender": data.get("sender") or "",
        }


def _page(request: HttpRequest, event: Event, form: HeaderForm, status: int = 200) -> HttpResponse:
    given = form.header() if form.is_bound and form.is_valid() else None
    prepared = rating_report.prepare(event, given)
    if not form.is_bound:
        shown = prepared.file_header
        form = HeaderForm(initial={key.lower(): shown.get(key, "") for key in rating_report.TYPED})
    context = {
        "event": event,
        "form": form,
        "prepared": prepared,
        "lines": prepared.text.splitlines(),
        "findings": rating_report.said(prepared.findings),
        "errors": len(prepared.errors),
        "warnings": len(prepared.warnings),
        "officer": rating_report.officer(),
        "submissions": list(event.rating_submissions.select_related("sent_by")[:20]),
    }
    return render(request, PAGE, context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def rating_report_view(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the check and the file (with ?country=&sender= typed, checked again); POST: send
    what the page showed, refused when the event changed since."""
    event = event_for_director(request.user, slug)
    if not rating_report.eligible(event):
        messages.error(
            request, _("A WOF rating file holds a WOC or round-robin event; this one is not.")
        )
        return redirect("tournaments:reports_index", slug=event.slug)
    if request.method != "POST":
        form = HeaderForm(request.GET) if "country" in request.GET else HeaderForm()
        return _page(request, event, form)
    form = HeaderForm(request.POST)
    if form.is_valid():
        try:
            submission = rating_report.send(
                event, form.header(), form.cleaned_data["token"], by=request.user
            )
        except ServiceError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(
                request,
                _("%(file)s is kept and mailed to %(recipient)s.")
                % {"file": submission.filename, "recipient": submission.recipient},
            )
            return redirect("tournaments:reports_rating", slug=event.slug)
    return _page(request, event, form, status=409 if form.non_field_errors() else 422)
