"""The bot-contest checker: clean simulated contests, and records broken on purpose."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.checkers import audit, check
from rules.contract import EventState
from rules.formats.bot_contest import ENGINE
from rules.formats.bot_contest import checker as bc
from rules.formats.bot_contest.simulate import simulate
from tests.rules.test_checkers_support import edit_match, rules_of, swap_players


def contest(entries: int, seed: int) -> EventState:
    return simulate(entries, random.Random(seed))[0]


@pytest.mark.parametrize(("entries", "seed"), [(3, 0), (8, 1), (9, 2), (17, 3), (30, 4)])
def test_simulated_contests_conform(entries: int, seed: int) -> None:
    state = contest(entries, seed)
    report = audit(state, ENGINE.standings(state))
    assert report.violations == []
    assert report.pairings > entries


def test_expected_pairs_fold_and_avoid_repeats() -> None:
    """'seed 1 plays seed N; seed 2 plays N-1' unless that repeats a match another pairing
    avoids."""
    assert bc.expected_pairs(["a", "b", "c", "d"], set()) == [("a", "d"), ("b", "c")]
    met = {frozenset(("a", "d"))}
    assert bc.expected_pairs(["a", "b", "c", "d"], met) == [("a", "c"), ("b", "d")]


def _bracket_round(state: EventState, odd: bool) -> int:
    for rnd in state.rounds:
        byes = [m for m in rnd.matches if m.is_bye]
        if rnd.stage == "brackets" and bool(byes) == odd and len(rnd.matches) >= 3:
            return rnd.number
    raise AssertionError("no such round")


def test_a_wrong_bye_is_reported() -> None:
    """Stage two STEP 1: the highest seeded entry that has not yet received a bye."""
    state = contest(9, 1)
    number = _bracket_round(state, odd=True)
    rnd = state.rounds[number - 1]
    bye = next(m for m in rnd.matches if m.is_bye)
    game = next(m for m in rnd.matches if not m.is_bye and m.bracket == bye.bracket)
    state = swap_players(state, number, bye.code, 0, game.code, 1)
    assert bc.BYE in rules_of(check(state))


def test_a_pairing_off_the_fold_is_reported() -> None:
    """Stage two STEP 2: seed 1 plays seed N in a match; seed 2 plays N-1; etc."""
    state = contest(16, 0)
    number = _bracket_round(state, odd=False)
    winners = [m for m in state.rounds[number - 1].matches if m.bracket == "winners"]
    one, two = winners[:2]
    state = swap_players(state, number, one.code, 1, two.code, 1)
    violations = [v for v in check(state) if v.rule in (bc.FOLD, bc.REPEAT)]
    assert violations and violations[0].where.round == number


def test_wrong_contest_points_are_reported() -> None:
    """STEP 4: 1000 for winning as X, 1200 as O ... plus the points scored."""
    state = contest(5, 0)
    standings = ENGINE.standings(state)
    table = standings.table("gauntlet")
    row = table.rows[0]
    bad = dataclasses.replace(row, values={**row.values, "total": 1})
    tables = tuple(
        dataclasses.replace(t, rows=(bad, *t.rows[1:])) if t.key == "gauntlet" else t
        for t in standings.tables
    )
    assert bc.BONUS in rules_of(check(state, dataclasses.replace(standings, tables=tables)))


def test_a_missing_final_match_is_reported() -> None:
    """EVERYONE WILL PLAY EVERYONE ELSE IN THE FINAL ROUND."""
    state = contest(8, 2)
    final = state.rounds[-1]
    state = dataclasses.replace(
        state, rounds=(*state.rounds[:-1], dataclasses.replace(final, matches=final.matches[1:]))
    )
    assert bc.FINAL in rules_of(check(state))


def test_one_program_moving_first_twice_is_reported() -> None:
    """Each match consists of 2 games ... each player getting a chance to go first."""
    state = contest(3, 0)
    code = state.rounds[0].matches[0].code
    state = edit_match(
        state,
        1,
        code,
        lambda m: dataclasses.replace(
            m, games=tuple(dataclasses.replace(g, first=0) for g in m.games)
        ),
    )
    assert bc.TWO_GAMES in rules_of(check(state))
