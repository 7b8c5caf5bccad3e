"""The shapes of the answers beyond events, rounds and standings: the contention outlook,
the recorded draws and each format's own pages (brackets, the gauntlet, the final
crosstable, the boards, the WPF ladder). Like schemas.py, every field is named: nothing
else can leave."""

from __future__ import annotations

import datetime
from typing import Any

from ninja import Schema
from pydantic import ConfigDict

from tournaments.api.schemas import EntrantRef, Page


def example(data: dict[str, Any]) -> ConfigDict:
    """A shape's example in the schema (shown on /api/v1/docs/)."""
    return ConfigDict(json_schema_extra={"examples": [data]})


ANN = {"number": 3, "name": "Ann Lee"}
BOB = {"number": 7, "name": "Bob Diaz"}

# -- the contention outlook -----------------------------------------------------------------


class Verdict(Schema):
    model_config = example(
        {"status": "alive", "method": "bound", "reason": "alive: can finish with 4 to 7 points"}
    )
    status: str  # clinched, alive or eliminated
    method: str  # exact, bound or result
    reason: str


class OutlookEntry(Schema):
    model_config = example(
        {
            "entrant": ANN,
            "table": "Standings",
            "rank": 2,
            "win": {"status": "alive", "method": "exact", "reason": "alive: can still win"},
            "stage": None,
        }
    )
    entrant: EntrantRef
    table: str
    rank: int
    win: Verdict | None
    stage: Verdict | None


class Outlook(Page):
    published: bool
    results_hidden: bool
    after_round: int | None
    stage_key: str
    stage_name: str
    method: str
    notes: list[str]
    results: list[OutlookEntry]


# -- the draws --------------------------------------------------------------------------------


class DrawGroup(Schema):
    key: str
    slots: list[dict[str, str]]
    players: list[str]


class Draw(Schema):
    model_config = example(
        {
            "key": "round-2/grouping/1",
            "section": "2",
            "section_title": "Round 2",
            "title": "Grouping digit, attempt 1",
            "outcome": "4: grouping 4",
            "purpose": "Round 2 grouping",
            "method": "seeded",
            "method_label": "Drawn by Arbiter from the event's seed",
            "value": 4,
            "round": 2,
            "drawn_at": "2026-05-02T09:30:00Z",
            "groups": [{"key": "T", "slots": [{"code": "B1", "name": "Ann Lee"}], "players": []}],
            "reasons": [],
        }
    )
    key: str
    section: str
    section_title: str
    title: str
    outcome: str
    purpose: str
    method: str
    method_label: str
    value: Any
    round: int | None
    drawn_at: datetime.datetime
    groups: list[DrawGroup]
    reasons: list[str]


class DrawPage(Page):
    results: list[Draw]


# -- GokoDom: the elimination bracket ---------------------------------------------------------


class GokodomPlayer(Schema):
    entrant: EntrantRef | None
    seed: int | None
    colour: str
    points: Any
    games: list[Any]
    winner: bool


class GokodomBox(Schema):
    model_config = example(
        {
            "code": "QF1",
            "empty": False,
            "seeds": [],
            "round": 8,
            "players": [
                {
                    "entrant": ANN,
                    "seed": 1,
                    "colour": "A",
                    "points": 3,
                    "games": [1, 1, 1],
                    "winner": True,
                },
                {
                    "entrant": BOB,
                    "seed": 8,
                    "colour": "B",
                    "points": 0,
                    "games": [0, 0, 0],
                    "winner": False,
                },
            ],
            "summary": "3-0",
            "complete": True,
            "walkover": False,
            "deadline": "2026-05-10T22:00:00+02:00",
            "decided_by_director": False,
        }
    )
    code: str
    empty: bool
    seeds: list[int]
    round: int | None
    players: list[GokodomPlayer]
    summary: str
    complete: bool
    walkover: bool
    deadline: datetime.datetime | None
    decided_by_director: bool


class GokodomColumn(Schema):
    label: str
    boxes: list[GokodomBox]


class GokodomBracket(Schema):
    started: bool
    columns: list[GokodomColumn]
    playoff: GokodomBox | None
    champion: EntrantRef | None


# -- Freestyle: semi-finals, final and third place --------------------------------------------


class FreestylePlayer(Schema):
    entrant: EntrantRef | None
    slot: str
    seed: int | None
    games: list[Any]


class FreestyleBox(Schema):
    model_config = example(
        {
            "code": "F",
            "played": True,
            "players": [
                {"entrant": ANN, "slot": "winner of a semi-final", "seed": 1, "games": [3]},
                {"entrant": BOB, "slot": "winner of a semi-final", "seed": 2, "games": [1]},
            ],
            "winner": 0,
            "walkover": False,
            "summary": "3-1",
        }
    )
    code: str
    played: bool
    players: list[FreestylePlayer]
    winner: int | None
    walkover: bool
    summary: str


class Placing(Schema):
    place: int
    name: str


