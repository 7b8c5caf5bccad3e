"""Contention in a plain round robin: exact by enumeration, a sound points bound otherwise, both
checked against brute force over every outcome of every remaining game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contention.explore import pending_by_score
from rules.contention.types import Finish, Method, Status
from rules.contract import EventState, GameState, MatchState
from rules.formats.round_robin import ENGINE
from rules.formats.round_robin import contention as round_robin

from .test_contention_support import (
    brute_status,
    check_sound,
    completions,
    people,
    play_rounds,
    unfinish,
)

RESULT_ONLY = {"tiebreaks": ["head_to_head", "sonneborn_berger", "wins"]}


def _event(count: int, played: int, seed: int, config: dict[str, object]) -> EventState:
    rng = random.Random(seed)

    def result(match: MatchState) -> tuple[GameState, ...]:
        return (GameState(1, (rng.randint(0, 1), rng.randint(0, 1))),)

    state = play_rounds(EventState("round_robin", config, people(count)), ENGINE, played, result)
    return unfinish(state, rng)


def _winner_finishes(state: EventState) -> dict[str, list[Finish]]:
    """Brute force: sole first is IN, a shared first OPEN, anything else OUT."""
    found: dict[str, list[Finish]] = {e.id: [] for e in state.entrants}
    for done in completions(state, ENGINE, round_robin.menu, pending_by_score(ENGINE)):
        rows = ENGINE.standings(done).tables[0].rows
        firsts = [r.entrant for r in rows if r.rank == 1]
        for entrant, finishes in found.items():
            if entrant not in firsts:
                finishes.append(Finish.OUT)
            else:
                finishes.append(Finish.IN if len(firsts) == 1 else Finish.OPEN)
    return found


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(4, 2), (5, 4), (6, 5)]))
def test_exact_method_matches_brute_force_with_result_tiebreaks(
    seed: int, shape: tuple[int, int]
) -> None:
    """With tiebreaks that depend only on results, the enumeration is exact: its verdict is the
    brute force's, entrant by entrant."""
    count, played = shape
    state = _event(count, played, seed, RESULT_ONLY)
    result = round_robin.contention(state)
    assert result.method is Method.EXACT
    for entrant, finishes in _winner_finishes(state).items():
        assert result.of(entrant).win.status is brute_status(finishes), entrant


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(4, 2), (5, 4), (6, 5)]))
def test_points_bound_is_sound_against_brute_force(seed: int, shape: tuple[int, int]) -> None:
    """The bound never claims clinched or eliminated wrongly, whatever the results."""
    count, played = shape
    state = _event(count, played, seed, {})
    verdicts = round_robin.bound(state)
    for entrant, finishes in _winner_finishes(state).items():
        check_sound(verdicts[entrant].status, finishes, entrant)


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6))
def test_exact_method_is_sound_with_score_tiebreaks(seed: int) -> None:
    """Score difference depends on margins the enumeration does not vary: a first place it decides
    is open, so the verdicts stay sound for any margins (brute force here with margins 0-2)."""
    state = _event(4, 3, seed, {"tiebreaks": ["score_difference"]})
    state = unfinish(state, random.Random(seed), 0.3)
    result = round_robin.contention(state)

    def menu(state: EventState, match: MatchState) -> list[MatchState]:
        return [
            MatchState(match.code, match.round_number, match.participants, (GameState(1, (a, b)),))
            for a in range(3)
            for b in range(3)
        ]

    found: dict[str, list[Finish]] = {e.id: [] for e in state.entrants}
    for done in completions(state, ENGINE, menu, pending_by_score(ENGINE)):
        rows = ENGINE.standings(done).tables[0].rows
        firsts = [r.entrant for r in rows if r.rank == 1]
        for entrant, finishes in found.items():
            alone = entrant in firsts and len(firsts) == 1
            finishes.append(
                Finish.IN if alone else Finish.OUT if entrant not in firsts else Finish.OPEN
            )
    for entrant, finishes in found.items():
        check_sound(result.of(entrant).win.status, finishes, entrant)


def _first_wins_others_draw(match: MatchState) -> tuple[GameState, ...]:
    first, second = match.entrant_ids
    if "1" in (first, second):
        return (GameState(1, (1, 0) if first == "1" else (0, 1)),)
    return (GameState(1, (0, 0)),)


def test_clinched_reason_names_the_points_no_one_can_reach() -> None:
    """Issue 14: "clinched: no one below can reach 9.5 points in the 2 rounds left"."""
    state = EventState("round_robin", {}, people(6))
    state = play_rounds(state, ENGINE, 4, _first_wins_others_draw)
    verdict = round_robin.bound(state)["1"]
    assert verdict.status is Status.CLINCHED
    assert verdict.reason.text == "clinched: no one else can reach 4 points in the 1 round left"
    assert round_robin.contention(state).of("1").win.status is Status.CLINCHED
    assert round_robin.contention(state).of("2").win.status is Status.ELIMINATED


def test_too_many_games_left_falls_back_to_the_bound() -> None:
    state = EventState("round_robin", {}, people(6))
    result = round_robin.contention(state, limit=50)
    assert result.method is Method.BOUND
    assert all(row.win.status is Status.ALIVE for row in result.entrants)
    assert (
        result.of("1").win.reason.text
        == "alive: can finish with 0 to 5 points in the 5 rounds left"
    )
