"""Brute force for the contention tests: every outcome of every remaining game, played through the
engine. Written apart from rules/contention/explore.py on purpose (simple, no budget, no stop), so
that the tests compare two independent walks."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Sequence

from rules.contention.explore import append_round
from rules.contention.types import Finish, Status, aggregate
from rules.contract import (
    Engine,
    EntrantState,
    EventState,
    GameState,
    MatchState,
    NeedsDecision,
    RoundPlan,
    RoundStatus,
)
from rules.draws import DrawSource

Menu = Callable[[EventState, MatchState], Sequence[MatchState]]
Decide = Callable[[EventState, NeedsDecision], Sequence[EventState]]


def completions(
    state: EventState,
    engine: Engine,
    menu: Menu,
    pending: Callable[[EventState, MatchState], bool],
    *,
    decide: Decide | None = None,
    until: Callable[[EventState], bool] = lambda s: False,
) -> Iterator[EventState]:
    """Every completed event reachable from ``state`` (or stopped where ``until`` holds)."""
    for r_index, rnd in enumerate(state.rounds):
        for m_index, match in enumerate(rnd.matches):
            if pending(state, match):
                for variant in menu(state, match):
                    yield from completions(
                        _put(state, r_index, m_index, variant),
                        engine,
                        menu,
                        pending,
                        decide=decide,
                        until=until,
                    )
                return
    rounds = tuple(dataclasses.replace(r, status=RoundStatus.COMPLETED) for r in state.rounds)
    state = dataclasses.replace(state, rounds=rounds)
    if until(state):
        yield state
        return
    source = DrawSource("brute", state.draws)
    plan = engine.next_round(state, source)
    if isinstance(plan, NeedsDecision):
        if decide is None:
            yield state
            return
        for branch in decide(state, plan):
            yield from completions(branch, engine, menu, pending, decide=decide, until=until)
        return
    if not isinstance(plan, RoundPlan):
        yield state
        return
    yield from completions(
        append_round(state, plan, source), engine, menu, pending, decide=decide, until=until
    )


def _put(state: EventState, r_index: int, m_index: int, match: MatchState) -> EventState:
    rounds = list(state.rounds)
    matches = list(rounds[r_index].matches)
    matches[m_index] = match
    rounds[r_index] = dataclasses.replace(rounds[r_index], matches=tuple(matches))
    return dataclasses.replace(state, rounds=tuple(rounds))


def brute_status(finishes: Sequence[Finish]) -> Status:
    return aggregate(list(finishes))


def check_sound(status: Status, finishes: Sequence[Finish], what: str) -> None:
    """Clinched only if IN everywhere, eliminated only if OUT everywhere."""
    if status is Status.CLINCHED:
        assert all(f is Finish.IN for f in finishes), f"{what}: clinched but {finishes}"
    if status is Status.ELIMINATED:
        assert all(f is Finish.OUT for f in finishes), f"{what}: eliminated but {finishes}"


def play_rounds(
    state: EventState,
    engine: Engine,
    rounds: int,
    result: Callable[[MatchState], tuple[GameState, ...]],
    *,
    seed: str = "events",
) -> EventState:
    """Plan and complete ``rounds`` rounds with ``result`` for each non-bye match."""
    for _ in range(rounds):
        source = DrawSource(seed, state.draws)
        plan = engine.next_round(state, source)
        assert isinstance(plan, RoundPlan), plan
        state = append_round(state, plan, source)
        last = state.rounds[-1]
        matches = tuple(
            m if m.is_bye else dataclasses.replace(m, games=result(m)) for m in last.matches
        )
        state = dataclasses.replace(
            state,
            rounds=(
                *state.rounds[:-1],
                dataclasses.replace(last, matches=matches, status=RoundStatus.COMPLETED),
            ),
        )
    return state


def people(count: int, **flags: object) -> tuple[EntrantState, ...]:
    return tuple(
        EntrantState(str(i), f"P{i}", rating=2000 - i, flags=dict(flags))
        for i in range(1, count + 1)
    )


def unfinish(state: EventState, rng: random.Random, share: float = 0.5) -> EventState:
    """The last round published with about ``share`` of its non-bye results removed."""
    last = state.rounds[-1]
    matches = tuple(
        m if m.is_bye or rng.random() >= share else dataclasses.replace(m, games=())
        for m in last.matches
    )
    return dataclasses.replace(
        state,
        rounds=(
            *state.rounds[:-1],
            dataclasses.replace(last, matches=matches, status=RoundStatus.PUBLISHED),
        ),
    )


def test_brute_force_counts_every_outcome_of_a_round_robin() -> None:
    from rules.contention.explore import pending_by_score
    from rules.formats.round_robin import ENGINE
    from rules.formats.round_robin.contention import menu

    state = EventState("round_robin", {}, people(4))
    state = play_rounds(state, ENGINE, 1, lambda m: (GameState(1, (1, 0)),))
    every = list(completions(state, ENGINE, menu, pending_by_score(ENGINE)))
    assert len(every) == 3**4  # four games left, three results each
