"""freestyle.txt "Freestyle Game Play": scoring games and matches."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from rules.contract import EntrantStatus, GameEnding, GameState, MatchState, Participant
from rules.formats.freestyle import ENGINE
from tests.rules.test_freestyle_support import event, named

STATE = event(named(["x", "y"]))


def match(number: int, *scores: tuple[int | None, int | None], **details: Any) -> MatchState:
    return MatchState(
        code="M",
        round_number=number,
        participants=(Participant("x", "A" if number == 1 else ""), Participant("y")),
        games=tuple(GameState(i + 1, s) for i, s in enumerate(scores)),
        details=details,
    )


def test_game_points_decide_the_game() -> None:
    """Question 6: the scores are game points; the higher wins."""
    score = ENGINE.score_match(STATE, match(1, (30, 25)))
    assert score.winner == 0
    assert score.points == (1, 0)
    assert score.summary == "30-25"


def test_tie_counts_half_a_win_each() -> None:
    """ "Tie games count as half-wins/half-losses.\""""
    score = ENGINE.score_match(STATE, match(2, (20, 20)))
    assert score.winner is None
    assert score.points == (Fraction(1, 2), Fraction(1, 2))
    assert score.complete


def test_group_matches_are_one_game_no_rematch() -> None:
    """ "Matches are one game - no rematch.\""""
    score = ENGINE.score_match(STATE, match(1, (20, 20), (21, 19)))
    assert [p.code for p in score.problems] == ["freestyle.one_game"]


def test_last_two_rounds_replay_a_tie() -> None:
    """ "If a semi-final or final game is a tie game, it is replayed" (question 13: the
    semi-finals and the final round are "the last two rounds")."""
    for number in (4, 5):
        score = ENGINE.score_match(STATE, match(number, (18, 18)))
        assert not score.complete
        assert score.winner is None
        assert score.reasons[0].code == "freestyle.replay"


def test_replay_switches_a_and_b() -> None:
    """ "it is replayed, with the players switching A and B roles"; question 19: a replay
    that ties again is replayed again, and the winner's margin is the deciding game's."""
    score = ENGINE.score_match(STATE, match(4, (18, 18), (15, 15), (20, 12), higher_seed_chose="B"))
    assert score.complete
    assert score.winner == 0
    assert score.details["a_seats"] == [1, 0, 1]
    assert score.details["margin"] == 8
    assert score.summary == "18-18, 15-15, 20-12"


def test_no_replay_after_a_decided_game() -> None:
    score = ENGINE.score_match(STATE, match(4, (20, 12), (15, 15)))
    assert [p.code for p in score.problems] == ["freestyle.after_decision"]


def test_round1_seat_0_is_a_and_later_rounds_record_the_choice() -> None:
    """ "After the first round ... the higher seeded player has the choice of being A or B"."""
    assert ENGINE.score_match(STATE, match(1, (1, 2))).details["a_seats"] == [0]
    assert ENGINE.score_match(STATE, match(2, (1, 2))).details["a_seats"] == [None]
    chose_a = ENGINE.score_match(STATE, match(2, (1, 2), higher_seed_chose="A"))
    assert chose_a.details["a_seats"] == [0]


def test_choice_must_be_a_or_b_and_not_in_round1() -> None:
    wrong = ENGINE.score_match(STATE, match(2, (1, 2), higher_seed_chose="C"))
    assert [p.field for p in wrong.problems] == ["details.higher_seed_chose"]
    round1 = ENGINE.score_match(STATE, match(1, (1, 2), higher_seed_chose="A"))
    assert [p.code for p in round1.problems] == ["freestyle.round1_choice"]


def test_pieces_and_colours_are_recorded_optionally() -> None:
    """ "One player, designated A, names the first blue piece and first red piece ... The
    other player then has the option of which colors to play: blue/red ... or yellow/green"."""
    good = replace(
        match(1, (10, 9)).games[0],
        details={"first_blue_piece": "X", "first_red_piece": "L", "b_colours": "yellow/green"},
    )
    assert ENGINE.score_match(STATE, replace(match(1), games=(good,))).valid
    bad = replace(good, details={"b_colours": "red/green", "first_blue_piece": ""})
    score = ENGINE.score_match(STATE, replace(match(1), games=(bad,)))
    assert {p.code for p in score.problems} == {"freestyle.b_colours", "freestyle.piece"}


def test_scores_must_be_whole_and_not_negative() -> None:
    assert ENGINE.score_match(STATE, match(1, (10, None))).problems[0].code == (
        "freestyle.score_missing"
    )
    assert ENGINE.score_match(STATE, match(1, (10, -1))).problems[0].code == (
        "freestyle.score_negative"
    )
    bye_ending = replace(match(1, (1, 0)).games[0], ending=GameEnding.BYE)
    score = ENGINE.score_match(STATE, replace(match(1), games=(bye_ending,)))
    assert score.problems[0].code == "freestyle.ending"


def test_no_games_yet_is_incomplete_without_problems() -> None:
    score = ENGINE.score_match(STATE, match(2))
    assert not score.complete
    assert score.valid


def test_withdrawal_during_a_group_round_voids_the_game() -> None:
    """ "If a round is in-progress, his games (even if he played all of them) do not count".

    A withdrawal during round r is recorded as withdrawn_after_round = r - 1."""
    gone = named(["x", "y"])
    state = event(
        (gone[0], replace(gone[1], status=EntrantStatus.WITHDRAWN, withdrawn_after_round=1))
    )
    score = ENGINE.score_match(state, match(2, (1, 30)))
    assert score.details["void"] is True
    assert score.summary == "void"


def test_withdrawal_from_a_knockout_match_is_a_walkover() -> None:
    """Question 23: in the semi-finals and the final round the opponent goes through."""
    gone = named(["x", "y"])
    state = event(
        (gone[0], replace(gone[1], status=EntrantStatus.WITHDRAWN, withdrawn_after_round=3))
    )
    score = ENGINE.score_match(state, match(4))
    assert score.winner == 0
    assert score.summary == "W/O"


def test_a_knockout_bye_goes_through() -> None:
    bye = MatchState("SF1", 4, (Participant("x"),))
    score = ENGINE.score_match(STATE, bye)
    assert score.winner == 0
    assert score.complete
