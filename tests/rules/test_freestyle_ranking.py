"""freestyle.txt "Later Rounds": ranking a group, steps 1-9, and the iterative process."""

from __future__ import annotations

from dataclasses import replace

from rules.contract import EntrantStatus
from rules.formats.freestyle import ENGINE
from tests.rules.test_freestyle_support import event, group_round, named, order, recorded

FOUR = named("abcd")


def test_step1_number_of_wins() -> None:
    """ "1. Number of wins. (Tie games count as half-wins/half-losses.)\""""
    results = {
        ("a", "b"): (10, 10),
        ("a", "c"): (10, 0),
        ("a", "d"): (10, 0),
        ("b", "c"): (0, 10),
        ("b", "d"): (10, 0),
        ("c", "d"): (0, 10),
    }
    state = event(FOUR, [group_round(1, {"B": "abcd"}, results)])
    table = ENGINE.standings(state).table("round-1/group-B")
    assert [r.entrant for r in table.rows] == ["a", "b", "d", "c"]
    assert table.rows[0].values["wins"] == 2.5


def test_step2_head_to_head_among_the_tied() -> None:
    """ "2. Head-to-head matchups. (Win-loss records among just the tied players.)\""""
    results = {
        ("a", "b"): (10, 9),  # a beats b by 1 ...
        ("a", "c"): (0, 30),
        ("b", "c"): (30, 0),  # ... though b has the far better points difference
        ("a", "d"): (10, 0),
        ("b", "d"): (10, 0),
        ("c", "d"): (0, 10),
    }
    state = event(FOUR, [group_round(1, {"B": "abcd"}, results)])
    assert order(state, 1, "B")[:2] == ["a", "b"]
    decided = ENGINE.standings(state).table("round-1/group-B").decided
    assert any(d.step == "head_to_head" for d in decided)


def test_step3_points_difference_in_the_whole_group() -> None:
    """ "3. Game points difference within the whole group.\""""
    results = {
        ("a", "b"): (10, 9),
        ("b", "c"): (10, 9),
        ("c", "a"): (10, 9),  # a cycle: head-to-head cannot split a, b, c
        ("a", "d"): (30, 0),
        ("b", "d"): (20, 0),
        ("c", "d"): (10, 0),
    }
    state = event(FOUR, [group_round(1, {"B": "abcd"}, results)])
    assert order(state, 1, "B") == ["a", "b", "c", "d"]


def test_step4_points_difference_among_the_tied() -> None:
    """ "4. Game points difference for games among tied players only.\""""
    results = {
        ("a", "b"): (10, 5),
        ("b", "c"): (10, 8),
        ("c", "a"): (10, 9),  # among the tied: a +4, b -3, c -1
        ("a", "d"): (10, 9),  # with d: every one of a, b, c is +5 in the whole group
        ("b", "d"): (10, 2),
        ("c", "d"): (10, 4),
    }
    state = event(FOUR, [group_round(1, {"B": "abcd"}, results)])
    assert order(state, 1, "B") == ["a", "c", "b", "d"]
    steps = {d.step for d in ENGINE.standings(state).table("round-1/group-B").decided}
    assert "head_to_head_points" in steps


def test_three_or_more_tied_is_iterative() -> None:
    """ "In case of three or more tied players, the process is iterative:" (question 8):
    when a step splits the tied, each part still tied starts again from head-to-head.

    All five have two wins; e has the best difference; among a, b, c, d head-to-head then
    splits {a, b} from {c, d} (going on to step 4 instead would put b first)."""
    margins = {
        ("a", "b"): 5,
        ("a", "c"): 5,
        ("b", "c"): 3,
        ("b", "d"): 6,
        ("c", "d"): 6,
        ("c", "e"): 1,
        ("d", "e"): 1,
        ("d", "a"): 10,
        ("e", "a"): 1,
        ("e", "b"): 5,
    }
    results = {pair: (20, 20 - m) for pair, m in margins.items()}
    state = event(named("abcde"), [group_round(1, {"B": "abcde"}, results)])
    assert order(state, 1, "B") == ["e", "a", "b", "c", "d"]


