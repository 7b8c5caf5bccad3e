"""The WPF GP Playoffs engine says codes and parameters (rules/words.py): each sentence is
looked up by code, so a page can say it in the reader's language."""

from __future__ import annotations

import random
from dataclasses import replace

from rules import words
from rules.contract import EntrantState, EventState, RoundPlan
from rules.draws import DrawSource
from rules.formats.wpf_playoffs import ENGINE
from rules.formats.wpf_playoffs.simulate import play_round
from rules.formats.wpf_playoffs.timing import live_winner

PEOPLE = tuple(
    EntrantState(f"p{i}", f"Player {i}", flags={"gp_total": 100 - i, "attending": True})
    for i in range(1, 17)
)


def test_the_better_seed_wins_a_slow_live_match_by_the_grading_rule() -> None:
    """ "the competitor with the worse seed ... wins the match if they solve the puzzle in
    less than 10 minutes" (Grading (Live Stage Only)): why is a message of its own."""
    verdict = live_winner((605, None), (9, 5))  # seat 0 is seed 9, the worse seed
    reason = verdict.reason
    assert verdict.winner == 1
    assert reason.code == "wpf.live_better_seed"
    assert reason.rule == "Grading (Live Stage Only)"
    assert reason.params == {
        "seed": 5,
        "why": words.message("wpf.live_better_seed.not_under", time="10:05"),
    }
    assert reason.text == "The better seed (5) wins: the worse seed's 10:05 is not under 10:00."


def test_a_match_of_the_table_names_its_bracket_as_a_message() -> None:
    plan = ENGINE.next_round(EventState("wpf_playoffs", {}, PEOPLE), DrawSource("t"))
    assert isinstance(plan, RoundPlan)
    a7 = next(m for m in plan.matches if m.code == "A7")
    table = a7.reasons[0]
    assert (table.code, table.rule) == ("wpf.table", "Brackets")
    assert table.params["bracket"] == words.message("wpf.bracket.winners")
    assert table.params["ranks"] == [7, 9] and table.params["losses"] == [0, 0]
    assert table.text == "Match A7: rank 7 against rank 9, Winner's Bracket."


def test_why_a_player_holds_a_rank_is_kept_as_a_message_beside_its_english() -> None:
    state = EventState("wpf_playoffs", {}, PEOPLE)
    plan = ENGINE.next_round(state, DrawSource("t"))
    assert isinstance(plan, RoundPlan)
    winners = {m.code: 0 for m in plan.matches} | {"A1": 1}
    state = replace(state, rounds=(play_round(plan, random.Random(0), winners),))
    rows = ENGINE.standings(state).table("overall").rows
    top, kept = rows[0], rows[1]
    assert top.details["reason_message"] == words.message(
        "wpf.rank.won", rank=1, match="A1", before=16, opponent="p1"
    )
    assert top.details["reason"] == (
        "Rank 1 since A1: won as rank 16 against p1, and the two swapped ranks."
    )
    assert kept.details["reason_message"] == words.message("wpf.rank.seed_kept", rank=2, kept="A2")
    assert kept.details["reason"] == "Rank 2 is the initial seed; kept in A2."


def test_an_absent_finalist_loses_as_a_bye_said_by_the_format() -> None:
    state = EventState("wpf_playoffs", {}, PEOPLE, absent=("p3",))
    plan = ENGINE.next_round(state, DrawSource("t"))
    assert isinstance(plan, RoundPlan)
    a3 = next(m for m in plan.matches if m.code == "A3")
    absent = a3.reasons[-1]
    assert absent.code == "absent"
    assert absent.params["outcome"] == words.message("wpf.absent_bye")
    assert absent.text == (
        'Player 3 is absent: the match is lost, as a "bye" player loses all head-to-head '
        "competitions."
    )
