"""The two layouts of a FlipTheDisc export, checked and brought to one.

The site's own export (``players_list``, ``standings``, ``rounds[]`` each with a ``pairing``
list of ``[first, second]`` objects, ``info`` with ``rounds`` and ``roundNames``) is turned
into the layout the FlipTheDisc importer reads (``entrants``, ``rounds[].games`` as [first id,
second id, first's discs, first's result], ``finals`` with their round codes and names,
``published_standings``, ``export_info``), the one of ../shared/data/real/ftd_*.json. A round
whose code is past ``info.rounds`` (108, 109, 110 named SF, 3/4, F) is a final stage; in its
``pairing`` a text between the pairs names the category of the pairs that follow ("open",
"division 1"). Every fault of shape is named by its JSON path; nothing reads a key that may
be missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.contract import Problem
from tournaments.services.errors import ServiceError


def is_site_export(data: Any) -> bool:
    return isinstance(data, Mapping) and "players_list" in data and "entrants" not in data


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Shape:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, place: str, text: str) -> None:
        self.problems.append(Problem("ftd.shape", place, f"{place}: {text}"))

    def mapping(self, value: Any, place: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.add(place, "is not an object.")
            return {}
        return value

    def items(self, parent: Mapping[str, Any], key: str, place: str) -> list[Any]:
        value = parent.get(key)
        if not isinstance(value, list):
            self.add(place, "is missing or not a list.")
            return []
        return value

    def done(self) -> None:
        if self.problems:
            raise ServiceError(self.problems)


def normalise(data: Any) -> dict[str, Any]:
    """The importer's layout from either layout; raise ServiceError naming each fault."""
    if not isinstance(data, Mapping):
        raise ServiceError([Problem("ftd.shape", "", "This is not a FlipTheDisc export.")])
    if is_site_export(data):
        data = _from_site(data)
    check(data)
    return dict(data)


def _from_site(raw: Mapping[str, Any]) -> dict[str, Any]:
    shape = _Shape()
    info = shape.mapping(raw.get("info", {}), "info")
    players = shape.items(raw, "players_list", "players_list")
    rounds = shape.items(raw, "rounds", "rounds")
    shape.done()
    swiss = info.get("rounds") if _whole(info.get("rounds")) else None
    names = {
        r.get("round"): str(r.get("round_name"))
        for r in info.get("roundNames") or []
        if isinstance(r, Mapping)
    }
    entrants = []
    known: set[int] = set()
    for i, player in enumerate(players):
        player = shape.mapping(player, f"players_list[{i}]")
        if not _whole(player.get("id")):
            shape.add(f"players_list[{i}].id", "is missing: every player needs a whole-number id.")
        else:
            known.add(player["id"])
        entrants.append(
            {
                k: player.get(k)
                for k in (
                    "id",
                    "wof_id",
                    "surname",
                    "name",
                    "country_code",
                    "rating",
                    "left_after_round",
                    "team",
                    "categories",
                )
                if k in player
            }
        )
    out_rounds: list[dict[str, Any]] = []
    finals: list[dict[str, Any]] = []
    for r, rnd in enumerate(rounds):
        place = f"rounds[{r}]"
        rnd = shape.mapping(rnd, place)
        code = rnd.get("currentRound")
        if not _whole(code):
            shape.add(f"{place}.currentRound", "needs the round's number (a whole number).")
            continue
        final = (swiss is not None and code > swiss) or not names.get(code, str(code)).isdigit()
        pairing = shape.items(rnd, "pairing", f"{place}.pairing")
        games = _games(shape, pairing, place, final, known)
        if final:
            finals.append({"round_code": code, "round_name": names.get(code, ""), "games": games})
        else:
            out_rounds.append({"round": code, "games": games})
    standings = [
        {
            "position": i + 1,
            "player_id": row.get("player_id"),
            "score": row.get("score"),
            "mbq": row.get("mbq"),
            "left_after_round": row.get("left_after_round"),
        }
        for i, row in enumerate(raw.get("standings") or [])
        if isinstance(row, Mapping)
    ]
    shape.done()
    return {
        "event": info.get("name") or "",
        "source": {"flipthedisc_id": info.get("id")},
        "export_info": {k: v for k, v in info.items() if k != "roundNames"},
        "entrants": entrants,
        "rounds": out_rounds,
        "finals": finals,
        "published_standings": {"rows": standings},
    }


