"""The JSON event file's schema (docs/event-file.md): what a valid file is.

``validate`` checks a whole file before anything is written and returns it normalised;
every problem names its place in the file ("rounds[2].matches[5].participants[1].entrant").
The recorded games are scored by the engine here too, so that a file whose results the
rules refuse is refused before the import starts.
"""

from __future__ import annotations

from typing import Any

from rules import registry
from rules.contract import EventState
from tournaments.models import Entrant, Event, Game, RandomDraw, Round
from tournaments.services import events, limits
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile.fields import Checker
from tournaments.services.results import parse_games

FILE_VERSION = 1
ROUND_STATUSES = {s.value for s in Round.Status}
GAME_ENDINGS = {e.value for e in Game.Ending}
DRAW_METHODS = {m.value for m in RandomDraw.Method}
EVENT_STATUSES = {s.value for s in Event.Status}
ENTRANT_STATUSES = {s.value for s in Entrant.Status}
GENDERS = {g.value for g in Entrant.Gender}


def validate(
    data: Any, *, slug: str | None = None, limited: bool = True, replacing: int | None = None
) -> dict[str, Any]:
    """Check a whole event file; return it normalised, or raise ServiceError with every
    problem found (not just the first). A file past the import limits (services/limits.py)
    is refused before it is read; a restore of our own backup is not ``limited``.
    ``replacing``: the id of the event the file is to replace (its slug is not taken)."""
    if limited:
        limits.check_counts(**limits.event_file_counts(data))
        limits.check_depth(data)  # for a file not read through limits.load_json
    check = Checker()
    root = check.mapping(data, "")
    if root and root.get("arbiter_event_file") != FILE_VERSION:
        check.add(
            "arbiter_event_file",
            f"must be {FILE_VERSION} (this is not an Arbiter event file, or a newer one).",
        )
    event_in = check.mapping(root.get("event", {}), "event")
    event: dict[str, Any] = {
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
    taken = Event.objects.filter(slug=event["slug"])
    if replacing is not None:
        taken = taken.exclude(pk=replacing)
    if event["slug"] and taken.exists():
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

    stages: list[dict[str, Any]] = []
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
        item: dict[str, Any] = {
            "number": check.integer(entrant, "number", place, required=True, minimum=1),
            "name": check.text(entrant, "name", place, required=True, max_length=150),
            "family_name": check.text(entrant, "family_name", place, max_length=150),
            "given_name": check.text(entrant, "given_name", place, max_length=150),
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
        if "family_name" not in entrant and "given_name" not in entrant:
            # a file older than the names
            item["family_name"], item["given_name"] = _names_from_wof_flags(item["flags"])
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
    check: Checker, rnd: Any, place: str, numbers: set[int], stage_keys: set[str]
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


def _validate_match(check: Checker, match: Any, place: str, numbers: set[int]) -> dict[str, Any]:
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


def _unique(check: Checker, values: list[Any], place: str, key: str) -> None:
    seen = set()
    for index, value in enumerate(values):
        if value is None:
            continue
        if value in seen:
            check.add(f"{place}[{index}].{key}", f"{value!r} appears twice; it must be unique.")
        seen.add(value)


def _check_scores(check: Checker, data: dict[str, Any]) -> None:
    """Every recorded game must be one the format's rules accept."""
    from rules.contract import GameState, MatchState, Participant

    engine = registry.get(data["event"]["format"])
    state = state_from(data)
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


def _names_from_wof_flags(flags: Any) -> tuple[str, str]:
    """A file written before entrants had family and given names: a WOF import kept NAME
    and Firstname in ``flags.wof``, which are those names (as migration 0012 reads them)."""
    wof = flags.get("wof") if isinstance(flags, dict) else None
    if not isinstance(wof, dict) or not isinstance(wof.get("name"), str):
        return "", ""
    first = wof.get("first")
    return wof["name"][:150], first[:150] if isinstance(first, str) else ""


def state_from(data: dict[str, Any]) -> EventState:
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
