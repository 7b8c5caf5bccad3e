"""FlipTheDisc JSON exports into the database, through the event file import.

Both layouts are read: the site's own export and the re-packaged one of ../shared/data/real
(ftd_shape.py brings the first to the second and names every fault of shape).

FlipTheDisc lists a game as [first id, second id, first's discs, first's result] (2 win,
1 draw, 0 loss; second id -1 is a bye). The second player's discs are 64 minus the first's
(woc IV.8: empties go to the winner). The export does not say who had Black: the first
listed is taken as Black. Its finals (divisions, debutants, a two-game open final) are not
the woc's final stages: they are kept as "other" games. C is the export's ``mbq_coef`` when
it gives one, otherwise 64 / rounds, the value FlipTheDisc's published figures fit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.contract import GameState, MatchState, Participant, Problem, RoundState, RoundStatus
from rules.formats.woc.finals import match_details
from tournaments.models import Event
from tournaments.services import eventfile, ftd_shape
from tournaments.services.errors import ServiceError
from tournaments.services.record_file import add_final_rounds, event_file

RESULTS = {2: "win", 1: "draw", 0: "loss"}


def c_of(data: Mapping[str, Any]) -> float | int:
    info = data.get("export_info") or {}
    coef = info.get("mbq_coef")
    if coef not in (None, ""):
        try:
            value = float(coef)
        except (TypeError, ValueError):
            raise ServiceError(
                [
                    Problem(
                        "ftd.shape",
                        "export_info.mbq_coef",
                        f"export_info.mbq_coef: {coef!r} is not a number.",
                    )
                ]
            ) from None
        if value != value or value in (float("inf"), float("-inf")) or value < 0:
            raise ServiceError(
                [Problem("ftd.shape", "export_info.mbq_coef", f"export_info.mbq_coef: {coef!r}.")]
            )
        return int(value) if value.is_integer() else value
    return 64 / len(data.get("rounds") or [1])


def from_ftd(data: Mapping[str, Any], *, slug: str, name: str = "") -> dict[str, Any]:
    problems: list[Problem] = []
    players = [
        {
            "key": e["id"],
            "name": f"{e.get('surname', '')} {e.get('name', '')}".strip(),
            # the export's surname and name: kept as given (issue 28)
            "family_name": str(e.get("surname") or "")[:150],
            "given_name": str(e.get("name") or "")[:150],
            "country": e.get("country_code") or "",
            "external_id": e.get("wof_id") or "",
            "rating": e.get("rating"),
        }
        for e in data.get("entrants", [])
    ]
    known = {p["key"] for p in players}
    rounds: list[list[tuple[Any, ...]]] = []
    byes: dict[int, list[Any]] = {}
    for r, rnd in enumerate(data.get("rounds", []), start=1):
        games: list[tuple[Any, ...]] = []
        for g, (first, second, discs, result) in enumerate(rnd.get("games", [])):
            place = f"rounds[{r - 1}].games[{g}]"
            for who in (first, second):
                if who != -1 and who not in known:
                    problems.append(
                        Problem("ftd.player", place, f"{place}: {who} is not an entrant.")
                    )
            if second == -1:
                byes.setdefault(r, []).append(first)
                continue
            if not isinstance(discs, int) or not 0 <= discs <= 64:
                problems.append(Problem("ftd.discs", place, f"{place}: discs {discs!r} not 0-64."))
                continue
            expected = 2 if discs > 32 else 1 if discs == 32 else 0
            if result != expected:
                problems.append(
                    Problem(
                        "ftd.result",
                        place,
                        f"{place}: result {result!r} does not agree with {discs}-{64 - discs}.",
                    )
                )
            games.append((first, second, discs, 64 - discs))
        rounds.append(games)
    if problems:
        raise ServiceError(problems)
    left = {
        e["id"]: e["left_after_round"]
        for e in data.get("entrants", [])
        if e.get("left_after_round") is not None
    }
    return event_file(
        slug=slug,
        name=name or data.get("event") or data.get("name") or slug,
        settings={"c": c_of(data), "bye_points": 1, "final_stages": False},
        players=players,
        rounds=rounds,
        byes=byes,
        left_after=left,
    )


def _other_rounds(data: Mapping[str, Any], file: dict[str, Any]) -> list[RoundState]:
    number = {p["key"]: str(i) for i, p in enumerate(_keys(data), start=1)}
    matches: list[MatchState] = []
    for stage in data.get("finals") or []:
        for game in stage.get("games", []):
            a, b = number.get(game["first_id"]), number.get(game["second_id"])
            if a is None or b is None:
                continue
            discs = game["first_discs"]
            details = match_details("other", (0, 0))
            details.update(
                {k: game.get(k) for k in ("category", "game_name")}
                | {"ftd_round": stage.get("round_name"), "ftd_round_code": stage.get("round_code")}
            )
            matches.append(
                MatchState(
                    f"X{len(matches) + 1}",
                    len(file["rounds"]) + 1,
                    (Participant(a), Participant(b)),
                    (GameState(1, (discs, 64 - discs), first=0),),
                    bracket="other",
                    table=len(matches) + 1,
                    details=details,
                )
            )
    if not matches:
        return []
    return [
        RoundState(
            len(file["rounds"]) + 1, "Other games", RoundStatus.COMPLETED, tuple(matches), "other"
        )
    ]


def _keys(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"key": e["id"]} for e in data.get("entrants", [])]


def ftd_event_file(data: Any, *, slug: str, name: str = "") -> dict[str, Any]:
    """The event file of an export in either layout; ServiceError names each fault."""
    data = ftd_shape.normalise(data)
    file = from_ftd(data, slug=slug, name=name)
    add_final_rounds(file, _other_rounds(data, file))
    return file


def import_ftd(data: Any, *, by: Any, slug: str, name: str = "") -> Event:
    return eventfile.import_event(ftd_event_file(data, slug=slug, name=name), by=by)
