"""Exhaustive enumeration of an event's remaining outcomes, played through the engine itself.

The exact method for small cases: every pending match of the published rounds takes each result
of a finite menu (the format's representative results), the engine's own ``next_round`` plans
what follows (brackets, Berger rounds, playoffs), and its own ``standings`` judge each completed
outcome. A format's ``evaluate`` turns one completed outcome into a ``Finish`` per entrant and
goal; the verdict is clinched when every outcome is IN and eliminated when every one is OUT.

The walk gives up (returns None) past ``limit`` outcomes, and the format then falls back to its
sound bound.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.contract import (
    Engine,
    EventState,
    Finished,
    MatchState,
    NeedsDecision,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawNeeded, DrawSource

from .types import Finish

# One completed outcome: entrant -> (win finish, stage finish).
Outcome = Mapping[str, tuple[Finish, Finish]]
Menu = Callable[[EventState, MatchState], Sequence[MatchState]]
Evaluate = Callable[[EventState], Outcome]
Stop = Callable[[EventState], bool]
Decide = Callable[[EventState, NeedsDecision], Sequence[EventState] | None]
Pending = Callable[[EventState, MatchState], bool]


# The exact walk ranks the whole field once per outcome: it runs only while outcomes times
# entrants stays under this (at 1,000 entrants, 5 outcomes; at 12, the walk's own limit).
# Beyond it the bound answers, so the standings task stays fast (docs/performance.md).
WORK = 5000


def affordable(outcomes: int, entrants: int, limit: int) -> bool:
    """Whether an exact walk over ``outcomes`` outcomes of a field of ``entrants`` is worth
    starting: within the walk's ``limit`` and within WORK."""
    return outcomes <= limit and outcomes * max(1, entrants) <= WORK


class TooMany(Exception):
    pass


@dataclass(frozen=True)
class Walk:
    engine: Engine
    menu: Menu
    evaluate: Evaluate
    pending: Pending
    stop: Stop = lambda state: False
    decide: Decide = lambda state, question: None
    limit: int = 2000
    seed: str = "contention"  # future draws: one sample; formats needing all draws branch

    def outcomes(self, state: EventState) -> list[Outcome] | None:
        found: list[Outcome] = []
        todo = self._todo(state)
        try:
            for outcome in self._walk(state, todo, 0):
                found.append(outcome)
                if len(found) > self.limit:
                    raise TooMany
        except TooMany:
            return None
        return found

    def _walk(
        self, state: EventState, todo: tuple[tuple[int, int], ...], depth: int
    ) -> Iterator[Outcome]:
        if depth > 200:
            raise TooMany
        if todo:
            (r_index, m_index), rest = todo[0], todo[1:]
            match = state.rounds[r_index].matches[m_index]
            for variant in self.menu(state, match):
                yield from self._walk(
                    _replace_match(state, r_index, m_index, variant), rest, depth + 1
                )
            return
        state = complete_rounds(state, lambda s, m: False)
        if self.stop(state):
            yield self.evaluate(state)
            return
        source = DrawSource(self.seed, state.draws)
        try:
            plan = self.engine.next_round(state, source)
        except DrawNeeded:
            yield self.evaluate(state)
            return
        if isinstance(plan, Finished):
            yield self.evaluate(state)
            return
        if isinstance(plan, NeedsDecision):
            branches = self.decide(state, plan)
            if branches is None:
                yield self.evaluate(state)
                return
            for branch in branches:
                yield from self._walk(branch, self._todo(branch), depth + 1)
            return
        state = append_round(state, plan, source)
        last = len(state.rounds) - 1
        todo = tuple(
            (last, m_index)
            for m_index, match in enumerate(state.rounds[last].matches)
            if self.pending(state, match)
        )
        yield from self._walk(state, todo, depth + 1)

    def _todo(self, state: EventState) -> tuple[tuple[int, int], ...]:
        return tuple(
            (r_index, m_index)
            for r_index, rnd in enumerate(state.rounds)
            for m_index, match in enumerate(rnd.matches)
            if self.pending(state, match)
        )


def _replace_match(state: EventState, r_index: int, m_index: int, match: MatchState) -> EventState:
    rounds = list(state.rounds)
    rnd = rounds[r_index]
    matches = list(rnd.matches)
    matches[m_index] = match
    rounds[r_index] = dataclasses.replace(rnd, matches=tuple(matches))
    return dataclasses.replace(state, rounds=tuple(rounds))


def complete_rounds(state: EventState, pending: Pending) -> EventState:
    """Rounds without a pending match marked completed (the engines plan only after those)."""
    rounds = tuple(
        dataclasses.replace(rnd, status=RoundStatus.COMPLETED)
        if rnd.status is not RoundStatus.COMPLETED
        and not any(pending(state, m) for m in rnd.matches)
        else rnd
        for rnd in state.rounds
    )
    return dataclasses.replace(state, rounds=rounds)


def append_round(state: EventState, plan: RoundPlan, source: DrawSource) -> EventState:
    """``state`` with ``plan`` added as a published round (no games yet) and its new draws."""
    matches = tuple(
        MatchState(
            m.code,
            plan.number,
            m.participants,
            bracket=m.bracket,
            group=m.group,
            table=m.table,
            details=dict(m.details),
        )
        for m in plan.matches
    )
    rnd = RoundState(
        plan.number,
        plan.label,
        RoundStatus.PUBLISHED,
        matches,
        plan.stage,
        plan.groups,
        dict(plan.details),
    )
    known = {d.key for d in state.draws}
    new = {d.key: d for d in (*plan.draws, *source.new) if d.key not in known}
    return dataclasses.replace(
        state, rounds=(*state.rounds, rnd), draws=(*state.draws, *new.values())
    )


def pending_by_score(engine: Engine) -> Pending:
    """A match is pending when it is not a bye and the engine cannot score it complete yet."""
    make = getattr(engine, "scorer", None)
    # One scorer per state: an engine that offers ``scorer(state)`` scores the matches of a
    # state without working out the state's settings and rounds again for each match. It
    # holds the last state, so a checker made once for a module (no scorer) keeps none.
    last: list[Any] = [None, None]

    def pending(state: EventState, match: MatchState) -> bool:
        if match.is_bye:
            return False
        if make is None:
            score = engine.score_match(state, match)
        else:
            if last[0] is not state:
                last[:] = [state, make(state)]
            score = last[1](match)
        return not (score.valid and score.complete)

    return pending
