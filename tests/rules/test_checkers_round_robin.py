"""The round-robin checker: clean simulated events, and records broken on purpose."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.checkers import audit, check
from rules.contract import (
    EntrantState,
    EventState,
    Finished,
    GameState,
    MatchState,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.round_robin import ENGINE
from rules.formats.round_robin import checker as rr
from tests.rules.test_checkers_support import edit_match, rules_of, swap_players


def simulate(players: int, seed: int, settings: dict[str, object] | None = None) -> EventState:
    rng = random.Random(seed)
    entrants = tuple(
        EntrantState(f"e{i}", f"Player {i}", rating=rng.randint(1000, 2000)) for i in range(players)
    )
    state = EventState("round_robin", dict(settings or {}), entrants)
    while True:
        source = DrawSource(str(seed), state.draws)
        plan = ENGINE.next_round(state, source)
        if isinstance(plan, Finished):
            return state
        assert not isinstance(plan, type(None))
        matches = tuple(
            MatchState(
                m.code,
                plan.number,
                m.participants,
                () if m.is_bye else (GameState(1, (rng.randint(0, 3), rng.randint(0, 3))),),
                table=m.table,
            )
            for m in plan.matches  # type: ignore[union-attr]
        )
        played = RoundState(
            plan.number,
            plan.label,
            RoundStatus.COMPLETED,
            matches,  # type: ignore[union-attr]
            details=plan.details,
        )  # type: ignore[union-attr]
        state = dataclasses.replace(
            state, rounds=(*state.rounds, played), draws=(*state.draws, *source.new)
        )


@pytest.mark.parametrize("players", [2, 5, 8])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_simulated_events_conform(players: int, seed: int) -> None:
    settings = {"cycles": 2, "draw_numbers": "lot"} if seed == 1 else None
    state = simulate(players, seed, settings)
    report = audit(state, ENGINE.standings(state))
    assert report.violations == []
    assert report.rounds == len(state.rounds) and report.rows == players


def test_a_rematch_in_one_cycle_breaks_the_berger_table() -> None:
    """'Every entrant meets every other once per cycle' and the Berger table."""
    state = simulate(4, 0)
    first = state.rounds[0].matches[0]
    state = edit_match(
        state,
        2,
        state.rounds[1].matches[0].code,
        lambda m: dataclasses.replace(m, participants=first.participants),
    )
    rules = rules_of(check(state))
    assert rr.ONCE in rules and rr.BERGER in rules


def test_swapped_seats_break_the_berger_table() -> None:
    state = simulate(4, 0)
    code = state.rounds[0].matches[0].code
    state = edit_match(
        state,
        1,
        code,
        lambda m: dataclasses.replace(
            m,
            participants=(
                dataclasses.replace(m.participants[0], entrant=m.participants[1].entrant),
                dataclasses.replace(m.participants[1], entrant=m.participants[0].entrant),
            ),
        ),
    )
    assert rr.BERGER in rules_of(check(state))


def test_a_wrong_bye_is_reported() -> None:
    """Odd fields: the Berger dummy; meeting it is a round off."""
    state = simulate(5, 0)
    rnd = state.rounds[0]
    bye = next(m for m in rnd.matches if m.is_bye)
    game = next(m for m in rnd.matches if not m.is_bye)
    state = swap_players(state, 1, bye.code, 0, game.code, 0)
    violations = [v for v in check(state) if v.rule == rr.BERGER]
    assert violations and violations[0].where.round == 1


def test_wrong_points_in_the_standings_are_reported() -> None:
    state = simulate(4, 2)
    table = ENGINE.standings(state)
    first = table.tables[0]
    row = first.rows[0]
    bad_row = dataclasses.replace(row, values={**row.values, "points": 99})
    bad = dataclasses.replace(
        table, tables=(dataclasses.replace(first, rows=(bad_row, *first.rows[1:])),)
    )
    violations = audit(state, bad).violations
    assert violations[0].rule == rr.STANDINGS and violations[0].where.entrant == row.entrant


def test_draw_numbers_out_of_seed_order_are_reported() -> None:
    state = simulate(4, 0)
    numbers = list(state.rounds[0].details["draw_numbers"])
    rnd = dataclasses.replace(state.rounds[0], details={"draw_numbers": numbers[::-1]})
    state = dataclasses.replace(state, rounds=(rnd, *state.rounds[1:]))
    assert rr.NUMBERS in rules_of(check(state))
