"""An event file for a woc event from a published record (a WOF rating file, a FlipTheDisc
export): entrants, the qualifying rounds with their byes and withdrawals, and the labelled
games after them. The importers of both records build their files here, then hand them to
``eventfile.import_event``: the same checks, all or nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.contract import EventState, RoundState
from tournaments.services import eventfile

STAGES = [
    {"key": "swiss", "name": "Swiss", "order": 0},
    {"key": "playoff", "name": "Playoffs", "order": 1},
    {"key": "semi_final", "name": "Semi-finals", "order": 2},
    {"key": "final", "name": "Finals", "order": 3},
    {"key": "other", "name": "Other games", "order": 4},
]


def _game(
    scores: Sequence[int | None], first: int | None = None, details: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "number": 1,
        "scores": list(scores),
        "first": first,
        "ending": "normal",
        "details": dict(details or {}),
    }


def event_file(
    *,
    slug: str,
    name: str,
    settings: Mapping[str, Any],
    players: Sequence[dict[str, Any]],
    rounds: Sequence[Sequence[tuple[Any, ...]]],
    byes: Mapping[int, Sequence[str]] | None = None,
    left_after: Mapping[str, int] | None = None,
    source: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """An event file (normalised shape) for a woc event from a record.

    ``players``: {"key", "name", "family_name", "given_name", "country", "external_id",
    "rating", "flags"} in list order;
    ``rounds``: per round (black key, white key, black discs, white discs[, match details[,
    game details]]); ``byes``: round -> keys; ``left_after``: key -> last round, for players
    who withdrew; ``source``: what the record said about itself (kept on round 1)."""
    byes = byes or {}
    number = {p["key"]: i for i, p in enumerate(players, start=1)}
    last: dict[str, int] = {}
    for n, games in enumerate(rounds, start=1):
        for b, w, *_ in games:
            last[b] = last[w] = n
        for key in byes.get(n, ()):
            last[key] = n
    left = dict(left_after or {})
    if left_after is None:  # a record without withdrawals: no game after some round
        left = {k: v for k, v in last.items() if v < len(rounds)}
    entrants = []
    for p in players:
        gone = left.get(p["key"])
        entrants.append(
            {
                "number": number[p["key"]],
                "name": p["name"],
                "family_name": p.get("family_name", ""),
                "given_name": p.get("given_name", ""),
                "rating": p.get("rating"),
                "seed": None,
                "country": p.get("country", "")[:3],
                "gender": "",
                "team": "",
                "external_id": str(p.get("external_id", "")),
                "flags": dict(p.get("flags") or {}),
                "status": "withdrawn" if gone is not None else "active",
                "withdrawn_after_round": gone,
            }
        )
    system = "swiss" if len(players) > 24 else "modified_swiss"
    out_rounds = []
    for n, games in enumerate(rounds, start=1):
        matches = []
        for t, (b, w, bd, wd, *extra) in enumerate(games, start=1):
            matches.append(
                _match(
                    f"R{n}-T{t}",
                    [(number[b], "black"), (number[w], "white")],
                    [_game((bd, wd), details=extra[1] if len(extra) > 1 else None)],
                    table=t,
                    details=extra[0] if extra else {},
                )
            )
        for key in byes.get(n, ()):
            matches.append(_match(f"R{n}-BYE-{number[key]}", [(number[key], "")], []))
        details = {}
        if n == 1:
            field = [str(number[p["key"]]) for p in players]
            details = {"system": system, "rounds": len(rounds), "field": field}
            if source:
                details["source"] = dict(source)
        out_rounds.append(_round(n, f"Round {n}", "swiss", matches, details))
    return {
        "arbiter_event_file": eventfile.FILE_VERSION,
        "event": {
            "slug": slug,
            "name": name,
            "format": "woc",
            "settings": dict(settings),
            "status": "finished",
            "public": False,
            "starts_on": None,
            "ends_on": None,
            "time_zone": "UTC",
            "venue": "",
            "random_seed": "",
            "external_draws": False,
        },
        "teams": [],
        "stages": [dict(s) for s in STAGES],
        "entrants": entrants,
        "rounds": out_rounds,
        "draws": [],
    }


def _match(
    code: str,
    seats: Sequence[tuple[int, str]],
    games: list[dict[str, Any]],
    *,
    table: int | None = None,
    details: Mapping[str, Any] | None = None,
    bracket: str = "",
) -> dict[str, Any]:
    return {
        "code": code,
        "group": None,
        "bracket": bracket,
        "table": table,
        "details": dict(details or {}),
        "reasons": [],
        "overridden": False,
        "participants": [{"entrant": n, "role": role, "details": {}} for n, role in seats],
        "games": games,
    }


def _round(
    number: int,
    label: str,
    stage: str,
    matches: list[dict[str, Any]],
    details: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "number": number,
        "label": label,
        "status": "completed",
        "stage": stage,
        "starts_at": None,
        "deadline": None,
        "published_at": None,
        "completed_at": None,
        "reasons": [],
        "details": dict(details or {}),
        "groups": [],
        "matches": matches,
    }


def state_of(data: dict[str, Any]) -> EventState:
    return eventfile.state_from(data)


def add_final_rounds(data: dict[str, Any], rounds: Sequence[RoundState]) -> None:
    """Append engine rounds (the labelled games after the Swiss) to an event file."""
    for rnd in rounds:
        matches = [
            _match(
                m.code,
                [(int(p.entrant or 0), p.role) for p in m.participants],
                [
                    {
                        "number": g.number,
                        "scores": list(g.scores),
                        "first": g.first,
                        "ending": g.ending.value,
                        "details": dict(g.details),
                    }
                    for g in m.games
                ],
                table=m.table,
                details=m.details,
                bracket=m.bracket,
            )
            for m in rnd.matches
        ]
        data["rounds"].append(_round(rnd.number, rnd.label, rnd.stage, matches, rnd.details))