class FreestyleBracket(Schema):
    boxes: list[FreestyleBox]
    podium: list[Placing]
    champion: str


# -- the bot contest ----------------------------------------------------------------------------


class GauntletCell(Schema):
    points: Any
    games: list[Any]
    results: list[Any]


class GauntletRow(Schema):
    model_config = example(
        {
            "place": 1,
            "tied": False,
            "seed": 1,
            "entrant": ANN,
            "total": 5777.0,
            "game_points": 177.0,
            "games": 2,
            "cells": [{"points": 2275, "games": [[51, 7], [24, 8]], "results": ["X", "O"]}],
        }
    )
    place: int
    tied: bool
    seed: int | None
    entrant: EntrantRef
    total: float
    game_points: float
    games: int
    cells: list[GauntletCell | None]


class Gauntlet(Schema):
    seeded: bool
    references: list[EntrantRef]
    rows: list[GauntletRow]


class BracketSlot(Schema):
    entrant: EntrantRef | None
    seed: int | None
    wins: Any
    won: bool
    fate: str  # "drops" (to the losers' bracket), "out", "bye" or ""


class BracketMatch(Schema):
    model_config = example(
        {
            "code": "R2-W1",
            "bye": False,
            "tied": False,
            "played": True,
            "summary": "2-0",
            "slots": [
                {"entrant": ANN, "seed": 1, "wins": 2, "won": True, "fate": ""},
                {"entrant": BOB, "seed": 12, "wins": 0, "won": False, "fate": "drops"},
            ],
        }
    )
    code: str
    bye: bool
    tied: bool
    played: bool
    summary: str
    slots: list[BracketSlot]


class BracketRound(Schema):
    round: int
    label: str
    matches: list[BracketMatch]
    waiting: list[EntrantRef]


class Eliminated(Schema):
    round: int
    entrant: EntrantRef


class BotBrackets(Schema):
    seeds: list[EntrantRef]
    winners: list[BracketRound]
    losers: list[BracketRound]
    eliminated: list[Eliminated]
    finalists: list[EntrantRef]
    final_round: int | None


class FinalCell(Schema):
    points: Any
    games: list[Any]
    won: bool


class FinalRow(Schema):
    model_config = example(
        {
            "place": 1,
            "entrant": ANN,
            "total": 4200.0,
            "game_points": 130.0,
            "cells": [None, {"points": 2100, "games": [40, 35], "won": True}],
        }
    )
    place: int
    entrant: EntrantRef
    total: float
    game_points: float
    cells: list[FinalCell | None]


class FinalDecision(Schema):
    value: Any
    method: str
    purpose: str


class BotFinal(Schema):
    round: int | None
    complete: bool
    columns: list[EntrantRef]
    rows: list[FinalRow]
    tied_first: list[EntrantRef]
    decision: FinalDecision | None
    winner: EntrantRef | None


class Board(Schema):
    model_config = example(
        {"round": 2, "label": "Round 2", "board": "Board 2", "source": "rotation"}
    )
    round: int
    label: str
    board: str
    source: str


class Boards(Schema):
    boards: list[Board]


# -- WPF GP Playoffs: the ladder ---------------------------------------------------------------


class LadderSeed(Schema):
    seed: int
    number: int | None
    name: str
    virtual: bool


class LadderCell(Schema):
    rank: int
    played: bool
    swapped: bool
    won: bool


class LadderRow(Schema):
    model_config = example(
        {
            "rank": 1,
            "seed": 2,
            "number": 7,
            "name": "Bob Diaz",
            "virtual": False,
            "status": "",
            "losses": 0,
            "bracket": "Winners",
            "final": 1,
            "reason": "won the final heat",
            "cells": [{"rank": 1, "played": True, "swapped": True, "won": True}],
        }
    )
    rank: int
    seed: int
    number: int | None
    name: str
    virtual: bool
    status: str
    losses: int
    bracket: str
    final: Any
    reason: str
    cells: list[LadderCell]


class LadderColumn(Schema):
    number: int
    label: str


class LadderPlayer(Schema):
    name: str
    virtual: bool
    rank: int | None
    seed: int | None
    won: bool


class LadderMatch(Schema):
    model_config = example(
        {
            "code": "A1",
            "players": [
                {"name": "Ann Lee", "virtual": False, "rank": 1, "seed": 1, "won": False},
                {"name": "Bob Diaz", "virtual": False, "rank": 16, "seed": 16, "won": True},
            ],
            "summary": "1:40 - 2:05",
            "decided": True,
            "swapped": True,
        }
    )
    code: str
    players: list[LadderPlayer]
    summary: str
    decided: bool
    swapped: bool


class LadderSection(Schema):
    title: str
    matches: list[LadderMatch]


class LadderRound(Schema):
    number: int
    label: str
    puzzle: Any
    sections: list[LadderSection]


class Ladder(Schema):
    visible: bool
    final: bool
    seeds: list[LadderSeed]
    columns: list[LadderColumn]
    rows: list[LadderRow]
    rounds: list[LadderRound]
