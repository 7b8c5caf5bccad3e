"""GokoDom: the director's writers and the round deadline.

Result codes typed in the results grid (match details ``results``), the decisions the
engine asks for (``advances`` for a 3-3 or both-messaged elimination match, the
``knockout/eighth-place`` choice), the season's dates, and ``close_at_deadline``: the
unplayed-match rule (I.D, II.B.4-6) applied when a round ends, then the round closed.
Every action is one transaction that locks the event row first.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import DrawMethod, DrawRecord, Problem, RoundState
from rules.formats.gokodom import resolve_deadline
from tournaments import selectors
from tournaments.formats.gokodom import schedule
from tournaments.formats.gokodom.claims import DISPUTED, REPORTED
from tournaments.formats.gokodom.services import (
    apply_report,
    players_of,
    save_details,
)
from tournaments.models import Event, Match, RandomDraw, ResultChange, Round
from tournaments.services import audit, draws, locking, results, rounds, standings
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult
from tournaments.services.state import load_event_state
from tournaments.words import label

CODES = ("W", "L", "D", "WD", "DD", "LD")
EIGHTH_PLACE_KEY = "knockout/eighth-place"


def record_codes(
    match: Match,
    codes: Mapping[str, str] | None,
    *,
    expected_version: int,
    by: Any,
    reason: str = "result codes recorded by the director",
    now: datetime.datetime | None = None,
) -> Match:
    """The director records each player's result code (None clears them)."""
    now = now or timezone.now()
    with transaction.atomic():
        event, locked = locking.lock_match(match, seats=True)
        _check_version(locked, expected_version)
        if locked.round.status == Round.Status.DRAFT:
            raise InvalidResult(f"{locked.round.label} is not published yet.")
        details = details_with_codes(locked, codes)
        state = results.scoring_state(event, locked.round, locked)
        save_details(
            event,
            state,
            locked,
            details,
            by=by,
            source=ResultChange.Source.WEB,
            reason=reason,
            now=now,
        )
        return locked


def details_with_codes(match: Match, codes: Mapping[str, str] | None) -> dict[str, Any]:
    """The match's details with ``codes`` as its result codes (None clears them); refused
    unless each player has one of the codes."""
    details = dict(match.details)
    if codes:
        bad = [c for c in codes.values() if c not in CODES]
        if bad or set(codes) != set(players_of(match)):
            raise InvalidResult(
                [
                    Problem(
                        "gokodom.results_code",
                        "codes",
                        "Choose one result code (W, L, D, WD, DD or LD) for each player.",
                    )
                ]
            )
        details["results"] = dict(codes)
    else:
        details.pop("results", None)
    return details


def details_with_advances(match: Match, entrant: str) -> dict[str, Any]:
    """The match's details with ``entrant`` going through; refused unless he plays it."""
    if entrant not in players_of(match):
        raise InvalidResult(
            [Problem("gokodom.advances", "advances", "Choose one of the two players.")]
        )
    return {**match.details, "advances": entrant}


def decide_advances(
    match: Match,
    entrant: str,
    *,
    expected_version: int,
    by: Any,
    reason: str = "",
    now: datetime.datetime | None = None,
) -> Match:
    """IV.A.4 (3-3) or both players messaged: the director says who goes through."""
    now = now or timezone.now()
    with transaction.atomic():
        event, locked = locking.lock_match(match, seats=True)
        _check_version(locked, expected_version)
        details = details_with_advances(locked, entrant)
        state = results.scoring_state(event, locked.round, locked)
        save_details(
            event,
            state,
            locked,
            details,
            by=by,
            source=ResultChange.Source.WEB,
            reason=reason or "the director decided who goes through (IV.A.4)",
            now=now,
        )
        return locked


def _check_version(locked: Match, expected: int) -> None:
    if locked.version != expected:
        raise StaleResult(locked.version, {"result": locked.result})


