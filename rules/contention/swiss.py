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

from collections.abc import Callable, Collection, Mapping
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

from .bounds import Reach, TopBound, fraction
from .cuts import table_finishes
from .exact import exact_verdicts
from .explore import Menu, Outcome, Walk, affordable
from .types import Contention, EntrantContention, Method, Status, Verdict
from .waiting import Waiting


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


@dataclass(frozen=True)
class Work:
    """What the bound of a stage rested on, for the next contention after a result."""

    figures: tuple[Any, ...]  # the stage's figures (the same stage, or built anew)
    rows: dict[str, tuple[Any, str]]  # entrant -> (points as the table gave them, status)
    waiting: Waiting
    bound: TopBound


def verdicts(
    state: EventState, stage: Stage, standings: Standings | None = None
) -> tuple[dict[str, Verdict], Method]:
    """``standings``: the engine's standings of ``state`` when the caller has them."""
    found, method, _ = outlook(state, stage, standings)
    return found, method


def outlook(
    state: EventState,
    stage: Stage,
    standings: Standings | None = None,
    *,
    work: object = None,
    changed: frozenset[tuple[int, str]] | None = None,
) -> tuple[dict[str, Verdict], Method, Work | None]:
    """The verdicts, their method and the bound's work (None for the exact method).

    With ``work`` (the bound's work of an earlier state) and ``changed`` (the matches whose
    results differ since, nothing else), the bound is updated from it: only the entrants
    of those matches, and those whose row moved, get new reaches (TopBound.after says which
    verdicts follow). Whatever a result changes (a first result, or a correction either
    way), the carried verdicts rest on the same numbers as a fresh computation's."""
    table = (standings or stage.engine.standings(state)).table(stage.table)
    ids = [row.entrant for row in table.rows]
    if isinstance(work, Work) and changed is not None:
        after = _after(state, stage, table, ids, work, changed)
        if after is not None:
            return {e: after.bound.verdicts[e] for e in ids}, Method.BOUND, after
    names = {e.id: e.name for e in state.entrants}
    # which matches wait for a result, found once (each is scored) for the walk and the bound
    waiting = Waiting.of(state, stage.pending)

    def finishes(ranked: StandingsTable) -> Outcome:
        result = table_finishes(
            ranked,
            stage.places,
            stage.firm,
            eligible={r.entrant: stage.can_place(r.entrant, r.status) for r in ranked.rows},
        )
        return {e: (f, f) for e, f in result.items()}

    if stage.rounds_left == 0 and _affordable(state, stage, len(ids), waiting):
        if not waiting.matches and all(r.status is RoundStatus.COMPLETED for r in state.rounds):
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
                None,
            )
    built = _bound(state, stage, table, waiting, names)
    return {e: built.bound.verdicts[e] for e in ids}, Method.BOUND, built


def _figures(stage: Stage) -> tuple[Any, ...]:
    return (
        stage.table,
        stage.points,
        stage.places,
        stage.per_round,
        stage.rounds_left,
        stage.goal,
        stage.unit,
        stage.target,
        stage.limit,
        stage.firm,
    )


def _affordable(state: EventState, stage: Stage, entrants: int, waiting: Waiting) -> bool:
    """The walk's size, known before it starts: the menu's results per pending match."""
    first = waiting.first(state)
    if first is None:
        return True
    per = len(stage.menu(state, first))
    count = len(waiting.matches)
    if per > 1 and count > stage.limit.bit_length():
        return False  # at least 2 ** count outcomes: over the limit
    return affordable(per**count, entrants, stage.limit)


def bound(
    state: EventState,
    stage: Stage,
    table: StandingsTable | None = None,
) -> dict[str, Verdict]:
    """``table``: the stage's standings table of ``state`` when the caller has it."""
    if table is None:
        table = stage.engine.standings(state).table(stage.table)
    names = {e.id: e.name for e in state.entrants}
    return dict(_bound(state, stage, table, Waiting.of(state, stage.pending), names).bound.verdicts)


