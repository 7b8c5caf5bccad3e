"""Game scores: woc IV.6 (time defaults), IV.8 (scoring) and V.2 (director's penalties)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.contract import (
    EntrantState,
    EventState,
    GameEnding,
    GameState,
    MatchState,
    Participant,
)
from rules.formats.woc import ENGINE

STATE = EventState("woc", {}, (EntrantState("a", "Ann"), EntrantState("b", "Bob")))


def score(
    black: int | None,
    white: int | None,
    ending: GameEnding = GameEnding.NORMAL,
    **details: Any,
):
    match = MatchState(
        "R1-T1",
        1,
        (Participant("a", "black"), Participant("b", "white")),
        games=(GameState(1, (black, white), ending=ending, details=details),),
    )
    return ENGINE.score_match(STATE, match)


def test_winner_has_more_discs_and_empty_squares_go_to_the_winner() -> None:
    """IV.8: "The official score ... counting empty squares for the winner"."""
    result = score(40, 20)
    assert result.valid
    assert result.game_scores == ((44, 20),)
    assert result.points == (1.0, 0.0)
    assert result.winner == 0
    assert result.summary == "44-20"
    assert "4 empty squares" in result.reasons[0].text


def test_white_win_with_empties() -> None:
    result = score(10, 50)
    assert result.game_scores == ((10, 54),)
    assert result.winner == 1


def test_a_wipeout_takes_all_64() -> None:
    """IV.8: empties to the winner - a 13-0 wipeout is 64-0."""
    assert score(0, 13).game_scores == ((0, 64),)


def test_a_draw_is_always_32_32() -> None:
    """IV.8: "In the event of a draw, the score will always be 32-32.\""""
    result = score(30, 30)
    assert result.game_scores == ((32, 32),)
    assert result.points == (0.5, 0.5)
    assert result.winner is None


def test_more_than_64_discs_is_refused() -> None:
    result = score(40, 26)
    assert not result.valid
    # a Swiss match is one game: the sentence does not number it (issue 28, item 10)
    assert result.problems[0].text == (
        "Black and white discs add up to 66; the board has 64 squares."
    )


@pytest.mark.parametrize(("black", "white"), [(-1, 30), (30.5, 20), ("x", 3)])
def test_disc_counts_must_be_whole_numbers(black: Any, white: Any) -> None:
    result = score(black, white)
    assert not result.valid
    assert "whole number" in result.problems[0].text


def test_fewer_than_four_discs_is_refused() -> None:
    result = score(0, 0)
    assert not result.valid
    assert "at least the 4 starting discs" in result.problems[0].text


def test_missing_disc_count_is_refused() -> None:
    result = score(33, None)
    assert not result.valid
    assert result.problems[0].field == "games[0].scores[1]"


def test_declared_draw_that_is_not_32_32_after_empties_is_refused() -> None:
    """IV.8: a draw is 32-32; 31-30 gives the empties to Black, so it is no draw."""
    result = score(31, 30, declared="draw")
    assert not result.valid
    assert "a win for Black" in result.problems[0].text
    assert score(30, 30, declared="draw").valid
    assert score(30, 31, declared="white").valid


def test_resignation_is_64_0_for_the_opponent() -> None:
    """IV.8: "if he does [resign], the official score shall be 64-0 in favour of his
    opponent"."""
    result = score(None, None, GameEnding.RESIGNATION, defaulter="white")
    assert result.game_scores == ((64, 0),)
    assert result.winner == 0
    assert score(40, 10, GameEnding.RESIGNATION, defaulter=0).game_scores == ((0, 64),)


def test_resignation_needs_to_know_who_resigned() -> None:
    result = score(None, None, GameEnding.RESIGNATION)
    assert not result.valid
    assert "resigned" in result.problems[0].text
    # a 64-0 entry says it by itself
    assert score(0, 64, GameEnding.RESIGNATION).winner == 1


def test_forfeit_is_scored_as_a_resignation() -> None:
    """Silent in woc.txt (decision in docs): an unplayed game is 64-0."""
    result = score(None, None, GameEnding.FORFEIT, defaulter="black")
    assert result.game_scores == ((0, 64),)


def test_time_default_true_final_score_stands() -> None:
    """IV.6: "The game is then continued with the true final score standing"."""
    result = score(20, 40, GameEnding.TIME_DEFAULT, defaulter="black")
    assert result.game_scores == ((20, 44),)
    assert result.winner == 1


def test_time_default_guarantees_the_non_defaulter_33_31() -> None:
    """IV.6: "save that the non-defaulting player is guaranteed at least a 33-31 win";
    "If a player's flag falls, he loses the game ... regardless of the position"."""
    result = score(50, 14, GameEnding.TIME_DEFAULT, defaulter="black")
    assert result.game_scores == ((31, 33),)
    assert result.winner == 1
    assert score(32, 30, GameEnding.TIME_DEFAULT, defaulter=0).game_scores == ((31, 33),)


def test_time_default_second_flag_fall_is_64_0() -> None:
    """IV.6: "If the defaulting player's flag falls a second time, the game is scored 64-0"."""
    result = score(None, None, GameEnding.TIME_DEFAULT, defaulter="white", second_flag="defaulter")
    assert result.game_scores == ((64, 0),)


