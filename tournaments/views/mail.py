"""E-mail preferences: the signed unsubscribe links of every mail (no sign-in) and a
player's own switches on their page (docs/notifications.md)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import event_for_viewer, is_player_of, require
from tournaments.services import notifications

PAGE = "tournaments/unsubscribe.html"


@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The link in a mail: a GET shows what it turns off and one button (a link scanner
    that follows it changes nothing); the button's POST turns it off."""
    found = notifications.read_token(token)
    if found is None:
        return render(request, PAGE, {"bad": True}, status=400)
    done = False
    if request.method == "POST":
        notifications.unsubscribe(token)
        done = True
    return render(request, PAGE, {"optout": found, "done": done})


@csrf_exempt  # the signed token in the address is the authority, not a session
@require_POST
def unsubscribe_one_click(request: HttpRequest, token: str) -> HttpResponse:
    """RFC 8058 one-click: a mail client's own unsubscribe button posts here (the mail's
    List-Unsubscribe header) without a session or a CSRF token."""
    found = notifications.unsubscribe(token)
    if found is None:
        return JsonResponse({"error": "This unsubscribe link is not valid."}, status=400)
    return JsonResponse({"unsubscribed": found.text})


@login_required
@require_POST
def entrant_emails(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A player's switches on their own page: mail about this event, mail at all."""
    event = event_for_viewer(request.user, slug)
    entrant = event.entrants.filter(number=number).first()
    if entrant is None:
        raise Http404("No such entrant.")
    require(is_player_of(request.user, entrant))
    event_on = request.POST.get("event") == "on"
    all_on = request.POST.get("all") == "on"
    notifications.set_player_emails(entrant, event_on=event_on, all_on=all_on)
    # the public pages show no flash messages: the section itself says it is saved
    page = reverse("tournaments:entrant", args=[slug, number])
    return redirect(f"{page}?emails=saved#email-prefs")
