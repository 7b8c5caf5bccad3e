"""Maps the database to the engine's EventState, in a fixed number of queries."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch, QuerySet, TextField
from django.db.models.functions import Cast

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


def rounds_queryset(event: Event, *, only_match: int | None = None) -> QuerySet[Round]:
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
        team=entrant.team.name if entrant.team else "",
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
                entrant_key(p.entrant.number if p.entrant else None), p.role, dict(p.details)
            )
            for p in match.participants.all()
        ),
        games=tuple(game_state(g) for g in match.games.all()),
        bracket=match.bracket,
        group=match.group.key if match.group else "",
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
        stage=rnd.stage.key if rnd.stage else "",
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
    deleted with its draws, and published nowhere). ``rounds``: Round instances already
    loaded (with ``rounds_queryset``'s prefetches) to use instead of the event's."""
    made = event.draws.order_by("drawn_at", "pk")
    if not drafts:
        made = made.exclude(round__status=Round.Status.DRAFT)
    draws = tuple(
        DrawRecord(key, value, DrawMethod(method), purpose, dict(details))
        for key, value, method, purpose, details in made.values_list(
            "key", "value", "method", "purpose", "details"
        )
    )
    if rounds is not None:
        entrants = Entrant.objects.filter(event=event).select_related("team").order_by("number")
        return EventState(
            format=event.format,
            settings=dict(event.settings),
            entrants=tuple(entrant_state(e) for e in entrants),
            rounds=tuple(round_state(r) for r in rounds),
            draws=draws,
        )
    return EventState(
        format=event.format,
        settings=dict(event.settings),
        entrants=_entrant_states(event),
        rounds=_round_states(event, drafts=drafts),
        draws=draws,
    )


# The loader below reads plain rows (values_list), not model instances: a 10,000-entrant
# event after 13 rounds made 420,000 instances, most of the standings refresh's time
# (issue 24). It builds the same EventState as ``round_state`` over ``rounds_queryset``.


def _entrant_states(event: Event) -> tuple[EntrantState, ...]:
    rows = (
        Entrant.objects.filter(event=event)
        .order_by("number")
        .values_list(
            "number", "name", "rating", "seed", "country", "gender", "team_id", "team__name",
            "flags", "status", "withdrawn_after_round",
        )
    )  # fmt: skip
    statuses = {s.value: s for s in EntrantStatus}
    return tuple(
        EntrantState(
            id=str(number),
            name=name,
            rating=rating,
            seed=seed,
            country=country,
            gender=gender,
            team=team if team_id else "",
            flags=dict(flags),
            status=_known(statuses, status),
            withdrawn_after_round=withdrawn_after_round,
        )
        for number, name, rating, seed, country, gender, team_id, team, flags, status,
        withdrawn_after_round in rows
    )  # fmt: skip


def _round_states(event: Event, *, drafts: bool) -> tuple[RoundState, ...]:
    rounds = Round.objects.filter(event=event).order_by("number")
    if not drafts:
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    round_rows = list(
        rounds.values_list("pk", "number", "label", "status", "stage_id", "stage__key", "details")
    )
    ids = [row[0] for row in round_rows]
    numbers = {row[0]: row[1] for row in round_rows}
    matches_of: dict[int, list[MatchState]] = {}
    for round_id, match in _match_states({"round_id__in": ids}, numbers):
        matches_of.setdefault(round_id, []).append(match)
    members: dict[int, list[tuple[int, str]]] = {}
    for group_id, number, seed in GroupMember.objects.filter(group__round_id__in=ids).values_list(
        "group_id", "entrant__number", "seed"
    ):
        members.setdefault(group_id, []).append((seed, str(number)))
    groups_of: dict[int, list[GroupState]] = {}
    for pk, round_id, group_key, label in (
        Group.objects.filter(round_id__in=ids)
        .order_by("order", "pk")
        .values_list("pk", "round_id", "key", "label")
    ):
        seeded = sorted(members.get(pk, ()), key=lambda m: m[0])
        groups_of.setdefault(round_id, []).append(
            GroupState(key=group_key, label=label, entrants=tuple(e for _, e in seeded))
        )
    statuses = {s.value: s for s in RoundStatus}
    return tuple(
        RoundState(
            number=number,
            label=label,
            status=_known(statuses, status),
            matches=tuple(matches_of.get(pk, ())),
            stage=stage if stage_id and stage else "",
            groups=tuple(groups_of.get(pk, ())),
            details=dict(details),
        )
        for pk, number, label, status, stage_id, stage, details in round_rows
    )