def _games(
    shape: _Shape, pairing: list[Any], place: str, final: bool, known: set[int]
) -> list[Any]:
    games: list[Any] = []
    category = None
    for p, pair in enumerate(pairing):
        where = f"{place}.pairing[{p}]"
        if isinstance(pair, str):  # a category's heading among the finals' pairs
            category = pair
            continue
        if not isinstance(pair, list) or len(pair) != 2:
            shape.add(where, "is not a pair [first, second].")
            continue
        first = shape.mapping(pair[0], f"{where}[0]")
        second = shape.mapping(pair[1], f"{where}[1]")
        ids = (first.get("id"), second.get("id"))
        for seat, ident in enumerate(ids):
            if not _whole(ident):
                shape.add(f"{where}[{seat}].id", "needs the player's id (a whole number).")
            elif ident != -1 and ident not in known:
                shape.add(f"{where}[{seat}].id", f"{ident} is not in players_list.")
        if final and first.get("score") is None and first.get("result") is None:
            continue  # a final stage's pairing that was not played
        if final:
            games.append(
                {
                    "category": first.get("category") or category,
                    "game_name": first.get("gameName"),
                    "first_id": ids[0],
                    "second_id": ids[1],
                    "first_discs": first.get("score"),
                    "first_result": first.get("result"),
                }
            )
        else:
            games.append([ids[0], ids[1], first.get("score"), first.get("result")])
    return games


def check(data: Mapping[str, Any]) -> None:
    """The shape the FlipTheDisc importer relies on, each fault named by its JSON path: an
    entrant without an id, a game naming an id no entrant has."""
    shape = _Shape()
    for key in ("entrants", "rounds"):
        if not isinstance(data.get(key), list):
            shape.add(key, "is missing or not a list.")
    shape.done()
    known: set[int] = set()
    for i, entrant in enumerate(data["entrants"]):
        if not isinstance(entrant, Mapping) or not _whole(entrant.get("id")):
            shape.add(f"entrants[{i}].id", "is missing: every entrant needs a whole-number id.")
        elif entrant["id"] in known:
            shape.add(f"entrants[{i}].id", f"{entrant['id']} is used twice.")
        else:
            known.add(entrant["id"])
    for r, rnd in enumerate(data["rounds"]):
        games = rnd.get("games") if isinstance(rnd, Mapping) else None
        if not isinstance(games, list):
            shape.add(f"rounds[{r}].games", "is missing or not a list.")
            continue
        for g, game in enumerate(games):
            place = f"rounds[{r}].games[{g}]"
            if not isinstance(game, list) or len(game) != 4:
                shape.add(place, "is not [first id, second id, discs, result].")
                continue
            for seat, ident in enumerate(game[:2]):
                if ident != -1 and ident not in known:
                    shape.add(f"{place}[{seat}]", f"{ident!r} is not an entrant's id.")
    finals = data.get("finals") or []
    if not isinstance(finals, list):
        shape.add("finals", "is not a list.")
        finals = []
    for s, stage in enumerate(finals):
        games = stage.get("games", []) if isinstance(stage, Mapping) else None
        if not isinstance(games, list):
            shape.add(f"finals[{s}].games", "is not a list.")
            continue
        for g, game in enumerate(games):
            place = f"finals[{s}].games[{g}]"
            if not isinstance(game, Mapping) or not _whole(game.get("first_discs")):
                shape.add(place, "needs first_id, second_id and first_discs.")
                continue
            for key in ("first_id", "second_id"):
                if game.get(key) not in known:
                    shape.add(f"{place}.{key}", f"{game.get(key)!r} is not an entrant's id.")
    shape.done()
