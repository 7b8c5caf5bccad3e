"""Maps the database to the engine's EventState, in a fixed number of queries."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch

from rules.contract import (
    DrawMethod,
    DrawRecord,
    EntrantState,
    EntrantStatus,
    EventState,
    GameEnding,
    GameState,
    GroupState,
    MatchState,
    Participant,
    RoundState,
    RoundStatus,
)
from tournaments.models import (
    Entrant,
    Event,
    Game,
    Group,
    GroupMember,
    Match,
    MatchParticipant,
    Round,
)


def entrant_key(number: int | None) -> str | None:
    """The engine's id of an entrant: its registration number, as text."""
    return None if number is None else str(number)


def rounds_queryset(event: Event, *, only_match: int | None = None):
    """Rounds with everything an engine reads, in five queries whatever the event's size.
    ``only_match``: of the matches, that one alone (the frame a save scores a match in:
    rules/scoring_frame.py)."""
    matches = Match.objects.all() if only_match is None else Match.objects.filter(pk=only_match)
    return (
        Round.objects.filter(event=event)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=matches.order_by("order", "code")
                .select_related("group")
                .prefetch_related(
                    Prefetch(
                        "participants",
                        queryset=MatchParticipant.objects.order_by("seat").select_related(
                            "entrant"
                        ),
                    ),
                    Prefetch("games", queryset=Game.objects.order_by("number")),
                ),
            ),
            Prefetch(
                "groups",
                queryset=Group.objects.order_by("order").prefetch_related(
                    Prefetch("members", queryset=GroupMember.objects.select_related("entrant"))
                ),
            ),
        )
    )


def entrant_state(entrant: Entrant) -> EntrantState:
    return EntrantState(
        id=str(entrant.number),
        name=entrant.name,
        rating=entrant.rating,
        seed=entrant.seed,
        country=entrant.country,
        gender=entrant.gender,
        team=entrant.team.name if entrant.team_id else "",
        flags=dict(entrant.flags),
        status=EntrantStatus(entrant.status),
        withdrawn_after_round=entrant.withdrawn_after_round,
    )


def match_state(match: Match, round_number: int) -> MatchState:
    return MatchState(
        code=match.code,
        round_number=round_number,
        participants=tuple(
            Participant(
                entrant_key(p.entrant.number if p.entrant_id else None), p.role, dict(p.details)
            )
            for p in match.participants.all()
        ),
        games=tuple(game_state(g) for g in match.games.all()),
        bracket=match.bracket,
        group=match.group.key if match.group_id else "",
        table=match.table,
        details=dict(match.details),
    )


def game_state(game: Game) -> GameState:
    return GameState(
        number=game.number,
        scores=tuple(game.scores),
        first=game.first_seat,
        ending=GameEnding(game.ending),
        details=dict(game.details),
    )


def round_state(rnd: Round) -> RoundState:
    return RoundState(
        number=rnd.number,
        label=rnd.label,
        status=RoundStatus(rnd.status),
        matches=tuple(match_state(m, rnd.number) for m in rnd.matches.all()),
        stage=rnd.stage.key if rnd.stage_id and rnd.stage else "",
        groups=tuple(
            GroupState(
                key=g.key,
                label=g.label,
                entrants=tuple(
                    str(m.entrant.number) for m in sorted(g.members.all(), key=lambda m: m.seed)
                ),
            )
            for g in rnd.groups.all()
        ),
        details=dict(rnd.details),
    )


def load_event_state(
    event: Event, rounds: Iterable[Round] | None = None, *, drafts: bool = True
) -> EventState:
    """The event as engines see it. ``drafts=False``: the record only, without a drafted
    round nor the draws made with it (what the standings rank: a draft is a proposal,
    deleted with its draws, and published nowhere)."""
    entrants = Entrant.objects.filter(event=event).select_related("team").order_by("number")
    if rounds is None:
        rounds = rounds_queryset(event).select_related("stage")
        if not drafts:
            rounds = rounds.exclude(status=Round.Status.DRAFT)
    made = event.draws.order_by("drawn_at", "pk")
    if not drafts:
        made = made.exclude(round__status=Round.Status.DRAFT)
    return EventState(
        format=event.format,
        settings=dict(event.settings),
        entrants=tuple(entrant_state(e) for e in entrants),
        rounds=tuple(round_state(r) for r in rounds),
        draws=tuple(
            DrawRecord(d.key, d.value, DrawMethod(d.method), d.purpose, dict(d.details))
            for d in made
        ),
    )


def jsonable(value: Any) -> Any:
    """Engine values (Fractions, tuples, enums) as JSON-friendly values."""
    from fractions import Fraction

    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if hasattr(value, "items") and callable(value.items):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value
