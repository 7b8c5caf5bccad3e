"""Reads for the bot contest's public pages, each in a fixed number of queries.

They read the stored matches and their engine scores (``Match.result``: contest points,
game wins, per-game results) and the rounds' details (board, seeds, brackets, finalists),
so a page is as current as the results and needs no engine call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from tournaments.models import Entrant, Event, Match, MatchParticipant, Round

GAUNTLET, BRACKETS, FINAL = "gauntlet", "brackets", "final"


def public_rounds(event: Event, stage: str | None = None) -> list[Round]:
    """Published rounds (of one stage) with matches and entrants: three queries."""
    rounds = Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT)
    if stage:
        rounds = rounds.filter(stage__key=stage)
    return list(
        rounds.select_related("stage")
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.order_by("order", "code").prefetch_related(
                    Prefetch(
                        "participants",
                        queryset=MatchParticipant.objects.order_by("seat").select_related(
                            "entrant"
                        ),
                    )
                ),
            )
        )
    )


def _entrants(event: Event) -> dict[str, Entrant]:
    return {str(e.number): e for e in Entrant.objects.filter(event=event)}


def _seats(match: Match) -> list[Entrant | None]:
    return [p.entrant for p in match.participants.all()]


def _result(match: Match) -> dict[str, Any]:
    return match.result or {}


def _value(result: dict[str, Any], key: str, seat: int) -> Any:
    values = (result.get("details") or {}).get(key) or []
    return values[seat] if seat < len(values) else None


# -- the gauntlet ----------------------------------------------------------------------------


@dataclass
class GauntletRow:
    entrant: Entrant
    cells: dict[int, dict[str, Any]] = field(default_factory=dict)  # reference pk -> cell
    by_reference: list[dict[str, Any] | None] = field(default_factory=list)  # in column order
    total: float = 0
    game_points: float = 0
    games: int = 0
    seed: int | None = None
    place: int = 0
    tied: bool = False


def gauntlet(event: Event) -> dict[str, Any]:
    """The seeding gauntlet: each entry's score against each reference, totals, seeds."""
    rounds = public_rounds(event, GAUNTLET)
    seeds_round = (
        Round.objects.filter(event=event, stage__key=BRACKETS)
        .exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .only("details")
        .first()
    )
    seeds = [str(s) for s in (seeds_round.details.get("seeds", []) if seeds_round else [])]
    references: dict[int, Entrant] = {}
    rows: dict[int, GauntletRow] = {}
    for rnd in rounds:
        for match in rnd.matches.all():
            entry, ref = [*_seats(match), None, None][:2]
            if entry is None or ref is None:
                continue
            references.setdefault(ref.pk, ref)
            row = rows.setdefault(entry.pk, GauntletRow(entry))
            result = _result(match)
            contest = _value(result, "contest_points", 0)
            points = _value(result, "game_points", 0)
            row.cells[ref.pk] = {
                "points": contest,
                "games": result.get("game_scores") or [],
                "results": (result.get("details") or {}).get("results") or [],
            }
            row.total += contest or 0
            row.game_points += points or 0
            row.games += len(result.get("game_scores") or [])
    refs = sorted(references.values(), key=lambda e: e.number)
    for row in rows.values():
        row.by_reference = [row.cells.get(ref.pk) for ref in refs]
    ordered = sorted(rows.values(), key=lambda r: (-r.total, -r.game_points, r.entrant.number))
    if seeds:
        place = {s: i for i, s in enumerate(seeds, start=1)}
        for row in ordered:
            row.seed = place.get(str(row.entrant.number))
        ordered.sort(key=lambda r: (r.seed is None, r.seed or 0, -r.total))
    for index, row in enumerate(ordered):
        row.place = index + 1
        if not seeds and index:
            before = ordered[index - 1]
            if (before.total, before.game_points) == (row.total, row.game_points):
                row.place, row.tied, before.tied = before.place, True, True
    return {
        "rounds": rounds,
        "references": refs,
        "rows": ordered,
        "seeded": bool(seeds),
    }


# -- the brackets ----------------------------------------------------------------------------


@dataclass
class Slot:
    entrant: Entrant | None
    seed: int | None
    wins: Any = None
    won: bool = False
    fate: str = ""  # "drops" (to the losers' bracket), "out" (eliminated), "bye"


@dataclass
class BracketMatch:
    match: Match
    slots: list[Slot]
    summary: str = ""
    bye: bool = False
    tied: bool = False
    played: bool = False


@dataclass
class BracketRound:
    round: Round
    matches: list[BracketMatch]
    waiting: list[Entrant]  # members of this bracket who sit the round out (size reached)