def test_round1_uses_the_same_steps() -> None:
    """Question 7: Round 1 groups are ranked by steps 1-4 and 9 (no earlier rounds)."""
    from rules.contract import GroupState
    from rules.formats.freestyle.ranking import group_steps
    from rules.formats.freestyle.results import Context

    state = event(FOUR, [group_round(1, {"B": "abcd"}, {("a", "b"): (1, 0)})])
    keys = [s.key for s in group_steps(Context(state), 1, "B")]
    assert keys == [
        "wins",
        "head_to_head",
        "points_difference",
        "head_to_head_points",
        "tiebreaker_game",
    ]
    assert GroupState("B", "", ())  # the builder's groups carry their keys


ROUND2 = {
    ("a", "b"): (10, 10),
    ("a", "c"): (10, 5),
    ("b", "c"): (10, 5),
    ("d", "a"): (10, 5),
    ("d", "b"): (10, 5),
    ("c", "d"): (10, 5),
}  # a and b cannot be split by steps 1-4 of Round 2


def test_step6_head_to_head_from_the_previous_round() -> None:
    """ "5. Then each of the following steps is applied to the previous round ... 6.
    Head-to-head matchups from prior rounds." b has the better Round 1 record, but a beat b
    (question 9: for each earlier round, steps 6, 7, 8 in that order)."""
    round1 = group_round(
        1,
        {"B": "abxy", "Y": "cdzw"},
        {
            ("a", "b"): (10, 5),
            ("x", "a"): (10, 5),
            ("y", "a"): (10, 5),
            ("b", "x"): (10, 5),
            ("b", "y"): (10, 5),
            ("x", "y"): (1, 0),
        },
    )
    state = event(named("abcdxyzw"), [round1, group_round(2, {"T": "abcd"}, ROUND2)])
    assert order(state, 2, "T")[1:3] == ["a", "b"]
    steps = {d.step for d in ENGINE.standings(state).table("round-2/group-T").decided}
    assert "round_1_head_to_head" in steps


def test_step7_win_loss_from_prior_rounds_normalised() -> None:
    """ "7. Win-loss records from prior rounds.(1)" with "(1): In case groups are not of equal
    sizes, normalized win-loss percentages ... are used in lieu of totals" (question 11):
    a won 2 of 4 games, b 2 of 3 - equal totals, b better per game."""
    round1 = group_round(
        1,
        {"B": "avwxy", "Y": "bjkl"},
        {
            ("a", "v"): (9, 0),
            ("a", "w"): (9, 0),
            ("x", "a"): (9, 0),
            ("y", "a"): (9, 0),
            ("b", "j"): (5, 0),
            ("b", "k"): (5, 0),
            ("l", "b"): (9, 0),
        },
    )
    people = named("abcdvwxyjkl")
    state = event(people, [round1, group_round(2, {"T": "abcd"}, ROUND2)])
    assert order(state, 2, "T")[1:3] == ["b", "a"]


def test_step8_points_difference_from_prior_rounds() -> None:
    """ "8. Point differences from prior rounds.\""""
    round1 = group_round(
        1,
        {"B": "axy", "Y": "bjk"},
        {("a", "x"): (10, 9), ("y", "a"): (10, 9), ("b", "j"): (10, 5), ("k", "b"): (10, 9)},
    )
    state = event(named("abcdxyjk"), [round1, group_round(2, {"T": "abcd"}, ROUND2)])
    assert order(state, 2, "T")[1:3] == ["b", "a"]


