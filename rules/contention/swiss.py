"""Contention in a qualifying stage ranked on points (a Swiss, or round robins played like one):
who can still reach the top N, who has clinched it.

- Exact: when no round of the stage is left to pair, every pending match of the current round
  takes each result of the format's menu (a win either way, a draw) and the engine ranks each
  outcome. Splits by the format's ``firm`` steps (those that depend on results only) are settled;
  a split left to a later step (scores, a lot, a coin, a playoff) counts as open.
- Bound: future pairings are unknown (and a director may change any pairing), so the points
  bound of bounds.py, which holds for ANY pairing: each pending match and each round left adds
  0 to ``per_round`` points.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.contract import (
    Engine,
    EventState,
    MatchState,
    RoundStatus,
    Standings,
    StandingsTable,
)
from rules.words import message

from .bounds import Reach, fraction, top_bound
from .cuts import table_finishes
from .exact import exact_verdicts
from .explore import Menu, Outcome, Walk, affordable
from .types import Method, Verdict


@dataclass(frozen=True)
class Stage:
    engine: Engine
    table: str  # standings table key
    points: str  # its points column
    places: int
    per_round: Fraction  # most points one round can give (a win, or a bye worth more)
    unit: dict[str, Any]  # a message of words.py: "points", "match points"
    firm: Collection[str]
    menu: Menu
    pending: Callable[[EventState, MatchState], bool]
    rounds_left: int  # rounds of the stage not yet paired
    goal: str  # "win" or "stage"
    target: dict[str, Any]  # a message of words.py: "reach the semi-finals"
    can_place: Callable[[str, str], bool] = lambda entrant, status: status != "withdrawn"
    limit: int = 400


def verdicts(
    state: EventState, stage: Stage, standings: Standings | None = None
) -> tuple[dict[str, Verdict], Method]:
    """``standings``: the engine's standings of ``state`` when the caller has them."""
    names = {e.id: e.name for e in state.entrants}
    table = (standings or stage.engine.standings(state)).table(stage.table)
    ids = [row.entrant for row in table.rows]
    # which matches wait for a result, found once (each is scored) for the walk and the bound
    pending = _pending(state, stage)

    def finishes(ranked: StandingsTable) -> Outcome:
        result = table_finishes(
            ranked,
            stage.places,
            stage.firm,
            eligible={r.entrant: stage.can_place(r.entrant, r.status) for r in ranked.rows},
        )
        return {e: (f, f) for e, f in result.items()}

    if stage.rounds_left == 0 and _affordable(state, stage, len(ids), pending):
        if not pending and all(r.status is RoundStatus.COMPLETED for r in state.rounds):
            # the only outcome is the record itself, already ranked: no walk
            outcomes: list[Outcome] | None = [finishes(table)]
        else:
            walk = Walk(
                stage.engine,
                stage.menu,
                lambda done: finishes(stage.engine.standings(done).table(stage.table)),
                stage.pending,
                stop=lambda s: True,
                limit=stage.limit,
            )
            outcomes = walk.outcomes(state)
        if outcomes is not None:
            return (
                exact_verdicts(outcomes, ids, names, index=0, goal=stage.goal, target=stage.target),
                Method.EXACT,
            )
    return bound(state, stage, table, pending), Method.BOUND


def _pending(state: EventState, stage: Stage) -> list[tuple[int, MatchState]]:
    """(round number, match) of every match waiting for a result, in record order."""
    return [(r.number, m) for r in state.rounds for m in r.matches if stage.pending(state, m)]


def _affordable(
    state: EventState, stage: Stage, entrants: int, pending: list[tuple[int, MatchState]]
) -> bool:
    """The walk's size, known before it starts: the menu's results per pending match."""
    if not pending:
        return True
    per = len(stage.menu(state, pending[0][1]))
    if per > 1 and len(pending) > stage.limit.bit_length():
        return False  # at least 2 ** len(pending) outcomes: over the limit
    return affordable(per ** len(pending), entrants, stage.limit)


def bound(
    state: EventState,
    stage: Stage,
    table: StandingsTable | None = None,
    pending: list[tuple[int, MatchState]] | None = None,
) -> dict[str, Verdict]:
    """``table``: the stage's standings table of ``state``, and ``pending`` its matches
    waiting for a result (in record order), when the caller has them already."""
    if table is None:
        table = stage.engine.standings(state).table(stage.table)
    if pending is None:
        pending = _pending(state, stage)
    low = {r.entrant: fraction(r.values.get(stage.points)) for r in table.rows}
    high = dict(low)
    pending_rounds = set()
    for number, match in pending:
        pending_rounds.add(number)
        for entrant in match.entrant_ids:
            if entrant is not None and entrant in high:
                high[entrant] += stage.per_round
    names = {e.id: e.name for e in state.entrants}
    reaches = [
        Reach(
            r.entrant,
            names.get(r.entrant, r.entrant),
            low[r.entrant],
            high[r.entrant] + stage.per_round * stage.rounds_left
            if stage.can_place(r.entrant, r.status)
            else high[r.entrant],
            stage.can_place(r.entrant, r.status),
        )
        for r in table.rows
    ]
    rounds = stage.rounds_left + len(pending_rounds)
    left = message(
        "contention.left.round" if rounds == 1 else "contention.left.rounds", rounds=rounds
    )
    return top_bound(reaches, stage.places, goal=stage.goal, unit=stage.unit, left=left)
