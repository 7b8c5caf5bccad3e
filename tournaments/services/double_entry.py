"""Double entry of results (docs/double-entry.md): an event setting (Event.double_entry).

When it is on, a result typed on the results screen (or by a player on their own match's
page) is not saved at once: it is kept as one person's entry (ResultEntry) until a second,
different person enters the same match (two directors, or a player and a director; never
two players alone). When
the two entries agree the result is saved once through results.record, with both names in
its history; when they disagree nothing is saved, both entries are kept and the head
director (accounts.permissions.is_head_director) settles the match by entering its result.
Entry is blind: nobody but the person who made it sees an entry's numbers before the
result is saved (the head director sees both in a disagreement, to settle it).

An entry is made against the match's version, as every result is: when the match changes
(a result saved any other way, a correction) the entries made before are void.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from accounts.permissions import can_report_for, is_director, is_head_director
from rules.contract import GameState, MatchScore
from tournaments.formats.base import NeedsYou
from tournaments.models import Event, Match, ResultEntry, Round
from tournaments.services import audit, locking, results
from tournaments.services.errors import InvalidResult, NotAllowed, ServiceError, StaleResult
from tournaments.words import label

WAITING, SAVED, DISAGREED, SETTLED = "waiting", "saved", "disagreed", "settled"


@dataclass(frozen=True)
class Entered:
    """What one entry did: ``waiting`` for a second person, ``saved`` (the two agree),
    ``disagreed`` (nothing saved: the head director settles it) or ``settled``."""

    state: str
    outcome: results.Outcome | None = None
    first_by: str = ""

    @property
    def saved(self) -> bool:
        return self.state in (SAVED, SETTLED)


@dataclass(frozen=True)
class EntryState:
    """A match's entries as one viewer of the results screen may see them."""

    disagreed: bool
    names: tuple[str, ...]  # who entered, in order
    mine: bool  # the viewer made one of them
    head: bool  # the viewer settles a disagreement
    # (name, summary) of the entries this viewer may read: their own; both for the head
    # director in a disagreement. Never another person's numbers before that.
    shown: tuple[tuple[str, str], ...]


