"""Contention in a plain round robin (format ``round_robin``): who can still finish first.

The schedule is known (Berger tables), so the games still to play are known pair by pair.

- Exact: every remaining game takes each result (a win either way, a draw), the engine plans the
  Berger rounds still to come and ranks each outcome. Points, head-to-head, Sonneborn-Berger and
  games won depend only on results, so their splits are firm; a split left to score difference
  or score for (which depend on the margins) or a shared first place counts as open.
- Bound (too many games left): the points bound of rules/contention/bounds.py with each
  entrant's own games left.

A plain round robin has no next stage: ``stage`` is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules import berger, registry
from rules.contention.bounds import Reach, fraction, top_bound
from rules.contention.cuts import table_finishes
from rules.contention.exact import exact_verdicts
from rules.contention.explore import Outcome, Walk, affordable, pending_by_score
from rules.contention.types import Contention, EntrantContention, Finish, Method
from rules.contract import Engine, EventState, GameState, MatchState, Standings
from rules.formats.round_robin import ENGINE
from rules.words import message

AS_ENGINE: Engine = registry.get("round_robin")
FIRM = ("points", "head_to_head", "sonneborn_berger", "wins")
RESULTS = ((1, 0), (0, 0), (0, 1))  # a win for the first seat, a draw, a win for the second
FIRST = message("contention.target.first")


def menu(state: EventState, match: MatchState) -> list[MatchState]:
    games = int(ENGINE.resolved(state)["games_per_match"])
    variants: list[MatchState] = [match]
    for number in range(1, games + 1):
        variants = [
            MatchState(
                v.code,
                v.round_number,
                v.participants,
                (*v.games, GameState(number, scores)),
                v.bracket,
                v.group,
                v.table,
                v.details,
            )
            for v in variants
            for scores in RESULTS
        ]
    return variants


def evaluate(state: EventState) -> Outcome:
    table = ENGINE.standings(state).tables[0]
    win = table_finishes(table, 1, FIRM)
    return {e: (f, Finish.OUT) for e, f in win.items()}


def contention(
    state: EventState, standings: Standings | None = None, *, limit: int = 500
) -> Contention:
    """``standings`` is not read: every outcome is ranked by the engine anew."""
    names = {e.id: e.name for e in state.entrants}
    ids = [e.id for e in state.entrants]
    walk = Walk(AS_ENGINE, menu, evaluate, pending_by_score(AS_ENGINE), limit=limit)
    # 3 results a game: skip the walk when the count alone is over the limit.
    future = _future(state)  # the Berger rounds not yet planned, worked out once
    left = _games_left(state, future)
    small = left <= limit.bit_length() and affordable(3**left, len(ids), limit)
    outcomes = walk.outcomes(state) if small else None
    if outcomes is not None:
        verdicts = exact_verdicts(outcomes, ids, names, index=0, goal="win", target=FIRST)
        method = Method.EXACT
    else:
        verdicts = bound(state, future)
        method = Method.BOUND
    rows = tuple(EntrantContention(e, verdicts[e]) for e in ids)
    return Contention(state.format, "", "", rows, method)


def bound(state: EventState, future: Mapping[str, Slots] | None = None) -> dict[str, Any]:
    settings = ENGINE.resolved(state)
    games = int(settings["games_per_match"])
    win, loss = fraction(settings["win_points"]), fraction(settings["loss_points"])
    bye = fraction(settings["bye_points"])
    table = ENGINE.standings(state).tables[0]
    points = {r.entrant: fraction(r.values["points"]) for r in table.rows}
    low: dict[str, Fraction] = dict(points)
    high: dict[str, Fraction] = dict(points)
    pending = pending_by_score(AS_ENGINE)
    rounds_left = 0
    for rnd in state.rounds:
        if any(pending(state, m) for m in rnd.matches):
            rounds_left += 1
        for match in rnd.matches:
            if pending(state, match):
                for entrant in match.entrant_ids:
                    if entrant is not None:
                        low[entrant] += loss * games
                        high[entrant] += win * games
    for entrant, slots in (future if future is not None else _future(state)).items():
        # counted, then multiplied once: a 1,000-entrant field has a million slots
        low[entrant] += bye * slots.byes + loss * games * slots.games
        high[entrant] += bye * slots.byes + win * games * slots.games
    rounds_left += _future_rounds(state)
    left = message(
        "contention.left.round" if rounds_left == 1 else "contention.left.rounds",
        rounds=rounds_left,
    )
    names = {e.id: e.name for e in state.entrants}
    reaches = [Reach(e, names[e], low[e], high[e]) for e in points]
    return top_bound(reaches, 1, goal="win", unit=message("contention.unit.points"), left=left)


def _games_left(state: EventState, future: Mapping[str, Slots]) -> int:
    games = int(ENGINE.resolved(state)["games_per_match"])
    pending = pending_by_score(AS_ENGINE)
    now = sum(1 for r in state.rounds for m in r.matches if pending(state, m))
    later = sum(slots.games for slots in future.values()) // 2
    return (now + later) * games


def _numbers(state: EventState) -> list[str]:
    return ENGINE.draw_numbers(state, None)


def _future_rounds(state: EventState) -> int:
    cycles = int(ENGINE.resolved(state)["cycles"])
    return max(0, berger.rounds_needed(len(_numbers(state)), cycles) - len(state.rounds))


@dataclass
class Slots:
    """An entrant's rounds not yet planned: games, and byes (odd field, withdrawn opponent)."""

    games: int = 0
    byes: int = 0


def _future(state: EventState) -> Mapping[str, Slots]:
    cycles = int(ENGINE.resolved(state)["cycles"])
    numbers = _numbers(state)
    entrants = state.entrants_by_id
    total = berger.rounds_needed(len(numbers), cycles)
    if len(numbers) % 2 == 0 and all(e.withdrawn_after_round is None for e in state.entrants):
        # an even field with no one leaving: everyone plays every round left (the schedule
        # of a 1,000-entrant round robin takes seconds to build)
        left = max(0, total - len(state.rounds))
        return {e: Slots(games=left) for e in numbers}
    slots: dict[str, Slots] = {e: Slots() for e in numbers}
    schedule = berger.schedule(len(numbers), cycles)
    for index in range(len(state.rounds), len(schedule)):
        number = index + 1
        for pairing in schedule[index]:
            first = numbers[pairing.first - 1]
            second = numbers[pairing.second - 1] if pairing.second else None
            present = [
                e for e in (first, second) if e is not None and entrants[e].active_in_round(number)
            ]
            for entrant in present:
                if len(present) == 2:
                    slots[entrant].games += 1
                else:
                    slots[entrant].byes += 1
    return slots
