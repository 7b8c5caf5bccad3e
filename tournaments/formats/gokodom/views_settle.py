"""GokoDom: the director's page of one disputed match (issue 28, item 4), opened from
"Needs you", the season page and the dispute mail: both players' accounts, the note, and
the decision (one player's account, or a result code for each player), saved by
services_settle.settle."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.formats.gokodom import claims, schedule
from tournaments.formats.gokodom import services_settle as service
from tournaments.formats.gokodom.services_director import CODES
from tournaments.formats.gokodom.services_settle import decided
from tournaments.formats.gokodom.views_manage import _event, _grid_match, _version
from tournaments.models import Match
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult
from tournaments.words import label, sentence

PAGE = "tournaments/formats/gokodom/settle.html"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def settle(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    event = _event(request, slug)
    match = _grid_match(event, match_id)
    if request.method != "POST":
        return render(request, PAGE, _context(event, match))
    decision = request.POST.get("decision", "").strip()
    typed = {
        str(p.entrant.number): request.POST.get(f"code-{p.entrant.number}", "").strip().upper()
        for p in match.participants.all()
        if p.entrant
    }
    # a code chosen without the "result codes" choice ticked still means the codes
    if not decision and any(typed.values()):
        decision = "codes"
    try:
        service.settle(
            match,
            expected_version=_version(request),
            seen=request.POST.get("seen", ""),
            by=request.user,
            claim="" if decision == "codes" else decision,
            codes=typed if decision == "codes" else None,
            reason=request.POST.get("reason", ""),
        )
    except (StaleResult, service.AccountsChanged) as changed:
        # the page as it is now, with what changed: nothing of the stale form is kept
        fresh = _grid_match(event, match_id)
        return render(request, PAGE, _context(event, fresh, alert=changed.messages[0]), status=409)
    except InvalidResult as refused:
        errors = {p.field or "decision": sentence(p) for p in refused.problems}
        context = _context(event, match, errors=errors, posted=(decision, typed))
        return render(request, PAGE, context, status=422)
    except ServiceError as error:
        return render(
            request, PAGE, _context(event, match, alert=" ".join(error.messages)), status=422
        )
    fresh = _grid_match(event, match_id)
    messages.success(
        request,
        _("%(round)s %(code)s is settled: %(result)s. Both players are told by e-mail.")
        % {"round": label(match.round.label), "code": match.code, "result": decided(fresh)},
    )
    return redirect("tournaments:manage", slug=event.slug)


def _context(
    event: Any,
    match: Match,
    *,
    errors: dict[str, str] | None = None,
    alert: str = "",
    posted: tuple[str, dict[str, str]] | None = None,
) -> dict[str, Any]:
    entry = match.details.get("report") or {}
    people = list(match.participants.all())
    seats = [str(p.entrant.number) if p.entrant else "" for p in people]
    names = {str(p.entrant.number): p.entrant.name for p in people if p.entrant}
    decision, typed = posted or ("", {})
    accounts = []
    for key, claim in ((service.REPORT, entry), (service.COUNTER, entry.get("counter"))):
        if claim and claim.get("summary"):
            accounts.append(
                {
                    "key": key,
                    "name": names.get(str(claim.get("by")), ""),
                    "line": claims.for_director(claim, seats, names),
                    "records": bool(claim.get("results") or claim.get("games")),
                }
            )
    messaged = [names[n] for n in match.details.get("messages", []) if n in names]
    return {
        "event": event,
        "match": match,
        "round": match.round,
        "participants": people,
        "entry": entry,
        "disputed": entry.get("status") == claims.DISPUTED
        and not (match.result or {}).get("complete"),
        "disputer": names.get(str(entry.get("disputed_by", "")), ""),
        "reporter": names.get(str(entry.get("by", "")), ""),
        "accounts": accounts,
        "messaged": messaged,
        "swiss": schedule.stage(match.round) == schedule.SWISS,
        "codes": CODES,
        "chosen": decision,
        "typed": typed,
        "seen": claims.seen_mark(entry),
        "decided": decided(match) if (match.result or {}).get("complete") else "",
        "errors": errors or {},
        "alert": alert,
    }
