"""The WOC engine says codes and parameters; its sentences live in rules/formats/woc/words.py
(issue 23, item 3). These pin a few of them by code and parameters, with the sentence of
the rule document each applies."""

from __future__ import annotations

from fractions import Fraction

from rules import words
from rules.contract import GameEnding, GameState, Reason
from rules.formats.woc import finals, stages, swiss, system
from rules.formats.woc import words as woc_words
from rules.formats.woc.scoring import SEATS, score_game


def _player(key: str, country: str, points: Fraction) -> swiss.SwissPlayer:
    return swiss.SwissPlayer(
        id=key, points=points, seats=(), last_float=0, opponents={}, country=country, name=key
    )


def test_a_same_country_pair_names_rule_g_and_the_country():
    """II.6.2(g): two players of one country meet only when no equivalent pairing avoids it."""
    players = {
        "Ann": _player("Ann", "JPN", Fraction(2)),
        "Bob": _player("Bob", "JPN", Fraction(2)),
    }
    cost = swiss.PairCost("Ann", "Bob", (0, 0, 0, 0, 0, 1))
    (reason,) = swiss.explain(cost, players)
    assert reason.code == "woc.pairing.same_country"
    assert reason.rule == "woc II.6.2(g)"
    assert reason.params == {"country": "JPN"}
    assert reason.text == (
        "Both play for JPN: no equivalent pairing under rules (a)-(f) avoids it."
    )
    assert reason == Reason("woc.pairing.same_country", rule="woc II.6.2(g)", params=reason.params)


def test_a_colour_in_a_sentence_is_a_message_of_its_own():
    """IV.6: the player who lost on time is named by colour, and the colour is said in the
    reader's language: a message inside the message, not an English word."""
    game = GameState(1, (40, 10), ending=GameEnding.TIME_DEFAULT, details={"defaulter": "black"})
    result, problems = score_game(game, "games[0]")
    assert not problems and result is not None
    (reason,) = result.reasons
    assert reason.code == "woc.score.time_default.least" and reason.rule == "woc IV.6"
    assert reason.params["loser"] == words.message("woc.seat.black")
    assert reason.params["winner"] == words.message("woc.seat.white")
    assert reason.text == "Black lost on time: White wins 33-31 (at least 33-31)."
    french = {"Black": "Noir", "White": "Blanc"}
    said = words.render(reason.code, reason.params, lambda s: french.get(s, s))
    assert said == "Noir lost on time: Blanc wins 33-31 (at least 33-31)."


def test_one_code_says_one_sentence_where_the_english_used_to_vary():
    """A plural, an optional note and a choice each have their own code."""
    one, many = (score_game(GameState(1, (40, 24 - n)), "games[0]")[0] for n in (1, 2))
    assert one is not None and many is not None
    assert one.reasons[0].code == "woc.score.empties.one"
    assert one.reasons[0].text == "1 empty square counted for the winner (Black)."
    assert many.reasons[0].code == "woc.score.empties.many"
    assert many.reasons[0].text == "2 empty squares counted for the winner (Black)."
    penalty = {"penalty": {"kind": "draw", "note": "phone rang"}}
    noted = score_game(GameState(1, (40, 24), details=penalty), "games[0]")[0]
    assert noted is not None and noted.reasons[-1].code == "woc.penalty.draw.note"
    assert noted.reasons[-1].text == "The director declared the game a draw (phone rang)."


def test_every_part_of_a_sentence_has_words():
    """The parts other sentences embed (colours, systems, kinds of match) are all known."""
    parts = [*SEATS, *swiss._COLOUR, *system.SYSTEM_NAMES.values(), *finals.KIND_NAMES.values()]
    for part in parts:
        assert words.render(part["code"], part["params"])
    assert set(system.SYSTEM_NAMES) == set(system.SYSTEMS) - {"auto"}
    assert set(finals.KIND_NAMES) == {k for k in finals.KIND_STAGE if k not in finals.BEST_OF}
    assert all(code.startswith(("woc.", "wof.")) for code in woc_words.WORDS)


def test_each_planned_match_says_its_minutes_and_its_list():
    """IV.1's minutes and the list each kind is drawn from are written in its sentence;
    they must say what match_details records."""
    for kind, (code, rule) in stages._PLANNED.items():
        sentence = woc_words.WORDS[code]
        assert f"{finals.MINUTES[kind]} minutes per player (IV.1)" in sentence, kind
        best_of = finals.BEST_OF.get(kind, 1)
        assert ("Best of three" in sentence) == (best_of == 3), kind
        listed = "WFRL" if kind.startswith("women") else "IFRL"
        assert (f"of the {listed}" in sentence) == (kind != "playoff"), kind
        assert rule.startswith("woc ")


def test_the_berger_reason_says_draw_numbers_not_entrant_numbers() -> None:
    """Issue 28, item 10(b): the Why column of a round robin round says "draw number 2 meets
    draw number 11" (places in the Berger table, drawn by lot), so it is not read as the
    entrant numbers the same row shows."""
    from rules.contract import EntrantState, EventState, RoundPlan
    from rules.draws import DrawSource
    from rules.formats.woc import ENGINE

    field = tuple(EntrantState(id=str(i), name=f"P{i}") for i in range(1, 10))
    plan = ENGINE.next_round(EventState("woc", {}, field), DrawSource("s"))
    assert isinstance(plan, RoundPlan) and plan.stage == "round_robin"
    berger = [r for m in plan.matches for r in m.reasons if r.code.startswith("woc.round_robin")]
    game = next(r for r in berger if r.code == "woc.round_robin.berger")
    assert game.text == (
        f"Berger table round 1: draw number {game.params['first']} (Black) meets draw number "
        f"{game.params['second']} (White)."
    )
    assert words.render("woc.round_robin.berger.alone", {"round": 1, "first": 9}) == (
        "Berger table round 1: draw number 9 has no opponent."
    )
