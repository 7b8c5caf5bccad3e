"""Bot contest writes: games in bulk and from the referee program, the referee's token,
the director's board for a round and the director's decision on a tied final.

Every function is one transaction that locks the event row first, so two uploads or two
referee posts of one event never interleave (a retried post then finds its game id), and
every match's games go through ``results.record`` (version check, engine check, audit row).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.contract import DrawMethod, DrawRecord, Problem
from tournaments.formats.bot_contest import games as reading
from tournaments.models import Event, RandomDraw, RefereeGame, RefereeToken, ResultChange
from tournaments.services import audit, draws, locking, results, standings
from tournaments.services.errors import InvalidResult, ServiceError
from tournaments.services.state import load_event_state

FORMAT = "bot_contest"
REFUSAL = gettext_lazy("a bot contest")
WINNER_KEY = "final/winner"


class GamesRefused(ServiceError):
    """Rows that cannot be saved; ``errors`` name line and column. Nothing was saved."""

    def __init__(self, errors: list[reading.RowError]):
        self.errors = errors
        super().__init__([Problem("bot_contest.row", e.column, e.text) for e in errors])


def _record_all(
    event: Event, checked: reading.Checked, *, by: Any, source: str, reason: str, now: datetime
) -> list[results.Outcome]:
    outcomes = []
    # bot_contest scores a match from its games, its round's board and the settings only,
    # so one state serves every match of a bulk import (0.6 s per match saved at 100 entries)
    state = load_event_state(event) if len(checked.changes) > 1 else None
    for change in checked.changes:
        try:
            outcomes.append(
                results.record(
                    change.match,
                    change.games,
                    expected_version=change.match.version,
                    by=by,
                    source=source,
                    reason=reason,
                    state=state,
                    now=now,
                )
            )
        except InvalidResult as refused:
            raise GamesRefused(reading.refusal(change, refused.problems)) from None
    return outcomes


# -- games in bulk -----------------------------------------------------------------------


@dataclass(frozen=True)
class ImportOutcome:
    rows: int
    matches: int
    unchanged: int


def check_csv(event: Event, text: str) -> reading.Checked:
    """The file read and checked whole; nothing saved."""
    rows, errors = reading.read_csv(text)
    if errors:
        return reading.Checked([], errors, len(rows))
    return reading.check(event, rows)


def import_csv(
    event: Event, text: str, *, by: Any, filename: str = "", now: datetime | None = None
) -> ImportOutcome:
    """Every game of the file, or none: one error anywhere refuses the whole file."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        checked = check_csv(event, text)
        if not checked.valid:
            raise GamesRefused(checked.errors or [reading.RowError(0, "", "No games.")])
        reason = f"CSV {filename}".strip()[:300]
        _record_all(
            event, checked, by=by, source=ResultChange.Source.IMPORT, reason=reason, now=now
        )
        audit.log(
            event,
            "bot_contest.games_imported",
            actor=by,
            at=now,
            subject=filename or "CSV",
            after={"rows": checked.rows, "matches": len(checked.changes)},
        )
    return ImportOutcome(checked.rows, len(checked.changes), checked.unchanged)


# -- the referee program -----------------------------------------------------------------


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(event: Event, *, by: Any, now: datetime | None = None) -> tuple[RefereeToken, str]:
    """A new token for the event's referee program; any older one stops working. Returns
    the row and the token itself, which is never stored and never shown again."""
    now = now or timezone.now()
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        event.referee_tokens.filter(revoked_at__isnull=True).update(revoked_at=now)
        row = RefereeToken.objects.create(
            event=event,
            token_hash=token_hash(token),
            hint=token[-4:],
            created_by=_user(by),
            created_at=now,
        )
        audit.log(event, "bot_contest.token_created", actor=by, at=now, subject=f"…{row.hint}")
    return row, token


def revoke_token(event: Event, *, by: Any, now: datetime | None = None) -> int:
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        count = event.referee_tokens.filter(revoked_at__isnull=True).update(revoked_at=now)
        if count:
            audit.log(event, "bot_contest.token_revoked", actor=by, at=now)
    return count


def token_for(event: Event, token: str) -> RefereeToken | None:
    """The event's live token matching ``token``, or None."""
    if not token:
        return None
    return RefereeToken.objects.filter(
        event=event, token_hash=token_hash(token), revoked_at__isnull=True
    ).first()


@dataclass(frozen=True)
class PostOutcome:
    created: bool  # False: this game id was recorded before, nothing changed
    match_code: str
    game_number: int
    summary: str
    version: int


FIELDS = {"x_points", "o_points", "round", "board", "x", "o", "result", "game_id", "ending"}


