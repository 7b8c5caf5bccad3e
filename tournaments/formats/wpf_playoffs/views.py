"""The WPF GP Playoffs' own screens: thin views over its services.py.

Director screens answer 404 to anyone who does not direct the event; the player's
preference list needs a signed-in player of the event (403 otherwise); the ladder is public
and shows only what visitors may see.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.permissions import entrant_of, event_for_director, event_for_viewer, require
from tournaments.formats import ui_for
from tournaments.formats.wpf_playoffs import reads, series_link
from tournaments.formats.wpf_playoffs import services as service
from tournaments.formats.wpf_playoffs.forms import (
    EligibilityForm,
    LivePuzzleForm,
    PreferenceForm,
    PuzzlesForm,
)
from tournaments.models import Entrant, Event, Round
from tournaments.services.errors import ServiceError
from tournaments.services.standings import compute
from tournaments.words import sentence

T = "tournaments/formats/wpf_playoffs/"


def _director_event(user: Any, slug: str) -> Event:
    event = event_for_director(user, slug)
    if event.format != service.FORMAT:
        raise Http404("Not a WPF GP playoff.")
    return event


def _viewer_event(user: Any, slug: str) -> Event:
    event = event_for_viewer(user, slug)
    if event.format != service.FORMAT:
        raise Http404("Not a WPF GP playoff.")
    return event


def _settings(event: Event) -> dict[str, Any]:
    return event.resolved_settings()


@login_required
@require_safe
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    event = _director_event(request.user, slug)
    rounds = list(event.rounds.order_by("number"))
    online_closed = sum(
        1 for r in rounds if r.number <= service.ONLINE_ROUNDS and r.status == "completed"
    )
    context = {
        "event": event,
        "revealed": reads.revealed(event, rounds),
        "revealed_by_setting": bool(event.settings.get("online_results_revealed")),
        "can_reveal": online_closed == service.ONLINE_ROUNDS,
        "ladder": reads.ladder(event, full=True),
        "links": ui_for(event).director_links(event),
    }
    return render(request, T + "manage.html", context)


@login_required
@require_POST
def reveal(request: HttpRequest, slug: str) -> HttpResponse:
    event = _director_event(request.user, slug)
    try:
        service.reveal_online_results(event, by=request.user)
    except ServiceError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "The online results are public now.")
    return redirect("tournaments:wpf_playoffs_manage", slug=slug)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def eligibility(request: HttpRequest, slug: str) -> HttpResponse:
    event = _director_event(request.user, slug)
    series = series_link.linked_series(event)
    linked = series_link.seeds(event, series) if series is not None else {}
    # an entrant qualified from a series has its values from there, not typed here
    entrants = [e for e in event.entrants.order_by("number") if e.number not in linked]
    posted = request.method == "POST" and request.POST.get("action") != "from_series"
    form = EligibilityForm(entrants, request.POST if posted else None)
    status = 200
    locked = event.rounds.exists()
    if request.method == "POST" and not posted:
        try:
            changed = service.seeds_from_series(event, by=request.user)
        except ServiceError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request,
                _("Seeds taken from the series: %(n)s candidates changed.") % {"n": changed},
            )
        return redirect("tournaments:wpf_playoffs_eligibility", slug=slug)
    if posted:
        if form.is_valid():
            try:
                changed = service.save_eligibility(event, form.entries, by=request.user)
            except ServiceError as error:
                for problem in error.problems:
                    form.errors[problem.field or "form"] = sentence(problem)
                status = 422
            else:
                messages.success(request, f"Saved: {changed} candidates changed.")
                return redirect("tournaments:wpf_playoffs_eligibility", slug=slug)
        else:
            status = 422
    preview = _eligibility_preview(event) if not locked else {}
    rows = form.rows()
    for row in rows:
        row["preview"] = preview.get(str(row["entrant"].number), {})
    from_series = [
        {"seed": seed, "preview": preview.get(str(number), {})}
        for number, seed in sorted(linked.items())
    ]
    context = {
        "event": event,
        "rows": rows,
        "series": series,
        "from_series": from_series,
        "errors": form.errors,
        "locked": locked,
        "notes": preview.get("__notes__", []),
        "seeds": reads.ladder(event, full=True)["seeds"] if locked else [],
    }
    return render(request, T + "eligibility.html", context, status=status)


def _eligibility_preview(event: Event) -> dict[str, Any]:
    """The engine's eligibility table (score, eligible, seed) for each entrant number."""
    table = next(t for t in compute(event).tables if t.key == "eligibility")
    found: dict[str, Any] = {row.entrant: dict(row.values) for row in table.rows}
    found["__notes__"] = [sentence(n) for n in table.notes]
    return found


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def puzzles(request: HttpRequest, slug: str) -> HttpResponse:
    event = _director_event(request.user, slug)
    settings = _settings(event)
    initial = {
        "puzzle_selection": settings["puzzle_selection"],
        "online_puzzles": "\n".join(map(str, settings["online_puzzles"])),
        "live_puzzles": "\n".join(map(str, settings["live_puzzles"])),
    }
    form = PuzzlesForm(request.POST if request.method == "POST" else None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                service.save_puzzles(
                    event,
                    selection=form.cleaned_data["puzzle_selection"],
                    online=form.cleaned_data["online_puzzles"],
                    live=form.cleaned_data["live_puzzles"],
                    by=request.user,
                )
            except ServiceError as error:
                for problem in error.problems:
                    form.add_error(
                        problem.field if problem.field in form.fields else None, sentence(problem)
                    )
            else:
                messages.success(request, "The puzzles are saved.")
                return redirect("tournaments:wpf_playoffs_puzzles", slug=slug)
        status = 422
    picks = reads.puzzle_picks(event)
    for pick in picks:
        if pick["options"] is not None:
            pick["form"] = LivePuzzleForm(pick["options"], initial={"puzzle": pick["puzzle"]})
    entrants = list(event.entrants.order_by("number"))
    context = {
        "event": event,
        "form": form,
        "picks": picks,
        "entrants": [{"entrant": e, "lists": _lists(e.flags)} for e in entrants],
        "preference_mode": settings["puzzle_selection"] == "preference_lists",
    }
    return render(request, T + "puzzles.html", context, status=status)


def _lists(flags: dict[str, Any]) -> str:
    raw = flags.get("puzzle_preferences")
    if raw is None:
        return ""
    if isinstance(raw, dict):
        return "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in sorted(raw.items()))
    return ", ".join(map(str, raw))


@login_required
@require_POST
def live_puzzle(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _director_event(request.user, slug)
    rnd = event.rounds.filter(number=number).first()
    if rnd is None:
        raise Http404("No such round.")
    form = LivePuzzleForm(rnd.details.get("puzzle_options") or [], request.POST)
    if form.is_valid():
        try:
            service.choose_live_puzzle(rnd, form.cleaned_data["puzzle"], by=request.user)
        except ServiceError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, f"{rnd.label}: {form.cleaned_data['puzzle']} is recorded.")
    else:
        messages.error(request, "Choose one of the puzzles left in the pool.")
    return redirect("tournaments:wpf_playoffs_puzzles", slug=slug)


def _preferences(
    request: HttpRequest, event: Event, entrant: Entrant, *, as_director: bool, back: str
) -> HttpResponse:
    settings = _settings(event)
    pool = [str(p) for p in settings["online_puzzles"]]
    letter = request.POST.get("letter", request.GET.get("letter", ""))
    current = _current_list(entrant.flags, letter or None)
    initial = {"letter": letter, **{f"c{n}": p for n, p in enumerate(current, start=1)}}
    form = PreferenceForm(pool, request.POST if request.method == "POST" else None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                service.save_preferences(
                    entrant,
                    form.cleaned_data["order"],
                    letter=form.cleaned_data["letter"] or None,
                    by=request.user,
                    as_director=as_director,
                )
            except ServiceError as error:
                for problem in error.problems:
                    name = "letter" if problem.field == "letter" else None
                    form.add_error(name, sentence(problem))
            else:
                messages.success(request, "The preference list is saved.")
                return redirect(back)
        status = 422
    closed = settings["puzzle_selection"] != "preference_lists" or not pool
    started = event.rounds.exists()
    context = {
        "event": event,
        "entrant": entrant,
        "form": form,
        "pool": pool,
        "closed": closed,
        "locked": started and not as_director,
        "as_director": as_director,
        "lists": _lists(entrant.flags),
    }
    template = T + "preferences.html"
    if getattr(request, "htmx", False):
        template += "#preference-form"
    return render(request, template, context, status=status)


def _current_list(flags: dict[str, Any], letter: str | None) -> list[str]:
    raw = flags.get("puzzle_preferences")
    if isinstance(raw, dict):
        raw = raw.get(letter) if letter else None
    return [str(p) for p in raw] if isinstance(raw, list) else []


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def preferences_for(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The director enters a player's list on their behalf (audited as such)."""
    event = _director_event(request.user, slug)
    entrant = event.entrants.filter(number=number).first()
    if entrant is None:
        raise Http404("No such entrant.")
    back = request.path
    return _preferences(request, event, entrant, as_director=True, back=back)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def my_preferences(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's own preference lists: only a player of this event (403 otherwise)."""
    event = _viewer_event(request.user, slug)
    entrant = entrant_of(request.user, event)
    require(entrant is not None)
    assert entrant is not None
    return _preferences(request, event, entrant, as_director=False, back=request.path)


@require_safe
def ladder(request: HttpRequest, slug: str) -> HttpResponse:
    """The public ladder: ranks after each round and each match by bracket. Before the
    reveal, only the seeds (for everyone: the director's view is the overview screen)."""
    event = _viewer_event(request.user, slug)
    rounds = list(event.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
    context = {
        "event": event,
        "ladder": reads.ladder(event, full=False),
        "rounds": ui_for(event).public_rounds(event, rounds),
        "links": ui_for(event).public_links(event),
    }
    template = T + "ladder.html"
    if getattr(request, "htmx", False):
        template += "#ladder"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
