"""WOF rating files (.ELO) in and out of the database.

Import builds an Arbiter event file from the parsed file and hands it to
``eventfile.import_event``: the same checks, all or nothing. The games after the Swiss carry
no labels in a WOF file; ``propose`` says which are the playoffs, semi-finals, third place
and final by following the woc rules, and ``import_wof`` takes the labels the director
confirmed (or the proposal when none are given).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules.contract import EventState, Problem, RoundState
from rules.formats.woc import ENGINE, history, record, wof
from rules.formats.woc.finals import KIND_STAGE
from tournaments.endings import is_unplayed
from tournaments.models import Event
from tournaments.services import eventfile
from tournaments.services.errors import ServiceError
from tournaments.services.state import load_event_state

STAGES = [
    {"key": "swiss", "name": "Swiss", "order": 0},
    {"key": "playoff", "name": "Playoffs", "order": 1},
    {"key": "semi_final", "name": "Semi-finals", "order": 2},
    {"key": "final", "name": "Finals", "order": 3},
    {"key": "other", "name": "Other games", "order": 4},
]


def _game(scores: Sequence[int], first: int | None = None) -> dict[str, Any]:
    return {"number": 1, "scores": list(scores), "first": first, "ending": "normal", "details": {}}


def event_file(
    *,
    slug: str,
    name: str,
    settings: Mapping[str, Any],
    players: Sequence[dict[str, Any]],
    rounds: Sequence[Sequence[tuple]],
    byes: Mapping[int, Sequence[str]] | None = None,
    left_after: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """An event file (normalised shape) for a woc event from a record.

    ``players``: {"key", "name", "country", "external_id", "rating"} in list order; ``rounds``:
    per round (black key, white key, black discs, white discs); ``byes``: round -> keys;
    ``left_after``: key -> last round, for players who withdrew."""
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
                "rating": p.get("rating"),
                "seed": None,
                "country": p.get("country", "")[:3],
                "gender": "",
                "team": "",
                "external_id": str(p.get("external_id", "")),
                "flags": {},
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
                    [_game((bd, wd))],
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


def _match(code, seats, games, *, table=None, details=None, bracket=""):
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


def _round(number, label, stage, matches, details=None):
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
    return eventfile._state_from(data)


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


# -- WOF files -----------------------------------------------------------------------------


def from_wof(parsed: wof.WofFile, *, slug: str, name: str = "") -> tuple[dict, list[tuple]]:
    """The Swiss part as an event file, and the added games with entrant numbers as ids."""
    players = [
        {
            "key": p.id,
            "name": f"{p.surname} {p.first_name}".strip(),
            "country": p.country,
            "external_id": p.id,
            "rating": p.rating,
        }
        for p in parsed.players
    ]
    rounds = [[(g.black, g.white, g.black_discs, g.white_discs) for g in r] for r in parsed.rounds]
    data = event_file(
        slug=slug,
        name=name or parsed.header.get("Tournament", "") or slug,
        settings={"c": 6},
        players=players,
        rounds=rounds,
        byes={n: list(ids) for n, ids in parsed.byes.items()},
    )
    number = {p.id: str(i) for i, p in enumerate(parsed.players, start=1)}
    added = [(number[g.black], number[g.white], g.black_discs, g.white_discs) for g in parsed.added]
    return data, added


def read(text: str) -> wof.WofFile:
    try:
        return wof.parse(text)
    except wof.WofError as error:
        raise ServiceError(
            [Problem("wof.invalid", f"line {n}", f"Line {n}: {what}") for n, what in error.problems]
        ) from None


def propose(text: str, *, slug: str = "proposal") -> tuple[dict, list[tuple], record.Proposal]:
    data, added = from_wof(read(text), slug=slug)
    return data, added, record.propose(state_of(data), added, ENGINE)


def labels_from(raw: Sequence[Mapping[str, Any]], count: int) -> list[record.Label]:
    """Labels as the director confirmed them: one per added game, in file order."""
    problems = []
    if len(raw) != count:
        problems.append(
            Problem("wof.labels", "labels", f"{count} added games need {count} labels.")
        )
    out = []
    for i, item in enumerate(raw):
        kind = item.get("kind")
        if kind not in KIND_STAGE:
            problems.append(
                Problem(
                    "wof.labels.kind",
                    f"labels[{i}].kind",
                    f"labels[{i}].kind: '{kind}' is not one of {', '.join(KIND_STAGE)}.",
                )
            )
            continue
        code = str(item.get("match") or (f"X{i + 1}" if kind == "other" else kind))
        out.append(record.Label(kind, code, int(item.get("game", 1))))
    if problems:
        raise ServiceError(problems)
    return out


def import_wof(
    text: str,
    *,
    by: Any,
    slug: str,
    name: str = "",
    labels: Sequence[Mapping[str, Any]] | None = None,
) -> Event:
    """Create an event from a WOF file; the added games take the confirmed ``labels`` (the
    proposal when None). All or nothing, through the event file import."""
    data, added, proposal = propose(text, slug=slug)
    if name:
        data["event"]["name"] = name
    chosen = proposal.labels if labels is None else labels_from(labels, len(added))
    state = state_of(data)
    add_final_rounds(data, record.final_rounds(state, added, chosen))
    return eventfile.import_event(data, by=by)


def export_wof(event: Event) -> str:
    """The event as a WOF file: the published list in provisional order (points, BQ, discs)
    with the qualifying points and discs, every qualifying round, then the games after the
    Swiss as added results, in round and match order."""
    state = load_event_state(event)
    standings = ENGINE.standings(state)
    rows = standings.table("overall").rows
    ext = {str(e.number): e.external_id for e in event.entrants.all()}
    by_id = state.entrants_by_id

    def wof_id(entrant: str) -> int:
        value = ext.get(entrant, "")
        return int(value) if value.isdigit() else int(entrant)

    players = []
    for row in rows:
        entrant = by_id[row.entrant]
        surname, _, first = entrant.name.partition(" ")
        players.append(
            wof.WofPlayer(
                wof_id(row.entrant),
                surname,
                first,
                entrant.country,
                Fraction(str(row.values["points"])),
                int(row.values["discs"] or 0),
                entrant.rating,
            )
        )
    rounds: list[list[wof.WofGame]] = []
    byes: dict[int, list[int]] = {}
    added: list[wof.WofGame] = []
    for rnd in state.rounds:
        qualifying = history.qualifying(rnd.stage)
        if qualifying:
            rounds.append([])
        for match in rnd.matches:
            if match.is_bye:
                if qualifying and match.participants[0].entrant:
                    byes.setdefault(len(rounds), []).append(wof_id(match.participants[0].entrant))
                continue
            ids = [wof_id(str(e)) for e in match.entrant_ids]
            official = ENGINE.score_match(state, match).game_scores
            for index, game in enumerate(match.games):
                if is_unplayed(str(game.ending)):
                    continue  # a forfeit is not a game a rating officer rates
                black = game.first if game.first is not None else 0
                scores = list(official[index] if index < len(official) else game.scores)
                line = wof.WofGame(
                    ids[black], ids[1 - black], int(scores[black] or 0), int(scores[1 - black] or 0)
                )
                (rounds[-1] if qualifying else added).append(line)
    header = {
        "Tournament": event.name,
        "Country": "",
        "Date": event.starts_on.strftime("%d/%m/%Y") if event.starts_on else "",
        "Sender": "",
        "Creator": "Arbiter",
    }
    return wof.write(wof.WofFile(header, players, rounds, byes, added))
