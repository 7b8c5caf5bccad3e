"""The shapes of the answers beyond events, rounds and standings: the contention outlook,
the recorded draws and each format's own pages (brackets, the gauntlet, the final
crosstable, the boards, the WPF ladder). Like schemas.py, every field is named: nothing
else can leave."""

from __future__ import annotations

import datetime
from typing import Any

from ninja import Schema

from tournaments.api.schemas import EntrantRef, Page

# -- the contention outlook -----------------------------------------------------------------


class Verdict(Schema):
    status: str  # clinched, alive or eliminated
    method: str  # exact, bound or result
    reason: str


class OutlookEntry(Schema):
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