def brackets(event: Event) -> dict[str, Any]:
    """Both brackets, round by round: matches, byes, who drops and who is eliminated."""
    rounds = public_rounds(event, BRACKETS)
    entrants = _entrants(event)
    seeds = [str(s) for s in (rounds[0].details.get("seeds", []) if rounds else [])]
    seed_of = {s: i for i, s in enumerate(seeds, start=1)}
    drawn: dict[str, list[BracketRound]] = {"winners": [], "losers": []}
    eliminated: list[tuple[Round, Entrant]] = []
    for rnd in rounds:
        members = rnd.details.get("brackets") or {}
        for bracket in drawn:
            matches = [m for m in rnd.matches.all() if m.bracket == bracket]
            boxes = [_box(m, seed_of) for m in matches]
            for box in boxes:
                eliminated.extend(
                    (rnd, s.entrant) for s in box.slots if s.fate == "out" and s.entrant is not None
                )
            waiting = [] if matches else [entrants[e] for e in members.get(bracket, [])]
            if boxes or waiting:
                drawn[bracket].append(BracketRound(rnd, boxes, waiting))
    final_round = (
        Round.objects.filter(event=event, stage__key=FINAL)
        .exclude(status=Round.Status.DRAFT)
        .only("details", "number", "label")
        .first()
    )
    finalists = [
        entrants[str(e)] for e in (final_round.details.get("finalists", []) if final_round else [])
    ]
    return {
        "rounds": rounds,
        "winners": drawn["winners"],
        "losers": drawn["losers"],
        "eliminated": eliminated,
        "finalists": finalists,
        "final_round": final_round,
        "seeds": [entrants[s] for s in seeds if s in entrants],
    }


def _box(match: Match, seed_of: dict[str, int]) -> BracketMatch:
    seats = _seats(match)
    result = _result(match)
    slots = [
        Slot(e, seed_of.get(str(e.number)) if e else None, wins=_value(result, "wins", i))
        for i, e in enumerate(seats)
    ]
    if len(slots) == 1:
        slots[0].fate, slots[0].won = "bye", True
        return BracketMatch(match, slots, bye=True, played=True)
    box = BracketMatch(match, slots, summary=result.get("summary", ""))
    box.played = bool(result.get("complete"))
    winner = result.get("winner")
    if box.played and winner is None:
        box.tied = True
    elif box.played and winner in (0, 1):
        slots[winner].won = True
        slots[1 - winner].fate = "drops" if match.bracket == "winners" else "out"
    return box


# -- the final -----------------------------------------------------------------------------


def final(event: Event) -> dict[str, Any]:
    """The final round robin as a crosstable: the contest points each entry scored against
    each other one, totals and game points; a tie for first and the director's decision."""
    rounds = public_rounds(event, FINAL)
    rnd = rounds[0] if rounds else None
    entrants = _entrants(event)
    finalists = [entrants[str(e)] for e in (rnd.details.get("finalists", []) if rnd else [])]
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    totals = {e.pk: 0.0 for e in finalists}
    points = {e.pk: 0.0 for e in finalists}
    complete = bool(rnd)
    for match in rnd.matches.all() if rnd else []:
        seats = _seats(match)
        result = _result(match)
        complete = complete and bool(result.get("complete"))
        pair = [s for s in seats if s is not None]
        if len(seats) != 2 or len(pair) != 2 or not result:
            continue
        for seat, (me, other) in enumerate(((pair[0], pair[1]), (pair[1], pair[0]))):
            got = _value(result, "contest_points", seat) or 0
            cells[(me.pk, other.pk)] = {
                "points": got,
                "games": [g[seat] for g in result.get("game_scores") or []],
                "won": result.get("winner") == seat,
            }
            totals[me.pk] = totals.get(me.pk, 0) + got
            points[me.pk] = points.get(me.pk, 0) + (_value(result, "game_points", seat) or 0)
    decision = event.draws.filter(key="final/winner").first()
    chosen = str(decision.value) if decision else None
    order = sorted(
        finalists,
        key=lambda e: (-totals[e.pk], str(e.number) != chosen, -points[e.pk], e.number),
    )
    top = totals[order[0].pk] if order else None
    tied_first = [e for e in order if totals[e.pk] == top] if complete else []
    rows = []
    for place, entrant in enumerate(order, start=1):
        rows.append(
            {
                "place": place,
                "entrant": entrant,
                "total": totals[entrant.pk],
                "game_points": points[entrant.pk],
                "cells": [None if o is entrant else cells.get((entrant.pk, o.pk)) for o in order],
            }
        )
    return {
        "round": rnd,
        "rounds": rounds,
        "columns": order,
        "rows": rows,
        "complete": complete,
        "tied_first": tied_first if len(tied_first) > 1 else [],
        "decision": decision,
        "winner": entrants.get(chosen) if chosen else None,
    }


def boards(event: Event) -> list[dict[str, Any]]:
    """The board of every round, published or not yet (a draft's board is not shown)."""
    return [
        {
            "round": rnd,
            "board": rnd.details.get("board", ""),
            "source": rnd.details.get("board_source", ""),
        }
        for rnd in Round.objects.filter(event=event)
        .exclude(status=Round.Status.DRAFT)
        .select_related("stage")
        .order_by("number")
    ]
