"""GokoDom says codes and parameters (rules/formats/gokodom/words.py): the English is
looked up by code, each reason names the section of the rule document it applies, and one
code says one sentence, so a page can say it in another language."""

from __future__ import annotations

import dataclasses

from rules import words
from rules.contract import NeedsDecision, RoundPlan
from rules.formats.gokodom import ENGINE
from rules.formats.gokodom.results import RESULT_REASONS, Result

from .test_gokodom_knockout import _eighth_place_event
from .test_gokodom_support import entrant, plan, play, state


def test_a_pairing_names_the_sentence_of_ii_f_it_applies() -> None:
    """II.F: a player takes 'the highest player below who (1) has not played them, (2) is
    within the window, (3) has the opposite colour'."""
    first = plan(state([entrant("ann", "red"), entrant("bob", "blue")]))
    assert isinstance(first, RoundPlan)
    reason = first.matches[0].reasons[0]
    # a window of 1 has its own sentence: "1 match point"
    assert reason.code == "gokodom.paired.opposite_colour.one" and reason.rule == "GokoDom II.F"
    assert reason.params["tier"] == 1 and reason.params["window"] == 1
    higher, lower = reason.params["higher_name"], reason.params["lower_name"]
    assert {higher, lower} == {"ANN", "BOB"}
    assert reason.text == (
        f"{higher} (#1) takes {lower} (#2), the highest player below who has not played "
        "them, is within +-1 match point and has the opposite colour."
    )
    assert reason.text == words.render(reason.code, reason.params)


def test_each_result_of_ii_c_has_its_sentence() -> None:
    """II.C: the reason a scored Swiss match gives says each result's name and points."""
    known = words.catalogue()
    assert set(RESULT_REASONS) == set(Result)
    assert all(code == f"gokodom.result.{r.lower()}" for r, code in RESULT_REASONS.items())
    assert known["gokodom.result.dd"] == "Draw by Default (DD): 1 match point."
    assert known["gokodom.result.wd"] == "Win by Default (WD): 2 match points."


def test_an_open_elimination_match_is_one_code_per_sentence_iv_a_4() -> None:
    """IV.A.4: a 3-3 tie in the elimination is left to the director. The question before
    the next round, the note on the match's score (the code the web side looks for) and the
    standings' question each have their own code."""
    event = _eighth_place_event(eighth_place_tie="coin")
    quarter = plan(event)
    event = play(event, quarter, {"QF2": "101010"})
    a, b = (p.entrant.upper() for p in quarter.matches[1].participants if p.entrant)
    asked = plan(event)
    assert isinstance(asked, NeedsDecision)
    assert asked.code == "gokodom.tied.decision"
    assert asked.params == {"match": "QF2", "a": a, "b": b}
    assert asked.text == (
        f"Match QF2: {a} and {b} tied 3-3 on game points. The rules leave this open: record "
        "who goes through (match detail 'advances')."
    )
    score = ENGINE.score_match(event, event.rounds[-1].matches[1])
    assert [(r.code, r.rule) for r in score.reasons] == [("gokodom.tied", "GokoDom IV.A.4")]
    pending = ENGINE.standings(event).pending
    assert [(p.code, p.text) for p in pending] == [
        ("gokodom.tied.pending", "Match QF2: the director records who goes through.")
    ]


def test_an_absence_says_the_format_s_outcome_as_a_message() -> None:
    """gokodom.md, Absence: an absent player without a Bye by Request is not paired and
    loses; the outcome is GokoDom's own sentence inside the shared one."""
    event = state([entrant("ann", "red"), entrant("bob", "blue"), entrant("cy", "red")])
    event = dataclasses.replace(event, absent=("cy",))
    first = plan(event)
    assert isinstance(first, RoundPlan)
    (absent,) = [m for m in first.matches if m.code.startswith("R1-ABS")]
    reason = absent.reasons[0]
    assert reason.code == "absent" and reason.params["outcome"] == {
        "code": "gokodom.absent.loss",
        "params": {},
    }
    assert reason.text == (
        "CY is absent: not paired; a Loss (0 match points), and the player stays in."
    )
