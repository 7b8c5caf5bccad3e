"""Freestyle actions the generic screens do not cover (docs/formats/freestyle.md, "Web").

- ``enter_draw``: a digit (or a lot) typed in from an outside draw, accepted only for the
  draw the engine is waiting for and only inside its range, so a mistyped digit can never
  leave the event stuck on a value the engine refuses.
- ``record_tiebreaker``: the winner of a tiebreaker game, stored as the draw record the
  engine reads (``round-<r>/group-<g>/tiebreaker/<ids>``).
- ``withdraw``: a withdrawal the engine's way: during round r is ``withdrawn_after_round =
  r - 1`` (the round's games are void, a knockout match is a walkover), between rounds r and
  r + 1 is ``r``. The withdrawn player's matches of the round are scored again at once.

Each is one transaction with the event row locked, an audit row, and a results version bump
(standings depend on draws and withdrawals).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import DrawMethod, DrawRecord, EngineError, NeedsDecision, Problem
from rules.draws import DrawNeeded, DrawSource, InvalidDraw
from tournaments.models import Entrant, Event, Match, RandomDraw, ResultChange, Round
from tournaments.services import audit, draws, locking, result_changes, standings
from tournaments.services.errors import ServiceError
from tournaments.services.result_json import score_json
from tournaments.services.state import load_event_state
from tournaments.words import label as round_label

TIEBREAKER = re.compile(r"^round-(\d+)/group-([^/]+)/tiebreaker/(.+)$")


@dataclass(frozen=True)
class Waiting:
    """The outside draw the engine waits for: its key, what it is for, and its range
    (``low``/``high`` None for a lot: an order of entrants)."""

    key: str
    purpose: str
    low: int | None
    high: int | None
    items: tuple[str, ...] = ()


def waiting_draw(event: Event) -> Waiting | None:
    """The next outside draw the engine needs before it can draft the next round.

    None when the last round is not complete, or when nothing is missing. The engine is
    asked with a source that refuses to draw by itself, whatever the event's setting.
    """
    last = event.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.COMPLETED:
        return None
    state = load_event_state(event)
    recorder = _Recording(DrawSource(event.random_seed, state.draws, external=True))
    try:
        event.engine.next_round(state, recorder)
    except DrawNeeded as needed:
        items = recorder.items.get(needed.key, ())
        return Waiting(needed.key, needed.purpose, needed.low, needed.high, items)
    except (InvalidDraw, EngineError):
        return None  # the drafting screen reports these in the director's words
    return None


class _Recording:
    """A draw source that remembers the items of a lot it was asked for (to check a typed
    order against them)."""

    def __init__(self, source: DrawSource):
        self.source = source
        self.items: dict[str, tuple[str, ...]] = {}

    def integer(self, key: str, low: int, high: int, *, purpose: str = "") -> int:
        return self.source.integer(key, low, high, purpose=purpose)

    def shuffle(self, key: str, items: Any, *, purpose: str = "") -> list[str]:
        self.items[key] = tuple(str(i) for i in items)
        return self.source.shuffle(key, items, purpose=purpose)


def parse_lot(text: str) -> list[str]:
    return [part for part in re.split(r"[\s,;]+", text.strip()) if part]


def enter_draw(
    event: Event, key: str, text: str, *, by: Any, now: datetime | None = None
) -> RandomDraw:
    """Record the outside draw the engine waits for under ``key``; ``text`` is a digit or,
    for a lot, the entrant numbers in the order drawn."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event)
        waiting = waiting_draw(event)
        if waiting is None or waiting.key != key:
            raise ServiceError(
                [
                    Problem(
                        "draw.not_waiting",
                        "value",
                        "That draw is not the one the tournament is waiting for (it may have "
                        "been entered already): reload the page.",
                    )
                ]
            )
        value: Any
        if waiting.low is not None and waiting.high is not None:
            text = text.strip()
            if not re.fullmatch(r"\d+", text) or not waiting.low <= int(text) <= waiting.high:
                raise ServiceError(
                    [
                        Problem(
                            "draw.range",
                            "value",
                            f"Type one whole number from {waiting.low} to {waiting.high}; "
                            f"'{text}' is not.",
                        )
                    ]
                )
            value = int(text)
        else:
            value = parse_lot(text)
            if sorted(value) != sorted(waiting.items):
                raise ServiceError(
                    [
                        Problem(
                            "draw.lot",
                            "value",
                            "Type the numbers of exactly these entrants, in the order drawn: "
                            + ", ".join(waiting.items)
                            + ".",
                        )
                    ]
                )
        (draw,) = draws.store(
            event,
            [DrawRecord(key, value, DrawMethod.EXTERNAL, waiting.purpose[:200])],
            by=by,
            at=now,
        )
        audit.log(event, "draw.entered", actor=by, at=now, subject=key, after={"value": value})
        return draw


def pending_tiebreakers(event: Event) -> tuple[NeedsDecision, ...]:
    """Tiebreaker games the standings wait for, as the engine reports them."""
    return tuple(
        item
        for item in standings.compute(event).pending
        if item.code == "freestyle.tiebreaker_game"
    )


