"""The GokoDom checker: clean simulated seasons, and records broken on purpose."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.checkers import audit, check
from rules.checkers import gokodom as gc
from rules.contract import EventState
from rules.formats.gokodom import ENGINE
from rules.formats.gokodom.simulate import simulate
from tests.rules.test_checkers_support import edit_match, rules_of, swap_players


def season(players: int, seed: int) -> EventState:
    return simulate(players, random.Random(seed)).state


@pytest.mark.parametrize(("players", "seed"), [(5, 0), (9, 1), (16, 2), (33, 3)])
def test_simulated_seasons_conform(players: int, seed: int) -> None:
    state = season(players, seed)
    report = audit(state, ENGINE.standings(state))
    assert report.violations == []
    assert report.rows == players


def test_a_bracket_slot_that_skips_a_seed_is_reported() -> None:
    """III.B seeded into the elimination rounds by rank: QF1 is seed 1 against seed 8."""
    state = season(16, 0)
    number = next(r.number for r in state.rounds if r.details.get("bracket_round") == 1)
    state = swap_players(state, number, "QF1", 1, "QF2", 1)
    violations = [v for v in check(state) if v.rule == gc.SEEDING]
    assert {v.where.match for v in violations} >= {"QF1", "QF2"}


def test_a_rematch_that_could_be_avoided_is_reported() -> None:
    """II.F.1 Has not yet been played."""
    state = season(16, 2)
    first = next(m for m in state.rounds[0].matches if not m.is_bye)
    code = next(m.code for m in state.rounds[1].matches if not m.is_bye)
    state = edit_match(
        state, 2, code, lambda m: dataclasses.replace(m, participants=first.participants)
    )
    assert gc.REMATCH in rules_of(check(state)) or gc.ONE_SEAT in rules_of(check(state))


def test_games_out_of_the_seat_pattern_are_reported() -> None:
    """IV.A.1 A-B-B-A-A-B."""
    state = season(9, 1)
    match = next(m for m in state.rounds[0].matches if len(m.games) >= 2)
    state = edit_match(
        state,
        1,
        match.code,
        lambda m: dataclasses.replace(
            m, games=tuple(dataclasses.replace(g, first=m.games[0].first) for g in m.games)
        ),
    )
    assert gc.SEATS in rules_of(check(state))


def test_a_match_played_on_after_it_was_decided_is_reported() -> None:
    """IV.A.4 A player wins the match if after 3 or 4 games, s/he has 3 game points."""
    state = season(16, 0)
    number, match = next(
        (r.number, m) for r in state.rounds for m in r.matches if len(m.games) == 3
    )
    extra = dataclasses.replace(match.games[-1], number=4, first=1 - (match.games[0].first or 0))
    state = edit_match(
        state, number, match.code, lambda m: dataclasses.replace(m, games=(*m.games, extra))
    )
    assert gc.RESULT in rules_of(check(state))


def test_a_bye_by_request_in_the_last_swiss_round_is_reported() -> None:
    """I.E This privilege may not be used during the final Swiss round."""
    assert gc.decided((3, 0), 3) == 0 and gc.decided((3, 3), 6) is None
    state = season(5, 0)
    last = max(r.number for r in state.rounds if r.stage == "swiss")
    bye = next((m for m in state.rounds[last - 1].matches if m.is_bye), None)
    if bye is None:
        pytest.skip("no bye in the last round")
    state = edit_match(
        state,
        last,
        bye.code,
        lambda m: dataclasses.replace(m, details={**m.details, "result": "BR"}),
    )
    assert gc.BR in rules_of(check(state))
