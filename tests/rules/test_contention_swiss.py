"""Contention in the Swiss qualifiers (GokoDom's top 8, the WOC's semi-finals) against brute force:
every outcome of every remaining match, played and ranked by the engines themselves."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contention import contention, swiss
from rules.contention.cuts import table_finishes
from rules.contention.types import Finish, Method, Status
from rules.contract import EntrantState, EventState, MatchState, RoundStatus
from rules.formats.gokodom import ENGINE as GOKODOM
from rules.formats.gokodom import contention as gokodom
from rules.formats.gokodom.simulate import simulate
from rules.formats.woc import ENGINE as WOC
from rules.formats.woc import contention as woc

from .test_contention_support import brute_status, check_sound, completions, play_rounds, unfinish


def _gokodom(seed: int, rounds: int) -> EventState:
    season = simulate(10, random.Random(seed), default_rate=0.0, bye_rate=0.0).state
    state = dataclasses.replace(season, rounds=season.rounds[:rounds])
    return unfinish(state, random.Random(seed), 0.4)


def _brute(state: EventState, stage: swiss.Stage) -> dict[str, list[Finish]]:
    found: dict[str, list[Finish]] = {}
    for done in completions(state, stage.engine, stage.menu, stage.pending, until=lambda s: True):
        table = stage.engine.standings(done).table(stage.table)
        eligible = {r.entrant: stage.can_place(r.entrant, r.status) for r in table.rows}
        for entrant, finish in table_finishes(
            table, stage.places, stage.firm, eligible=eligible
        ).items():
            found.setdefault(entrant, []).append(finish)
    return found


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6))
def test_gokodom_last_swiss_round_is_exact(seed: int) -> None:
    """III.A "the top eight of the Swiss": in the last Swiss round the verdicts are the brute
    force's."""
    state = _gokodom(seed, 4)
    result = gokodom.contention(state)
    assert result.method is Method.EXACT
    for entrant, finishes in _brute(state, gokodom.swiss_stage(state)).items():
        assert result.of(entrant).stage is not None
        assert result.of(entrant).stage.status is brute_status(finishes), entrant  # type: ignore[union-attr]


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6))
def test_gokodom_bound_is_sound_in_the_last_round(seed: int) -> None:
    """The match-points bound never claims clinched or eliminated wrongly."""
    state = _gokodom(seed, 4)
    verdicts = swiss.bound(state, gokodom.swiss_stage(state))
    for entrant, finishes in _brute(state, gokodom.swiss_stage(state)).items():
        check_sound(verdicts[entrant].status, finishes, entrant)


@pytest.mark.slow
def test_gokodom_bound_is_sound_with_a_round_to_pair() -> None:
    """Round 3 done, round 4 not yet paired: brute force over the engine's own pairing (one of
    the pairings the bound must hold for) and every result."""
    for seed in range(1):
        season = simulate(10, random.Random(seed), default_rate=0.0, bye_rate=0.0).state
        state = dataclasses.replace(season, rounds=season.rounds[:3])
        stage = gokodom.swiss_stage(state)
        assert stage.rounds_left == 1
        verdicts = swiss.bound(state, stage)
        found: dict[str, list[Finish]] = {}
        for done in completions(
            state,
            GOKODOM,
            stage.menu,
            stage.pending,
            until=lambda s: sum(1 for r in s.rounds if r.stage == "swiss") == 4,
        ):
            table = GOKODOM.standings(done).table("swiss")
            for entrant, finish in table_finishes(table, 8, gokodom.FIRM).items():
                found.setdefault(entrant, []).append(finish)
        for entrant, finishes in found.items():
            check_sound(verdicts[entrant].status, finishes, entrant)
        assert any(v.status is not Status.ALIVE for v in verdicts.values()) or seed == 1


def _woc(seed: int, played: int) -> EventState:
    rng = random.Random(seed)
    people = tuple(
        EntrantState(f"p{i}", f"Player {i}", rating=2000 - i, flags={"group_a": i <= 2})
        for i in range(1, 7)
    )
    config = {"system": "swiss", "rounds": 3}

    def result(match: MatchState) -> tuple:
        return rng.choice(woc.menu(EventState("woc", config, people), match)).games

    state = play_rounds(EventState("woc", config, people), WOC, played, result)
    return unfinish(state, rng, 0.6)


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6))
def test_woc_last_qualifying_round_is_exact(seed: int) -> None:
    """II.3.2: equal points across 4th and 5th go to a playoff, so only points are firm; in the
    last round the verdicts are the brute force's."""
    state = _woc(seed, 3)
    stage = woc.qualifying_stage(state, goal="stage", places=4, target=woc.TARGET)
    result = woc.contention(state)
    assert result.method is Method.EXACT
    for entrant, finishes in _brute(state, stage).items():
        assert result.of(entrant).stage.status is brute_status(finishes)  # type: ignore[union-attr]
        check_sound(swiss.bound(state, stage)[entrant].status, finishes, entrant)


def test_woc_before_the_last_round_uses_the_bound() -> None:
    state = _woc(3, 2)
    result = woc.contention(state)
    assert result.method is Method.BOUND
    assert contention(state).stage_key == "semi_finals"
    assert all(row.win.status is not Status.CLINCHED for row in result.entrants)


def test_swiss_round_one_nobody_is_settled() -> None:
    state = dataclasses.replace(_woc(1, 1), rounds=_woc(1, 1).rounds)
    assert all(r.status is not RoundStatus.DRAFT for r in state.rounds)
    result = woc.contention(state)
    assert {row.stage.status for row in result.entrants} == {Status.ALIVE}  # type: ignore[union-attr]