def record_tiebreaker(
    event: Event,
    key: str,
    winner: str,
    *,
    by: Any,
    note: str = "",
    now: datetime | None = None,
) -> RandomDraw:
    """The winner of a tiebreaker game the engine asked for (question 12: only the winner
    is recorded; the others stay tied and are ranked again, a new game if still needed)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event)
        found = next((p for p in pending_tiebreakers(event) if p.key == key), None)
        if found is None:
            raise ServiceError(
                [
                    Problem(
                        "tiebreaker.not_pending",
                        "key",
                        "No tiebreaker game is waiting for that tie (it may have been "
                        "recorded already): reload the page.",
                    )
                ]
            )
        if winner not in found.options:
            raise ServiceError(
                [Problem("tiebreaker.winner", "winner", "Choose one of the tied players.")]
            )
        state = load_event_state(event)
        names = {e.id: e.name for e in state.entrants}
        tied = [names.get(e, e) for e in found.options]
        params = dict(found.params)
        (draw,) = draws.store(
            event,
            [
                DrawRecord(
                    key,
                    winner,
                    DrawMethod.EXTERNAL,
                    f"Tiebreaker game, Round {params.get('round')} group {params.get('group')}: "
                    + ", ".join(tied),
                    {"kind": "tiebreaker_game", "tied": list(found.options), "note": note[:200]},
                )
            ],
            by=by,
            at=now,
        )
        audit.log(
            event,
            "freestyle.tiebreaker_recorded",
            actor=by,
            at=now,
            subject=key,
            after={"winner": winner, "tied": list(found.options)},
            reason=note,
        )
        standings.results_changed(event)
        return draw


def check_withdrawal(event: Event, entrant: Entrant, *, during: bool) -> Round | None:
    """Refuse a withdrawal the rules cannot take (already withdrawn, in a draft, "during" with
    no round in play for him); the round in play or last played, if any."""
    if entrant.status == Entrant.Status.WITHDRAWN:
        raise ServiceError(_("%(entrant)s has already withdrawn.") % {"entrant": entrant.name})
    draft = event.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None and draft.matches.filter(participants__entrant=entrant).exists():
        raise ServiceError(
            _(
                "%(entrant)s is in the draft of %(round)s: delete the draft, record the "
                "withdrawal, then draft the round again."
            )
            % {"entrant": entrant.name, "round": round_label(draft.label)}
        )
    current = event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    if during:
        if current is None or current.status != Round.Status.PUBLISHED:
            raise ServiceError(
                [
                    Problem(
                        "withdraw.no_round",
                        "when",
                        "No round is in play: the withdrawal is between rounds.",
                    )
                ]
            )
        if not current.matches.filter(participants__entrant=entrant).exists():
            raise ServiceError(
                [
                    Problem(
                        "withdraw.not_playing",
                        "when",
                        f"{entrant.name} does not play in {current.label}: "
                        "the withdrawal is between rounds.",
                    )
                ]
            )
    return current


def withdraw(
    entrant: Entrant,
    *,
    during: bool,
    by: Any,
    reason: str = "",
    now: datetime | None = None,
) -> Entrant:
    """Withdraw ``entrant`` during the round in play (``during``) or after it."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(entrant.event_id)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        current = check_withdrawal(event, entrant, during=during)
        number = current.number if current else 0
        if during:
            number -= 1
        entrant.status = Entrant.Status.WITHDRAWN
        entrant.withdrawn_after_round = number
        entrant.save(update_fields=["status", "withdrawn_after_round"])
        audit.log(
            event,
            "entrant.withdrawn",
            actor=by,
            at=now,
            subject=entrant.name,
            after={
                "after_round": number,
                "during_round": current.number if during and current else None,
            },
            reason=reason,
        )
        if during and current is not None:  # check_withdrawal made sure of a round in play
            _rescore(event, current, entrant, by=by, now=now)
        standings.results_changed(event)
        return entrant


def _rescore(event: Event, rnd: Round, entrant: Entrant, *, by: Any, now: datetime) -> None:
    """Score the withdrawn player's matches of the round again: "his games (even if he
    played all of them) do not count" (group rounds), a walkover in the knockout."""
    state = load_event_state(event)
    found = next(r for r in state.rounds if r.number == rnd.number)
    by_code = {m.code: m for m in found.matches}
    text = f"{entrant.name} withdrew during {rnd.label}"
    # the event is locked (withdraw): its matches come after it in the lock order
    matches = Match.objects.select_for_update(of=("self",)).filter(
        round=rnd, participants__entrant=entrant
    )
    for match in matches:
        score = event.engine.score_match(state, replace(by_code[match.code]))
        before = match.result
        match.result = score_json(score, by_code[match.code].games)
        # withdraw raises the event's results version once for all of them
        result_changes.write(
            event,
            match,
            fields=["result"],
            before={"result": before},
            after={"result": match.result},
            by=by,
            source=ResultChange.Source.SYSTEM,
            reason=text,
            now=now,
            refresh=False,
        )


def tiebreaker_parts(key: str) -> tuple[int, str, list[str]] | None:
    found = TIEBREAKER.match(key)
    if found is None:
        return None
    return int(found.group(1)), found.group(2), found.group(3).split("+")
