"""Puzzle selection ("Puzzle Selection" in the WPF GP Playoff Rules)."""

from __future__ import annotations

import pytest

from rules.contract import EngineError, EntrantState, EventState, RoundPlan
from rules.draws import DrawSource
from rules.formats.wpf_playoffs import ENGINE, puzzles
from rules.formats.wpf_playoffs.puzzles import Picker

POOL = [f"P{i}" for i in range(1, 9)]
LIST = tuple(POOL)


def test_winners_bracket_before_losers_before_placement() -> None:
    """ "Players who are in the Winner's Bracket have higher pick priority than players who
    are not." "Players who are in the Loser's Bracket have higher pick priority than players
    in the Placement bracket.\""""
    players = [Picker(1, 9, 2, LIST), Picker(2, 5, 1, LIST), Picker(9, 4, 0, LIST)]
    assert [p.seed for p in puzzles.pick_order("D", players)] == [9, 2, 1]


def test_same_bracket_best_seed_not_rank() -> None:
    """ "If two players are in the same Bracket, the best-seeded (not ranked) player has
    higher pick priority.\""""
    players = [Picker(7, 1, 0, LIST), Picker(3, 2, 0, LIST)]
    assert puzzles.pick_order("B", players)[0].seed == 3


def test_players_no_longer_solving_are_last() -> None:
    """ "Players who will no longer solve puzzles for the rest of the online stage have lower
    pick priority than players who do, regardless of bracket rules below. (For 2023, this
    is ranks 1-2 in round E ...)\""""
    players = [Picker(1, 1, 0, LIST), Picker(12, 5, 2, LIST)]
    assert puzzles.pick_order("E", players)[0].seed == 12
    assert puzzles.pick_order("D", players)[0].seed == 1


def test_no_preference_list_is_lower_regardless_of_everything() -> None:
    """ "Players who did not submit a preference list have lower pick priority than players
    who did, regardless of bracket, seed, or rank." (also above players no longer solving:
    see the docs)"""
    players = [Picker(1, 3, 0, None), Picker(16, 1, 0, LIST)]
    assert puzzles.pick_order("E", players)[0].seed == 16


def test_used_puzzles_are_removed_and_the_top_is_used() -> None:
    """ "All puzzles that have already been used are removed from the preference list."
    "The puzzle at the top of the list will be the next puzzle for the round.\""""
    players = [Picker(1, 1, 0, LIST)]
    pick = puzzles.choose_online("B", players, POOL, ["P1", "P2"], DrawSource("s"))
    assert pick.puzzle == "P3" and pick.picker == 1 and not pick.reversed


def test_reversed_for_the_top_of_the_winners_bracket_in_c_e_f_g() -> None:
    """ "If the player has the highest rank in the Winner's Bracket and the round letter is
    C, E, F, or G, then the preference list is reversed.\""""
    top = Picker(1, 1, 0, LIST)
    other = Picker(2, 2, 0, None)
    pick = puzzles.choose_online("C", [top, other], POOL, ["P8"], DrawSource("s"))
    assert pick.reversed and pick.puzzle == "P7"
    assert not puzzles.choose_online("D", [top, other], POOL, [], DrawSource("s")).reversed
    # the best seed of the Winner's Bracket at rank 2 does not reverse
    second = Picker(1, 2, 0, LIST)
    first = Picker(5, 1, 0, None)
    pick = puzzles.choose_online("C", [second, first], POOL, [], DrawSource("s"))
    assert not pick.reversed and pick.puzzle == "P1"


def test_no_lists_at_all_uses_a_random_list() -> None:
    """ "If no players submitted a preference list, a randomly-generated list is used.\""""
    draws = DrawSource("s")
    pick = puzzles.choose_online("A", [Picker(1, 1, 0, None)], POOL, [], draws)
    assert pick.picker is None
    assert draws.new[0].key == "puzzles/A/random-list"
    assert pick.puzzle == draws.new[0].value[0]


def test_sudoku_gp_puzzles_are_predetermined() -> None:
    """ "For Sudoku GP, the puzzle selection for each round is predetermined.\""""
    pick = puzzles.choose_fixed("C", ["S1", "S2", "S3"], "ABCDEFG")
    assert pick is not None and pick.puzzle == "S3"
    assert puzzles.choose_fixed("D", ["S1"], "ABCDEFG") is None


def test_live_pool_shrinks() -> None:
    """ "Once a puzzle is selected, it is removed from the pool.\""""
    assert puzzles.live_options(["L1", "L2", "L3", "L4"], ["L2"]) == ["L1", "L3", "L4"]


def test_preference_list_must_name_every_puzzle_once() -> None:
    """ "a preference list of all 8 puzzles\""""
    assert puzzles.check_list(LIST, POOL, "X", "f") == []
    assert puzzles.check_list(["P1", "P1"], POOL, "X", "f")[0].code == "wpf.preference_list"


def test_a_list_per_round_is_accepted() -> None:
    """ "a preference list of all 8 puzzles for each of the 8 rounds\""""
    flags = {"puzzle_preferences": {"A": POOL, "B": list(reversed(POOL))}}
    assert puzzles.preference_list(flags, "B")[0] == "P8"
    assert puzzles.preference_list({"puzzle_preferences": POOL}, "G") == POOL


def people(prefs: dict[int, list[str]]) -> tuple[EntrantState, ...]:
    return tuple(
        EntrantState(
            f"p{i}",
            f"Player {i}",
            flags={"gp_total": 100 - i, "attending": True}
            | ({"puzzle_preferences": prefs[i]} if i in prefs else {}),
        )
        for i in range(1, 17)
    )


def test_engine_round_a_picks_from_seed_1s_list() -> None:
    state = EventState("wpf_playoffs", {"online_puzzles": POOL}, people({1: POOL[::-1], 2: POOL}))
    plan = ENGINE.next_round(state, DrawSource("s"))
    assert isinstance(plan, RoundPlan)
    assert plan.details["puzzle"] == "P8"
    assert plan.details["puzzle_picker"] == "p1"


def test_engine_refuses_a_bad_preference_list() -> None:
    state = EventState("wpf_playoffs", {"online_puzzles": POOL}, people({3: ["P1"]}))
    with pytest.raises(EngineError) as error:
        ENGINE.next_round(state, DrawSource("s"))
    assert "Player 3: a preference list must name each of the 8 puzzles" in str(error.value)
