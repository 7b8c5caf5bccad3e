"""The event's Venue link screen (docs/venue.md): on the venue, the public event's address
and the mirror token (then what waits and the last push); on the public copy, where the
event is run and "Take over here" (after a confirmation). Only the event's directors."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts.permissions import event_for_director
from tournaments.models import Event, MirrorLink
from tournaments.services.errors import ServiceError
from tournaments.services.mirror import links, receive, runner

PAGE = "tournaments/manage/venue.html"


class LinkForm(forms.Form):
    public_url = forms.CharField(
        label=gettext_lazy("The public event's address"),
        max_length=300,
        help_text=gettext_lazy(
            "Its page on the public Arbiter: https://arbiter.example.org/e/woc-2026/"
        ),
    )
    token = forms.CharField(
        label=gettext_lazy("Mirror token"),
        max_length=200,
        help_text=gettext_lazy(
            "Made on the public copy's API tokens screen with the scope mirror:push (arb_...)."
        ),
        widget=forms.PasswordInput(render_value=False),
    )


def _context(event: Event, form: LinkForm | None = None, **extra: Any) -> dict[str, Any]:
    link = MirrorLink.objects.filter(event_id=event.pk).first()
    initial = {"public_url": link.public_url} if link is not None else {}
    return {
        "event": event,
        "link": link,
        "state": event.mirror_state,
        "form": form or LinkForm(initial=initial),
        **extra,
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def venue(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    if request.method != "POST":
        return render(request, PAGE, _context(event))
    action = request.POST.get("action", "")
    try:
        if action == "link":
            form = LinkForm(request.POST)
            if not form.is_valid():
                return render(request, PAGE, _context(event, form), status=422)
            try:
                links.configure(
                    event,
                    public_url=form.cleaned_data["public_url"],
                    token=form.cleaned_data["token"],
                    by=request.user,
                )
            except ServiceError as error:
                for problem in error.problems:
                    form.add_error(
                        problem.field if problem.field in form.fields else None, problem.text
                    )
                return render(request, PAGE, _context(event, form), status=422)
            messages.success(
                request, _("Publishing to the public copy: every change goes out by itself.")
            )
        elif action == "send":
            if event.mirror_state != "venue":
                raise ServiceError(_("This event is not published from this machine."))
            MirrorLink.objects.filter(event_id=event.pk).update(retry_at=None)
            runner.kick(event.pk)
            messages.success(request, _("Sending the waiting changes now."))
        elif action == "stop":
            links.stop(event, by=request.user)
            messages.success(request, _("Publishing stopped: this is a plain event again."))
        elif action == "take_over":
            if request.POST.get("confirm") != "yes":
                return render(request, PAGE, _context(event, confirm_take_over=True))
            link = receive.take_over(event, by=request.user)
            messages.success(
                request,
                _("You took the event over (epoch %(epoch)s): it is written here from now on.")
                % {"epoch": link.epoch},
            )
        else:
            raise ServiceError(_("Choose an action."))
    except ServiceError as error:
        return render(request, PAGE, _context(event, error=" ".join(error.messages)), status=409)
    return redirect("tournaments:manage_venue", slug=slug)
