"""The JSON event file (docs/event-file.md): export, validation and import.

An import is checked whole before anything is written; every problem names its place in
the file ("rounds[2].matches[5].participants[1].entrant"). An imported event keeps its
recorded pairings as they were; the engine scores their games and pairs what comes next.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from rules import registry
from rules.contract import EventState, Problem
from tournaments.models import (
    Entrant,
    Event,
    EventDirector,
    Game,
    Group,
    GroupMember,
    Match,
    MatchParticipant,
    RandomDraw,
    ResultChange,
    Round,
    Stage,
    Team,
)
from tournaments.services import audit, events, limits, standings
from tournaments.services.errors import ServiceError
from tournaments.services.result_json import score_json
from tournaments.services.results import parse_games
from tournaments.services.state import load_event_state, match_state, rounds_queryset

FILE_VERSION = 1
MAX_INTEGER = 2**31 - 1  # integer columns are 32-bit
MAX_JSON_INTEGER = 2**53  # beyond it a browser reading the export loses digits
ROUND_STATUSES = {s.value for s in Round.Status}
GAME_ENDINGS = {e.value for e in Game.Ending}
DRAW_METHODS = {m.value for m in RandomDraw.Method}
EVENT_STATUSES = {s.value for s in Event.Status}
ENTRANT_STATUSES = {s.value for s in Entrant.Status}
GENDERS = {g.value for g in Entrant.Gender}


# -- export --------------------------------------------------------------------------------


def _iso(value: dt.date | dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_event(event: Event) -> dict[str, Any]:
    """The whole event as plain data, in a fixed order, so that equal events export equal."""
    entrants = list(event.entrants.select_related("team").order_by("number"))
    rounds = list(rounds_queryset(event).select_related("stage"))
    return {
        "arbiter_event_file": FILE_VERSION,
        "event": {
            "slug": event.slug,
            "name": event.name,
            "format": event.format,
            "settings": event.settings,
            "status": event.status,
            "public": event.public,
            "starts_on": _iso(event.starts_on),
            "ends_on": _iso(event.ends_on),
            "time_zone": event.time_zone,
            "venue": event.venue,
            "random_seed": event.random_seed,
            "external_draws": event.external_draws,
        },
        "teams": [{"name": t.name, "country": t.country} for t in event.teams.order_by("name")],
        "stages": [
            {"key": s.key, "name": s.name, "order": s.order} for s in event.stages.order_by("order")
        ],
        "entrants": [
            {
                "number": e.number,
                "name": e.name,
                "rating": e.rating,
                "seed": e.seed,
                "country": e.country,
                "gender": e.gender,
                "team": e.team.name if e.team_id else "",
                "external_id": e.external_id,
                "flags": e.flags,
                "status": e.status,
                "withdrawn_after_round": e.withdrawn_after_round,
            }
            for e in entrants
        ],
        "rounds": [_export_round(r) for r in rounds],
        "draws": [
            {
                "key": d.key,
                "purpose": d.purpose,
                "method": d.method,
                "value": d.value,
                "details": d.details,
                "round": d.round.number if d.round_id else None,
                "drawn_at": _iso(d.drawn_at),
            }
            for d in event.draws.select_related("round").order_by("drawn_at", "pk")
        ],
    }


def _export_round(rnd: Round) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "label": rnd.label,
        "status": rnd.status,
        "stage": rnd.stage.key if rnd.stage_id else None,
        "starts_at": _iso(rnd.starts_at),
        "deadline": _iso(rnd.deadline),
        "published_at": _iso(rnd.published_at),
        "completed_at": _iso(rnd.completed_at),
        "reasons": rnd.reasons,
        "details": rnd.details,
        "groups": [
            {
                "key": g.key,
                "label": g.label,
                "entrants": [m.entrant.number for m in sorted(g.members.all(), key=_seed)],
            }
            for g in rnd.groups.all()
        ],
        "matches": [
            {
                "code": m.code,
                "group": m.group.key if m.group_id else None,
                "bracket": m.bracket,
                "table": m.table,
                "details": m.details,
                "reasons": m.reasons,
                "overridden": m.overridden,
                "participants": [
                    {
                        "entrant": p.entrant.number if p.entrant_id else None,
                        "role": p.role,
                        "details": p.details,
                    }
                    for p in m.participants.all()
                ],
                "games": [
                    {
                        "number": g.number,
                        "scores": g.scores,
                        "first": g.first_seat,
                        "ending": g.ending,
                        "details": g.details,
                    }
                    for g in m.games.all()
                ],
            }
            for m in rnd.matches.all()
        ],
    }


def _seed(member: GroupMember) -> int:
    return member.seed


# -- validation ----------------------------------------------------------------------------


class _Checker:
    """Collects problems with their place in the file."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, place: str, text: str, code: str = "file.invalid") -> None:
        self.problems.append(Problem(code, place, f"{place or 'file'}: {text}"))

    def mapping(self, value: Any, place: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.add(place, "must be an object ({...}).")
            return {}
        return value

    def items(self, parent: Mapping[str, Any], key: str, place: str) -> list[Any]:
        value = parent.get(key, [])
        if not isinstance(value, list):
            self.add(_join(place, key), "must be a list ([...]).")
            return []
        return value

    def text(
        self,
        parent: Mapping[str, Any],
        key: str,
        place: str,
        *,
        required: bool = False,
        max_length: int | None = None,
        default: str = "",
    ) -> str:
        value = parent.get(key)
        if value is None:
            if required:
                self.add(_join(place, key), "is required.")
            return default
        if not isinstance(value, str):
            self.add(_join(place, key), f"must be text; got {value!r}.")
            return default
        if required and not value.strip():
            self.add(_join(place, key), "must not be empty.")
        if not storable_text(value):
            self.add(_join(place, key), "contains a NUL character or a lone surrogate.")
            return default
        if max_length is not None and len(value) > max_length:
            self.add(_join(place, key), f"is longer than {max_length} characters.")
        return value

    def integer(
        self,
        parent: Mapping[str, Any],
        key: str,
        place: str,
        *,
        required: bool = False,
        minimum: int | None = None,
    ) -> int | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.add(_join(place, key), "is required.")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(_join(place, key), f"must be a whole number; got {value!r}.")
            return None
        if minimum is not None and value < minimum:
            self.add(_join(place, key), f"must be at least {minimum}; got {value}.")
            return None
        if abs(value) > MAX_INTEGER:
            self.add(_join(place, key), f"is too large; got {value}.")
            return None
        return value

    def boolean(self, parent: Mapping[str, Any], key: str, place: str, default: bool) -> bool:
        value = parent.get(key, default)
        if not isinstance(value, bool):
            self.add(_join(place, key), f"must be true or false; got {value!r}.")
            return default
        return value

    def choice(
        self, parent: Mapping[str, Any], key: str, place: str, allowed: set[str], default: str
    ) -> str:
        value = parent.get(key, default)
        if not isinstance(value, str) or value not in allowed:
            self.add(
                _join(place, key), f"must be one of {', '.join(sorted(allowed))}; got {value!r}."
            )
            return default
        return str(value)

    def date(self, parent: Mapping[str, Any], key: str, place: str) -> dt.date | None:
        value = parent.get(key)
        if value is None:
            return None
        parsed = parse_date(value) if isinstance(value, str) else None
        if parsed is None:
            self.add(_join(place, key), f"must be a date like 2026-11-23; got {value!r}.")
        return parsed

    def datetime(self, parent: Mapping[str, Any], key: str, place: str) -> dt.datetime | None:
        value = parent.get(key)
        if value is None:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            self.add(_join(place, key), f"must be a date and time (ISO 8601); got {value!r}.")
            return None
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed, dt.UTC)
        return parsed

    def json_object(self, parent: Mapping[str, Any], key: str, place: str) -> dict[str, Any]:
        value = parent.get(key, {})
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.add(_join(place, key), "must be an object ({...}).")
            return {}
        self.storable(value, _join(place, key))
        return dict(value)

    def storable(self, value: Any, place: str) -> bool:
        """JSON the database can store: no NUL character, no NaN or infinite number."""
        if isinstance(value, str):
            bad = not storable_text(value)
        elif isinstance(value, float):
            bad = not math.isfinite(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            bad = abs(value) > MAX_JSON_INTEGER
        elif isinstance(value, Mapping):
            return all(
                self.storable(k, place) and self.storable(v, _join(place, str(k)))
                for k, v in value.items()
            )
        elif isinstance(value, list | tuple):
            return all(self.storable(v, f"{place}[{i}]") for i, v in enumerate(value))
        else:
            bad = False
        if bad:
            self.add(place, f"holds {value!r}, which cannot be stored (NUL, NaN or too large).")
        return not bad


def storable_text(value: str) -> bool:
    """Text PostgreSQL can hold: no NUL character, and valid UTF-8 (no lone surrogate,
    which a JSON file can spell as \\udcff)."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _join(place: str, key: str) -> str:
    return f"{place}.{key}" if place else key


def validate(data: Any, *, slug: str | None = None, limited: bool = True) -> dict[str, Any]:
    """Check a whole event file; return it normalised, or raise ServiceError with every
    problem found (not just the first). A file past the import limits (services/limits.py)
    is refused before it is read; a restore of our own backup is not ``limited``."""
    if limited:
        limits.check_counts(**limits.event_file_counts(data))
        limits.check_depth(data)  # for a file not read through limits.load_json
    check = _Checker()
    root = check.mapping(data, "")
    if root and root.get("arbiter_event_file") != FILE_VERSION:
        check.add(
            "arbiter_event_file",
            f"must be {FILE_VERSION} (this is not an Arbiter event file, or a newer one).",
        )
    event_in = check.mapping(root.get("event", {}), "event")
    event = {
        "slug": slug or check.text(event_in, "slug", "event", required=True, max_length=80),
        "name": check.text(event_in, "name", "event", required=True, max_length=200),
        "format": check.text(event_in, "format", "event", required=True),
        "settings": check.json_object(event_in, "settings", "event"),
        "status": check.choice(event_in, "status", "event", EVENT_STATUSES, "registration"),
        "public": check.boolean(event_in, "public", "event", False),
        "starts_on": check.date(event_in, "starts_on", "event"),
        "ends_on": check.date(event_in, "ends_on", "event"),
        "time_zone": check.text(event_in, "time_zone", "event", default="UTC") or "UTC",
        "venue": check.text(event_in, "venue", "event", max_length=200),
        "random_seed": check.text(event_in, "random_seed", "event", max_length=64),
        "external_draws": check.boolean(event_in, "external_draws", "event", False),
    }
    if event["slug"] and Event.objects.filter(slug=event["slug"]).exists():
        check.add("event.slug", events.slug_unavailable(event["slug"]), "event.slug_taken")
    engine = None
    if event["format"]:
        try:
            engine = registry.get(event["format"])
        except registry.UnknownFormat:
            check.add(
                "event.format",
                f"'{event['format']}' is not a format ({', '.join(registry.formats())}).",
            )
    if engine is not None:
        try:
            setting_problems = engine.validate_settings(event["settings"])
        except (TypeError, ValueError, AttributeError, KeyError):
            # settings of the wrong shape that the engine's checks did not foresee
            check.add("event.settings", f"do not fit the format '{event['format']}'.")
            setting_problems = []
        for problem in setting_problems:
            check.add(f"event.settings.{problem.field}", problem.text, problem.code)

    teams = []
    for i, team in enumerate(check.items(root, "teams", "")):
        place = f"teams[{i}]"
        team = check.mapping(team, place)
        teams.append(
            {
                "name": check.text(team, "name", place, required=True, max_length=120),
                "country": check.text(team, "country", place, max_length=3),
            }
        )
    _unique(check, [t["name"] for t in teams], "teams", "name")
    team_names = {t["name"] for t in teams}

    stages = []
    for i, stage in enumerate(check.items(root, "stages", "")):
        place = f"stages[{i}]"
        stage = check.mapping(stage, place)
        stages.append(
            {
                "key": check.text(stage, "key", place, required=True, max_length=40),
                "name": check.text(stage, "name", place, required=True, max_length=120),
                "order": check.integer(stage, "order", place, required=True, minimum=0),
            }
        )
    _unique(check, [s["key"] for s in stages], "stages", "key")
    stage_keys = {s["key"] for s in stages}

    entrants = []
    for i, entrant in enumerate(check.items(root, "entrants", "")):
        place = f"entrants[{i}]"
        entrant = check.mapping(entrant, place)
        item = {
            "number": check.integer(entrant, "number", place, required=True, minimum=1),
            "name": check.text(entrant, "name", place, required=True, max_length=150),
            "rating": check.integer(entrant, "rating", place),
            "seed": check.integer(entrant, "seed", place, minimum=1),
            "country": check.text(entrant, "country", place, max_length=3),
            "gender": check.choice(entrant, "gender", place, GENDERS, ""),
            "team": check.text(entrant, "team", place),
            "external_id": check.text(entrant, "external_id", place, max_length=40),
            "flags": check.json_object(entrant, "flags", place),
            "status": check.choice(entrant, "status", place, ENTRANT_STATUSES, "active"),
            "withdrawn_after_round": check.integer(
                entrant, "withdrawn_after_round", place, minimum=0
            ),
        }
        if item["team"] and item["team"] not in team_names:
            check.add(f"{place}.team", f"names the team '{item['team']}', which is not in teams.")
        if (item["status"] == "withdrawn") != (item["withdrawn_after_round"] is not None):
            check.add(
                f"{place}.withdrawn_after_round",
                "a withdrawn entrant needs the round after which they left, and only a "
                "withdrawn one has it.",
            )
        entrants.append(item)
    _unique(check, [e["number"] for e in entrants], "entrants", "number")
    _unique(check, [e["seed"] for e in entrants if e["seed"] is not None], "entrants", "seed")
    _unique(
        check,
        [e["external_id"] for e in entrants if e["external_id"]],
        "entrants",
        "external_id",
    )
    numbers = {e["number"] for e in entrants if e["number"] is not None}

    rounds = []
    for i, rnd in enumerate(check.items(root, "rounds", "")):
        rounds.append(_validate_round(check, rnd, f"rounds[{i}]", numbers, stage_keys))
    expected = list(range(1, len(rounds) + 1))
    if [r["number"] for r in rounds] != expected and not any(r["number"] is None for r in rounds):
        check.add("rounds", "must be numbered 1, 2, 3 ... in order, without gaps.")
    for i, rnd in enumerate(rounds[:-1]):
        if rnd["status"] != "completed":
            check.add(
                f"rounds[{i}].status",
                "only the last round may be unfinished (draft or published).",
            )

    draws = []
    round_numbers = {r["number"] for r in rounds}
    for i, draw in enumerate(check.items(root, "draws", "")):
        place = f"draws[{i}]"
        draw = check.mapping(draw, place)
        item = {
            "key": check.text(draw, "key", place, required=True, max_length=120),
            "purpose": check.text(draw, "purpose", place, max_length=200),
            "method": check.choice(draw, "method", place, DRAW_METHODS, "record"),
            "value": draw.get("value"),
            "details": check.json_object(draw, "details", place),
            "round": check.integer(draw, "round", place, minimum=1),
            "drawn_at": check.datetime(draw, "drawn_at", place),
        }
        if "value" not in draw:
            check.add(f"{place}.value", "is required.")
        check.storable(item["value"], f"{place}.value")
        if item["round"] is not None and item["round"] not in round_numbers:
            check.add(f"{place}.round", f"names round {item['round']}, which is not in rounds.")
        draws.append(item)
    _unique(check, [d["key"] for d in draws], "draws", "key")

    normalised = {
        "event": event,
        "teams": teams,
        "stages": stages,
        "entrants": entrants,
        "rounds": rounds,
        "draws": draws,
    }
    if not check.problems and engine is not None:
        _check_scores(check, normalised)
    if check.problems:
        raise ServiceError(check.problems)
    return normalised


def _validate_round(
    check: _Checker, rnd: Any, place: str, numbers: set[int], stage_keys: set[str]
) -> dict[str, Any]:
    rnd = check.mapping(rnd, place)
    item: dict[str, Any] = {
        "number": check.integer(rnd, "number", place, required=True, minimum=1),
        "label": check.text(rnd, "label", place, max_length=80),
        "status": check.choice(rnd, "status", place, ROUND_STATUSES, "completed"),
        "stage": rnd.get("stage"),
        "starts_at": check.datetime(rnd, "starts_at", place),
        "deadline": check.datetime(rnd, "deadline", place),
        "published_at": check.datetime(rnd, "published_at", place),
        "completed_at": check.datetime(rnd, "completed_at", place),
        "reasons": rnd.get("reasons", []) if isinstance(rnd.get("reasons", []), list) else [],
        "details": check.json_object(rnd, "details", place),
        "groups": [],
        "matches": [],
    }
    check.storable(item["reasons"], f"{place}.reasons")
    if not item["label"] and item["number"]:
        item["label"] = f"Round {item['number']}"
    if item["stage"] is not None and (
        not isinstance(item["stage"], str) or item["stage"] not in stage_keys
    ):
        check.add(f"{place}.stage", f"names the stage '{item['stage']}', which is not in stages.")
    for g, group in enumerate(check.items(rnd, "groups", place)):
        gplace = f"{place}.groups[{g}]"
        group = check.mapping(group, gplace)
        members = group.get("entrants", [])
        if not isinstance(members, list):
            check.add(f"{gplace}.entrants", "must be a list of entrant numbers.")
            members = []
        for m, member in enumerate(members):
            if not isinstance(member, int) or member not in numbers:
                check.add(f"{gplace}.entrants[{m}]", f"{member!r} is not an entrant's number.")
        item["groups"].append(
            {
                "key": check.text(group, "key", gplace, required=True, max_length=20),
                "label": check.text(group, "label", gplace, max_length=80),
                "entrants": [m for m in members if isinstance(m, int) and m in numbers],
            }
        )
    _unique(check, [g["key"] for g in item["groups"]], f"{place}.groups", "key")
    group_keys = {g["key"] for g in item["groups"]}
    for m, match in enumerate(check.items(rnd, "matches", place)):
        item["matches"].append(_validate_match(check, match, f"{place}.matches[{m}]", numbers))
        group = item["matches"][-1]["group"]
        if group is not None and (not isinstance(group, str) or group not in group_keys):
            check.add(f"{place}.matches[{m}].group", f"names the group '{group}', not in groups.")
    _unique(check, [m["code"] for m in item["matches"]], f"{place}.matches", "code")
    # Whether an entrant may play several matches in one round is the format's business
    # (a Freestyle group round, a contest's gauntlet): the engine's checks decide it.
    return item


def _validate_match(check: _Checker, match: Any, place: str, numbers: set[int]) -> dict[str, Any]:
    match = check.mapping(match, place)
    item: dict[str, Any] = {
        "code": check.text(match, "code", place, required=True, max_length=40),
        "group": match.get("group"),
        "bracket": check.text(match, "bracket", place, max_length=40),
        "table": check.integer(match, "table", place, minimum=0),
        "details": check.json_object(match, "details", place),
        "reasons": match.get("reasons", []) if isinstance(match.get("reasons", []), list) else [],
        "overridden": check.boolean(match, "overridden", place, False),
        "participants": [],
        "games": [],
    }
    check.storable(item["reasons"], f"{place}.reasons")
    participants = check.items(match, "participants", place)
    if not participants:
        check.add(f"{place}.participants", "a match needs at least one participant.")
    for p, participant in enumerate(participants):
        pplace = f"{place}.participants[{p}]"
        participant = check.mapping(participant, pplace)
        number = participant.get("entrant")
        if number is not None and (not isinstance(number, int) or number not in numbers):
            check.add(f"{pplace}.entrant", f"{number!r} is not an entrant's number.")
        item["participants"].append(
            {
                "entrant": number,
                "role": check.text(participant, "role", pplace, max_length=20),
                "details": check.json_object(participant, "details", pplace),
            }
        )
    for g, game in enumerate(check.items(match, "games", place)):
        gplace = f"{place}.games[{g}]"
        game = check.mapping(game, gplace)
        scores = game.get("scores", [])
        if not isinstance(scores, list):
            check.add(f"{gplace}.scores", "must be a list with one score per participant.")
            scores = []
        elif len(scores) != len(item["participants"]):
            check.add(
                f"{gplace}.scores",
                f"has {len(scores)} scores for {len(item['participants'])} participants.",
            )
        for s, score in enumerate(scores):
            if score is not None and (
                isinstance(score, bool) or not isinstance(score, int | float)
            ):
                check.add(f"{gplace}.scores[{s}]", f"must be a number; got {score!r}.")
        check.storable(scores, f"{gplace}.scores")
        first = check.integer(game, "first", gplace, minimum=0)
        if first is not None and first >= len(item["participants"]):
            check.add(f"{gplace}.first", f"seat {first} does not exist in this match.")
        item["games"].append(
            {
                "number": check.integer(game, "number", gplace, required=True, minimum=1),
                "scores": scores,
                "first": first,
                "ending": check.choice(game, "ending", gplace, GAME_ENDINGS, "normal"),
                "details": check.json_object(game, "details", gplace),
            }
        )
    _unique(check, [g["number"] for g in item["games"]], f"{place}.games", "number")
    return item


def _unique(check: _Checker, values: list[Any], place: str, key: str) -> None:
    seen = set()
    for index, value in enumerate(values):
        if value is None:
            continue
        if value in seen:
            check.add(f"{place}[{index}].{key}", f"{value!r} appears twice; it must be unique.")
        seen.add(value)


def _check_scores(check: _Checker, data: dict[str, Any]) -> None:
    """Every recorded game must be one the format's rules accept."""
    from rules.contract import GameState, MatchState, Participant

    engine = registry.get(data["event"]["format"])
    state = _state_from(data)
    for r, rnd in enumerate(data["rounds"]):
        for m, match in enumerate(rnd["matches"]):
            if not match["games"]:
                continue
            games: tuple[GameState, ...] = parse_games(match["games"])
            state_match = MatchState(
                code=match["code"],
                round_number=rnd["number"],
                participants=tuple(
                    Participant(
                        None if p["entrant"] is None else str(p["entrant"]), p["role"], p["details"]
                    )
                    for p in match["participants"]
                ),
                games=games,
                bracket=match["bracket"],
                group=match["group"] or "",
                table=match["table"],
                details=match["details"],
            )
            for problem in engine.score_match(state, state_match).problems:
                check.add(f"rounds[{r}].matches[{m}].{problem.field}", problem.text, problem.code)


def _state_from(data: dict[str, Any]) -> EventState:
    from rules.contract import (
        DrawMethod,
        DrawRecord,
        EntrantState,
        EntrantStatus,
        GroupState,
        Participant,
        RoundState,
        RoundStatus,
    )
    from rules.contract import MatchState as MS

    return EventState(
        format=data["event"]["format"],
        settings=data["event"]["settings"],
        entrants=tuple(
            EntrantState(
                id=str(e["number"]),
                name=e["name"],
                rating=e["rating"],
                seed=e["seed"],
                country=e["country"],
                gender=e["gender"],
                team=e["team"],
                flags=e["flags"],
                status=EntrantStatus(e["status"]),
                withdrawn_after_round=e["withdrawn_after_round"],
            )
            for e in data["entrants"]
        ),
        rounds=tuple(
            RoundState(
                number=r["number"],
                label=r["label"],
                status=RoundStatus(r["status"]),
                matches=tuple(
                    MS(
                        code=m["code"],
                        round_number=r["number"],
                        participants=tuple(
                            Participant(
                                None if p["entrant"] is None else str(p["entrant"]), p["role"]
                            )
                            for p in m["participants"]
                        ),
                        games=parse_games(m["games"]),
                        bracket=m["bracket"],
                        group=m["group"] or "",
                        table=m["table"],
                        details=m["details"],
                    )
                    for m in r["matches"]
                ),
                stage=r["stage"] or "",
                groups=tuple(
                    GroupState(g["key"], g["label"], tuple(str(x) for x in g["entrants"]))
                    for g in r["groups"]
                ),
                details=r["details"],
            )
            for r in data["rounds"]
        ),
        draws=tuple(
            DrawRecord(d["key"], d["value"], DrawMethod(d["method"]), d["purpose"], d["details"])
            for d in data["draws"]
        ),
    )


# -- import --------------------------------------------------------------------------------


def import_event(
    data: Any,
    *,
    by: Any,
    slug: str | None = None,
    now: dt.datetime | None = None,
    limited: bool = True,
    progress: Callable[[float], None] | None = None,
) -> Event:
    """Create an event from an event file; all or nothing. ``progress`` hears the share of
    the rows written (0 to 1) as the rounds go in."""
    now = now or timezone.now()
    clean = validate(data, slug=slug, limited=limited)
    ev = clean["event"]
    with transaction.atomic():
        event = Event.objects.create(
            slug=ev["slug"],
            name=ev["name"],
            format=ev["format"],
            settings=ev["settings"],
            status=ev["status"],
            public=ev["public"],
            starts_on=ev["starts_on"],
            ends_on=ev["ends_on"],
            time_zone=ev["time_zone"],
            venue=ev["venue"],
            external_draws=ev["external_draws"],
            created_by=by if getattr(by, "is_authenticated", False) else None,
            **({"random_seed": ev["random_seed"]} if ev["random_seed"] else {}),
        )
        if getattr(by, "is_authenticated", False):  # who imports it directs it (issue 12)
            EventDirector.objects.create(event=event, user=by)
        teams = {
            t["name"]: Team.objects.create(event=event, name=t["name"], country=t["country"])
            for t in clean["teams"]
        }
        stages = {
            s["key"]: Stage.objects.create(
                event=event, key=s["key"], name=s["name"], order=s["order"]
            )
            for s in clean["stages"]
        }
        # in bulk: 10,000 entrants one query each took minutes (issue 20)
        created = Entrant.objects.bulk_create(
            Entrant(
                event=event,
                number=e["number"],
                name=e["name"],
                rating=e["rating"],
                seed=e["seed"],
                country=e["country"],
                gender=e["gender"],
                team=teams.get(e["team"]),
                external_id=e["external_id"],
                flags=e["flags"],
                status=e["status"],
                withdrawn_after_round=e["withdrawn_after_round"],
            )
            for e in clean["entrants"]
        )
        entrants = {e.number: e for e in created}
        rounds = {}
        for done, r in enumerate(clean["rounds"], start=1):
            rounds[r["number"]] = _import_round(event, r, entrants, stages, by=by, now=now)
            if progress:
                progress(done / (len(clean["rounds"]) + 1))
        for d in clean["draws"]:
            RandomDraw.objects.create(
                event=event,
                round=rounds.get(d["round"]),
                key=d["key"],
                purpose=d["purpose"],
                method=d["method"],
                value=d["value"],
                details=d["details"],
                drawn_by=None,
                drawn_at=d["drawn_at"] or now,
            )
        _score_imported(event, by=by, now=now)
        audit.log(
            event,
            "event.imported",
            actor=by,
            at=now,
            subject=event.slug,
            after={"entrants": len(entrants), "rounds": len(rounds)},
        )
        standings.results_changed(event)
    return event


def _import_round(
    event: Event,
    r: dict[str, Any],
    entrants: dict[int, Entrant],
    stages: dict[str, Stage],
    *,
    by: Any,
    now: dt.datetime,
) -> Round:
    rnd = Round.objects.create(
        event=event,
        stage=stages.get(r["stage"]) if r["stage"] else None,
        number=r["number"],
        label=r["label"],
        status=r["status"],
        starts_at=r["starts_at"],
        deadline=r["deadline"],
        published_at=r["published_at"],
        completed_at=r["completed_at"],
        reasons=r["reasons"],
        details=r["details"],
    )
    groups = {}
    for order, g in enumerate(r["groups"]):
        groups[g["key"]] = Group.objects.create(
            round=rnd, key=g["key"], label=g["label"] or g["key"], order=order
        )
        GroupMember.objects.bulk_create(
            GroupMember(group=groups[g["key"]], entrant=entrants[n], seed=seed)
            for seed, n in enumerate(g["entrants"], start=1)
        )
    # in bulk: an event of a few hundred entrants has thousands of matches, and one query
    # per row made a WOC import take seconds (PostgreSQL and SQLite return the new keys)
    matches = Match.objects.bulk_create(
        Match(
            round=rnd,
            group=groups.get(m["group"]) if m["group"] else None,
            code=m["code"],
            bracket=m["bracket"],
            table=m["table"],
            order=order,
            details=m["details"],
            reasons=m["reasons"],
            overridden=m["overridden"],
            version=1 if m["games"] else 0,
        )
        for order, m in enumerate(r["matches"])
    )
    MatchParticipant.objects.bulk_create(
        MatchParticipant(
            match=match,
            seat=seat,
            entrant=entrants[p["entrant"]] if p["entrant"] is not None else None,
            role=p["role"],
            details=p["details"],
        )
        for match, m in zip(matches, r["matches"], strict=True)
        for seat, p in enumerate(m["participants"])
    )
    Game.objects.bulk_create(
        Game(
            match=match,
            number=g["number"],
            scores=g["scores"],
            first_seat=g["first"],
            ending=g["ending"],
            details=g["details"],
        )
        for match, m in zip(matches, r["matches"], strict=True)
        for g in m["games"]
    )
    ResultChange.objects.bulk_create(
        ResultChange(
            match=match,
            version=1,
            before=None,
            after={"games": m["games"]},
            changed_by=by if getattr(by, "is_authenticated", False) else None,
            changed_at=now,
            source=ResultChange.Source.IMPORT,
            reason="imported from an event file",
        )
        for match, m in zip(matches, r["matches"], strict=True)
        if m["games"]
    )
    return rnd


def _score_imported(event: Event, *, by: Any, now: dt.datetime) -> None:
    """Store the engine's score of every recorded match: its games, a bye, or details that
    decide it without games (GokoDom's result codes: left unscored, the rounds showed no
    results though the standings counted them). A result from details alone gets its
    import row in the result history here, as a result with games got one with them."""
    state = load_event_state(event)
    engine = event.engine
    changes = []
    for rnd in rounds_queryset(event):
        if rnd.status == Round.Status.DRAFT:
            continue
        scored = []
        for match in rnd.matches.all():
            games = bool(match.games.all())
            bye = len(match.participants.all()) == 1
            recorded = match_state(match, rnd.number)
            score = engine.score_match(state, recorded)
            if not (games or bye or (score.valid and (score.complete or score.winner is not None))):
                continue
            match.result = score_json(score, recorded.games)
            scored.append(match)
            if not games and not bye and match.version == 0:
                match.version = 1
                changes.append(
                    ResultChange(
                        match=match,
                        version=1,
                        before=None,
                        after={"games": [], "result": match.result, "details": match.details},
                        changed_by=by if getattr(by, "is_authenticated", False) else None,
                        changed_at=now,
                        source=ResultChange.Source.IMPORT,
                        reason="imported from an event file",
                    )
                )
        Match.objects.bulk_update(scored, ["result", "version"], batch_size=500)
    ResultChange.objects.bulk_create(changes, batch_size=500)