def _bound(
    state: EventState,
    stage: Stage,
    table: StandingsTable,
    waiting: Waiting,
    names: Mapping[str, str],
) -> Work:
    rows = {r.entrant: (r.values.get(stage.points), r.status) for r in table.rows}
    reaches = [
        _reach(stage, entrant, names.get(entrant, entrant), row, waiting.counts.get(entrant, 0))
        for entrant, row in rows.items()
    ]
    left = _left(stage, waiting)
    bound = TopBound.build(reaches, stage.places, goal=stage.goal, unit=stage.unit, left=left)
    return Work(_figures(stage), rows, waiting, bound)


def _reach(stage: Stage, entrant: str, name: str, row: tuple[Any, str], waiting: int) -> Reach:
    """Each match waiting for a result and each round left adds 0 to ``per_round``."""
    low = fraction(row[0])
    can_place = stage.can_place(entrant, row[1])
    high = low + stage.per_round * (waiting + (stage.rounds_left if can_place else 0))
    return Reach(entrant, name, low, high, can_place)


def _left(stage: Stage, waiting: Waiting) -> dict[str, Any]:
    count = stage.rounds_left + waiting.open_rounds
    return message(
        "contention.left.round" if count == 1 else "contention.left.rounds", rounds=count
    )


def _after(
    state: EventState,
    stage: Stage,
    table: StandingsTable,
    ids: list[str],
    work: Work,
    changed: frozenset[tuple[int, str]],
) -> Work | None:
    """The bound's work of ``state`` from ``work``, or None when the fresh computation must
    answer (another stage, an entrant in or out of the table, the exact method's turn)."""
    if work.figures != _figures(stage) or len(ids) != len(work.rows):
        return None
    after = work.waiting.after(state, stage.pending, changed)
    if after is None:
        return None
    waiting, touched = after
    if stage.rounds_left == 0 and _affordable(state, stage, len(ids), waiting):
        # Few enough outcomes to walk: the exact method answers, afresh. Its verdicts rest
        # on every outcome of the games left and on the tiebreaks splitting them, and each
        # says how many outcomes there are: a result changes them all (the walk is small).
        return None
    rows = {r.entrant: (r.values.get(stage.points), r.status) for r in table.rows}
    if rows.keys() != work.rows.keys():
        return None
    # points move with results: the changed matches' players, and whoever else the
    # engine's table now shows differently (a correction reaching back, a default)
    touched.update(e for e, row in rows.items() if work.rows[e] != row)
    reaches = work.bound.reaches
    changes = {
        e: _reach(stage, e, reaches[e].name, rows[e], waiting.counts.get(e, 0))
        for e in touched
        if e in rows
    }
    bound = work.bound.after(changes, _left(stage, waiting))
    return Work(work.figures, rows, waiting, bound)


def entrant_rows(
    found: Mapping[str, Verdict],
    previous: Contention | None,
    win: Callable[[Verdict], Verdict] | None,
) -> tuple[EntrantContention, ...]:
    """The rows of a stage's verdicts (in their order), ``win`` reading the goal of winning
    from the stage's verdict (None: the verdicts are the win's, there is no next stage).

    A row whose verdict is the very one of ``previous`` (carried over by the bound) is
    carried over too; the win verdicts are shared by every row that says the same."""
    before = previous.by_entrant if previous is not None else {}
    wins: dict[tuple[Status, Method], Verdict] = {}
    rows = []
    for entrant, verdict in found.items():
        row = before.get(entrant)
        if row is not None and (row.stage if win is not None else row.win) is verdict:
            rows.append(row)
        elif win is None:
            rows.append(EntrantContention(entrant, verdict))
        else:
            said = (verdict.status, verdict.method)
            if said not in wins:
                wins[said] = win(verdict)
            rows.append(EntrantContention(entrant, wins[said], verdict))
    return tuple(rows)