def choose_eighth_place(
    event: Event, method: str, *, by: Any, now: datetime.datetime | None = None
) -> RandomDraw:
    """III.A: a coin flip or a playoff match settles 8th against 9th (stored like a draw,
    as the engine's NeedsDecision key says)."""
    now = now or timezone.now()
    if method not in ("coin", "playoff"):
        raise ServiceError([Problem("gokodom.eighth_place", "method", "Choose coin or playoff.")])
    with transaction.atomic():
        event = locking.lock_event(event.pk)
        if RandomDraw.objects.filter(event=event, key=EIGHTH_PLACE_KEY).exists():
            raise ServiceError(_("The 8th-place question is already decided."))
        (draw,) = draws.store(
            event,
            [DrawRecord(EIGHTH_PLACE_KEY, method, DrawMethod.EXTERNAL, "8th/9th place (III.A)")],
            by=by,
            at=now,
        )
        audit.log(event, "gokodom.eighth_place", actor=by, at=now, after={"method": method})
        return draw


def set_first_round_start(
    event: Event, day: datetime.date | None, *, by: Any, now: datetime.datetime | None = None
) -> Event:
    """I.C: the season's dates follow from round 1's start date (a setting of the engine)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event.pk)
        settings = {**event.settings, "first_round_start": day.isoformat() if day else ""}
        problems = event.engine.validate_settings(settings)
        if problems:
            raise ServiceError(problems)
        before = event.settings.get("first_round_start", "")
        event.settings = settings
        event.save(update_fields=["settings"])
        audit.log(
            event,
            "gokodom.schedule",
            actor=by,
            at=now,
            before={"first_round_start": before},
            after={"first_round_start": settings["first_round_start"]},
        )
        return event


def set_round_times(
    rnd: Round,
    starts_at: datetime.datetime | None,
    deadline: datetime.datetime | None,
    *,
    by: Any,
    now: datetime.datetime | None = None,
) -> Round:
    """The director moves a round's start or deadline (e.g. extends it). The end date is
    also written to ``details["ends"]``, which moves the next round's start (I.C)."""
    now = now or timezone.now()
    if starts_at and deadline and deadline <= starts_at:
        raise ServiceError(
            [Problem("gokodom.times", "deadline", _("The deadline must come after the start."))]
        )
    with transaction.atomic():
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status == Round.Status.COMPLETED:
            raise ServiceError(
                _("%(round)s is closed: its times can no longer change.")
                % {"round": label(rnd.label)}
            )
        before = {"starts_at": _iso(rnd.starts_at), "deadline": _iso(rnd.deadline)}
        rnd.starts_at, rnd.deadline = starts_at, deadline
        if deadline is not None:
            local = timezone.localtime(deadline, schedule.zone(event))
            rnd.details = {**rnd.details, "ends": local.date().isoformat()}
        rnd.save(update_fields=["starts_at", "deadline", "details"])
        audit.log(
            event,
            "gokodom.round_times",
            actor=by,
            at=now,
            subject=rnd.label,
            before=before,
            after={"starts_at": _iso(starts_at), "deadline": _iso(deadline)},
        )
        # the public pages and the API show the round's times: a saved event moves their stamp
        event.save(update_fields=["updated_at"])
        return rnd


def _iso(moment: datetime.datetime | None) -> str:
    return moment.isoformat() if moment else ""


# -- the deadline ----------------------------------------------------------------------------


@dataclass
class DeadlineOutcome:
    """What a deadline run did; ``left`` lists the matches the director must settle."""

    applied: dict[str, str] = field(default_factory=dict)  # match code -> summary
    left: dict[str, str] = field(default_factory=dict)  # match code -> why
    closed: bool = False
    ran: bool = False


def due_rounds(now: datetime.datetime) -> list[int]:
    """Published GokoDom rounds whose deadline has passed (ids)."""
    due = []
    candidates = Round.objects.filter(
        event__format="gokodom", status=Round.Status.PUBLISHED
    ).select_related("event")
    for rnd in candidates:
        end = schedule.deadline(rnd.event, rnd)
        if end is not None and end <= now:
            due.append(rnd.pk)
    return due


