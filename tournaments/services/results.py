"""Recording match results, with optimistic locking and an audit row per version."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from rules import scoring_frame
from rules.contract import (
    EventState,
    GameEnding,
    GameState,
    MatchScore,
    Problem,
    RoundState,
    RoundStatus,
)
from tournaments import selectors
from tournaments.models import Game, Match, ResultChange, Round, Stage
from tournaments.services import locking, result_changes
from tournaments.services.errors import InvalidResult, StaleResult
from tournaments.services.result_json import score_json
from tournaments.services.state import (
    entrant_state,
    load_event_state,
    match_state,
    rounds_queryset,
)


@dataclass(frozen=True)
class Outcome:
    match: Match
    score: MatchScore
    version: int


def games_json(match: Match) -> list[dict[str, Any]]:
    return [
        {
            "number": g.number,
            "scores": g.scores,
            "first": g.first_seat,
            "ending": g.ending,
            "details": g.details,
        }
        for g in match.games.order_by("number")
    ]


def parse_games(games: Sequence[Mapping[str, Any]]) -> tuple[GameState, ...]:
    """Game data from a form, an import or the API, as engine records."""
    parsed = []
    problems = []
    for index, game in enumerate(games):
        try:
            ending = GameEnding(game.get("ending", "normal") or "normal")
        except ValueError:
            problems.append(
                Problem(
                    "game.ending",
                    f"games[{index}].ending",
                    f"Game {index + 1}: '{game.get('ending')}' is not a way a game can end.",
                )
            )
            continue
        scores = tuple(game.get("scores", ()))
        for seat, value in enumerate(scores):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float)
            ):
                problems.append(
                    Problem(
                        "game.score_type",
                        f"games[{index}].scores[{seat}]",
                        f"Game {index + 1}: '{value}' is not a number.",
                    )
                )
        parsed.append(
            GameState(
                number=int(game.get("number", index + 1)),
                scores=scores,
                first=game.get("first"),
                ending=ending,
                details=dict(game.get("details") or {}),
            )
        )
    if problems:
        raise InvalidResult(problems)
    return tuple(parsed)


def _match_only_state(event: Any, rnd: Round, match: Match) -> EventState:
    """The event as a format that scores a match alone sees it: its settings and the
    round holding that one match."""
    loaded = selectors.with_seats_and_games(Match.objects.filter(pk=match.pk)).get()
    # the round's stage decides how a match is scored (a WOC final stage is best of three)
    stage = (
        Stage.objects.filter(pk=rnd.stage_id).values_list("key", flat=True).first()
        if rnd.stage_id is not None
        else None
    )
    only = RoundState(
        number=rnd.number,
        label=rnd.label,
        status=RoundStatus(rnd.status),
        matches=(match_state(loaded, rnd.number),),
        details=dict(rnd.details),
        stage=stage or "",
    )
    entrants = tuple(entrant_state(p.entrant) for p in loaded.participants.all() if p.entrant)
    return EventState(
        format=event.format, settings=dict(event.settings), entrants=entrants, rounds=(only,)
    )


def scoring_state(event: Any, rnd: Round, match: Match) -> EventState:
    """As much of the event as its format reads to score ``match`` (rules/scoring_frame.py):
    loading every game of a 1,000-entrant event to score one took seconds a save."""
    view = scoring_frame.view_of(event.engine)
    if view == "alone":
        return _match_only_state(event, rnd, match)
    if view == "frame":
        rounds = rounds_queryset(event, only_match=match.pk).select_related("stage")
        return load_event_state(event, rounds)
    return load_event_state(event)


def record(
    match: Match,
    games: Sequence[Mapping[str, Any]],
    *,
    expected_version: int,
    by: Any,
    source: str = ResultChange.Source.WEB,
    reason: str = "",
    match_details: Mapping[str, Any] | None = None,
    state: EventState | None = None,
    now: datetime | None = None,
) -> Outcome:
    """Save a match's games if nobody saved it since ``expected_version`` was read.

    The engine validates and scores the games; a refused result saves nothing. A stale
    save raises StaleResult with the newer result, so the user can choose. A bulk import
    may pass the event's ``state`` loaded once, for a format whose scoring reads only the
    match, its round and the settings.
    """
    now = now or timezone.now()
    new_games = parse_games(games)
    with transaction.atomic():
        event, locked = locking.lock_match(match)
        if locked.version != expected_version:
            raise StaleResult(
                locked.version, {"games": games_json(locked), "result": locked.result}
            )
        rnd = locked.round
        if rnd.status == Round.Status.DRAFT:
            raise InvalidResult(f"{rnd.label} is not published yet: results wait for the pairing.")
        state = state if state is not None else scoring_state(event, rnd, locked)
        current = next(
            m
            for r in state.rounds
            if r.number == rnd.number
            for m in r.matches
            if m.code == locked.code
        )
        # Choices made with the result (a colour or draw-win choice) are part of it.
        details = {**current.details, **(match_details or {})}
        candidate = replace(current, games=new_games, details=details)
        if new_games or match_details:
            score = event.engine.score_match(state, candidate)
            if not score.valid:
                raise InvalidResult(score.problems)
            # without games, a decision typed alone (the judges') is a result only when it
            # settles the match
            result = score_json(score, new_games) if new_games or score.winner is not None else None
        else:
            score = MatchScore(points=(), complete=False, summary="")
            result = None
        before = {"games": games_json(locked), "result": locked.result}
        if match_details:
            before["details"] = {k: locked.details.get(k) for k in match_details}
            locked.details = details
        locked.games.all().delete()
        Game.objects.bulk_create(
            Game(
                match=locked,
                number=g.number,
                scores=list(g.scores),
                first_seat=g.first,
                ending=str(g.ending),
                details=dict(g.details),
            )
            for g in new_games
        )
        locked.result = result
        result_changes.write(
            event,
            locked,
            fields=["result", "details"],
            before=before,
            after={
                "games": games_json(locked),
                "result": result,
                **({"details": dict(match_details)} if match_details else {}),
            },
            by=by,
            source=source,
            reason=reason,
            now=now,
        )
    return Outcome(match=locked, score=score, version=locked.version)
