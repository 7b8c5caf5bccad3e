"""Each resource's shape, declared once: the answers are built through these and the
OpenAPI schema is generated from them. Nothing here can hold an e-mail address, a claim
code or a user id: the shapes name every field they carry."""

from __future__ import annotations

import datetime
from typing import Any

from ninja import Schema
from pydantic import ConfigDict


class Error(Schema):
    code: str
    message: str
    parameter: str | None = None
    retry_after: int | None = None


class Page(Schema):
    count: int
    page: int
    pages: int
    per_page: int


class EventSummary(Schema):
    slug: str
    name: str
    format: str
    status: str
    starts_on: datetime.date | None
    ends_on: datetime.date | None
    venue: str
    time_zone: str
    entrant_count: int
    url: str


class EventPage(Page):
    results: list[EventSummary]


class Event(EventSummary):
    results_hidden: bool
    rounds: int
    results_version: int | None
    standings_version: int | None
    # venue mode (docs/venue.md): when this public copy last received the venue's changes;
    # null for an event run here
    updated_from_venue_at: datetime.datetime | None = None


class EntrantRef(Schema):
    number: int
    name: str


class Entrant(EntrantRef):
    family_name: str
    given_name: str
    country: str
    rating: int | None
    seed: int | None
    team: str | None
    status: str


class EntrantPage(Page):
    results: list[Entrant]


class RoundSummary(Schema):
    number: int
    label: str
    status: str
    starts_at: datetime.datetime | None
    published_at: datetime.datetime | None
    completed_at: datetime.datetime | None
    url: str


class Seat(Schema):
    seat: int
    role: str
    entrant: EntrantRef | None


class Result(Schema):
    points: list[Any] | None = None
    winner: int | None = None
    complete: bool | None = None
    summary: str | None = None
    game_scores: list[Any] | None = None


class Game(Schema):
    number: int
    scores: list[Any]
    first_seat: int | None
    ending: str


class Match(Schema):
    code: str
    table: int | None
    bracket: str
    bracket_title: str
    group: str | None
    seats: list[Seat]
    result: Result | None
    overridden: bool
    notes: list[str]
    games: list[Game]


class Round(RoundSummary):
    results_hidden: bool
    matches: list[Match]


class Column(Schema):
    key: str
    label: str
    help: str


class StandingsEntry(Schema):
    position: int
    rank: int
    entrant: EntrantRef
    points: float | None
    status: str
    values: dict[str, Any]
    explanation: str


class Decided(Schema):
    ahead: EntrantRef | None
    behind: EntrantRef | None
    step: str
    step_label: str
    detail: str


class BreakdownColumn(Schema):
    label: str
    help: str


class BreakdownRow(Schema):
    entrant: EntrantRef | None
    cells: list[str]


class Breakdown(Schema):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "title": "Brightwell Quotient, part by part",
                    "caption": "BQ = discs in games against opponents still in the event + ...",
                    "columns": [{"label": "Discs", "help": "Discs in the games that count"}],
                    "rows": [{"entrant": {"number": 3, "name": "Ann Lee"}, "cells": ["212"]}],
                }
            ]
        }
    )

    title: str
    caption: str
    columns: list[BreakdownColumn]
    rows: list[BreakdownRow]


class StandingsTable(Schema):
    key: str
    title: str
    columns: list[Column]
    rows: list[StandingsEntry]
    decided: list[Decided]
    notes: list[Any]
    breakdown: Breakdown | None


class Standings(Schema):
    published: bool
    results_hidden: bool
    after_round: int | None
    final: bool
    computed_at: datetime.datetime | None
    tables: list[StandingsTable]
