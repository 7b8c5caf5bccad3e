"""Sign-in, sign-up and claiming an entrant. Thin: form, permission, one service, render."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.forms import ClaimForm, SignUpForm
from accounts.models import User
from tournaments import ratelimit
from tournaments.services.errors import ServiceError

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _cool_off_minutes(request: HttpRequest, credentials: Any = None) -> int:
    """Minutes until the lock ends: the cool-off counts from the failure that locked
    (failures while locked are not counted: AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT)."""
    import math

    from axes.helpers import get_client_ip_address, get_client_username, get_cool_off
    from axes.models import AccessAttempt
    from django.db.models import Max
    from django.utils import timezone

    cool_off = get_cool_off(request)
    if not isinstance(cool_off, timedelta):
        return round(float(getattr(settings, "AXES_COOLOFF_TIME", 0.25)) * 60)
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    last = AccessAttempt.objects.filter(
        username=get_client_username(request, credentials), ip_address=address or None
    ).aggregate(last=Max("attempt_time"))["last"]
    left = cool_off if last is None else last + cool_off - timezone.now()
    return max(1, math.ceil(left.total_seconds() / 60))


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The page a locked-out sign-in gets (also usable as AXES_LOCKOUT_CALLABLE)."""
    return render(
        request,
        "accounts/locked_out.html",
        {"minutes": _cool_off_minutes(request, credentials)},
        status=429,
    )


# The class-based auth views answer OPTIONS, and their forms take PUT like POST; nobody
# decided on those (tests/test_authorization.py asks every view every method). HEAD is
# answered where GET is.
FORM_METHODS = ["get", "head", "post"]
PAGE_METHODS = ["get", "head"]


class SignInView(auth_views.LoginView):
    template_name = "registration/login.html"
    http_method_names = FORM_METHODS

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # Arriving from an invite link: say why the sign-in is needed.
        context["claiming"] = str(context.get("next", "")).startswith(reverse("accounts:claim"))
        return context

    def form_invalid(self, form: Any) -> HttpResponse:
        if getattr(self.request, "axes_locked_out", False):
            response = locked_out(self.request)
            # This page already says why and for how long; without clearing the flag the
            # axes middleware would swap it for its plain-text default.
            self.request.axes_locked_out = False  # type: ignore[attr-defined]  # axes' own flag
            return response
        return super().form_invalid(form)


class PasswordChangeView(auth_views.PasswordChangeView):
    http_method_names = FORM_METHODS
    success_url = reverse_lazy("accounts:password_change_done")


class PasswordResetView(auth_views.PasswordResetView):
    http_method_names = FORM_METHODS
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    http_method_names = FORM_METHODS
    success_url = reverse_lazy("accounts:password_reset_complete")

    def dispatch(self, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # Django's own dispatch answers a bad link before it looks at the method.
        if (self.request.method or "").lower() not in self.http_method_names:
            return self.http_method_not_allowed(self.request, *args, **kwargs)
        return super().dispatch(*args, **kwargs)


def _next_url(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@require_http_methods(["GET", "HEAD", "POST"])
@ratelimit.limit("signup", ratelimit.ip_key, when=ratelimit.posted)
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next_url(request, reverse(settings.LOGIN_REDIRECT_URL)))
    # an empty POST is a form sent empty: its errors say what is missing
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.create_account(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except ServiceError as error:
            for problem in error.problems:
                form.add_error(problem.field or None, problem.text)
        else:
            login(request, user, backend=MODEL_BACKEND)
            return redirect(_next_url(request, reverse("accounts:claim")))
    status = 422 if form.is_bound else 200
    context = {"form": form, "next": _next_url(request, "")}
    return render(request, "accounts/signup.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def claim(request: HttpRequest) -> HttpResponse:
    """Type a claim code; a good one leads to the same confirmation as the invite link."""
    form = ClaimForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            entrant = services.claim_entrant(request.user, form.cleaned_data["code"])
        except ServiceError as error:
            for problem in error.problems:
                form.add_error("code", problem.text)
        else:
            return redirect("accounts:claim_code", code=entrant.claim_code)
    status = 422 if form.is_bound else 200
    user = request.user
    assert isinstance(user, User)  # login_required
    entries = user.entries.select_related("event").order_by("event__name")
    return render(request, "accounts/claim.html", {"form": form, "entries": entries}, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def claim_code(request: HttpRequest, code: str) -> HttpResponse:
    """The invite link: GET shows whose entry this is, POST claims it."""
    entrant = services.entrant_for_code(code)
    if entrant is None:
        raise Http404("No entry has this claim code.")
    errors: list[str] = []
    if request.method == "POST":
        try:
            services.claim_entrant(request.user, code)
        except ServiceError as error:
            errors = error.messages
        else:
            return HttpResponseRedirect(request.path)
    context = {
        "entrant": entrant,
        "event": entrant.event,
        "mine": entrant.user_id == request.user.pk,
        "taken": entrant.user_id is not None and entrant.user_id != request.user.pk,
        "errors": errors,
    }
    return render(request, "accounts/claim_code.html", context, status=422 if errors else 200)