def test_step6_needs_every_tied_pair_to_have_met() -> None:
    """Question 10: head-to-head from an earlier round counts only when every pair of the
    tied met there; otherwise the next step (win-loss) decides."""
    round1 = group_round(
        1,
        {"B": "abx", "Y": "cy"},
        {("b", "a"): (10, 5), ("a", "x"): (10, 0), ("x", "b"): (10, 0), ("c", "y"): (10, 0)},
    )
    cycle = {("a", "b"): (10, 9), ("b", "c"): (10, 9), ("c", "a"): (10, 9)}
    state = event(named("abcxy"), [round1, group_round(2, {"T": "abc"}, cycle)])
    # b beat a in Round 1, but c never met them: per-game record decides (c 1/1, a=b 1/2)
    assert order(state, 2, "T")[0] == "c"


def test_step9_tiebreaker_game_pending_then_recorded() -> None:
    """ "9. Finally, if need be, there is a tie-breaker game." (question 12: the director
    records its winner as a draw under the tiebreaker key)."""
    results = {
        ("a", "b"): (10, 10),
        ("a", "c"): (10, 0),
        ("b", "c"): (10, 0),
        ("a", "d"): (10, 0),
        ("b", "d"): (10, 0),
        ("c", "d"): (10, 0),
    }
    state = event(FOUR, [group_round(1, {"B": "abcd"}, results)])
    pending = ENGINE.standings(state).pending
    assert [p.key for p in pending] == ["round-1/group-B/tiebreaker/a+b"]
    assert pending[0].options == ("a", "b")
    table = ENGINE.standings(state).table("round-1/group-B")
    assert [r.rank for r in table.rows] == [1, 1, 3, 4]
    decided = replace(state, draws=tuple(recorded(**{"round-1/group-B/tiebreaker/a+b": "b"})))
    assert order(decided, 1, "B") == ["b", "a", "c", "d"]
    assert not ENGINE.standings(decided).pending


def test_tiebreaker_for_three_accepts_a_full_order() -> None:
    cycle = {("a", "b"): (10, 9), ("b", "c"): (10, 9), ("c", "a"): (10, 9)}
    state = event(named("abc"), [group_round(1, {"B": "abc"}, cycle)])
    key = "round-1/group-B/tiebreaker/a+b+c"
    assert ENGINE.standings(state).pending[0].key == key
    decided = replace(state, draws=tuple(recorded(**{key: ["c", "a", "b"]})))
    assert order(decided, 1, "B") == ["c", "a", "b"]


def test_tiebreaker_games_only_where_needed_by_default() -> None:
    """Setting tiebreaker_games: a tie below the places that advance needs no game unless
    the director asks for every place ("all")."""
    names = named("abcdef")
    results = {}
    ranked = "abcd"
    for i, x in enumerate(ranked):
        for y in ranked[i + 1 :]:
            results[(x, y)] = (10, 0)
        results[(x, "e")] = (10, 0)
        results[(x, "f")] = (10, 0)
    results[("e", "f")] = (5, 5)
    state = event(names, [group_round(1, {"B": "abcdef"}, results)])
    assert not ENGINE.standings(state).pending
    every = replace(state, settings={"tiebreaker_games": "all"})
    assert [p.key for p in ENGINE.standings(every).pending] == ["round-1/group-B/tiebreaker/e+f"]


def test_tie_for_the_last_advancing_place_after_a_withdrawal_needs_a_game() -> None:
    """ "everyone who finished below him in the previous round moves up one place": when a
    top-4 player leaves between rounds, a tie for 5th decides who advances."""
    names = list(named("abcdef"))
    results = {}
    for i, x in enumerate("abcd"):
        for y in "abcd"[i + 1 :]:
            results[(x, y)] = (10, 0)
        results[(x, "e")] = (10, 0)
        results[(x, "f")] = (10, 0)
    results[("e", "f")] = (5, 5)
    names[1] = replace(names[1], status=EntrantStatus.WITHDRAWN, withdrawn_after_round=1)
    state = event(names, [group_round(1, {"B": "abcdef"}, results)])
    assert [p.key for p in ENGINE.standings(state).pending] == ["round-1/group-B/tiebreaker/e+f"]
