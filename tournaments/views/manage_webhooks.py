"""The director's webhooks: the event's endpoints (add, turn off or on, delete, send a
test) and the delivery log with a "send again" (docs/api.md, "Webhooks").

Thin: permission (the event's directors only: anyone else gets a 404), one service, render.
The secret of a new endpoint is in the answer to the form that made it, and nowhere after.
Forms post without JavaScript; with htmx the endpoints' list or the delivery's row is swapped.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.permissions import event_for_director
from tournaments.models import Event, WebhookDelivery, WebhookEndpoint
from tournaments.services import webhooks
from tournaments.services.errors import ServiceError

PAGE = "tournaments/manage/webhooks.html"
LOG = "tournaments/manage/webhook_deliveries.html"
SHOWN = 100  # the newest deliveries on the log page


def _endpoints_context(event: Event, **extra: Any) -> dict[str, Any]:
    return {
        "event": event,
        "endpoints": list(event.webhook_endpoints.order_by("created_at", "id")),
        "kinds": WebhookEndpoint.Kind.choices,
        **extra,
    }


def _endpoint(event: Event, pk: int) -> WebhookEndpoint:
    endpoint = event.webhook_endpoints.filter(pk=pk).first()
    if endpoint is None:
        raise Http404("No such webhook.")
    return endpoint


def _answer(request: HttpRequest, event: Event, status: int = 200, **extra: Any) -> HttpResponse:
    context = _endpoints_context(event, **extra)
    if getattr(request, "htmx", False):
        return render(request, f"{PAGE}#endpoints", context, status=status)
    return render(request, PAGE, context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def webhook_list(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    if request.method != "POST":
        return render(request, PAGE, _endpoints_context(event, chosen=list(webhooks.KINDS)))
    url = request.POST.get("url", "")
    chosen = request.POST.getlist("kinds")
    try:
        endpoint, secret = webhooks.create_endpoint(event, url, chosen, by=request.user)
    except ServiceError as error:
        fields = {p.field: p.text for p in error.problems}
        return _answer(request, event, 422, errors=fields, url=url, chosen=chosen)
    # the only time the secret is shown; the page is not cached (login pages never are)
    return _answer(request, event, 201, new=endpoint, secret=secret, chosen=list(webhooks.KINDS))


@login_required
@require_POST
def webhook_change(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Turn an endpoint off or on, delete it, or send it a test message."""
    event = event_for_director(request.user, slug)
    endpoint = _endpoint(event, pk)
    action = request.POST.get("action", "")
    if action == "off":
        webhooks.set_active(endpoint, False, by=request.user)
        note = _("The webhook is off: nothing more is sent to it.")
    elif action == "on":
        webhooks.set_active(endpoint, True, by=request.user)
        note = _("The webhook is on.")
    elif action == "delete":
        webhooks.delete_endpoint(endpoint, by=request.user)
        note = _("The webhook is deleted, with its delivery log.")
    elif action == "test" and endpoint.active:
        row = webhooks.send_test(endpoint)
        row.refresh_from_db()
        if row.status == WebhookDelivery.Status.DELIVERED:
            note = _("Test message delivered.")
        elif row.attempts:
            note = _("The test message was not delivered: %(why)s. It is tried again later.") % {
                "why": row.last_error or row.last_status_code
            }
        else:
            note = _("Test message sent: see the delivery log.")
    else:
        return _answer(request, event, 422, note=_("Nothing was changed."))
    if getattr(request, "htmx", False):
        return _answer(request, event, note=note)
    messages.success(request, note)
    return redirect("tournaments:manage_webhooks", slug=slug)


def _log_context(event: Event, **extra: Any) -> dict[str, Any]:
    rows = (
        WebhookDelivery.objects.filter(endpoint__event=event)
        .select_related("endpoint")
        .order_by("-created_at", "-id")[:SHOWN]
    )
    return {"event": event, "deliveries": list(rows), "shown": SHOWN, **extra}


@login_required
@require_safe
def delivery_log(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    return render(request, LOG, _log_context(event))


@login_required
@require_POST
def delivery_resend(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Send a delivery again, if nobody tried it since the page showed it."""
    event = event_for_director(request.user, slug)
    row = WebhookDelivery.objects.filter(pk=pk, endpoint__event=event).first()
    if row is None:
        raise Http404("No such delivery.")
    try:
        seen = int(request.POST.get("attempts", ""))
    except ValueError:
        seen = -1
    error = ""
    try:
        webhooks.resend(row, seen_attempts=seen, by=request.user)
    except ServiceError as problem:
        error = " ".join(problem.messages)
    row = WebhookDelivery.objects.select_related("endpoint").get(pk=pk)
    if getattr(request, "htmx", False):
        context = {"event": event, "d": row, "error": error}
        return render(request, f"{LOG}#row", context, status=422 if error else 200)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Sent again: the row shows how it went."))
    return redirect("tournaments:manage_webhook_log", slug=slug)
