"""Bot contest director screens (games by CSV, the referee's token, the board of a round,
the decision on a tied final) and the referee program's JSON endpoint."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.permissions import event_for_director
from tournaments import ratelimit
from tournaments.formats.bot_contest import games as reading
from tournaments.formats.bot_contest import services as service
from tournaments.models import Event, RefereeGame
from tournaments.services import limits
from tournaments.services.errors import ServiceError, StaleResult

TEMPLATES = "tournaments/formats/bot_contest/"
MAX_UPLOAD = 2_000_000  # bytes: 10,000 games is about 400 kB


def _event(request: HttpRequest, slug: str) -> Event:
    event = event_for_director(request.user, slug)
    if event.format != service.FORMAT:
        raise Http404("Not a bot contest.")
    return event


def _settings(event: Event) -> dict[str, Any]:
    return event.resolved_settings()


@login_required
@require_safe
def hub(request: HttpRequest, slug: str) -> HttpResponse:
    """What the engine waits for, and the contest's own screens."""
    event = _event(request, slug)
    rounds = list(event.rounds.order_by("number"))
    return render(
        request,
        TEMPLATES + "hub.html",
        {
            "event": event,
            "rounds": rounds,
            "settings": _settings(event),
            "question": service.final_question(event) if rounds else None,
            "token": event.referee_tokens.filter(revoked_at__isnull=True).first(),
        },
    )


class GamesForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("or paste the lines"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload:
            if upload.size > MAX_UPLOAD:
                raise forms.ValidationError(_("The file is larger than 2 MB."))
            try:
                data["csv"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
            data["filename"] = upload.name
        elif data.get("text", "").strip():
            data["csv"], data["filename"] = data["text"], ""
        else:
            raise forms.ValidationError(_("Choose a CSV file or paste its lines."))
        return data


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def games_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a CSV of games: checked whole; "Check" saves nothing, "Save" saves all or
    nothing."""
    event = _event(request, slug)
    form = GamesForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"event": event, "form": form, "columns": reading.COLUMNS}
    status = 200
    if request.method == "POST" and form.is_valid():
        text, filename = form.cleaned_data["csv"], form.cleaned_data["filename"]
        if "save" in request.POST:
            try:
                outcome = service.import_csv(event, text, by=request.user, filename=filename)
            except service.GamesRefused as refused:
                context["errors"], status = refused.errors, 422
            except StaleResult:
                context["errors"] = [reading.RowError(0, "", StaleResult(0, None).messages[0])]
                status = 409
            else:
                messages.success(
                    request,
                    _("%(rows)s games saved: %(matches)s matches changed, %(same)s unchanged.")
                    % {"rows": outcome.rows, "matches": outcome.matches, "same": outcome.unchanged},
                )
                return redirect("tournaments:bot_contest_import", slug=slug)
        else:
            checked = service.check_csv(event, text)
            context.update(checked=checked, errors=checked.errors)
            status = 200 if checked.valid else 422
    return render(request, TEMPLATES + "import.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def referee(request: HttpRequest, slug: str) -> HttpResponse:
    """Make or revoke the referee program's token; the token is shown once."""
    event = _event(request, slug)
    new_token = None
    if request.method == "POST":
        if request.POST.get("action") == "create":
            new_token = service.create_token(event, by=request.user)[1]
        elif request.POST.get("action") == "revoke":
            if service.revoke_token(event, by=request.user):
                messages.success(request, _("The token is revoked: the referee is refused now."))
            return redirect("tournaments:bot_contest_referee", slug=slug)
        else:
            raise Http404("No such action.")
    return render(
        request,
        TEMPLATES + "referee.html",
        {
            "event": event,
            "new_token": new_token,
            "tokens": event.referee_tokens.select_related("created_by")[:10],
            "posts": RefereeGame.objects.filter(event=event)
            .select_related("match")
            .order_by("-received_at", "-id")[:20],
            "endpoint": request.build_absolute_uri(
                reverse("tournaments:bot_contest_api_game", args=[slug])
            ),
        },
    )


class BoardForm(forms.Form):
    round = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    board = forms.ChoiceField(label=_("Board"))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def board(request: HttpRequest, slug: str) -> HttpResponse:
    """The board of every round so far, and the director's choice for the next one."""
    event = _event(request, slug)
    values = _settings(event)
    rounds = list(event.rounds.order_by("number"))
    upcoming = len(rounds) + 1
    chosen = event.draws.filter(key=f"board/round-{upcoming}").first()
    # bound on every POST, even an empty one, so that a refusal always says why
    form = BoardForm(
        request.POST if request.method == "POST" else None, initial={"round": upcoming}
    )
    used = {str(r.details.get("board")) for r in rounds}
    # marked outside the f-string: xgettext does not read inside one
    used_board = _("%(board)s (used)")
    cast(forms.ChoiceField, form.fields["board"]).choices = [
        (b, used_board % {"board": b} if b in used else b) for b in map(str, values["boards"])
    ]
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                service.choose_board(
                    event, form.cleaned_data["round"], form.cleaned_data["board"], by=request.user
                )
            except ServiceError as error:
                form.add_error(None, " ".join(error.messages))
            else:
                messages.success(request, _("The board is recorded. Draft the round now."))
                return redirect("tournaments:manage", slug=slug)
        status = 422
    return render(
        request,
        TEMPLATES + "board.html",
        {
            "event": event,
            "rounds": rounds,
            "settings": values,
            "upcoming": upcoming,
            "chosen": chosen,
            "form": form,
        },
        status=status,
    )


class FinalForm(forms.Form):
    winner = forms.TypedChoiceField(label=_("Winner"), coerce=int, widget=forms.RadioSelect)
    reason = forms.CharField(
        label=_("How you decided"),
        max_length=300,
        help_text=_("Shown with the final ranking, e.g. 'a third game on board 9, won by X'."),
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def final_tie(request: HttpRequest, slug: str) -> HttpResponse:
    """Record the director's winner when the final's totals tie for first."""
    event = _event(request, slug)
    question = service.final_question(event)
    decided = event.draws.filter(key=service.WINNER_KEY).select_related("drawn_by").first()
    names = {str(e.number): e for e in event.entrants.all()}
    form = FinalForm(request.POST if request.method == "POST" else None)
    options = [str(o) for o in question.options] if question else []
    cast(forms.ChoiceField, form.fields["winner"]).choices = [
        (int(o), names[o].name) for o in options if o in names
    ]
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                service.decide_final(
                    event,
                    form.cleaned_data["winner"],
                    reason=form.cleaned_data["reason"],
                    by=request.user,
                )
            except ServiceError as error:
                form.add_error(None, " ".join(error.messages))
            else:
                messages.success(request, _("The winner is recorded; the final ranking follows."))
                return redirect("tournaments:bot_contest_final_tie", slug=slug)
        status = 422
    return render(
        request,
        TEMPLATES + "final_tie.html",
        {
            "event": event,
            "question": question,
            "decided": decided,
            "winner": names.get(str(decided.value)) if decided else None,
            "form": form,
        },
        status=status,
    )


# -- the referee program's endpoint ----------------------------------------------------------


def _error(status: int, message: str, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


@csrf_exempt  # authenticated by its bearer token, never by a session cookie
@require_POST
def api_game(request: HttpRequest, slug: str) -> HttpResponse:
    """POST one game as JSON with ``Authorization: Bearer <token>``: 201 recorded, 200 seen
    before (nothing counted twice), 403 bad token, 422 refused, 409 conflict, 429 slow
    down."""
    event = Event.objects.filter(slug=slug, format=service.FORMAT).first()
    header = request.headers.get("Authorization", "")
    scheme, _sep, given = header.partition(" ")
    token = None
    if event is not None and scheme.lower() == "bearer":
        token = service.token_for(event, given.strip())
    # no contest at that address answers as a wrong token does: a private contest's
    # existence is not told to a program without its token
    if token is None:
        # guessing tokens from one address is slowed down, the right token never is
        wait = ratelimit.hit("referee_bad_token", ratelimit.client_ip(request))
        if wait is not None:
            return ratelimit.too_many(request, wait, json=True)
        return _error(403, "Missing, wrong or revoked token.")
    assert event is not None  # a token is looked up in an event only
    wait = ratelimit.hit("referee", token.token_hash)
    if wait is not None:
        return ratelimit.too_many(request, wait, json=True)
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        size = 0
    if size > limits.API_MAX_BYTES or len(request.body) > limits.API_MAX_BYTES:
        return _error(
            413, f"The body is larger than {limits.API_MAX_BYTES:,} bytes: post one game."
        )
    try:
        data = limits.load_json(request.body or b"null", field="body")
    except ServiceError as error:
        return _error(
            400, "The body is not JSON the referee API takes: " + " ".join(error.messages)
        )
    try:
        outcome = service.post_game(event, token, data)
    except service.GamesRefused as refused:
        return _error(
            422,
            "The game was refused; nothing was saved.",
            errors=[{"field": e.column, "message": e.text} for e in refused.errors],
        )
    except StaleResult as conflict:
        return _error(409, conflict.messages[0])
    except ServiceError as error:
        return _error(409, " ".join(error.messages))
    body = {
        "status": "recorded" if outcome.created else "duplicate",
        "match": outcome.match_code,
        "game": outcome.game_number,
        "result": outcome.summary,
        "version": outcome.version,
    }
    return JsonResponse(body, status=201 if outcome.created else 200)