def test_time_default_non_defaulter_flag_falls_after_two_minutes() -> None:
    """IV.6: "If the flag of the non-defaulting player falls after having been given two
    extra minutes, the player who first defaulted loses the game with a 31-33 score"."""
    result = score(50, 10, GameEnding.TIME_DEFAULT, defaulter="white", second_flag="non_defaulter")
    assert result.game_scores == ((33, 31),)
    assert result.winner == 0


def test_time_default_needs_the_defaulter_and_a_known_second_flag() -> None:
    assert not score(30, 30, GameEnding.TIME_DEFAULT).valid
    bad = score(30, 30, GameEnding.TIME_DEFAULT, defaulter=0, second_flag="both")
    assert "second_flag" in bad.problems[0].text


def test_a_game_between_two_players_cannot_end_as_a_bye() -> None:
    assert not score(30, 34, GameEnding.BYE).valid


def test_director_may_change_the_score_to_the_opponents_benefit() -> None:
    """V.2(b): "Changing the final score of a game to the benefit of the offending player's
    opponent"."""
    result = score(40, 20, penalty={"kind": "score", "scores": [34, 30], "offender": "black"})
    assert result.game_scores == ((34, 30),)
    assert result.reasons[-1].rule == "woc V.2(b)"
    wrong = score(40, 20, penalty={"kind": "score", "scores": [50, 14], "offender": "black"})
    assert "benefit of the offender's opponent" in wrong.problems[0].text
    short = score(40, 20, penalty={"kind": "score", "scores": [30, 30]})
    assert "adds up to 60" in short.problems[0].text


def test_director_may_declare_a_draw_or_award_the_game() -> None:
    """V.2(c): "Declaring the game to be a draw or awarding the game to the offending
    player's opponent"."""
    assert score(40, 20, penalty={"kind": "draw"}).game_scores == ((32, 32),)
    awarded = score(40, 20, penalty={"kind": "award", "to": "white"})
    assert awarded.game_scores == ((31, 33),)
    assert awarded.winner == 1
    kept = score(20, 40, penalty={"kind": "award", "to": "white"})
    assert kept.game_scores == ((20, 44),)
    assert not score(40, 20, penalty={"kind": "fine"}).valid
    assert not score(40, 20, penalty={"kind": "award"}).valid


def test_a_round_game_is_exactly_one_game() -> None:
    match = MatchState("R1-T1", 1, (Participant("a"), Participant("b")))
    assert not ENGINE.score_match(STATE, match).valid


def test_bye_scores_the_bye_setting() -> None:
    """Bye score is a setting (default a win); II.7 introduces the dummy BYE."""
    bye = MatchState("R1-BYE", 1, (Participant("a"),))
    assert ENGINE.score_match(STATE, bye).points == (1,)
    half = EventState("woc", {"bye_points": 0.5}, STATE.entrants)
    assert ENGINE.score_match(half, bye).points == (0.5,)


def test_settings_are_validated() -> None:
    assert ENGINE.validate_settings({}) == []
    assert ENGINE.validate_settings({"system": "knockout"})[0].field == "system"
    assert ENGINE.validate_settings({"c": -1})[0].field == "c"
    assert ENGINE.validate_settings({"rounds": 99})[0].field == "rounds"
    assert ENGINE.validate_settings({"bye_points": 2})[0].field == "bye_points"


def test_a_one_game_match_says_its_score_error_without_the_game_number() -> None:
    """Issue 28, item 10: a Swiss match is one game (II.5), so "Game 1:" only makes the
    director look for another: the sentence names the problem alone."""
    result = score(40, 26)
    assert [p.text for p in result.problems] == [
        "Black and white discs add up to 66; the board has 64 squares."
    ]
    result = score(None, None, GameEnding.FORFEIT)
    assert [p.text for p in result.problems] == ["Say which player forfeited (Black or White)."]


def test_a_one_game_playoff_also_leaves_the_number_out_and_a_best_of_three_keeps_it() -> None:
    """Issue 28, item 10: a playoff (III.3, one game) likewise; the games of a best of three
    (III.1) are told apart by their number."""
    from rules.formats.woc.finals import score_final_match
    from tests.rules.test_woc_finals import best_of_three, one_game

    refused = score_final_match(one_game((40, 26)))
    assert [p.text for p in refused.problems] == [
        "Black and white discs add up to 66; the board has 64 squares."
    ]
    refused = score_final_match(best_of_three(((40, 24), 0), ((40, 26), 1)))
    assert [p.text for p in refused.problems] == [
        "Game 2: Black and white discs add up to 66; the board has 64 squares."
    ]


def test_a_forfeit_with_discs_other_than_its_score_is_refused() -> None:
    """Issue 28, item 2: a forfeit saved again with "50 Tab 14" kept discs 50-14 in the
    record beside its 64-0. An unplayed game has no discs: typed ones that are not its
    score are refused, naming the score it gets; its own score typed back is accepted."""
    refused = score(50, 14, GameEnding.FORFEIT, defaulter="white")
    assert not refused.valid
    assert [p.text for p in refused.problems] == [
        "A game nobody played has no discs on the board; it is scored 64-0 for Black. "
        "Leave the scores empty."
    ]
    assert refused.problems[0].field == "games[0].scores"
    assert score(64, 0, GameEnding.FORFEIT, defaulter="white").game_scores == ((64, 0),)
    assert not score(64, 0, GameEnding.DEFAULT, defaulter="black").valid
    # a resignation was played: the discs on the board may be written down
    assert score(20, 30, GameEnding.RESIGNATION, defaulter="white").game_scores == ((64, 0),)
