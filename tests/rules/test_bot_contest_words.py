"""Words at the edge for the bot contest (issue 23, item 3): the engine says codes and
parameters; the sentences live in rules/formats/bot_contest/words.py."""

from __future__ import annotations

import dataclasses

import pytest

from rules import words
from rules.contract import EngineError, GameEnding, GameState, RoundPlan
from rules.draws import DrawSource
from rules.formats.bot_contest import ENGINE
from tests.rules.test_bot_contest import by_number, make_state, plan, play
from tests.rules.test_bot_contest_stages import higher_seed_wins, seeded


def test_stage_two_step_2_the_fold_is_said_from_the_two_seeds() -> None:
    """'seed 1 plays seed N in a match': each bracket match names the sentence of the rule
    it applies and the two seeds, not a sentence written by the engine."""
    outcome, _ = plan(seeded(8))
    assert isinstance(outcome, RoundPlan)
    first = outcome.matches[0]
    fold = next(r for r in first.reasons if r.code == "bot_contest.fold")
    assert fold.rule == "Stage two, step 2"
    assert dict(fold.params) == {"high": 1, "low": 8}
    assert fold.text == "Seed 1 meets seed 8."
    assert words.render(fold.code, fold.params) == fold.text


def test_a_waiting_bracket_is_named_by_a_message_of_its_own() -> None:
    """'EVENTUALLY' (OPEN-QUESTION 33): the bracket that has reached its size waits; which
    bracket is a message (said in the page's language), its key stays beside it for code
    that reads it."""
    state = seeded(9)
    for _ in range(2):
        state = play(state, higher_seed_wins)
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan)
    waits = next(r for r in outcome.reasons if r.code == "bot_contest.bracket_waits")
    assert waits.rule == "Stage two, EVENTUALLY"
    assert waits.params["bracket"] == "winners"
    assert waits.params["the_bracket"] == words.message("bot_contest.bracket.winners")
    assert waits.text == "The winners' bracket (3) has reached its size for the final and waits."


def test_a_problem_in_a_match_carries_the_games_problem_as_a_message() -> None:
    """Before the next round, a game's problem is said after the match's code: the inner
    problem is kept as a message (code and parameters), not as English text."""
    state = play(make_state(2), by_number({"E1": 10, "E2": 5}))
    last = state.rounds[-1]
    broken = dataclasses.replace(
        last.matches[0],
        games=(
            GameState(1, (3, 1), ending=GameEnding.TIME_DEFAULT),
            *last.matches[0].games[1:],
        ),
    )
    rnd = dataclasses.replace(last, matches=(broken, *last.matches[1:]))
    state = dataclasses.replace(state, rounds=(*state.rounds[:-1], rnd))
    with pytest.raises(EngineError) as refused:
        ENGINE.next_round(state, DrawSource("t"))
    problem = refused.value.problems[0]
    assert problem.code == "bot_contest.in_match"
    inner = problem.params["problem"]
    assert inner["code"] == "bot_contest.result_missing"
    assert problem.text == (
        f"{broken.code}: Game 1: enter the referee's result (X, O or tie): the game ended "
        "by time default."
    )
