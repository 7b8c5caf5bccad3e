"""GokoDom II.B-D (results, match points, defaults) and IV.A (match structure)."""

from __future__ import annotations

import pytest

from rules.contract import GameState, MatchState, Participant, RoundStatus
from rules.formats.gokodom import ENGINE, Result, resolve_deadline, resolve_unplayed
from rules.formats.gokodom.results import MATCH_POINTS, GameTally, tally_games

from .test_gokodom_support import entrant, games, match, state, swiss_round


def tally(spec: str, first: int | None = 0) -> GameTally:
    return tally_games(MatchState("M", 1, (Participant("a"), Participant("b")), games(spec, first)))


@pytest.mark.parametrize(
    ("code", "points"),
    [("W", 2), ("WD", 2), ("WB", 2), ("D", 1), ("DD", 1), ("BR", 1), ("L", 0), ("LD", 0)],
)
def test_match_points_ii_c(code: str, points: int) -> None:
    """II.C: 'Results of W, WD, and WB are worth 2 match points. Results of D, DD, and BR
    are worth 1 match point. A result of L is worth 0 match points.' (LD: 0, a loss.)"""
    assert MATCH_POINTS[Result(code)] == points


@pytest.mark.parametrize(
    ("spec", "winner", "points"),
    [
        ("111", 0, (3, 0)),
        ("0100", 1, (1, 3)),
        ("1=11", 0, (3.5, 0.5)),
        ("10101", 0, (3, 2)),  # not yet: 3 after five games is not 3.5
        ("11=0=", 0, (3, 2)),
        ("1=01=", 0, (3, 2)),
        ("1=101", 0, (3.5, 1.5)),
        ("101010", None, (3, 3)),
        ("101011", 0, (4, 2)),
        ("10101=", 0, (3.5, 2.5)),
    ],
)
def test_match_winner_iv_a_4(spec: str, winner: int | None, points: tuple[float, float]) -> None:
    """IV.A.4: 'A player wins the match if after 3 or 4 games, s/he has 3 game points; or
    after 5 or 6 games s/he has 3.5 game points. A 3-3 tie on game points is a tie.'"""
    result = tally(spec)
    assert tuple(map(float, result.points)) == points
    if len(spec) == 5 and points == (3, 2):
        assert not result.complete and result.winner is None
    elif winner is None:
        assert result.tied and result.complete
    else:
        assert result.winner == winner and result.complete


def test_minimum_three_games_iv_a() -> None:
    """IV.A: 'Each match will involve a minimum of three games': 2-0 is not over."""
    result = tally("11")
    assert not result.complete and result.winner is None


def test_game_after_decision_is_refused_iv_a() -> None:
    """IV.A: '... a maximum of 6 games'; a game after the match is decided is refused."""
    result = tally("1110")
    assert [p.code for p in result.problems] == ["gokodom.match_already_decided"]
    assert "decided after game 3" in result.problems[0].text


def test_draw_awards_half_points_iv_a_3() -> None:
    """IV.A.3: 'Winning a game awards 1 game point; drawing a game awards 0.5 game points
    to both players.'"""
    result = tally("===")
    assert tuple(map(float, result.points)) == (1.5, 1.5)
    bad = tally_games(
        MatchState("M", 1, (Participant("a"), Participant("b")), (GameState(1, (1, 1)),))
    )
    assert bad.problems[0].code == "gokodom.game_score"


def test_seats_a_b_b_a_a_b_iv_a_1() -> None:
    """IV.A.1: 'That player will sit in the second seat in games two and three ... first
    seat in games four and five, then again in the second seat in game six.'"""
    good = tally("101010", first=1)
    assert not good.problems
    played = (GameState(1, (1, 0), first=0), GameState(2, (1, 0), first=0))
    wrong = tally_games(MatchState("M", 1, (Participant("a"), Participant("b")), played))
    assert wrong.problems[0].code == "gokodom.seat_order"
    assert "A-B-B-A-A-B" in wrong.problems[0].text


def test_drawn_first_seat_is_checked_iv_a_1() -> None:
    """IV.A.1 with a drawn first seat: game 1's first player must be the drawn seat."""
    m = MatchState(
        "M",
        1,
        (Participant("a"), Participant("b")),
        (GameState(1, (1, 0), first=0),),
        details={"first_seat": 1},
    )
    assert tally_games(m).problems[0].code == "gokodom.seat_order"


def test_unplayed_both_messaged_is_dd_ii_b_5() -> None:
    """II.B.5: 'If the match was unplayed, and both players sent a PM to the TO, both
    receive a Draw by Default'."""
    assert resolve_unplayed(["a", "b"], ["a", "b"], handshake_allowed=True) == {
        "a": Result.DD,
        "b": Result.DD,
    }


