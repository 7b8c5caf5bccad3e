"""The event's API tokens on the director's screen (issue 30 step 7): make one (a name,
its scopes, an expiry; the secret shown this once), see each one's prefix, scopes, maker,
creation and last use, and revoke one. Only the event's directors; every change audited
(tournaments/services/api_tokens.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import event_for_director
from tournaments.models import Event
from tournaments.services import api_tokens
from tournaments.services.errors import ServiceError

PAGE = "tournaments/manage/tokens.html"


def _expiry_label(days: int) -> Any:
    if not days:
        return gettext_lazy("Never (until revoked)")
    return {
        30: gettext_lazy("In 30 days"),
        90: gettext_lazy("In 90 days"),
        365: gettext_lazy("In a year"),
    }[days]


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=api_tokens.NAME_MAX,
        help_text=gettext_lazy("Who or what uses it: “federation mirror”, “results backup”."),
    )
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("Scopes"),
        choices=list(api_tokens.SCOPES.items()),
        widget=forms.CheckboxSelectMultiple,
        initial=["export:read"],
    )
    expires = forms.TypedChoiceField(
        label=gettext_lazy("Expires"),
        choices=[(days, _expiry_label(days)) for days in api_tokens.EXPIRIES],
        coerce=int,
        initial=0,
    )


def _context(event: Event, form: TokenForm | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "event": event,
        "form": form or TokenForm(),
        "tokens": api_tokens.tokens_of(event),
        "scopes": api_tokens.SCOPES,
        "export_url": reverse("api-v1:export", args=[event.slug]),
        **extra,
    }


def _answer(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    if getattr(request, "htmx", False):
        return render(request, f"{PAGE}#tokens", context, status=status)
    return render(request, PAGE, context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tokens(request: HttpRequest, slug: str) -> HttpResponse:
    """The list and the form; a valid post makes a token and shows its secret once."""
    event = event_for_director(request.user, slug)
    if request.method != "POST":
        return render(request, PAGE, _context(event))
    form = TokenForm(request.POST)
    if form.is_valid():
        try:
            row, secret = api_tokens.create(
                event,
                name=form.cleaned_data["name"],
                scopes=form.cleaned_data["scopes"],
                expires_in_days=form.cleaned_data["expires"],
                by=request.user,
            )
        except ServiceError as error:
            for problem in error.problems:
                where = problem.field if problem.field in form.fields else None
                form.add_error(where, problem.text)
        else:
            # the secret goes in this answer only: never stored, never shown again
            response = _answer(request, _context(event, new_token=row, secret=secret))
            response["Cache-Control"] = "no-store"
            return response
    return _answer(request, _context(event, form), status=422)


@login_required
@require_POST
def revoke(request: HttpRequest, slug: str, token_id: int) -> HttpResponse:
    event = event_for_director(request.user, slug)
    try:
        row = api_tokens.revoke(event, token_id, by=request.user)
    except ServiceError as error:
        if getattr(request, "htmx", False):
            return _answer(request, _context(event, error=" ".join(error.messages)), status=404)
        messages.error(request, " ".join(error.messages))
        return redirect("tournaments:manage_tokens", slug=slug)
    done = _("Token %(prefix)s… (%(name)s) revoked: it is refused from now on.") % {
        "prefix": row.prefix,
        "name": row.name,
    }
    if getattr(request, "htmx", False):
        return _answer(request, _context(event, done=done))
    messages.success(request, done)
    return redirect("tournaments:manage_tokens", slug=slug)
