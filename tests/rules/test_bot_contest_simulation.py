"""The simulation helper: whole contests with random legal results, for simulate_event."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contract import RoundState, RoundStatus
from rules.formats.bot_contest import ENGINE
from rules.formats.bot_contest.simulate import simulate


def _finalists(rounds: tuple[RoundState, ...]) -> list[str]:
    return [str(e) for e in rounds[-1].details["finalists"]]


@pytest.mark.slow
def test_one_hundred_entrants_run_to_a_winner() -> None:
    """'will probably be on the order of 100': a field of 100 plus 3 references finishes."""
    state, finished = simulate(100, random.Random(2024))
    winner = finished.reason.params["winner"]
    standings = ENGINE.standings(state)
    assert standings.final and standings.tables[0].rows[0].entrant == winner
    assert len(standings.tables[0].rows) == 100
    finalists = _finalists(state.rounds)
    assert 4 <= len(finalists) <= 6
    assert not any(e.startswith("REF") for e in finalists)
    assert all(r.status is RoundStatus.COMPLETED for r in state.rounds)
    assert len(state.rounds[0].matches) == 300  # 100 entries x 3 references, two games each


def test_small_fields_finish() -> None:
    """Small fields (5, 8, 9 entries plus 3 references) also reach a winner."""
    for entrants in (5, 8, 9):
        for seed in range(5):
            state, finished = simulate(entrants, random.Random(seed))
            assert finished.reason.params["winner"].startswith("E")
            assert ENGINE.standings(state).final


def test_the_same_generator_plays_the_same_contest() -> None:
    first = simulate(30, random.Random(7))
    second = simulate(30, random.Random(7))
    assert first == second


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(entrants=st.integers(min_value=2, max_value=24), seed=st.integers(0, 10**6))
def test_any_field_finishes_with_a_final_of_the_right_size(entrants: int, seed: int) -> None:
    """Stage two stops with at most 2K winners and at most 3K finalists; 'I will not award
    more than a single bye' holds while another entry of the bracket has had none."""
    state, finished = simulate(entrants, random.Random(seed))
    finalists = _finalists(state.rounds)
    assert len(finalists) <= 6
    assert len(finalists) >= min(entrants, 4)
    byes: dict[str, int] = {}
    for rnd in state.rounds:
        if rnd.stage != "brackets":
            continue
        for match in rnd.matches:
            if match.is_bye:
                entrant = match.participants[0].entrant
                assert entrant is not None
                members = rnd.details["brackets"][match.bracket]
                if byes.get(entrant, 0) >= 1:
                    assert all(byes.get(e, 0) >= 1 for e in members)
                byes[entrant] = byes.get(entrant, 0) + 1
    assert finished.reason.params["winner"] in finalists
