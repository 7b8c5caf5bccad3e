"""A woc event as a WOF rating file (.ELO), without loss of what an imported file said.

The list is the provisional order (points, BQ, discs) with the qualifying points and discs;
NAME is the entrant's family name and Firstname its given name, as an imported file gave them
("VAN DEN BIGGELAAR", "Nicky") or as the director typed them; an entrant typed with its name
alone has it split by ``entrant_names.guess`` ("Hélène Dupré": NAME Dupré, Firstname Hélène).
The header is the file's (kept on round 1's ``details.source``); Creator and CreationDate say
this program and the time of export, and the program that first made the file is kept in a
comment. Added results keep the order they were read in. A forfeit, a bye and a game decided
without play are not written as rated games: a bye is a '% bye:' line, the others a comment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from fractions import Fraction
from typing import Any

from django.utils import timezone

from rules.contract import EntrantState, EventState, GameState
from rules.formats.woc import ENGINE, history, wof
from tournaments import entrant_names
from tournaments.endings import is_unplayed
from tournaments.models import Event
from tournaments.services.state import load_event_state

CREATOR = "Arbiter"
WORDS = {"black": ">", "white": "<", "draw": "="}


Names = Mapping[str, tuple[str, str]]  # entrant id -> (family name, given name)


def wof_names(entrant: EntrantState, names: Names) -> tuple[str, str]:
    """NAME and Firstname of an entrant: its family and given names when it has them; else
    what an older WOF import kept in ``flags.wof`` (unless the entrant was renamed since);
    else a guess from its name (it once took the first word for the surname: issue 28)."""
    family, given = names.get(entrant.id, ("", ""))
    if family or given:
        return family, given
    flags = (entrant.flags or {}).get("wof") or {}
    surname, first = flags.get("name"), flags.get("first")
    if isinstance(surname, str) and f"{surname} {first or ''}".strip() == entrant.name:
        return surname, str(first or "")
    return entrant_names.guess(entrant.name)


def _source(event_rounds: Any) -> dict[str, Any]:
    for rnd in event_rounds:
        source = (rnd.details or {}).get("source")
        if isinstance(source, dict):
            return source
    return {}


def _header(
    name: str, dates: tuple[date | None, date | None], source: dict[str, Any]
) -> dict[str, Any]:
    header = {str(k): str(v) for k, v in (source.get("header") or {}).items()}
    if not header:
        starts, ends = dates
        when = starts.strftime("%d/%m/%Y") if starts else ""
        if starts and ends and ends != starts:
            when += " - " + ends.strftime("%d/%m/%Y")
        header = {"Tournament": name, "Country": "", "Date": when, "Sender": ""}
    header.setdefault("Tournament", name)
    return header


def _player(entrant: EntrantState, row_values: Any, ident: int, names: Names) -> wof.WofPlayer:
    flags = (entrant.flags or {}).get("wof") or {}
    surname, first = wof_names(entrant, names)
    bonus = flags.get("bonus")
    return wof.WofPlayer(
        ident,
        surname,
        first,
        entrant.country,
        Fraction(str(row_values["points"])),
        int(row_values["discs"] or 0),
        entrant.rating,
        bool(flags.get("new")),
        Fraction(bonus) if bonus else None,
        listed=flags.get("listed", True) is not False,
    )


def _line(index: int, game: GameState, official: Any, ids: list[int], black_seat: int = 0) -> Any:
    """The game as a WOF line, or the words of a comment when it is not a rated game;
    ``black_seat``: who played Black when the game does not say (the seats' roles)."""
    black = game.first if game.first is not None else black_seat
    decided = (game.details or {}).get("decided")
    if is_unplayed(str(game.ending)) or (game.details or {}).get("unplayed"):
        return f"% not played: {ids[0]} v {ids[1]} ({game.ending})"
    if decided in WORDS:
        scores = list(game.scores)
        sign = WORDS[str(decided)]
    elif (
        str(game.ending) == "normal"
        and not (game.details or {}).get("penalty")
        and all(isinstance(s, int) for s in game.scores)
    ):
        scores = list(game.scores)  # as counted on the board: the file read gave these
        sign = ""
    else:
        if index >= len(official) or any(s is None for s in official[index]):
            return f"% not played: {ids[0]} v {ids[1]} (no result)"
        scores = list(official[index])
        sign = ""
    bd, wd = scores[black], scores[1 - black]
    return wof.WofGame(
        ids[black],
        ids[1 - black],
        None if bd is None else int(bd),
        None if wd is None else int(wd),
        sign=sign,
    )


def wof_ident(number: str, external_id: str, flags: Mapping[str, Any] | None) -> int:
    """The entrant's id in the file: its WOF id, else its number (negative: '??????')."""
    if ((flags or {}).get("wof") or {}).get("no_id"):
        return -int(number)
    return int(external_id) if external_id.isdigit() else int(number)


def export_wof(
    event: Event, *, now: datetime | None = None, header: Mapping[str, str] | None = None
) -> str:
    """The event as a WOF file (see the module's docstring); ``header``: fields the
    director typed (Country, Sender), over the file's own."""
    rows = event.entrants.values_list("number", "external_id", "family_name", "given_name")
    external = {}
    names = {}
    for number, external_id, family, given in rows:
        external[str(number)] = external_id
        names[str(number)] = (family, given)
    return export_state(
        load_event_state(event),
        external,
        names=names,
        name=event.name,
        dates=(event.starts_on, event.ends_on),
        now=now or timezone.now(),
        header=header,
    )


def export_state(
    state: EventState,
    external: Mapping[str, str],
    *,
    names: Names | None = None,
    name: str,
    dates: tuple[date | None, date | None] = (None, None),
    now: datetime,
    header: Mapping[str, str] | None = None,
) -> str:
    """The file of an event given as engine state and its entrants' external ids (the WOF
    ids) and family and given names: what ``export_wof`` writes, without the database."""
    names = names or {}
    rows = ENGINE.standings(state).table("overall").rows
    by_id = state.entrants_by_id

    def wof_id(entrant: str) -> int:
        return wof_ident(entrant, external.get(entrant, ""), by_id[entrant].flags)

    players = [_player(by_id[row.entrant], row.values, wof_id(row.entrant), names) for row in rows]
    rounds: list[list[wof.WofGame]] = []
    byes: dict[int, list[int]] = {}
    comments: dict[int, list[str]] = {}
    added: list[tuple[tuple[int, int], Any]] = []
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
            roles = [p.role for p in match.participants]
            black_seat = roles.index("black") if "black" in roles else 0
            for index, game in enumerate(match.games):
                line = _line(index, game, official, ids, black_seat)
                if isinstance(line, str):
                    comments.setdefault(len(rounds) if qualifying else 0, []).append(line)
                elif qualifying:
                    rounds[-1].append(line)
                else:
                    order = (game.details or {}).get("record_index")
                    key = (0, int(order)) if isinstance(order, int) else (1, len(added))
                    added.append((key, line))
    source = _source(state.rounds)
    left = {
        wof_id(e.id): int(e.withdrawn_after_round)
        for e in state.entrants
        if e.withdrawn_after_round and e.withdrawn_after_round < len(rounds)
    }
    typed = {k: v.strip() for k, v in (header or {}).items() if v.strip()}
    data = wof.WofFile(
        {**_header(name, dates, source), **typed},
        players,
        rounds,
        byes,
        [line for _key, line in sorted(added, key=lambda item: item[0])],
        left=left,
        original={str(k): str(v) for k, v in (source.get("original") or {}).items()},
        rounds_formed=bool(source.get("rounds_formed")),
    )
    text = wof.write(
        data,
        creator=CREATOR,
        created=timezone.localtime(now).strftime("%Y/%m/%d %H:%M"),
        comments=comments,
    )
    return re.sub(r"[ \t]+\n", "\n", text)
