"""Contention after a result, reusing the previous outlook (issue 33, item 2): whatever results
come in or are corrected, ``contention(state, standings, reuse=...)`` equals the fresh
``contention(state, standings)``, step after step, in every format contention supports.

The events are the formats' own simulations, cut in the middle of a round; each step enters,
corrects or clears the results of one to three matches of the last two rounds (the simulated
result, or one of the format's representative results), and hands the previous state and
outlook over as ``Reuse``.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import registry
from rules.contention import Contention, Reuse, contention
from rules.contention.types import Method
from rules.contract import EventState, MatchState, RoundStatus, Standings
from rules.formats.freestyle import contention as freestyle
from rules.formats.gokodom import contention as gokodom
from rules.formats.round_robin import contention as round_robin
from rules.formats.woc import contention as woc

Menu = Callable[[EventState, MatchState], Sequence[MatchState]]

# format -> (field sizes, the format's representative results)
FORMATS: dict[str, tuple[Sequence[int], Menu | None]] = {
    "round_robin": ((6, 9, 12, 16), round_robin.menu),
    "woc": ((12, 20, 31, 40), woc.menu),
    "gokodom": ((16, 24, 33), gokodom.menu),
    "freestyle": ((28,), freestyle._menu),
    "bot_contest": ((12, 20), None),
    "wpf_playoffs": ((8,), None),
}


def _event(fmt: str, size: int, seed: int, cut: float) -> tuple[EventState, EventState]:
    """The simulated event, and the same cut during a round: its later rounds gone, that
    round published with about half of its results not yet in."""
    simulate = importlib.import_module(f"rules.formats.{fmt}.simulate")
    full: EventState = simulate.play_event(size, random.Random(seed))
    rounds = max(1, round(len(full.rounds) * cut))
    rng = random.Random(seed)
    last = full.rounds[rounds - 1]
    matches = tuple(
        m if m.is_bye or rng.random() < 0.5 else dataclasses.replace(m, games=())
        for m in last.matches
    )
    last = dataclasses.replace(last, matches=matches, status=RoundStatus.PUBLISHED)
    return full, dataclasses.replace(full, rounds=(*full.rounds[: rounds - 1], last))


def _variants(fmt: str, full: EventState, state: EventState, match: MatchState) -> list[MatchState]:
    """What a match's result can become: the simulated one, a representative one, none."""
    found = [dataclasses.replace(match, games=())]
    for rnd in full.rounds:
        if rnd.number == match.round_number:
            found += [m for m in rnd.matches if m.code == match.code]
    menu = FORMATS[fmt][1]
    if menu is not None:
        found += menu(state, dataclasses.replace(match, games=()))
    return [m for m in found if m != match]


def _with(state: EventState, new: dict[tuple[int, str], MatchState]) -> EventState:
    rounds = tuple(
        dataclasses.replace(
            rnd, matches=tuple(new.get((rnd.number, m.code), m) for m in rnd.matches)
        )
        if any(number == rnd.number for number, _ in new)
        else rnd
        for rnd in state.rounds
    )
    return dataclasses.replace(state, rounds=rounds)


def _outlook(
    state: EventState, reuse: Reuse | None, given: bool
) -> tuple[Contention, Standings | None] | type[Exception]:
    standings = registry.get(state.format).standings(state) if given else None
    try:
        return contention(state, standings, reuse=reuse), standings
    except Exception as error:  # the same error with and without reuse is the same answer
        return type(error)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(FORMATS)),
    st.integers(0, 10**6),
    st.floats(0.1, 1.0),
    st.booleans(),
    st.data(),
)
def test_reuse_equals_a_fresh_computation_step_after_step(
    fmt: str, seed: int, cut: float, given_standings: bool, data: st.DataObject
) -> None:
    sizes = FORMATS[fmt][0]
    full, state = _event(fmt, data.draw(st.sampled_from(sizes), label="size"), seed, cut)
    previous = _outlook(state, None, given_standings)
    if not isinstance(previous, tuple):
        return  # a cut the engine refuses: nothing to reuse
    for _ in range(data.draw(st.integers(1, 6), label="steps")):
        playable = [
            m
            for rnd in state.rounds[-2:]
            for m in rnd.matches
            if not m.is_bye and _variants(fmt, full, state, m)
        ]
        if not playable:
            return
        picked = data.draw(
            st.lists(st.sampled_from(playable), min_size=1, max_size=3), label="matches"
        )
        new = {
            (m.round_number, m.code): data.draw(
                st.sampled_from(_variants(fmt, full, state, m)), label="result"
            )
            for m in picked
        }
        after = _with(state, new)
        fresh = _outlook(after, None, given_standings)
        reused = _outlook(after, Reuse(state, previous[0], frozenset(new)), given_standings)
        assert reused == fresh if isinstance(fresh, type) else reused[0] == fresh[0]
        if not isinstance(reused, tuple):
            return
        state, previous = after, reused


def _rows_carried(before: Contention, after: Contention) -> int:
    kept = before.by_entrant
    return sum(1 for row in after.entrants if kept.get(row.entrant) is row)


@pytest.mark.parametrize(
    ("fmt", "size", "cut"), [("round_robin", 16, 0.3), ("woc", 40, 0.5), ("gokodom", 33, 0.5)]
)
def test_results_recompute_only_the_verdicts_they_can_move(fmt: str, size: int, cut: float) -> None:
    """The round's results come in one by one, then two earlier ones are corrected: each
    answer is the fresh one, and the bound's verdicts of the entrants a result cannot reach
    are the previous rows themselves."""
    full, state = _event(fmt, size, 7, cut)
    engine = registry.get(fmt)
    previous = contention(state, engine.standings(state))
    assert previous.method is Method.BOUND
    number = state.rounds[-1].number
    played = {m.code: m for m in full.rounds[number - 1].matches}
    steps = [
        {(number, m.code): played[m.code]}
        for m in state.rounds[-1].matches
        if not m.is_bye and not m.games
    ]
    earlier = [m for m in state.rounds[-2].matches if not m.is_bye][:2]
    menu = FORMATS[fmt][1]
    assert menu is not None
    for match in earlier:  # a correction reaching back a round
        other = [v for v in menu(state, dataclasses.replace(match, games=())) if v != match]
        steps.append({(match.round_number, match.code): other[0]})
    carried = 0
    for step in steps:
        after = _with(state, step)
        standings = engine.standings(after)
        reused = contention(after, standings, reuse=Reuse(state, previous, frozenset(step)))
        assert reused == contention(after, standings)
        if reused.method is Method.BOUND:
            carried = max(carried, _rows_carried(previous, reused))
        state, previous = after, reused
    assert carried >= size // 2


def test_reuse_of_another_state_shape_computes_it_all() -> None:
    """A round added since is no change of results: the answer is computed anew."""
    full, state = _event("woc", 20, 3, 0.4)
    before = contention(state)
    later = dataclasses.replace(full, rounds=full.rounds[: len(state.rounds) + 1])
    reused = contention(later, reuse=Reuse(state, before, frozenset()))
    assert reused == contention(later)
    assert _rows_carried(before, reused) == 0