def set_enabled(event: Event, enabled: bool, *, by: Any, now: datetime | None = None) -> bool:
    """Turn double entry on or off. Turning it off drops the entries still waiting (the
    results screen then saves at once); returns whether anything changed."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = locking.lock_event(event.pk)
        if locked.double_entry == enabled:
            return False
        dropped = 0
        if not enabled:
            dropped, _count = ResultEntry.objects.filter(match__round__event=locked).delete()
        locked.double_entry = enabled
        locked.save(update_fields=["double_entry"])
        event.double_entry = enabled
        audit.log(
            locked,
            "event.double_entry_on" if enabled else "event.double_entry_off",
            actor=by,
            at=now,
            subject=locked.name,
            after={"entries_dropped": dropped} if dropped else None,
        )
        return True


def _normal(games: Sequence[Mapping[str, Any]], details: Mapping[str, Any] | None) -> str:
    """An entry in one comparable form: 40 and 40.0 agree, key order does not matter."""
    parsed = results.parse_games(games)
    return json.dumps(
        {
            "games": [
                {
                    "number": g.number,
                    "scores": [None if s is None else float(s) for s in g.scores],
                    "first": g.first,
                    "ending": str(g.ending),
                    "details": g.details,
                }
                for g in parsed
            ],
            "details": dict(details or {}),
        },
        sort_keys=True,
        default=str,
    )


def _score(locked: Match, games: tuple[GameState, ...], details: Mapping[str, Any]) -> MatchScore:
    """The engine checks an entry when it is made, as it checks a result: a refused entry
    is refused at once, not when a second person agrees with it."""
    rnd = locked.round
    event = rnd.event
    if rnd.status == Round.Status.DRAFT:
        raise InvalidResult(f"{rnd.label} is not published yet: results wait for the pairing.")
    if not games and not details:
        return MatchScore(points=(), complete=False, summary="")
    state = results.scoring_state(event, rnd, locked)
    current = next(
        m
        for r in state.rounds
        if r.number == rnd.number
        for m in r.matches
        if m.code == locked.code
    )
    candidate = replace(current, games=games, details={**current.details, **details})
    score = event.engine.score_match(state, candidate)
    if not score.valid:
        raise InvalidResult(score.problems)
    return score


def _subject(match: Match) -> str:
    return f"{match.round.label} {match.code}"


def enter(
    match: Match,
    games: Sequence[Mapping[str, Any]],
    *,
    expected_version: int,
    by: Any,
    match_details: Mapping[str, Any] | None = None,
    now: datetime | None = None,
) -> Entered:
    """One person's entry of ``match``'s result, made against ``expected_version``.

    The first entry waits (the same person entering again replaces their own: it never
    counts as the second); a second person's entry that agrees saves the result; one that
    disagrees saves nothing and keeps both. While two entries disagree only the head
    director may enter, and their entry settles the match.
    """
    now = now or timezone.now()
    details = dict(match_details or {})
    mine = _normal(games, details)  # a score that is not a number is refused here
    with transaction.atomic():
        event, locked = locking.lock_match(match)
        if locked.version != expected_version:
            raise StaleResult(
                locked.version, {"games": results.games_json(locked), "result": locked.result}
            )
        if not can_report_for(by, locked):
            raise NotAllowed("Only the event's directors and the match's players enter it.")
        entries = list(ResultEntry.objects.filter(match=locked).select_related("entered_by"))
        void = [e.pk for e in entries if e.version != locked.version]
        if void:  # made against a version of the match that is gone
            ResultEntry.objects.filter(pk__in=void).delete()
        current = [e for e in entries if e.version == locked.version]
        if any(e.status == ResultEntry.Status.DISAGREED for e in current):
            return _settle(event, locked, current, games, details, by=by, now=now)
        score = _score(locked, results.parse_games(games), details)
        others = [e for e in current if e.entered_by_id != by.pk]
        own = next((e for e in current if e.entered_by_id == by.pk), None)
        if not others:
            _keep(own, locked, games, details, score.summary, by=by, now=now)
            audit.log(
                event,
                "result.first_entry",
                actor=by,
                at=now,
                subject=_subject(locked),
                reason="replaces their own first entry" if own else "",
            )
            return Entered(WAITING)
        first = others[0]
        if not (is_director(by, event) or is_director(first.entered_by, event)):
            # two directors, or a player and a director: never two players alone
            raise ServiceError(
                _(
                    "Your opponent has entered this result already: the second entry is a "
                    "director's."
                )
            )
        if _normal(first.games, first.match_details) == mine:
            outcome = results.record(
                locked,
                games,
                expected_version=expected_version,
                by=by,
                match_details=details or None,
                reason=f"double entry: entered by {first.entered_by} and by {by}, agreeing",
                now=now,
            )
            ResultEntry.objects.filter(match=locked).delete()
            audit.log(
                event,
                "result.entries_agreed",
                actor=by,
                at=now,
                subject=_subject(locked),
                after={"entered_by": [str(first.entered_by), str(by)], "summary": score.summary},
            )
            return Entered(SAVED, outcome, first_by=str(first.entered_by))
        first.status = ResultEntry.Status.DISAGREED
        first.save(update_fields=["status"])
        _keep(own, locked, games, details, score.summary, by=by, now=now, disagreed=True)
        audit.log(
            event,
            "result.entries_disagree",
            actor=by,
            at=now,
            subject=_subject(locked),
            after={
                str(first.entered_by): first.summary,
                str(by): score.summary,
            },
        )
        return Entered(DISAGREED, first_by=str(first.entered_by))


def _keep(
    own: ResultEntry | None,
    locked: Match,
    games: Sequence[Mapping[str, Any]],
    details: Mapping[str, Any],
    summary: str,
    *,
    by: Any,
    now: datetime,
    disagreed: bool = False,
) -> None:
    status = ResultEntry.Status.DISAGREED if disagreed else ResultEntry.Status.WAITING
    if own is None:
        ResultEntry.objects.create(
            match=locked,
            version=locked.version,
            games=[dict(g) for g in games],
            match_details=dict(details),
            summary=summary,
            status=status,
            entered_by=by,
            entered_at=now,
        )
        return
    own.games = [dict(g) for g in games]
    own.match_details = dict(details)
    own.summary = summary
    own.status = status
    own.entered_at = now
    own.save(update_fields=["games", "match_details", "summary", "status", "entered_at"])


def _settle(
    event: Event,
    locked: Match,
    current: list[ResultEntry],
    games: Sequence[Mapping[str, Any]],
    details: Mapping[str, Any],
    *,
    by: Any,
    now: datetime,
) -> Entered:
    if not is_head_director(by, event):
        raise ServiceError(
            _(
                "The two entries of this result disagree: nothing is saved until the head "
                "director settles it."
            )
        )
    entered = "; ".join(f"{e.entered_by} entered {e.summary or '(nothing)'}" for e in current)
    outcome = results.record(
        locked,
        games,
        expected_version=locked.version,
        by=by,
        match_details=details or None,
        reason=f"settled by the head director ({entered})",
        now=now,
    )
    ResultEntry.objects.filter(match=locked).delete()
    audit.log(
        event,
        "result.disagreement_settled",
        actor=by,
        at=now,
        subject=_subject(locked),
        before={str(e.entered_by): e.summary for e in current},
        after={"summary": outcome.score.summary},
    )
    return Entered(SETTLED, outcome)


# -- reading, for the results screen and the dashboard ---------------------------------------


def _current(matches: Iterable[Match]) -> dict[int, list[ResultEntry]]:
    by_pk = {m.pk: m for m in matches}
    found: dict[int, list[ResultEntry]] = {}
    entries = (
        ResultEntry.objects.filter(match_id__in=list(by_pk))
        .select_related("entered_by")
        .order_by("entered_at", "id")
    )
    for entry in entries:
        if entry.version == by_pk[entry.match_id].version:
            found.setdefault(entry.match_id, []).append(entry)
    return found


def states(event: Event, matches: Sequence[Match], user: Any) -> dict[int, EntryState]:
    """What the results screen shows of each match's entries to ``user`` (one query)."""
    if not event.double_entry:
        return {}
    head = is_head_director(user, event)
    shown: dict[int, EntryState] = {}
    for match_id, entries in _current(matches).items():
        disagreed = any(e.status == ResultEntry.Status.DISAGREED for e in entries)
        readable = [
            (str(e.entered_by), e.summary)
            for e in entries
            if e.entered_by_id == user.pk or (disagreed and head)
        ]
        shown[match_id] = EntryState(
            disagreed=disagreed,
            names=tuple(str(e.entered_by) for e in entries),
            mine=any(e.entered_by_id == user.pk for e in entries),
            head=head,
            shown=tuple(readable),
        )
    return shown


def needs_director(event: Event, user: Any) -> list[NeedsYou]:
    """The dashboard's "needs you" items of double entry: each match whose two entries
    disagree, for the head director who settles it."""
    if not event.double_entry or not is_head_director(user, event):
        return []
    disputed = (
        Match.objects.filter(round__event=event, entries__status=ResultEntry.Status.DISAGREED)
        .select_related("round")
        .distinct()
        .order_by("round__number", "order")
    )
    matches = list(disputed)
    entries = _current(matches)
    items = []
    for match in matches:
        current = entries.get(match.pk, [])
        if not current:
            continue  # void: the match changed since
        url = reverse("tournaments:manage_round", args=[event.slug, match.round.number])
        text = gettext("%(round)s %(code)s: the two entries of the result disagree") % {
            "round": label(match.round.label),
            "code": match.code,
        }
        lines = tuple(
            gettext("%(who)s entered %(summary)s")
            % {"who": e.entered_by, "summary": e.summary or gettext("(nothing)")}
            for e in current
        )
        # the row of the results screen, where the head director's entry settles it
        items.append(NeedsYou(text, f"{url}#match-{match.pk}", lines))
    return items
