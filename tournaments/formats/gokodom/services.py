"""GokoDom: what players do for themselves during a week-long round.

A player reports the result of their own match (W/L/D in the Swiss, the games in the
elimination rounds); the opponent confirms it (then it is recorded as the result) or
disputes it (then the director decides). A player may tell the director that no time could
be agreed (I.D: the "PM to the TO", stored in match details ``messages`` as the engine
reads it) until the round's deadline, and ask for a Bye by Request (I.E, entrant flag
``bye_requests``) for a coming round before it starts.

The pending report lives in match details ``report`` (the engine ignores it):
``{"by", "status": reported|disputed|confirmed, "results" | "games", "summary",
"version", "at", "disputed_by", "note"}``. Every action locks the event row first, then the
match row (the order the deadline task uses too), and writes an audit row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django_stubs_ext import StrOrPromise

from rules.contract import EventState, MatchScore, MatchState, Problem
from rules.words_common import ROUND
from tournaments.formats.gokodom import schedule
from tournaments.formats.gokodom.claims import CONFIRMED, DISPUTED, REPORTED, claim_lines
from tournaments.models import Entrant, Event, Match, ResultChange, Round
from tournaments.services import audit, locking, notifications, result_changes, results
from tournaments.services.errors import InvalidResult, NotAllowed, ServiceError
from tournaments.services.result_json import score_json
from tournaments.services.state import match_state
from tournaments.words import label

INVERSE = {"W": "L", "L": "W", "D": "D"}


# -- shared with the director's side -----------------------------------------------------


def players_of(match: Match) -> list[str]:
    return [str(p.entrant.number) for p in match.participants.all() if p.entrant]


def state_match(state: EventState, match: Match) -> MatchState:
    for rnd in state.rounds:
        if rnd.number == match.round.number:
            for candidate in rnd.matches:
                if candidate.code == match.code:
                    return candidate
    return match_state(match, match.round.number)


def save_details(
    event: Event,
    state: Any,
    locked: Match,
    details: Mapping[str, Any],
    *,
    by: Any,
    source: str,
    reason: str,
    now: datetime,
    bump: bool = True,
) -> MatchScore:
    """Write details that decide a result (``results``, ``advances``, ``unplayed``): the
    engine scores the match with them (a refusal saves nothing), the version rises and a
    ResultChange row records before and after. The caller holds the locks."""
    candidate = replace(state_match(state, locked), details=dict(details))
    score = event.engine.score_match(state, candidate)
    if not score.valid:
        raise InvalidResult(score.problems)
    before = {"games": results.games_json(locked), "result": locked.result}
    before["details"] = locked.details
    locked.details = dict(details)
    locked.result = score_json(score, candidate.games)
    result_changes.write(
        event,
        locked,
        fields=["details", "result"],
        before=before,
        after={"games": results.games_json(locked), "result": locked.result, "details": details},
        by=by,
        source=source,
        reason=reason,
        now=now,
        refresh=bump,
    )
    return score


def shown(event: Event, moment: datetime | None) -> str:
    if moment is None:
        return ""
    local = timezone.localtime(moment, schedule.zone(event))
    when = date_format(local, gettext("D j M Y H:i"))  # the language's pattern ("déc")
    return f"{when} ({event.time_zone})"


# -- checks ----------------------------------------------------------------------------------


def _open(event: Event, locked: Match, now: datetime, what: StrOrPromise) -> None:
    rnd = locked.round
    if rnd.status != Round.Status.PUBLISHED:
        raise ServiceError(
            _("%(round)s is closed: %(what)s is no longer possible.")
            % {"round": label(rnd.label), "what": what}
        )
    end = schedule.deadline(event, rnd)
    if end is not None and now >= end:
        raise ServiceError(
            _("%(round)s ended on %(end)s: %(what)s is no longer possible. Write to the director.")
            % {"round": label(rnd.label), "end": shown(event, end), "what": what}
        )


def _seat(locked: Match, entrant: Entrant) -> int:
    for participant in locked.participants.all():
        if participant.entrant_id == entrant.pk:
            return participant.seat
    raise NotAllowed("You can act only on your own match.")


def _complete(locked: Match) -> bool:
    return bool(locked.result and locked.result.get("complete"))


def _two_players(locked: Match) -> None:
    if len(players_of(locked)) != 2:
        raise ServiceError(_("This match has no opponent: there is nothing to report."))


# -- reporting -----------------------------------------------------------------------------


def _claim(
    event: Event,
    locked: Match,
    entrant: Entrant,
    *,
    outcome: str,
    games: Sequence[Mapping[str, Any]],
    now: datetime,
) -> dict[str, Any]:
    """One player's account of the match, checked by the engine: W/L/D from their side in
    the Swiss, the games in the elimination rounds; with the summary and the winning seat."""
    me = str(entrant.number)
    # the engine scores one match from the event's frame (rules/scoring_frame.py)
    state = results.scoring_state(event, locked.round, locked)
    current = state_match(state, locked)
    claim: dict[str, Any] = {"by": me, "version": locked.version}
    if schedule.stage(locked.round) == schedule.SWISS:
        if outcome not in INVERSE:
            raise InvalidResult(
                [Problem("report.outcome", "outcome", "Choose whether you won, lost or drew.")]
            )
        (other,) = [p for p in players_of(locked) if p != me]
        codes = {me: outcome, other: INVERSE[outcome]}
        candidate = replace(current, details={**current.details, "results": codes})
        claim["results"] = codes
    else:
        if not games:
            raise InvalidResult(
                [Problem("report.games", "games", "Enter the result of each game played.")]
            )
        candidate = replace(current, games=results.parse_games(games))
        claim["games"] = [dict(g) for g in games]
    score = event.engine.score_match(state, candidate)
    if not score.valid:
        raise InvalidResult(score.problems)
    if not score.complete and not _tied(score):
        raise InvalidResult(
            [
                Problem(
                    "report.unfinished",
                    "games",
                    "The match is not over after these games (3 game points win after "
                    "game 3 or 4, 3.5 after game 5 or 6): enter every game played.",
                )
            ]
        )
    claim.update(summary=score.summary, winner=score.winner, at=now.isoformat())
    return claim


def report(
    match: Match,
    entrant: Entrant,
    *,
    outcome: str = "",
    games: Sequence[Mapping[str, Any]] = (),
    by: Any,
    now: datetime | None = None,
) -> dict[str, Any]:
    """A player reports their own match: ``outcome`` W/L/D from their side (Swiss), or the
    ``games`` (elimination rounds, playoff). The engine checks it now; the opponent
    confirms it later. In a disputed match a report is that player's claim: the dispute
    stays for the director (or for one player to accept the other's claim)."""
    now = now or timezone.now()
    with transaction.atomic():
        event, locked = locking.lock_match(match, seats=True)
        _seat(locked, entrant)
        _two_players(locked)
        _open(event, locked, now, _("reporting a result"))
        if _complete(locked):
            raise ServiceError(
                _("A result is already recorded (%(result)s). Ask the director if it is wrong.")
                % {"result": (locked.result or {}).get("summary", "")}
            )
        me = str(entrant.number)
        pending = dict(locked.details.get("report") or {})
        if pending.get("status") == REPORTED and pending.get("by") != me:
            raise ServiceError(_("Your opponent has reported this match: confirm or dispute it."))
        claim = _claim(event, locked, entrant, outcome=outcome, games=games, now=now)
        if pending.get("status") == DISPUTED:
            entry = _with_claim(pending, claim)
        else:
            entry = {**claim, "status": REPORTED}
        locked.details = {**locked.details, "report": entry}
        locked.save(update_fields=["details"])
        audit.log(
            event,
            "gokodom.result_reported",
            actor=by,
            at=now,
            subject=f"{locked.round.label} {locked.code}: {entrant.name}",
            after=entry,
        )
        return entry


def _with_claim(entry: Mapping[str, Any], claim: Mapping[str, Any]) -> dict[str, Any]:
    """A disputed report with one player's claim put in: the reporter's own, or the other
    player's ``counter``. Results or games of the older claim of that player go."""
    updated = dict(entry)
    if claim["by"] == entry.get("by"):
        for key in ("results", "games"):
            updated.pop(key, None)
        updated.update(claim)
    else:
        updated["counter"] = dict(claim)
    updated["status"] = DISPUTED
    return updated


def _tied(score: MatchScore) -> bool:
    # A 3-3 tie after six games is a finished match the rules leave to the director.
    return any(r.code == "gokodom.tied" for r in score.reasons)


def _pending_for(locked: Match, entrant: Entrant, statuses: tuple[str, ...]) -> dict[str, Any]:
    entry = locked.details.get("report") or {}
    if entry.get("status") not in statuses:
        raise ServiceError(_("There is no reported result waiting for you."))
    if entry.get("by") == str(entrant.number):
        raise ServiceError(_("You reported this result: your opponent confirms it."))
    return dict(entry)


def apply_report(
    event: Event,
    state: Any,
    locked: Match,
    entry: Mapping[str, Any],
    *,
    by: Any,
    source: str,
    reason: str,
    now: datetime,
    claim: Mapping[str, Any] | None = None,
) -> None:
    """Record a reported result as the match's result (under the version it was reported
    at: a result changed since then by the director wins). ``claim``: the account to
    record when it is not the report itself (a dispute's counter-claim)."""
    claim = claim or entry
    details = {**locked.details, "report": {**entry, "status": CONFIRMED}}
    if "results" in claim:
        if locked.version != claim.get("version"):
            raise ServiceError(_("The result changed since it was reported; the report is void."))
        details["results"] = dict(claim["results"])
        save_details(event, state, locked, details, by=by, source=source, reason=reason, now=now)
        return
    results.record(
        locked,
        list(claim.get("games", [])),
        expected_version=int(claim.get("version", -1)),
        by=by,
        source=source,
        reason=reason,
        now=now,
    )
    Match.objects.filter(pk=locked.pk).update(details=details)
    locked.refresh_from_db()


def confirm(
    match: Match,
    entrant: Entrant,
    *,
    by: Any,
    seen: str | None = None,
    now: datetime | None = None,
) -> Match:
    """The opponent agrees: the reported result becomes the match's result. In a dispute
    either player may accept the other's claim: the disputer the report, the reporter the
    counter-claim. ``seen`` is the time stamp (``at``) of the claim the player was shown: a
    claim its author changed since (from another tab, at the same moment) is not confirmed
    in its place."""
    now = now or timezone.now()
    with transaction.atomic():
        event, locked = locking.lock_match(match, seats=True)
        _seat(locked, entrant)
        _open(event, locked, now, _("confirming a result"))
        me = str(entrant.number)
        entry = dict(locked.details.get("report") or {})
        counter = entry.get("counter")
        if entry.get("status") == DISPUTED and entry.get("by") == me and counter:
            claim: Mapping[str, Any] = counter  # the reporter accepts the other's claim
        else:
            entry = _pending_for(locked, entrant, (REPORTED, DISPUTED))
            claim = entry
        if seen is not None and seen != claim.get("at"):
            raise ServiceError(
                _(
                    "Your opponent changed the report since you saw it: it now says "
                    "%(result)s. Confirm or dispute it as it is now."
                )
                % {"result": claim.get("summary", "")}
            )
        state = results.scoring_state(event, locked.round, locked)
        apply_report(
            event,
            state,
            locked,
            entry,
            by=by,
            source=ResultChange.Source.WEB,
            reason=f"reported by entrant {claim['by']}, confirmed by {entrant.name}",
            now=now,
            claim=claim,
        )
        audit.log(
            event,
            "gokodom.result_confirmed",
            actor=by,
            at=now,
            subject=f"{locked.round.label} {locked.code}: {entrant.name}",
        )
        return locked


def dispute(
    match: Match,
    entrant: Entrant,
    *,
    note: str = "",
    outcome: str = "",
    games: Sequence[Mapping[str, Any]] = (),
    by: Any,
    now: datetime | None = None,
) -> dict[str, Any]:
    """The opponent does not agree: the director decides (the report stays for them). The
    note says what is wrong and is required; the player may give their own account
    (``outcome`` or ``games``), which the director sees beside the report."""
    now = now or timezone.now()
    note = note.strip()[:300]
    if not note:
        raise ServiceError(
            [Problem("dispute.note", "note", "Say what is wrong: the director reads it.")]
        )
    with transaction.atomic():
        event, locked = locking.lock_match(match, seats=True)
        _seat(locked, entrant)
        _open(event, locked, now, _("disputing a result"))
        entry = _pending_for(locked, entrant, (REPORTED,))
        entry.update(status=DISPUTED, disputed_by=str(entrant.number), note=note)
        if outcome or games:
            entry["counter"] = _claim(event, locked, entrant, outcome=outcome, games=games, now=now)
        locked.details = {**locked.details, "report": entry}
        locked.save(update_fields=["details"])
        logged = audit.log(
            event,
            "gokodom.result_disputed",
            actor=by,
            at=now,
            subject=f"{locked.round.label} {locked.code}: {entrant.name}",
            reason=entry["note"],
            after=entry,
        )
        _mail_dispute(locked, logged, entrant, now)
        return entry


def _mail_dispute(locked: Match, logged: Any, entrant: Entrant, now: datetime) -> None:
    """Both players and the directors are told, after the commit, with the accounts as
    the director reads them."""
    note = (locked.details.get("report") or {}).get("note", "")
    notifications.dispute_opened(
        locked, logged, by=entrant, note=note, lines=claim_lines(locked), now=now
    )


# -- the message to the director (I.D) -----------------------------------------------------


def message_director(
    match: Match, entrant: Entrant, *, by: Any, now: datetime | None = None
) -> list[str]:
    """I.D: 'we could not agree a time'. Recorded in match details ``messages`` (the ids
    the engine's unplayed-match rule reads), open until the round's deadline."""
    now = now or timezone.now()
    with transaction.atomic():
        event, locked = locking.lock_match(match, seats=True)
        _seat(locked, entrant)
        _two_players(locked)
        _open(event, locked, now, _("messaging the director about this match"))
        if _complete(locked):
            raise ServiceError(_("This match has a result: there is nothing to tell the director."))
        me = str(entrant.number)
        sent = [str(m) for m in locked.details.get("messages", [])]
        if me in sent:
            return sent
        sent.append(me)
        locked.details = {**locked.details, "messages": sent}
        locked.save(update_fields=["details"])
        audit.log(
            event,
            "gokodom.message_to_director",
            actor=by,
            at=now,
            subject=f"{locked.round.label} {locked.code}: {entrant.name}",
        )
        return sent


# -- Bye by Request (I.E) ------------------------------------------------------------------


def next_round_number(event: Event) -> int:
    last = event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    return 1 if last is None else last.number + 1


def bye_refusal(event: Event, number: int, now: datetime) -> str:
    """Why a Bye by Request for round ``number`` is refused now ('' when it is allowed)."""
    swiss = schedule.swiss_rounds(event)
    if number >= swiss:
        which = "the final Swiss round" if number == swiss else "the elimination rounds"
        return (
            f"Round {number} is {which}: a Bye by Request may not be used in the final Swiss "
            "round or the elimination rounds (I.E)."
        )
    if number < 1 or event.rounds.filter(number=number).exists():
        return f"Round {number} is already being paired: a bye must be asked for before it."
    previous = event.rounds.filter(number=number - 1).first()
    end = schedule.deadline(event, previous) if previous is not None else None
    if end is not None and now >= end:
        return (
            f"A Bye by Request for round {number} had to be asked for by the end of round "
            f"{number - 1} ({shown(event, end)}, I.E)."
        )
    return ""


def set_bye_request(
    entrant: Entrant, number: int, *, wanted: bool, by: Any, now: datetime | None = None
) -> list[int]:
    """Ask for (or withdraw) a Bye by Request for Swiss round ``number``."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(entrant.event_id)
        locked = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if locked.status != Entrant.Status.ACTIVE:
            raise ServiceError(_("You have left the event."))
        refusal = bye_refusal(event, number, now)
        if refusal:
            raise ServiceError([Problem("gokodom.bye_request_refused", "round", refusal)])
        requests = [r for r in locked.flags.get("bye_requests", []) if isinstance(r, int)]
        if wanted and number not in requests:
            requests = sorted([*requests, number])
        elif not wanted:
            requests = [r for r in requests if r != number]
        locked.flags = {**locked.flags, "bye_requests": requests}
        locked.save(update_fields=["flags"])
        audit.log(
            event,
            "gokodom.bye_requested" if wanted else "gokodom.bye_withdrawn",
            actor=by,
            at=now,
            subject=f"{locked.name}: {ROUND.format(n=number)}",
        )
        return requests