def post_game(
    event: Event, token: RefereeToken, data: Any, *, now: datetime | None = None
) -> PostOutcome:
    """One game from the referee program. Idempotent on ``game_id``: a game id seen before
    answers with what was recorded then and counts nothing twice."""
    now = now or timezone.now()
    if not isinstance(data, dict):
        raise GamesRefused([reading.RowError(0, "", "Send one game as a JSON object.")])
    game_id = str(data.get("game_id", "") or "").strip()
    if not game_id or len(game_id) > 100:
        raise GamesRefused([reading.RowError(0, "game_id", "game_id: 1 to 100 characters.")])
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise GamesRefused(
            [reading.RowError(0, k, f"{k}: not a field of a game.") for k in unknown]
        )
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        RefereeToken.objects.filter(pk=token.pk).update(last_used_at=now)
        seen = _seen(event, game_id)
        if seen is not None:
            return seen
        row = {k: "" if v is None else str(v) for k, v in data.items()}
        checked = reading.check(event, [(0, row)], allow_replace=False, engine_check=False)
        if not checked.valid:
            raise GamesRefused([_as_field(e) for e in checked.errors])
        if not checked.changes:  # the same game was typed in by hand: nothing to add
            match = checked.same[0]
            summary = (match.result or {}).get("summary", "")
            return PostOutcome(False, match.code, 0, summary, match.version)
        (change,) = checked.changes
        number = next(iter(change.game_ids))
        try:
            with transaction.atomic():
                (outcome,) = _record_all(
                    event,
                    checked,
                    by=None,
                    source=ResultChange.Source.API,
                    reason=f"referee game {game_id}",
                    now=now,
                )
                RefereeGame.objects.create(
                    event=event,
                    game_id=game_id,
                    match=change.match,
                    game_number=number,
                    payload={k: data[k] for k in sorted(data)},
                    received_at=now,
                )
        except IntegrityError:  # only if the event lock was bypassed
            seen = _seen(event, game_id)
            if seen is None:
                raise
            return seen
    return PostOutcome(True, change.match.code, number, outcome.score.summary, outcome.version)


def _seen(event: Event, game_id: str) -> PostOutcome | None:
    earlier = (
        RefereeGame.objects.filter(event=event, game_id=game_id).select_related("match").first()
    )
    if earlier is None:
        return None
    match = earlier.match
    summary = (match.result or {}).get("summary", "")
    return PostOutcome(False, match.code, earlier.game_number, summary, match.version)


def _as_field(error: reading.RowError) -> reading.RowError:
    """A posted game has no lines: its errors name the JSON field."""
    text = error.text
    if text.startswith("Line 0"):
        text = text.split(": ", 1)[-1]
    return reading.RowError(0, error.column, f"{error.column}: {text}" if error.column else text)


# -- the director's decisions --------------------------------------------------------------


def choose_board(
    event: Event, round_number: int, board: str, *, by: Any, now: datetime | None = None
) -> RandomDraw:
    """The director's board for a round (setting board_choice = director): recorded under
    ``board/round-N``, which the engine reads when it plans that round."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        settings = event.resolved_settings()
        if settings["board_choice"] != "director":
            raise ServiceError(_("The engine rotates the boards in this event."))
        if board not in [str(b) for b in settings["boards"]]:
            raise ServiceError(
                [Problem("board.unknown", "board", f"'{board}' is not one of the event's boards.")]
            )
        planned = event.rounds.count()
        if round_number != planned + 1:
            raise ServiceError(
                [
                    Problem(
                        "board.round",
                        "round",
                        f"Choose the board of the next round ({planned + 1}).",
                    )
                ]
            )
        key = f"board/round-{round_number}"
        if RandomDraw.objects.filter(event=event, key=key).exists():
            raise ServiceError(
                _("The board of round %(number)s is chosen already.") % {"number": round_number}
            )
        (draw,) = draws.store(
            event,
            [
                DrawRecord(
                    key,
                    board,
                    DrawMethod.EXTERNAL,
                    f"The director's board for round {round_number}",
                )
            ],
            by=by,
            at=now,
        )
        audit.log(
            event, "bot_contest.board_chosen", actor=by, at=now, subject=key, after={"board": board}
        )
    return draw


def final_question(event: Event) -> Any:
    """The engine's pending question on a tied final (``final/winner``), or None."""
    for decision in standings.compute(event).pending:
        if decision.key == WINNER_KEY:
            return decision
    return None


def decide_final(
    event: Event, winner: int, *, reason: str, by: Any, now: datetime | None = None
) -> RandomDraw:
    """The director's winner of a final whose totals tie for first (OPEN-QUESTION 36)."""
    now = now or timezone.now()
    if not reason.strip():
        raise ServiceError([Problem("final.reason", "reason", "Say how you decided.")])
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        question = final_question(event)
        if question is None:
            raise ServiceError(_("The final has no tie for first to decide."))
        if str(winner) not in [str(o) for o in question.options]:
            raise ServiceError(
                [Problem("final.winner", "winner", "Choose one of the entries tied for first.")]
            )
        (draw,) = draws.store(
            event,
            [
                DrawRecord(
                    WINNER_KEY,
                    str(winner),
                    DrawMethod.EXTERNAL,
                    "The director's winner of a tied final",
                    {"reason": reason.strip()[:300], "tied": [str(o) for o in question.options]},
                )
            ],
            by=by,
            at=now,
        )
        audit.log(
            event,
            "bot_contest.final_decided",
            actor=by,
            at=now,
            subject=WINNER_KEY,
            after={"winner": str(winner)},
            reason=reason,
        )
        standings.results_changed(event)
    return draw


def _user(by: Any) -> Any:
    return by if getattr(by, "is_authenticated", False) else None
