"""GokoDom: the director settles a disputed result (issue 28, item 4).

The rules leave a dispute to the TO: the deadline never settles one (services_director).
The director reads both players' accounts and the note on the match's own page and records
either one player's account (its W/L/D codes in the Swiss, its games in the elimination
rounds) or, in the Swiss, a result code for each player (a WD or DD they judge right).

One transaction: the event row, then the match row, are locked; the form's match version
must still be the current one (a stale form never overwrites a newer result) and the
accounts must be those the director was shown; the result is written through the result
services (a ResultChange row), the report is marked settled, an audit row
``gokodom.dispute_settled`` keeps both accounts and the decision, and both players are
mailed the decision after the commit (notifications.dispute_settled).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import Problem
from tournaments.formats.gokodom import schedule
from tournaments.formats.gokodom.claims import DISPUTED, SETTLED, claim_lines, seen_mark
from tournaments.formats.gokodom.services import save_details
from tournaments.formats.gokodom.services_director import details_with_codes
from tournaments.models import Match, ResultChange
from tournaments.services import audit, locking, notifications, results
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult

REPORT, COUNTER = "report", "counter"  # whose account: the reporter's, or the disputer's


class AccountsChanged(ServiceError):
    """A player changed their account since the director read it: read them again."""


def settle(
    match: Match,
    *,
    expected_version: int,
    seen: str,
    by: Any,
    claim: str = "",
    codes: Mapping[str, str] | None = None,
    reason: str = "",
    now: datetime.datetime | None = None,
) -> Match:
    """Decide a disputed match: ``claim`` (REPORT or COUNTER) records that player's
    account; else ``codes`` ({entrant number: code}, Swiss only) are recorded. ``seen`` is
    claims.seen_mark of the dispute the director was shown."""
    now = now or timezone.now()
    reason = reason.strip()[:300]
    with transaction.atomic():
        event, locked = locking.lock_match(match, seats=True)
        if locked.version != expected_version:
            raise StaleResult(locked.version, {"result": locked.result})
        entry = dict(locked.details.get("report") or {})
        if entry.get("status") != DISPUTED or (locked.result or {}).get("complete"):
            raise ServiceError(
                _(
                    "This result is no longer disputed (a player accepted the other's account, "
                    "or it was recorded): nothing was changed."
                )
            )
        if seen != seen_mark(entry):
            raise AccountsChanged(
                _(
                    "A player changed their account since you opened this page: nothing was "
                    "saved. Read both accounts again and decide."
                )
            )
        accounts = claim_lines(locked)
        swiss = schedule.stage(locked.round) == schedule.SWISS
        chosen = _chosen(entry, claim)
        settled = {**entry, "status": SETTLED, "settled_by": str(by), "settled_at": now.isoformat()}
        why = reason or "disputed result settled by the director"
        if swiss:
            picked = dict(chosen["results"]) if chosen else _codes(codes)
            details = details_with_codes(locked, picked)
            details["report"] = settled
            state = results.scoring_state(event, locked.round, locked)
            save_details(
                event,
                state,
                locked,
                details,
                by=by,
                source=ResultChange.Source.WEB,
                reason=why,
                now=now,
            )
        else:
            if chosen is None:
                raise InvalidResult(
                    [
                        Problem(
                            "gokodom.settle",
                            "claim",
                            _(
                                "Choose one player's account; other games are entered in the "
                                "results grid."
                            ),
                        )
                    ]
                )
            results.record(
                locked,
                list(chosen.get("games", [])),
                expected_version=expected_version,
                by=by,
                reason=why,
                now=now,
            )
            Match.objects.filter(pk=locked.pk).update(details={**locked.details, "report": settled})
            locked.refresh_from_db()
        decision = decided(locked)
        logged = audit.log(
            event,
            "gokodom.dispute_settled",
            actor=by,
            at=now,
            subject=f"{locked.round.label} {locked.code}",
            reason=reason,
            before={"accounts": accounts, "note": entry.get("note", "")},
            after={"decision": decision, "by_account": claim or "", "codes": _codes_of(locked)},
        )
        notifications.dispute_settled(
            locked, logged, decision=decision, codes=_codes_of(locked), lines=accounts, now=now
        )
        return locked


def _chosen(entry: Mapping[str, Any], claim: str) -> Mapping[str, Any] | None:
    if not claim:
        return None
    if claim not in (REPORT, COUNTER):
        raise InvalidResult([Problem("gokodom.settle", "claim", _("Choose one player's account."))])
    chosen = entry if claim == REPORT else entry.get("counter")
    if not chosen or not (chosen.get("results") or chosen.get("games")):
        raise InvalidResult(
            [
                Problem(
                    "gokodom.settle",
                    "claim",
                    _(
                        "That player gave no account of their own: choose a result code for "
                        "each player instead."
                    ),
                )
            ]
        )
    return chosen


def _codes(codes: Mapping[str, str] | None) -> dict[str, str]:
    if not codes or not all(codes.values()):
        raise InvalidResult(
            [
                Problem(
                    "gokodom.settle",
                    "codes",
                    _(
                        "Choose one player's account, or a result code (W, L, D, WD, DD or LD) "
                        "for each player."
                    ),
                )
            ]
        )
    return dict(codes)


def decided(match: Match) -> str:
    """The recorded result in words, for the page, the log and the mail: each player's
    code in seat order in the Swiss ("Ann W, Bob L": a W-L summary in seat order only
    confuses), the winner and the games' score in the elimination rounds ("Ann won 3-1")."""
    result = match.result or {}
    recorded = match.details.get("results") or {}
    seats = [p.entrant for p in match.participants.all()]  # in seat order
    if recorded:
        return ", ".join(
            f"{e.name} {recorded.get(str(e.number), '-')}" for e in seats if e is not None
        )
    winner = result.get("winner")
    summary = str(result.get("summary", ""))
    won = seats[winner] if isinstance(winner, int) and 0 <= winner < len(seats) else None
    if won is not None:
        return _("%(name)s won %(score)s") % {"name": won.name, "score": summary}
    return summary


def _codes_of(match: Match) -> dict[str, str]:
    """{player's name: result code} as recorded (Swiss), for the log and the mail."""
    recorded = match.details.get("results") or {}
    names = {str(p.entrant.number): p.entrant.name for p in match.participants.all() if p.entrant}
    return {names.get(number, number): str(code) for number, code in recorded.items()}
