"""The director's series screens (docs/series.md): create a series, then on its one screen
change the rule, add an event or imported scores as a stage, order and remove stages,
and merge two spellings of a player. Each POST names its action; each action is one form
and one service call."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.permissions import series_for_director
from tournaments.forms_series import (
    EventStageForm,
    MergeForm,
    ScoresImportForm,
    SeriesCreateForm,
    SeriesRuleForm,
)
from tournaments.models import Series, SeriesStage
from tournaments.services import series as service
from tournaments.services.errors import ServiceError
from tournaments.words import sentence

ACTIONS = ("rule", "event", "import", "up", "down", "remove", "merge", "unmerge", "feed", "unfeed")


def _errors_to(form: Any, error: ServiceError) -> None:
    for problem in error.problems:
        field = problem.field if problem.field in form.fields else None
        form.add_error(field, sentence(problem))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create_series(request: HttpRequest) -> HttpResponse:
    """Any signed-in user may create a series and becomes its director."""
    form = SeriesCreateForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            created = service.create_series(
                slug=data["slug"],
                name=data["name"],
                by=request.user,
                kind=data["kind"],
                value=data["value"],
                best=data["best"],
                points=data["points"],
                ties=data["ties"],
                public=data["public"],
                description=data["description"],
            )
        except ServiceError as error:
            _errors_to(form, error)
        else:
            messages.success(
                request, _("%(name)s is created. Add its stages next.") % {"name": created.name}
            )
            return redirect("tournaments:manage_series", series_slug=created.slug)
    status = 422 if request.method == "POST" else 200
    return render(request, "tournaments/manage/series_create.html", {"form": form}, status=status)


def _rule_form(series: Series, data: Any = None) -> SeriesRuleForm:
    return SeriesRuleForm(
        data,
        initial={
            "name": series.name,
            "description": series.description,
            "value": series.value,
            "best": series.best,
            "points": " ".join(series.points or []),
            "ties": series.ties,
            "public": series.public,
        },
    )


def _feed_form(user: Any, data: Any = None) -> EventStageForm:
    form = EventStageForm(data, user=user, prefix="feed")
    del form.fields["name"]  # a qualification names the event only
    return form


def _row_id(text: str | None, refusal: str) -> int:
    """A row's id from the form: a whole number a database id can be, or the refusal."""
    if text is None or not text.isdigit() or not 0 < int(text) < 2**31:
        raise ServiceError(refusal)
    return int(text)


def _act(request: HttpRequest, series: Series, action: str, forms: dict[str, Any]) -> bool:
    """Run one action; True when it was done (the page is then shown afresh)."""
    post, user = request.POST, request.user
    form: Any
    try:
        if action == "rule":
            form = forms["rule"] = _rule_form(series, post)
            if not form.is_valid():
                return False
            data = form.cleaned_data
            service.update_rule(
                series,
                by=user,
                value=data["value"],
                best=data["best"],
                points=data["points"],
                ties=data["ties"],
                public=data["public"],
                name=data["name"],
                description=data["description"],
            )
            messages.success(request, _("The rule is saved."))
        elif action == "event":
            form = forms["event"] = EventStageForm(post, user=user, prefix="event")
            if not form.is_valid():
                return False
            service.add_event_stage(
                series, form.cleaned_data["event"], by=user, name=form.cleaned_data["name"]
            )
            messages.success(request, _("The event is added as a stage."))
        elif action == "import":
            form = forms["import"] = ScoresImportForm(post, request.FILES, prefix="import")
            if not form.is_valid():
                return False
            stage = None
            if form.cleaned_data.get("stage"):
                stage = SeriesStage.objects.filter(
                    series=series, pk=form.cleaned_data["stage"], kind=SeriesStage.Kind.SCORES
                ).first()
                if stage is None:
                    form.add_error(None, _("That stage is not one of this series' imports."))
                    return False
            service.import_scores(
                series,
                name=form.cleaned_data["name"],
                text=form.cleaned_data["csv"],
                by=user,
                stage=stage,
            )
            messages.success(request, _("The scores are imported."))
        elif action in ("up", "down", "remove"):
            stage_id = _row_id(post.get("stage"), _("That stage is not in this series."))
            if action == "remove":
                service.remove_stage(series, stage_id, by=user)
            else:
                service.move_stage(series, stage_id, by=user, up=action == "up")
        elif action == "merge":
            form = forms["merge"] = MergeForm(post, prefix="merge")
            if not form.is_valid():
                return False
            service.merge_names(
                series,
                name=form.cleaned_data["name"],
                same_as=form.cleaned_data["same_as"],
                by=user,
            )
            messages.success(request, _("The two spellings are now one player."))
        elif action == "unmerge":
            service.unmerge(series, _row_id(post.get("merge"), _("No such merge.")), by=user)
        elif action == "feed":
            form = forms["feed"] = _feed_form(user, post)
            if not form.is_valid():
                return False
            service.add_feed(series, form.cleaned_data["event"], by=user)
            messages.success(request, _("The series now qualifies players for that event."))
        elif action == "unfeed":
            refusal = _("This series does not qualify players for that event.")
            service.remove_feed(series, _row_id(post.get("event"), refusal), by=user)
    except ServiceError as error:
        form = forms.get(action)
        if form is not None:
            _errors_to(form, error)
        else:
            forms["errors"] = error.messages
        return False
    return True


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def manage_series(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = series_for_director(request.user, series_slug)
    forms: dict[str, Any] = {}
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in ACTIONS:
            forms["errors"] = [_("Choose what to do: a button of this page.")]
            status = 422
        elif _act(request, series, action, forms):
            return redirect("tournaments:manage_series", series_slug=series.slug)
        else:
            status = 422
        series.refresh_from_db()
    context = {
        "series": series,
        "stages": list(series.stages.select_related("event").order_by("order", "pk")),
        "merges": list(series.merges.order_by("name")),
        "rule_form": forms.get("rule") or _rule_form(series),
        "event_form": forms.get("event") or EventStageForm(user=request.user, prefix="event"),
        "import_form": forms.get("import") or ScoresImportForm(prefix="import"),
        "merge_form": forms.get("merge") or MergeForm(prefix="merge"),
        "feeds": list(series.feeds.order_by("name")),
        "feed_form": forms.get("feed") or _feed_form(request.user),
        "audit": series.audit_entries.select_related("actor")[:15],
        "errors": forms.get("errors", []),
    }
    return render(request, "tournaments/manage/series.html", context, status=status)
