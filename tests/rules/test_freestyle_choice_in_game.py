"""The higher seed's choice of A or B recorded with the result (first game's details).

"After the first round ... the higher seeded player has the choice of being A or B": the
director's result form saves games, so the web side records the choice as a detail of the
first game; the engine reads it there when the match itself has none.
"""

from __future__ import annotations

from rules.contract import GameState, MatchState, Participant
from rules.formats.freestyle import ENGINE
from tests.rules.test_freestyle_support import event, named

STATE = event(named(["x", "y"]))


def match(number: int, *games: GameState) -> MatchState:
    return MatchState(
        code="M",
        round_number=number,
        participants=(Participant("x", "A" if number == 1 else ""), Participant("y")),
        games=games,
    )


def test_choice_in_the_first_game_sets_a_in_every_replay() -> None:
    """ "it is replayed, with the players switching A and B roles"."""
    score = ENGINE.score_match(
        STATE,
        match(
            4,
            GameState(1, (9, 9), details={"higher_seed_chose": "B"}),
            GameState(2, (11, 3)),
        ),
    )
    assert score.valid and score.complete
    assert score.details["a_seats"] == [1, 0]


def test_choice_in_a_game_is_checked_like_the_match_detail() -> None:
    wrong = ENGINE.score_match(
        STATE, match(2, GameState(1, (1, 2), details={"higher_seed_chose": "C"}))
    )
    assert [p.field for p in wrong.problems] == ["games[0].details.higher_seed_chose"]
    round1 = ENGINE.score_match(
        STATE, match(1, GameState(1, (1, 2), details={"higher_seed_chose": "A"}))
    )
    assert [p.code for p in round1.problems] == ["freestyle.round1_choice"]
