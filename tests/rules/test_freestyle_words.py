"""Words at the edge for Freestyle and the plain round robin: the engines say a code, the
rule sentence it applies and the parameters; the English comes from their words modules,
the same sentence as before (rules/formats/freestyle/words.py,
rules/formats/round_robin/words.py)."""

from __future__ import annotations

from rules import words
from rules.contract import EventState, Problem, Reason
from rules.draws import DrawSource
from rules.formats.freestyle import ENGINE as FREESTYLE
from rules.formats.round_robin import ENGINE as ROUND_ROBIN
from tests.rules.test_freestyle_support import event, players, source


def test_round1_roles_name_the_rule_and_say_the_parity_as_a_message() -> None:
    """ "If the sum of the two seeds is even the higher seeded player is A, and if the sum
    is odd, the lower seeded player is A." """
    state = event(players(28))
    plan = FREESTYLE.next_round(state, source(state))
    said = {
        r.text: r
        for m in plan.matches
        if m.group == "B"
        for r in m.reasons
        if r.code == "freestyle.round1_roles"
    }
    even = said["Seeds 1 and 7 add up to 8, even: seed 1 is A."]
    odd = said["Seeds 1 and 2 add up to 3, odd: seed 2 is A."]
    assert even.rule == odd.rule == "Choosing Who is A and Who is B: In Round 1"
    assert even.params["parity"] == words.message("freestyle.even")
    assert odd.params["a"] == 2 and odd.params["parity"] == words.message("freestyle.odd")
    pinned = Reason(
        "freestyle.round1_roles",
        params={
            "high": 1,
            "low": 7,
            "total": 8,
            "a": 1,
            "parity": words.message("freestyle.even"),
        },
    )
    assert pinned.text == even.text


def test_a_tiebreak_setting_of_the_round_robin_is_its_own_code() -> None:
    problems = ROUND_ROBIN.validate_settings({"tiebreaks": ["coin"]})
    assert [(p.code, p.field) for p in problems] == [("round_robin.setting.tiebreak", "tiebreaks")]
    assert problems[0].text == (
        "'coin' is not a tiebreak; choose from head_to_head, sonneborn_berger, wins, "
        "score_difference, score_for."
    )


def test_the_berger_reason_names_its_table_and_the_round_off_has_its_own_code() -> None:
    state = EventState("round_robin", {}, players(3))
    plan = ROUND_ROBIN.next_round(state, DrawSource("seed"))
    berger = [r for m in plan.matches for r in m.reasons if r.rule == "Berger tables"]
    assert {r.code for r in berger} == {"round_robin.berger", "round_robin.berger.off"}
    off = next(r for r in berger if r.code == "round_robin.berger.off")
    # issue 28, item 10(b): a draw number is said to be one, never read as an entrant number
    assert off.text == (
        f"Berger table, round 1: draw number {off.params['first']} has the round off"
    )
    game = next(r for r in berger if r.code == "round_robin.berger")
    assert game.text == (
        f"Berger table, round 1: draw number {game.params['first']} meets draw number "
        f"{game.params['second']}"
    )


def test_a_game_count_says_its_plurals_from_nested_messages() -> None:
    def said(expected: int, given: int) -> str:
        has = (
            words.message("round_robin.games.one")
            if expected == 1
            else words.message("round_robin.games.many", count=expected)
        )
        entered = (
            words.message("round_robin.entered.one")
            if given == 1
            else words.message("round_robin.entered.many", count=given)
        )
        params = {"expected": expected, "given": given, "has": has, "entered": entered}
        return Problem("round_robin.game_count", "games", params=params).text

    assert said(1, 2) == "This match has 1 game; 2 were entered."
    assert said(2, 1) == "This match has 2 games; 1 was entered."
    assert said(3, 0) == "This match has 3 games; 0 were entered."