def close_at_deadline(
    round_id: int,
    *,
    now: datetime.datetime | None = None,
    by: Any = None,
    force: bool = False,
) -> DeadlineOutcome:
    """The end of a round: undisputed reports stand, every unplayed match gets its results
    from the messages (engine's ``resolve_deadline`` in the Swiss, ``unplayed`` in the
    elimination rounds), and the round closes once every match has a result.

    Idempotent: a closed round, a round before its deadline (unless ``force``: the
    director closes it by hand) and matches that already have a result are left alone.
    """
    now = now or timezone.now()
    outcome = DeadlineOutcome()
    with transaction.atomic():
        rnd = Round.objects.select_related("event").get(pk=round_id)
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=round_id)
        if rnd.status != Round.Status.PUBLISHED:
            return outcome
        end = schedule.deadline(event, rnd)
        if not force and (end is None or now < end):
            return outcome
        outcome.ran = True
        # OF: the event and the round are locked above; these are the matches' rows
        matches = list(
            selectors.with_seats_and_games(
                Match.objects.select_for_update(of=("self",)).filter(round=rnd)
            ).order_by("order")
        )
        state = load_event_state(event)
        source = ResultChange.Source.SYSTEM
        for match in matches:
            entry = match.details.get("report") or {}
            if _complete(match) or entry.get("status") != REPORTED:
                continue
            try:
                apply_report(
                    event,
                    state,
                    match,
                    entry,
                    by=by,
                    source=source,
                    reason="reported and not disputed by the round's deadline",
                    now=now,
                )
                outcome.applied[match.code] = str(entry.get("summary", ""))
            except ServiceError as error:
                outcome.left[match.code] = " ".join(error.messages)
        state = load_event_state(event)
        disputed = {
            m.code
            for m in matches
            if not _complete(m) and (m.details.get("report") or {}).get("status") == DISPUTED
        }
        for code in sorted(disputed):
            outcome.left[code] = "the players dispute the reported result"
        by_code = {m.code: m for m in matches}
        if schedule.stage(rnd) == schedule.SWISS:
            _swiss_unplayed(event, state, rnd, by_code, disputed, outcome, by=by, now=now)
        else:
            _knockout_unplayed(event, state, by_code, disputed, outcome, by=by, now=now)
        for match in matches:
            match.refresh_from_db(fields=["result"])
            if not _complete(match) and match.code not in outcome.left:
                outcome.left[match.code] = "no result"
        if outcome.applied:
            standings.results_changed(event)
        if not outcome.left:
            rounds.complete_round(rnd, by=by, now=now)
            outcome.closed = True
        audit.log(
            event,
            "gokodom.deadline",
            actor=by,
            at=now,
            subject=rnd.label,
            after={"applied": outcome.applied, "left": outcome.left, "closed": outcome.closed},
        )
    return outcome


def _complete(match: Match) -> bool:
    return bool(match.result and match.result.get("complete"))


def _swiss_unplayed(
    event: Event,
    state: Any,
    rnd: Round,
    by_code: dict[str, Match],
    disputed: set[str],
    outcome: DeadlineOutcome,
    *,
    by: Any,
    now: datetime.datetime,
) -> None:
    current: RoundState = next(r for r in state.rounds if r.number == rnd.number)
    open_matches = tuple(
        m for m in current.matches if m.code not in disputed and not _complete(by_code[m.code])
    )
    resolution = resolve_deadline(
        replace(current, matches=open_matches),
        last_swiss_round=rnd.number == schedule.swiss_rounds(event),
    )
    for code, codes in resolution.results.items():
        match = by_code[code]
        details = {**match.details, "results": {e: str(c) for e, c in codes.items()}}
        score = save_details(
            event,
            state,
            match,
            details,
            by=by,
            source=ResultChange.Source.SYSTEM,
            reason="unplayed at the round's deadline (I.D, II.B.4-6)",
            now=now,
            bump=False,
        )
        outcome.applied[code] = score.summary
    for code in resolution.for_director:
        outcome.left[code] = (
            "both players messaged the director in the last Swiss round: a Draw by Default "
            "is not available (II.B.5), record the results"
        )


def _knockout_unplayed(
    event: Event,
    state: Any,
    by_code: dict[str, Match],
    disputed: set[str],
    outcome: DeadlineOutcome,
    *,
    by: Any,
    now: datetime.datetime,
) -> None:
    for code, match in by_code.items():
        if code in disputed or _complete(match) or match.games.all():
            continue
        if len(players_of(match)) != 2 or "advances" in match.details:
            continue
        score = save_details(
            event,
            state,
            match,
            {**match.details, "unplayed": True},
            by=by,
            source=ResultChange.Source.SYSTEM,
            reason="unplayed at the round's deadline (I.D)",
            now=now,
            bump=False,
        )
        if score.complete:
            outcome.applied[code] = score.summary
        else:
            outcome.left[code] = (
                "both players messaged the director: the rules leave it open, choose who "
                "goes through"
            )