def test_unplayed_one_messaged_is_wd_ld_ii_b_4() -> None:
    """II.B.4: 'a player who sends a PM to the TO, and whose opponent does not send a PM,
    receives a Win by Default (WD).' II.B.6: the other receives a Loss by Default."""
    assert resolve_unplayed(["a", "b"], ["b"], handshake_allowed=True) == {
        "a": Result.LD,
        "b": Result.WD,
    }


def test_unplayed_neither_messaged_is_ld_both_ii_b_6() -> None:
    """II.B.6: 'the player did not send a PM to the TO, the player receives a Loss by
    Default (LD).'"""
    assert resolve_unplayed(["a", "b"], [], handshake_allowed=True) == {
        "a": Result.LD,
        "b": Result.LD,
    }


def test_no_dd_in_last_round_goes_to_director_ii_b_5() -> None:
    """II.B.5: '(This result is not available in the last round of the Swiss portion.)'"""
    assert resolve_unplayed(["a", "b"], ["a", "b"], handshake_allowed=False) is None


def test_resolve_deadline_from_messages_i_d() -> None:
    """I.D: players 'must send the TO a private message ... by the end of the round':
    the deadline resolution reads the recorded messages of each unplayed match."""
    rnd = swiss_round(
        2,
        [
            match("R2-1", 2, "a", "b", messages=["a", "b"]),
            match("R2-2", 2, "c", "d", messages=["d"]),
            match("R2-3", 2, "e", "f"),
            match("R2-4", 2, "g", "h", spec="111"),
            match("R2-BYE", 2, "i", result="WB"),
        ],
        RoundStatus.PUBLISHED,
    )
    resolved = resolve_deadline(rnd, last_swiss_round=False)
    assert resolved.results == {
        "R2-1": {"a": Result.DD, "b": Result.DD},
        "R2-2": {"c": Result.LD, "d": Result.WD},
        "R2-3": {"e": Result.LD, "f": Result.LD},
    }
    last = resolve_deadline(rnd, last_swiss_round=True)
    assert last.for_director == ("R2-1",)
    assert "R2-1" not in last.results


def test_recorded_results_are_checked() -> None:
    """II.B: each player receives one of the listed results; two wins cannot go together,
    and DD is refused in the last Swiss round (II.B.5)."""
    event = state([entrant("a"), entrant("b", "blue")], settings={"swiss_rounds": 2})
    bad = match("R1-1", 1, "a", "b", results={"a": "W", "b": "W"})
    assert ENGINE.score_match(event, bad).problems[0].code == "gokodom.results_pair"
    last = match("R2-1", 2, "a", "b", results={"a": "DD", "b": "DD"})
    assert ENGINE.score_match(event, last).problems[0].code == "gokodom.no_handshake_last_round"
    ok = match("R1-1", 1, "a", "b", results={"a": "WD", "b": "LD"})
    score = ENGINE.score_match(event, ok)
    assert score.points == (2, 0) and score.summary == "WD-LD"


def test_score_swiss_match_from_games() -> None:
    """II.B.1-3: a played match gives W and L (or D each on a 3-3 tie)."""
    event = state([entrant("a"), entrant("b", "blue")])
    won = ENGINE.score_match(event, match("R1-1", 1, "a", "b", spec="0111"))
    assert won.points == (2, 0) and won.winner == 0 and won.summary == "3-1"
    tied = ENGINE.score_match(event, match("R1-1", 1, "a", "b", spec="101010"))
    assert tied.points == (1, 1) and tied.winner is None
    assert tied.details["results"] == {"a": "D", "b": "D"}


def test_unplayed_match_scored_once_round_is_over() -> None:
    """II.B.4-6: an unplayed match is resolved once the round is over (or marked unplayed)."""
    rnd = swiss_round(1, [match("R1-1", 1, "a", "b", messages=["a"])])
    event = state([entrant("a"), entrant("b", "blue")], [rnd])
    score = ENGINE.score_match(event, rnd.matches[0])
    assert score.points == (2, 0) and score.details["results"] == {"a": "WD", "b": "LD"}
    open_round = swiss_round(1, [match("R1-1", 1, "a", "b")], RoundStatus.PUBLISHED)
    pending = ENGINE.score_match(state(event.entrants, [open_round]), open_round.matches[0])
    assert not pending.complete


def test_bye_scores_ii_b_7_8() -> None:
    """II.B.7-8: WB is worth 2, BR is worth 1 ('This Bye is equivalent to a Draw', I.E)."""
    event = state([entrant("a")])
    assert ENGINE.score_match(event, match("R1-BYE", 1, "a", result="WB")).points == (2,)
    assert ENGINE.score_match(event, match("R1-BR1", 1, "a", result="BR")).points == (1,)
