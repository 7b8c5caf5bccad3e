"""Import a whole event from a file, and export one (issue 12).

Step 1 checks the uploaded file and shows what would be created (for a WOF rating file, the
proposed labels of the games after the Swiss, each a choice the director may correct). The
checked file travels to step 2 signed (django.core.signing), so a changed confirmation is
refused. Step 2 saves through the services and opens the new event's dashboard.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from accounts.models import User
from accounts.permissions import event_for_director
from tournaments import ratelimit
from tournaments.forms import EventImportConfirmForm, EventImportForm, seal_import
from tournaments.models import ImportJob
from tournaments.services import event_import, eventfile, limits, wof
from tournaments.services.errors import ServiceError

TEMPLATE = "tournaments/manage/import_event.html"
JOB_TEMPLATE = "tournaments/manage/import_job.html"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@ratelimit.limit("event_create", when=ratelimit.posted)  # the check step is the heavy one
@ratelimit.limit("event_create_address", ratelimit.ip_key, when=ratelimit.posted)
def import_event(request: HttpRequest) -> HttpResponse:
    """Anyone who may create an event may import one (and directs it)."""
    if request.method == "POST" and request.POST.get("step") == "confirm":
        return _confirm(request)
    form = EventImportForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"form": form}
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            preview = event_import.check(
                data["content"],
                kind=data["kind"],
                slug=data["slug"],
                name=data["name"],
                filename=data["filename"],
            )
        except ServiceError as error:
            context["problems"] = limits.bounded(list(error.problems))
            kind = data["kind"] if data["kind"] != "auto" else event_import.detect(data["content"])
            context["read_as"] = event_import.KINDS.get(kind) if kind is not None else None
            status = 422
        else:
            sealed = seal_import(request.user, preview.kind, data["content"], data["filename"])
            context |= _preview_context(preview, sealed)
    elif request.method == "POST":
        status = 422
    if status == 422:
        forget_long_paste(form, context)
    return render(request, TEMPLATE, context, status=status)


# A refused paste longer than this is not sent back in the page: a 3.3 MB paste came back
# as a 6.28 MB page (issue 29 finding 6). The director fixes the file and sends it again.
PASTE_ECHO_CHARS = 100_000


def forget_long_paste(form: Any, context: dict[str, Any], field: str = "text") -> None:
    """Blank a refused form's long pasted text, and say so (``paste_not_shown``)."""
    text = form.data.get(field, "") if form.is_bound else ""
    if len(text) > PASTE_ECHO_CHARS:
        data = form.data.copy()
        data[field] = ""
        form.data = data
        context["paste_not_shown"] = limits.megabytes(len(text.encode("utf-8", "replace")))


def _preview_context(
    preview: event_import.Preview, sealed: str, confirm: EventImportConfirmForm | None = None
) -> dict[str, Any]:
    confirm = confirm or EventImportConfirmForm(
        initial={"sealed": sealed, "slug": preview.slug, "name": preview.name}, user=None
    )
    return {"preview": preview, "confirm": confirm, "form": EventImportForm()}


def _confirm(request: HttpRequest) -> HttpResponse:
    confirm = EventImportConfirmForm(request.POST, user=request.user)
    labels = request.POST.getlist("label")
    # the director's choice per contradicting line ('resolve-12': 'drop'); an empty one is
    # no choice, refused by the service naming its line (issue 28, item 13)
    resolutions = {
        int(key.removeprefix("resolve-")): value
        for key, value in request.POST.items()
        if key.startswith("resolve-") and key.removeprefix("resolve-").isdigit() and value
    }
    if not confirm.is_valid() and "sealed" in confirm.errors:
        context = {"form": EventImportForm(), "refused": confirm.errors["sealed"]}
        return render(request, TEMPLATE, context, status=400)
    sealed = confirm.cleaned_data["sealed"]
    options = {
        "kind": sealed["kind"],
        "slug": confirm.cleaned_data.get("slug", ""),
        "name": confirm.cleaned_data.get("name", ""),
        "filename": sealed["filename"],
        "labels": labels if sealed["kind"] == "wof" else None,
        "resolutions": resolutions if sealed["kind"] == "wof" else None,
    }
    problems = []
    if confirm.is_valid():
        accept = bool(confirm.cleaned_data.get("accept_truncated"))
        try:
            job = event_import.start(
                sealed["text"], by=request.user, accept_truncated=accept, **options
            )
        except ServiceError as error:
            problems = list(error.problems)
        else:
            return redirect("tournaments:manage_import_job", job=job.pk)
    # show the preview again, with the director's choices and what is wrong with them
    try:
        preview = event_import.check(sealed["text"], **options)
    except ServiceError as error:
        problems += [p for p in error.problems if p not in problems]
        failed: dict[str, Any] = {"form": EventImportForm(), "problems": limits.bounded(problems)}
        return render(request, TEMPLATE, failed, status=422)
    preview.problems = problems or preview.problems
    context = _preview_context(preview, request.POST["sealed"], confirm)
    return render(request, TEMPLATE, context, status=422)


@login_required
@require_safe
def import_job(request: HttpRequest, job: int) -> HttpResponse:
    """A confirmed import: its progress while the worker saves it (the page polls), the
    event's dashboard once saved, the reasons if it was refused. Its director's only."""
    jobs = ImportJob.objects.select_related("event")
    user = request.user
    if not user.is_staff:
        assert isinstance(user, User)  # login_required
        jobs = jobs.filter(user=user)
    found = get_object_or_404(jobs, pk=job)
    if found.status == ImportJob.Status.DONE and found.event is not None:
        event = found.event
        # Said once per browser session: two of a page's polls can both find the job done
        # (a slow answer and the next poll), and each would queue the message; another
        # session following the same job (the director's phone) is told too.
        session = request.session.session_key or ""
        told = f"import-job-done:{found.pk}:{found.created_at.timestamp()}:{session}"
        if cache.add(told, True, timeout=24 * 3600):
            messages.success(
                request,
                _(
                    "%(name)s is imported: %(entrants)s entrants, %(rounds)s rounds. "
                    "You direct it; it is not public yet."
                )
                % {
                    "name": event.name,
                    "entrants": event.entrants.count(),
                    "rounds": event.rounds.count(),
                },
            )
        target = reverse("tournaments:manage", args=[event.slug])
        if getattr(request, "htmx", False):
            return HttpResponse(status=204, headers={"HX-Redirect": target})
        return redirect(target)
    context = {"job": found, "percent": event_import.progress_of(found)}
    if getattr(request, "htmx", False):
        return render(request, JOB_TEMPLATE + "#job", context)
    return render(request, JOB_TEMPLATE, context)


def _download(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_safe
def export_event(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    return _download(
        eventfile.export_text(event), f"{event.slug}.json", "application/json; charset=utf-8"
    )


@login_required
@require_safe
def export_wof(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request.user, slug)
    if event.format != "woc":
        raise Http404("WOF rating files hold WOC-format events only.")
    try:
        text = wof.export_wof(event)
    except ServiceError as error:
        messages.error(request, "The WOF file cannot be written: " + " ".join(error.messages))
        return redirect("tournaments:manage", slug=slug)
    return _download(text, f"{event.slug}.elo", "text/plain; charset=utf-8")
