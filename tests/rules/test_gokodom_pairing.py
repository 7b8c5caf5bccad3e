"""GokoDom II.F-H: pairing top down, the three criteria, the fallback, the bye, and the
undoing of choices when the top-down pass would leave players who have all met."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.formats.gokodom.pairing import pair, window_for_round


def met_from(pairs: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    played = {frozenset(p) for p in pairs}
    return lambda a, b: frozenset((a, b)) in played


def test_window_ii_f_2() -> None:
    """II.F.2: '+-1 (after rounds 1 and 2), +-2 (after rounds 3 and 4), or +-3 (all other
    rounds)'; the window applies to the round being paired after those rounds."""
    assert [window_for_round(n) for n in range(1, 9)] == [1, 1, 1, 2, 2, 3, 3, 3]


def test_highest_player_meeting_all_three_ii_f() -> None:
    """II.F: 'each player will be paired with the highest player in the ranking who fits'
    not played, within the window, opposite colour."""
    order = ["a", "b", "c", "d"]
    colours = {"a": "red", "b": "red", "c": "blue", "d": "blue"}
    points = dict.fromkeys(order, 2)
    result = pair(order, points, colours, met_from([]), 1)
    assert [p[:2] for p in result.pairs] == [("a", "c"), ("b", "d")]
    assert all(p[2] == 1 for p in result.pairs)


def test_not_yet_played_ii_f_1() -> None:
    """II.F.1: 'Has not yet been played'."""
    order = ["a", "b", "c", "d"]
    colours = {"a": "red", "b": "blue", "c": "blue", "d": "red"}
    result = pair(order, dict.fromkeys(order, 0), colours, met_from([("a", "b")]), 1)
    assert result.pairs[0][:2] == ("a", "c")


def test_match_point_window_ii_f_2() -> None:
    """II.F.2: 'Has a match point score at most +-1 ...': a player 2 points below is passed
    over for one within the window even of the same colour (II.G)."""
    order = ["a", "b", "c", "d"]
    colours = {"a": "red", "b": "red", "c": "blue", "d": "blue"}
    points = {"a": 4, "b": 3, "c": 2, "d": 2}
    result = pair(order, points, colours, met_from([]), 1)
    assert result.pairs[0] == ("a", "b", 2)


def test_fallback_ii_g() -> None:
    """II.G: 'If no player meets all three criteria in F, the highest player who meets only
    criteria 1 and 2 will be paired; otherwise the highest player who has not yet been
    played.'"""
    order = ["a", "b", "c", "d"]
    colours = dict.fromkeys(order, "red")
    points = {"a": 10, "b": 4, "c": 3, "d": 3}
    result = pair(order, points, colours, met_from([]), 1)
    assert result.pairs[0] == ("a", "b", 3)
    assert result.pairs[1] == ("c", "d", 2)


def test_odd_count_last_unpaired_gets_bye_ii_h() -> None:
    """II.H: 'If an odd number of players are participating in the round, the last
    unpaired player on the list will receive a Bye in that round.'"""
    order = ["a", "b", "c", "d", "e"]
    colours = {"a": "red", "b": "blue", "c": "red", "d": "blue", "e": "red"}
    result = pair(order, dict.fromkeys(order, 0), colours, met_from([]), 1)
    assert result.bye == "e"
    assert len(result.pairs) == 2


def test_undo_fewest_choices_when_stuck() -> None:
    """Where the top-down pass would leave players who have all met, the latest choices are
    undone (as few as possible) and the pairing says so."""
    order = ["a", "b", "c", "d"]
    colours = {"a": "red", "b": "blue", "c": "red", "d": "blue"}
    # Top down: a-b, then c-d have met: stuck. Undo a's choice: a takes the next player
    # of the opposite colour, d, and b meets c.
    result = pair(order, dict.fromkeys(order, 0), colours, met_from([("c", "d")]), 1)
    assert [p[:2] for p in result.pairs] == [("a", "d"), ("b", "c")]
    assert result.undone
    codes = [r.code for r in result.reasons]
    assert codes == ["gokodom.pairing_stuck", "gokodom.pairing_undone"]
    assert "C, D" not in result.reasons[0].text  # ids are shown when no names are given
    assert "c, d" in result.reasons[0].text


def test_undo_keeps_the_top_choices() -> None:
    """The undone choices are the latest ones: the top pairing stays when a lower change
    is enough."""
    order = ["a", "b", "c", "d", "e", "f"]
    colours = dict.fromkeys(order, "red")
    met = met_from([("e", "f")])
    result = pair(order, dict.fromkeys(order, 0), colours, met, 1)
    assert result.pairs[0][:2] == ("a", "b")
    assert [p[:2] for p in result.pairs[1:]] == [("c", "e"), ("d", "f")]


def test_rematch_only_when_unavoidable() -> None:
    """II.F.1 is kept whenever any pairing allows it; when none does, rematches come in as
    each player's last choice (the document is silent)."""
    order = ["a", "b"]
    result = pair(order, {"a": 0, "b": 0}, {"a": "red", "b": "blue"}, met_from([("a", "b")]), 1)
    assert result.pairs == (("a", "b", 4),)
    assert result.rematches


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=14),
    data=st.data(),
)
def test_pairing_is_complete_and_avoids_rematches_when_possible(
    count: int, data: st.DataObject
) -> None:
    order = [f"p{i}" for i in range(count)]
    colours = {p: data.draw(st.sampled_from(["red", "blue"])) for p in order}
    points = {p: data.draw(st.integers(0, 8)) for p in order}
    edges = data.draw(
        st.lists(st.tuples(st.sampled_from(order), st.sampled_from(order)), max_size=count * 2)
    )
    played = [e for e in edges if e[0] != e[1]]
    met = met_from(played)
    result = pair(order, points, colours, met, 2)
    seen = [p for a, b, _ in result.pairs for p in (a, b)] + ([result.bye] if result.bye else [])
    assert sorted(seen) == sorted(order)
    assert (result.bye is not None) == (count % 2 == 1)
    if not result.rematches:
        assert not any(met(a, b) for a, b, _ in result.pairs)
