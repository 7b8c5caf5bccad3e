"""The WPF playoffs checker: clean simulated playoffs, and records broken on purpose."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.checkers import audit, check
from rules.contract import EntrantState, EventState
from rules.formats.wpf_playoffs import ENGINE
from rules.formats.wpf_playoffs import checker as wc
from rules.formats.wpf_playoffs.simulate import entrants, simulate
from tests.rules.test_checkers_support import edit_match, rules_of, swap_players


def playoff(count: int, seed: int) -> EventState:
    rng = random.Random(seed)
    return simulate(rng, entrants(count, rng))


@pytest.mark.parametrize(("count", "seed"), [(12, 0), (16, 1), (20, 2), (40, 3)])
def test_simulated_playoffs_conform(count: int, seed: int) -> None:
    state = playoff(count, seed)
    report = audit(state, ENGINE.standings(state))
    assert report.violations == []
    assert report.pairings == 54 and report.rows == 16


def test_the_transcribed_table_has_45_online_and_9_live_matches() -> None:
    """'45 matches total' (online) and '9 matches total' (live)."""
    online = sum(len(r) for r in wc.TABLE[: wc.ONLINE_ROUNDS])
    assert (online, sum(len(r) for r in wc.TABLE) - online) == (45, 9)


def test_a_wrong_rank_swap_is_reported() -> None:
    """'If the player with the worse rank wins, then the two players swap their ranks.'"""
    state = playoff(16, 0)
    state = swap_players(state, 2, "B1", 0, "B1", 1)
    violations = [v for v in check(state) if v.rule == wc.TABLE_RULE]
    assert violations and violations[0].where.match == "B1"


def test_a_wrong_winner_moves_everyone_after() -> None:
    """A result graded against the rules changes the ranks of every later round."""
    state = playoff(16, 1)
    game = state.rounds[0].matches[0].games[0]
    subs = game.details["submissions"]
    flipped = dataclasses.replace(game, details={"submissions": [subs[1], subs[0]]})
    if subs[0] == subs[1]:
        pytest.skip("equal submissions")
    state = edit_match(state, 1, "A1", lambda m: dataclasses.replace(m, games=(flipped,)))
    assert wc.TABLE_RULE in rules_of(check(state))


def test_a_match_in_the_wrong_bracket_is_reported() -> None:
    """Brackets: the Winner's Bracket is for players who have not lost any matches."""
    state = playoff(16, 2)
    state = edit_match(state, 2, "B9", lambda m: dataclasses.replace(m, bracket="winners"))
    assert wc.BRACKET_RULE in rules_of(check(state))


def test_a_seed_list_out_of_score_order_is_reported() -> None:
    """The 16 eligible players with the highest eligibility scores, seeded by score."""
    state = playoff(16, 0)
    seeds = list(state.rounds[0].details["seeds"])
    seeds[0], seeds[1] = seeds[1], seeds[0]
    first = dataclasses.replace(
        state.rounds[0], details={**state.rounds[0].details, "seeds": seeds}
    )
    state = dataclasses.replace(state, rounds=(first, *state.rounds[1:]))
    assert wc.SEEDS in rules_of(check(state))


def _level_at_the_cut(count: int) -> tuple[EntrantState, ...]:
    """``count`` candidates with distinct scores, except that the 16th and 17th best are level."""
    people = []
    for n in range(1, count + 1):
        score = 1000 - 10 * n if n <= 16 else 1000 - 10 * (n - 1)
        people.append(
            EntrantState(f"p{n}", f"Player {n}", flags={"gp_total": score, "attending": True})
        )
    return tuple(people)


@pytest.mark.parametrize("seed", range(4))
def test_either_player_level_on_the_16th_score_may_be_invited(seed: int) -> None:
    """'The 16 eligible players with the highest eligibility scores will be invited': the
    two level on the 16th score are ordered by a recorded draw, and either may go."""
    rng = random.Random(seed)
    state = simulate(rng, _level_at_the_cut(20))
    assert state.rounds[0].details["seeds"][-1] in ("p16", "p17")
    assert check(state) == []


def test_a_player_below_the_cut_invited_is_reported() -> None:
    state = simulate(random.Random(0), _level_at_the_cut(20))
    seeds = [*state.rounds[0].details["seeds"][:-1], "p18"]
    first = dataclasses.replace(
        state.rounds[0], details={**state.rounds[0].details, "seeds": seeds}
    )
    state = dataclasses.replace(state, rounds=(first, *state.rounds[1:]))
    assert wc.SEEDS in rules_of(check(state))