def load_changed_matches(event: Event, since: int) -> dict[tuple[int, str], MatchState]:
    """The matches of the event's record whose results changed after results version
    ``since`` (Match.results_version), each as the whole load builds it, named (round
    number, code): what the incremental standings refresh puts in place of a kept state's
    matches. A drafted round's are left out, as the record leaves them. Three queries."""
    where = {"round__event_id": event.pk, "results_version__gt": since}
    states = _match_states(where, None, exclude={"round__status": Round.Status.DRAFT})
    return {(m.round_number, m.code): m for _, m in states}


def _match_states(
    where: dict[str, Any],
    numbers: dict[int, int] | None,
    exclude: dict[str, Any] | None = None,
) -> list[tuple[int, MatchState]]:
    """(round id, state) of the matches ``where`` selects (less ``exclude``), in the rounds'
    match order. ``numbers``: round id -> number (None: read with the matches)."""
    by_match: dict[int, list[Participant]] = {}
    # a participant or game without details is the same value wherever it recurs: made once
    people: dict[tuple[Any, ...], Participant] = {}
    states: list[tuple[int, MatchState]] = []
    for match_id, number, role, details in (
        MatchParticipant.objects.filter(**{"match__" + k: v for k, v in where.items()})
        .order_by("match_id", "seat")
        .values_list("match_id", "entrant__number", "role", _text("details"))
    ):
        if details != "{}":
            participant = Participant(entrant_key(number), role, _mapping(details))
        else:
            found = people.get((number, role))
            if found is None:
                found = people[(number, role)] = Participant(entrant_key(number), role, {})
            participant = found
        by_match.setdefault(match_id, []).append(participant)
    endings = {e.value: e for e in GameEnding}
    games_of: dict[int, list[GameState]] = {}
    plays: dict[tuple[Any, ...], GameState] = {}
    for match_id, number, scores, first, ending, details in (
        Game.objects.filter(**{"match__" + k: v for k, v in where.items()})
        .order_by("match_id", "number")
        .values_list(
            "match_id", "number", _text("scores"), "first_seat", "ending", _text("details")
        )
    ):
        if details != "{}":
            game = GameState(
                number, tuple(json.loads(scores)), first, _known(endings, ending), _mapping(details)
            )
        else:
            # the same game text is the same value: decoded and built once
            key = (number, first, ending, scores)
            found_game = plays.get(key)
            if found_game is None:
                found_game = plays[key] = GameState(
                    number, tuple(json.loads(scores)), first, _known(endings, ending), {}
                )
            game = found_game
        games_of.setdefault(match_id, []).append(game)
    matches = Match.objects.filter(**where)
    if exclude:
        matches = matches.exclude(**exclude)
    for pk, round_id, number, code, bracket, group_id, group, table, details in matches.order_by(
        "order", "code"
    ).values_list(
        "pk", "round_id", "round__number", "code", "bracket", "group_id", "group__key", "table",
        _text("details"),
    ):  # fmt: skip
        states.append(
            (
                round_id,
                MatchState(
                    code=code,
                    round_number=number if numbers is None else numbers[round_id],
                    participants=tuple(by_match.get(pk, ())),
                    games=tuple(games_of.get(pk, ())),
                    bracket=bracket,
                    group=group if group_id else "",
                    table=table,
                    details=_mapping(details),
                ),
            )
        )
    return states


def jsonable(value: Any) -> Any:
    """Engine values (Fractions, tuples, enums) as JSON-friendly values."""
    from fractions import Fraction

    if value is None or type(value) in _PLAIN:  # most values: nothing to convert
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, dict):
        if all(type(k) is str and (v is None or type(v) in _PLAIN) for k, v in value.items()):
            return dict(value)  # a flat row of plain values (most rows): copied as it is
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if hasattr(value, "items") and callable(value.items):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


_PLAIN = (int, float, str, bool)


def _text(field: str) -> Cast:
    """A JSON column read as its text: most rows hold the same few texts ("{}", a score),
    and Django decoding every one of them was a large part of the load."""
    return Cast(field, output_field=TextField())


def _mapping(text: str) -> dict[str, Any]:
    return {} if text == "{}" else dict(json.loads(text))


def _known(members: dict[str, Any], value: str) -> Any:
    """An enum member by its value, from a dict made once per load (cheaper per row than
    the enum's own call, which still answers, or refuses, a value the dict lacks)."""
    found = members.get(value)
    if found is None:
        found = type(next(iter(members.values())))(value)
    return found
