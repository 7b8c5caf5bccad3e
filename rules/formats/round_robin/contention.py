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
from rules.contention.bounds import Reach, TopBound, fraction
from rules.contention.cuts import table_finishes
from rules.contention.exact import exact_verdicts
from rules.contention.explore import Outcome, Walk, affordable, pending_by_score
from rules.contention.types import (
    Contention,
    EntrantContention,
    Finish,
    Method,
    Reuse,
    Verdict,
)
from rules.contention.waiting import Waiting
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
    state: EventState,
    standings: Standings | None = None,
    *,
    limit: int = 500,
    reuse: Reuse | None = None,
) -> Contention:
    """``standings``: the engine's standings of ``state`` (the bound reads the points from
    them; the exact walk ranks every outcome anew). ``reuse``: the bound carries over what
    a result cannot move (TopBound.after); the walk, small by its limit, runs anew."""
    ids = [e.id for e in state.entrants]
    work = reuse.previous.work if reuse is not None else None
    if isinstance(work, Work) and reuse is not None and work.limit == limit:
        after = _after(state, standings, work, reuse.changed)
        if after is not None:
            rows = _rows(ids, after.bound.verdicts, reuse.previous)
            return Contention(state.format, "", "", rows, Method.BOUND, work=after)
    names = {e.id: e.name for e in state.entrants}
    walk = Walk(AS_ENGINE, menu, evaluate, pending_by_score(AS_ENGINE), limit=limit)
    future = _future(state)  # the Berger rounds not yet planned, worked out once
    waiting = Waiting.of(state, pending_by_score(AS_ENGINE))  # each match scored once
    # 3 results a game: skip the walk when the count alone is over the limit.
    left = _games_left(state, future, waiting)
    small = left <= limit.bit_length() and affordable(3**left, len(ids), limit)
    outcomes = walk.outcomes(state) if small else None
    if outcomes is not None:
        verdicts = exact_verdicts(outcomes, ids, names, index=0, goal="win", target=FIRST)
        rows = tuple(EntrantContention(e, verdicts[e]) for e in ids)
        return Contention(state.format, "", "", rows, Method.EXACT)
    built = _bound(state, future, waiting, standings, limit)
    rows = _rows(ids, built.bound.verdicts, None)
    return Contention(state.format, "", "", rows, Method.BOUND, work=built)


def _rows(
    ids: list[str], verdicts: Mapping[str, Verdict], previous: Contention | None
) -> tuple[EntrantContention, ...]:
    """A row whose verdict the bound carried over is the previous row itself."""
    before = previous.by_entrant if previous is not None else {}
    rows = []
    for entrant in ids:
        row = before.get(entrant)
        verdict = verdicts[entrant]
        rows.append(
            row if row is not None and row.win is verdict else EntrantContention(entrant, verdict)
        )
    return tuple(rows)


@dataclass(frozen=True)
class Work:
    """What the bound rested on, for the next contention after a result."""

    limit: int
    points: dict[str, Any]  # entrant -> points as the standings gave them
    waiting: Waiting
    future: Mapping[str, Slots]
    later_rounds: int  # Berger rounds not yet planned
    later_games: int  # games in them
    bound: TopBound


def bound(state: EventState, future: Mapping[str, Slots] | None = None) -> dict[str, Verdict]:
    future = future if future is not None else _future(state)
    waiting = Waiting.of(state, pending_by_score(AS_ENGINE))
    return _bound(state, future, waiting, None, 0).bound.verdicts


def _bound(
    state: EventState,
    future: Mapping[str, Slots],
    waiting: Waiting,
    standings: Standings | None,
    limit: int,
) -> Work:
    table = (standings or ENGINE.standings(state)).tables[0]
    points = {r.entrant: r.values["points"] for r in table.rows}
    names = {e.id: e.name for e in state.entrants}
    figures = _Figures.of(state)
    later_rounds = _future_rounds(state)
    reaches = [
        figures.reach(e, names[e], value, waiting.counts.get(e, 0), future.get(e))
        for e, value in points.items()
    ]
    bound = TopBound.build(
        reaches,
        1,
        goal="win",
        unit=message("contention.unit.points"),
        left=_left(waiting.open_rounds + later_rounds),
    )
    later = sum(slots.games for slots in future.values()) // 2
    return Work(limit, points, waiting, future, later_rounds, later, bound)


def _after(
    state: EventState,
    standings: Standings | None,
    work: Work,
    changed: frozenset[tuple[int, str]],
) -> Work | None:
    """The bound's work of ``state`` from ``work``, or None when the fresh computation must
    answer (the walk's turn, an entrant in or out of the table)."""
    after = work.waiting.after(state, pending_by_score(AS_ENGINE), changed)
    if after is None:
        return None
    waiting, touched = after
    figures = _Figures.of(state)
    left = (len(waiting.matches) + work.later_games) * figures.games
    if left <= work.limit.bit_length() and affordable(3**left, len(state.entrants), work.limit):
        # few enough outcomes to walk: the exact method answers afresh (its verdicts count
        # the outcomes, which every result changes; see swiss._after)
        return None
    table = (standings or ENGINE.standings(state)).tables[0]
    points = {r.entrant: r.values["points"] for r in table.rows}
    if points.keys() != work.points.keys():
        return None
    # an entrant's points move with its own results only; compared all the same
    touched.update(e for e, value in points.items() if work.points[e] != value)
    reaches = work.bound.reaches
    changes = {
        e: figures.reach(
            e, reaches[e].name, points[e], waiting.counts.get(e, 0), work.future.get(e)
        )
        for e in touched
        if e in points
    }
    bound = work.bound.after(changes, _left(waiting.open_rounds + work.later_rounds))
    return Work(
        work.limit, points, waiting, work.future, work.later_rounds, work.later_games, bound
    )


@dataclass(frozen=True)
class _Figures:
    games: int
    win: Fraction
    loss: Fraction
    bye: Fraction

    @classmethod
    def of(cls, state: EventState) -> _Figures:
        settings = ENGINE.resolved(state)
        return cls(
            int(settings["games_per_match"]),
            fraction(settings["win_points"]),
            fraction(settings["loss_points"]),
            fraction(settings["bye_points"]),
        )

    def reach(
        self, entrant: str, name: str, points: Any, waiting: int, slots: Slots | None
    ) -> Reach:
        """Every game left lost, or won: those waiting for a result and the Berger rounds
        not yet planned (counted, then multiplied once: a 1,000-entrant field has a million
        slots)."""
        games, byes = waiting, 0
        if slots is not None:
            games, byes = games + slots.games, slots.byes
        low = fraction(points) + self.bye * byes + self.loss * self.games * games
        high = fraction(points) + self.bye * byes + self.win * self.games * games
        return Reach(entrant, name, low, high)


def _left(rounds: int) -> dict[str, Any]:
    return message(
        "contention.left.round" if rounds == 1 else "contention.left.rounds", rounds=rounds
    )


def _games_left(state: EventState, future: Mapping[str, Slots], waiting: Waiting) -> int:
    games = int(ENGINE.resolved(state)["games_per_match"])
    later = sum(slots.games for slots in future.values()) // 2
    return (len(waiting.matches) + later) * games


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
