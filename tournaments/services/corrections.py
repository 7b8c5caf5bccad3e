"""Corrections with a preview (issue 14): what a change to the past does, before it is saved.

A result typed into a round that is not the latest, or a withdrawal, is first *previewed*: the
event's state is corrected in memory, and the engine's standings, the contention logic and
the engine's plan of every later round are compared with the record as it stands
(rules/corrections.py). Nothing is saved. The director then confirms the diff they saw: the
confirmation carries the diff's digest and the versions it was computed from, and is refused
if anything moved since (the match was saved by someone else, any other result changed). The
confirmed change is saved through the usual service (results.record, events.withdraw) and an
audit row keeps the diff that was shown.

Later rounds stay as played: the diff reports which would have been paired differently, and
the director decides what to do about them (a draft can be deleted and drafted again).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import corrections as diffs
from rules.contract import EventState, MatchScore, Problem
from tournaments.models import Entrant, Event, Match, Round
from tournaments.services import audit, events, locking, results, rounds
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult
from tournaments.services.standings import contention_or_none
from tournaments.services.state import jsonable, load_event_state
from tournaments.words import label as round_label

T = TypeVar("T")

VS = " - "  # between the players of a pairing, in the diff's words
# The preview page lists this many standings rows at most (the audit keeps every one).
SHOWN_ROWS = 60


class StalePreview(ServiceError):
    """The record changed since the preview was computed: look again before confirming."""


@dataclass(frozen=True)
class Preview:
    kind: str  # "result" or "withdrawal"
    subject: str
    results_version: int  # the event's results version the preview was computed from
    diff: dict[str, Any]  # JSON: what the director sees, and what the audit row keeps
    digest: str

    @property
    def shown_rows(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.diff["standings"][:SHOWN_ROWS]
        return rows

    @property
    def hidden_rows(self) -> int:
        return max(0, len(self.diff["standings"]) - SHOWN_ROWS)

    @property
    def changes_anything(self) -> bool:
        d = self.diff
        return bool(d["standings"] or d["flips"] or any(r["caused"] for r in d["rounds"]))


def digest_of(diff: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(diff, sort_keys=True, default=str).encode()).hexdigest()


def has_later_rounds(rnd: Round) -> bool:
    """A result in a round that is not the latest needs a preview: later rounds (published
    or drafted) were paired on the old one."""
    return Round.objects.filter(event_id=rnd.event_id, number__gt=rnd.number).exists()


def needs_preview(match: Match) -> bool:
    return has_later_rounds(match.round)


# -- results ------------------------------------------------------------------------------


def _current(state: EventState, round_number: int, code: str) -> Any:
    return next(
        m for r in state.rounds if r.number == round_number for m in r.matches if m.code == code
    )


def preview_result(
    match: Match,
    games: Sequence[Mapping[str, Any]],
    *,
    expected_version: int,
    match_details: Mapping[str, Any] | None = None,
) -> Preview:
    """The diff of saving ``games`` as ``match``'s result. Saves nothing. Raises StaleResult
    when the form is older than the match, InvalidResult when the engine refuses the games."""
    match = Match.objects.select_related("round__event").get(pk=match.pk)
    if match.version != expected_version:
        raise StaleResult(
            match.version, {"games": results.games_json(match), "result": match.result}
        )
    event = match.round.event
    return _result_preview(event, match, games, match_details, load_event_state(event))


def _result_preview(
    event: Event,
    match: Match,
    games: Sequence[Mapping[str, Any]],
    match_details: Mapping[str, Any] | None,
    state: EventState,
) -> Preview:
    rnd = match.round
    if rnd.status == Round.Status.DRAFT:
        raise InvalidResult(f"{rnd.label} is not published yet: results wait for the pairing.")
    new_games = results.parse_games(games)
    current = _current(state, rnd.number, match.code)
    details = dict(match_details or {})
    corrected = diffs.with_games(state, rnd.number, match.code, new_games, details)
    if new_games:
        score = event.engine.score_match(corrected, _current(corrected, rnd.number, match.code))
        if not score.valid:
            raise InvalidResult(score.problems)
    else:
        score = MatchScore(points=(), complete=False, summary="")
    names = {e.id: e.name for e in state.entrants}
    players = VS.join(names.get(p.entrant or "", "bye") for p in current.participants)
    subject = f"{rnd.label}, {match.code}: {players}"
    change = {
        "before": (match.result or {}).get("summary", "") or "no result",
        "after": score.summary or "no result",
    }
    diff = _diff(event, state, corrected, rnd.number, names, kind="result", subject=subject)
    diff["change"] = change
    _check_kept_rounds(diff)
    return Preview("result", subject, event.results_version, diff, digest_of(diff))


def confirm_result(
    match: Match,
    games: Sequence[Mapping[str, Any]],
    *,
    expected_version: int,
    results_version: int,
    digest: str,
    by: Any,
    match_details: Mapping[str, Any] | None = None,
    reason: str = "",
    redraw: int = 0,
    now: datetime | None = None,
) -> results.Outcome:
    """Save the previewed result, if the record is still the one the preview was made from.

    Under the event's row lock: the results version and the match version must be those of
    the preview, and the diff computed again must have the digest the director saw (the
    same games typed). Otherwise StalePreview (or StaleResult) and nothing is saved. With
    ``redraw`` (a round's number) that round, if the preview offered it, is paired again."""
    now = now or timezone.now()
    with transaction.atomic():
        event, locked = locking.lock_match(match)
        if locked.version != expected_version:
            raise StaleResult(
                locked.version, {"games": results.games_json(locked), "result": locked.result}
            )
        _check_version(event, results_version)
        state = load_event_state(event)
        preview = _result_preview(event, locked, games, match_details, state)
        _check_digest(preview, digest)
        require_reason(reason)  # after the staleness checks: a stale preview is shown anew
        outcome = results.record(
            locked,
            games,
            expected_version=expected_version,
            by=by,
            reason=reason or "correction confirmed after its preview",
            match_details=match_details,
            state=state,
            now=now,
        )
        before = {"results_version": results_version, "match_version": expected_version}
        _confirmed(event, "correction.result_confirmed", preview, before, by, reason, redraw, now)
    return outcome


def preview_details(
    match: Match, details: Mapping[str, Any], *, expected_version: int, what: str = "result"
) -> Preview:
    """The diff of replacing ``match``'s details whole, for a format whose own screen records
    a result as details (GokoDom's result codes). Games stay as they are. Saves nothing."""
    match = Match.objects.select_related("round__event").get(pk=match.pk)
    if match.version != expected_version:
        raise StaleResult(match.version, {"result": match.result})
    event = match.round.event
    return _details_preview(event, match, details, load_event_state(event), what)


def _details_preview(
    event: Event, match: Match, details: Mapping[str, Any], state: EventState, what: str
) -> Preview:
    rnd = match.round
    if rnd.status == Round.Status.DRAFT:
        raise InvalidResult(f"{rnd.label} is not published yet: results wait for the pairing.")
    corrected = diffs.with_details(state, rnd.number, match.code, details)
    score = event.engine.score_match(corrected, _current(corrected, rnd.number, match.code))
    if not score.valid:
        raise InvalidResult(score.problems)
    names = {e.id: e.name for e in state.entrants}
    current = _current(state, rnd.number, match.code)
    players = VS.join(names.get(p.entrant or "", "bye") for p in current.participants)
    subject = f"{rnd.label}, {match.code}: {players}"
    diff = _diff(event, state, corrected, rnd.number, names, kind=what, subject=subject)
    diff["change"] = {
        "before": (match.result or {}).get("summary", "") or "no result",
        "after": score.summary or "no result",
    }
    _check_kept_rounds(diff)
    return Preview(what, subject, event.results_version, diff, digest_of(diff))


def confirm_details(
    match: Match,
    details: Mapping[str, Any],
    *,
    expected_version: int,
    results_version: int,
    digest: str,
    by: Any,
    write: Callable[[], T],
    what: str = "result",
    reason: str = "",
    redraw: int = 0,
    now: datetime | None = None,
) -> T:
    """Save previewed details through the format's own service (``write``), if the record is
    still the one the preview was made from; the audit row keeps the diff that was shown."""
    now = now or timezone.now()
    with transaction.atomic():
        event, locked = locking.lock_match(match)
        if locked.version != expected_version:
            raise StaleResult(locked.version, {"result": locked.result})
        _check_version(event, results_version)
        preview = _details_preview(event, locked, details, load_event_state(event), what)
        _check_digest(preview, digest)
        require_reason(reason)
        saved = write()
        before = {"results_version": results_version, "match_version": expected_version}
        _confirmed(event, "correction.result_confirmed", preview, before, by, reason, redraw, now)
    return saved


# -- withdrawals --------------------------------------------------------------------------


def _withdraw_after(event: Event) -> int:
    return (
        event.rounds.exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    ) or 0


def preview_withdrawal(entrant: Entrant, *, during: bool = False) -> Preview:
    """``during``: the entrant leaves during the round in play, whose games then do not count
    (a format's own rule, Freestyle's); otherwise after the latest round paired."""
    event = Event.objects.get(pk=entrant.event_id)
    return _withdrawal_preview(event, entrant, load_event_state(event), during)


def _withdrawal_preview(
    event: Event, entrant: Entrant, state: EventState, during: bool = False
) -> Preview:
    if entrant.status == Entrant.Status.WITHDRAWN:
        raise ServiceError(_("%(entrant)s has already withdrawn.") % {"entrant": entrant.name})
    latest = _withdraw_after(event)
    # During a round his games of that round stop counting, but the round stays as paired:
    # only the rounds after it are compared with the engine's plan.
    after = latest - 1 if during else latest
    corrected = diffs.withdrawn(state, str(entrant.number), after)
    names = {e.id: e.name for e in state.entrants}
    if during:
        subject = f"{entrant.name} withdraws during round {latest}"
        status = f"withdrawn during round {latest} (its games do not count)"
    else:
        subject = f"{entrant.name} withdraws after round {after}"
        status = f"withdrawn after round {after}"
    diff = _diff(event, state, corrected, latest, names, kind="withdrawal", subject=subject)
    diff["change"] = {"before": "playing", "after": status}
    _check_kept_rounds(diff)
    return Preview("withdrawal", subject, event.results_version, diff, digest_of(diff))


def confirm_withdrawal(
    entrant: Entrant,
    *,
    results_version: int,
    digest: str,
    by: Any,
    reason: str = "",
    during: bool = False,
    write: Callable[[], Entrant] | None = None,
    redraw: int = 0,
    now: datetime | None = None,
) -> Entrant:
    """Save the previewed withdrawal, through ``write`` where the format has its own service
    (Freestyle's, which also scores the round in play again), else events.withdraw."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(entrant.event_id)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        _check_version(event, results_version)
        preview = _withdrawal_preview(event, entrant, load_event_state(event), during)
        _check_digest(preview, digest)
        if write is not None:
            entrant = write()
        else:
            entrant = events.withdraw(entrant, by=by, reason=reason, now=now)
        before = {"results_version": results_version}
        _confirmed(
            event, "correction.withdrawal_confirmed", preview, before, by, reason, redraw, now
        )
    return entrant


# -- shared -------------------------------------------------------------------------------


class ReasonNeeded(ServiceError):
    """A correction confirmed without its reason: the preview is shown again."""


def require_reason(reason: str) -> None:
    """A correction changes a result later rounds were paired on: like a swap, it needs the
    director's reason, kept in the log and shown to whoever reads it."""
    if not reason.strip():
        raise ReasonNeeded(
            [
                Problem(
                    "correction.reason",
                    "reason",
                    "Say why you correct this result: the reason is kept in the log.",
                )
            ]
        )


def _confirmed(
    event: Event,
    action: str,
    preview: Preview,
    before: dict[str, Any],
    by: Any,
    reason: str,
    redraw: int,
    now: datetime,
) -> None:
    """After a confirmed change is saved: the audit row with the diff the director saw, then
    the later round paired again if the director chose so (same transaction)."""
    must = preview.diff.get("must_redraw")
    if must and redraw != must["number"]:
        raise ServiceError(
            _(
                "%(round)s was paired from the result you are changing, and the rules pair it "
                "from the results alone: pair %(round)s again to save this correction (tick "
                "the box under the preview)."
            )
            % {"round": round_label(must["label"])}
        )
    audit.log(
        event,
        action,
        actor=by,
        at=now,
        subject=preview.subject,
        before=before,
        after=preview.diff,
        reason=reason,
    )
    if redraw:
        _redraw(event, preview, redraw, by=by, reason=reason, now=now)


def _check_version(event: Event, results_version: int) -> None:
    if event.results_version != results_version:
        raise StalePreview(
            "Results changed since this preview was made, so what it showed may no longer be "
            "what your change does. Look at the new preview and confirm again."
        )


def _check_digest(preview: Preview, digest: str) -> None:
    if preview.digest != digest:
        raise StalePreview(
            "The change is not the one previewed (the result typed differs). "
            "Look at the new preview and confirm again."
        )


def _diff(
    event: Event,
    state: EventState,
    corrected: EventState,
    after_round: int,
    names: Mapping[str, str],
    *,
    kind: str,
    subject: str,
) -> dict[str, Any]:
    engine = event.engine
    before, after = engine.standings(state), engine.standings(corrected)
    changes = diffs.standings_changes(before, after)
    flips = diffs.contention_flips(
        contention_or_none(state, before), contention_or_none(corrected, after)
    )
    seed, external = event.random_seed, event.external_draws
    later = diffs.replan(
        engine,
        state,
        corrected,
        after_round,
        lambda s: source_for_state(seed, s, external),
    )

    def who(entrant: str | None) -> str:
        return "bye" if entrant is None else names.get(entrant, entrant)

    def pairs(matches: Sequence[Sequence[str | None]]) -> list[str]:
        return [VS.join(who(e) for e in m) + (f"{VS}bye" if len(m) == 1 else "") for m in matches]

    return {
        "kind": kind,
        "subject": subject,
        "standings": [
            {
                "table": c.title,
                "entrant": who(c.entrant),
                "number": c.entrant,
                "rank_before": c.rank_before,
                "rank_after": c.rank_after,
                "moved": c.moved,
                "status_before": c.status_before,
                "status_after": c.status_after,
                "values": [
                    {
                        "key": v.key,
                        "label": v.label,
                        "before": jsonable(v.before),
                        "after": jsonable(v.after),
                    }
                    for v in c.values
                ],
            }
            for c in changes
        ],
        "moved": sum(1 for c in changes if c.moved),
        "flips": [
            {
                "entrant": who(f.entrant),
                "goal": f.goal,
                "goal_name": f.goal_name,
                "before": f.before,
                "after": f.after,
                "before_text": f.before_text,
                "after_text": f.after_text,
            }
            for f in flips
        ],
        "rounds": [
            {
                "number": r.number,
                "label": r.label,
                "caused": r.caused,
                "differs": r.differs,
                "note": r.note,
                "only_played": pairs(r.only_played),
                "only_planned": pairs(r.only_planned),
                "seats_changed": pairs(r.seats_changed),
            }
            for r in later
        ],
        "later_rounds": "kept as played",
        "redraw": _redraw_offer(event, after_round, later),
        "fixed_rounds": _fixed_rounds(engine, later),
    }


def _fixed_rounds(engine: Any, later: Sequence[Any]) -> list[dict[str, Any]]:
    """Later rounds the correction changes, in a format whose pairings follow from the
    results alone (``pairings_follow_results``: WPF's ladder). Kept as played they would be
    wrong for the rules, and the engine would pair no further round."""
    if not getattr(engine, "pairings_follow_results", False):
        return []
    return [{"number": r.number, "label": r.label} for r in later if r.caused]


def _check_kept_rounds(diff: dict[str, Any]) -> None:
    """Refuse a correction that would leave a round paired on the old result that cannot be
    kept (see _fixed_rounds), unless it is the latest round, unplayed, which the director
    must then choose to pair again (``must_redraw``)."""
    fixed = diff.pop("fixed_rounds", [])
    offer = diff.get("redraw")
    blocked = [r for r in fixed if not (offer and offer["number"] == r["number"])]
    if blocked:
        names = ", ".join(round_label(r["label"]) for r in blocked)
        raise ServiceError(
            ngettext(
                "%(rounds)s was paired from this result and played: the rules pair every match "
                "from the results before it, so correcting it would make %(rounds)s wrong and "
                "no later round could be paired. Nothing is saved.",
                "%(rounds)s were paired from this result and played: the rules pair every "
                "match from the results before it, so correcting it would make %(rounds)s "
                "wrong and no later round could be paired. Nothing is saved.",
                len(blocked),
            )
            % {"rounds": names}
        )
    diff["must_redraw"] = next(({"number": r["number"], "label": r["label"]} for r in fixed), None)


def _redraw_offer(event: Event, after_round: int, later: Sequence[Any]) -> dict[str, Any] | None:
    """The latest round, when the correction changes its pairing and nothing of it is played
    yet: the director may choose to pair it again instead of keeping it as it stands."""
    latest = event.rounds.order_by("-number").first()
    if latest is None or latest.number <= after_round or not rounds.can_redraw(latest):
        return None
    if not any(r.number == latest.number and r.caused for r in later):
        return None
    return {"number": latest.number, "label": latest.label, "status": latest.status}


def _redraw(
    event: Event, preview: Preview, number: int, *, by: Any, reason: str, now: datetime
) -> None:
    """Pair round ``number`` again, as the director chose: only the round the preview offered."""
    offer = preview.diff.get("redraw")
    if not offer or offer["number"] != number:
        raise ServiceError(
            _(
                "Round %(number)s cannot be paired again: results of it are in, it is not the "
                "latest round, or the correction does not change its pairing."
            )
            % {"number": number}
        )
    latest = Round.objects.get(event=event, number=number)
    rounds.redraw(latest, by=by, reason=reason or f"paired again after: {preview.subject}", now=now)


def redraw_note(event: Event, number: int) -> str:
    """What became of round ``number`` after the director chose to pair it again."""
    if not number:
        return ""
    again = Round.objects.filter(event=event, number=number).first()
    if again is not None and again.status == Round.Status.DRAFT:
        return f"{again.label} is paired again as a draft: review it and publish it."
    return (
        f"The pairing of round {number} is withdrawn; drafting it again waits for a decision "
        "or a draw: see the event's page."
    )


def source_for_state(seed: str, state: EventState, external: bool) -> Any:
    """A draw source that replays the event's recorded draws (as the round was drafted)."""
    from rules.draws import DrawSource

    return DrawSource(seed, state.draws, external=external)


__all__ = [
    "Preview",
    "StalePreview",
    "confirm_details",
    "confirm_result",
    "confirm_withdrawal",
    "has_later_rounds",
    "needs_preview",
    "preview_details",
    "preview_result",
    "preview_withdrawal",
    "redraw_note",
]
