"""bot_contest.txt stages two and three: brackets, byes, repeats, boards, the final round
robin, and the decided open questions 28-38."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rules.contract import (
    DrawMethod,
    DrawRecord,
    EngineError,
    EntrantStatus,
    EventState,
    Finished,
    GameState,
    MatchState,
    NeedsDecision,
    Participant,
    RoundPlan,
)
from rules.draws import DrawSource
from rules.formats.bot_contest import ENGINE
from rules.formats.bot_contest.brackets import choose_bye, pair_bracket
from tests.rules.test_bot_contest import by_number, make_state, plan, play, two

NINE = {f"E{i}": 100 - i for i in range(1, 10)}  # seeds E1..E9 in order


def higher_seed_wins(match: MatchState) -> tuple[GameState, ...]:
    """Seat 0 (the higher seed by default) wins both games."""
    return two(1, 0, 1, 0)


def seeded(n: int, settings: dict[str, Any] | None = None) -> EventState:
    return play(make_state(n, settings), by_number({f"E{i}": 100 - i for i in range(1, n + 1)}))


def pairs_of(outcome: RoundPlan, bracket: str) -> list[tuple[str | None, ...]]:
    return [
        tuple(p.entrant for p in m.participants) for m in outcome.matches if m.bracket == bracket
    ]


def where(state: EventState) -> dict[str, str]:
    return {
        r.entrant: str(r.values["bracket"]) for r in ENGINE.standings(state).table("brackets").rows
    }


# -- stage two ---------------------------------------------------------------------------


def test_stage_two_steps_1_2_bye_then_seed_1_plays_seed_n() -> None:
    """'If N is odd, the highest seeded entry that has not yet received a bye will get a
    bye.' 'seed 1 plays seed N in a match; seed 2 plays N-1; etc.' With the bye taken out,
    the rest fold the same way (OPEN-QUESTION 29)."""
    outcome, _ = plan(seeded(9))
    assert isinstance(outcome, RoundPlan) and outcome.stage == "brackets"
    assert pairs_of(outcome, "winners") == [
        ("E2", "E9"),
        ("E3", "E8"),
        ("E4", "E7"),
        ("E5", "E6"),
        ("E1",),
    ]
    bye = next(m for m in outcome.matches if m.is_bye)
    assert bye.reasons[0].rule == "Stage two, step 1"


def test_stage_two_step_2_each_match_is_two_games_each_moving_first_once() -> None:
    """'Each match consists of 2 games on the same board, with each player getting a chance
    to go first.' Two games with the same first mover are refused."""
    state = seeded(4)
    match = MatchState("M", 2, (Participant("E1"), Participant("E4")), two(1, 0, 0, 1))
    assert ENGINE.score_match(state, match).valid
    same = (GameState(1, (1, 0), first=0), GameState(2, (1, 0), first=0))
    score = ENGINE.score_match(state, MatchState("M", 2, match.participants, same))
    assert score.problems[0].code == "bot_contest.first_twice"


def test_open_question_38_higher_seed_moves_first_in_game_one() -> None:
    """OPEN-QUESTION 38: the higher seed sits in seat 0 and moves first in game 1 by
    default; the setting first_in_game_one = lower_seed turns it round."""
    outcome, _ = plan(seeded(4, {"k": 1, "losers_target": 2}))
    assert isinstance(outcome, RoundPlan)
    assert pairs_of(outcome, "winners") == [("E1", "E4"), ("E2", "E3")]
    assert outcome.matches[0].details["seeds"] == [1, 4]
    settings = {"k": 1, "losers_target": 2, "first_in_game_one": "lower_seed"}
    outcome, _ = plan(seeded(4, settings))
    assert isinstance(outcome, RoundPlan)
    assert pairs_of(outcome, "winners") == [("E4", "E1"), ("E3", "E2")]


def test_stage_two_step_3_winners_stay_losers_drop_then_go_out() -> None:
    """'If an entry wins or ties, it advances to the next round in that bracket. A loss
    will drop it to the loser's bracket, or will eliminate it if the match took place in
    the loser's bracket.' First-time losers play in the losers' bracket from the next round
    (OPEN-QUESTION 30); there are only two brackets (OPEN-QUESTION 34)."""
    state = play(seeded(9), higher_seed_wins)
    assert where(state) == {
        **{f"E{i}": "winners" for i in range(1, 6)},
        **{f"E{i}": "losers" for i in range(6, 10)},
    }
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan)
    # E1 had the bye: the next highest seed without one, E2, gets it (never a second bye)
    assert pairs_of(outcome, "winners") == [("E1", "E5"), ("E3", "E4"), ("E2",)]
    assert pairs_of(outcome, "losers") == [("E6", "E9"), ("E7", "E8")]
    state = play(state, higher_seed_wins)
    status = where(state)
    assert status["E8"] == status["E9"] == "eliminated"
    assert status["E4"] == status["E5"] == "losers"
    assert set(status.values()) == {"winners", "losers", "eliminated"}


def test_stage_two_step_3_a_tied_match_keeps_both_in_the_bracket() -> None:
    """'If an entry wins or ties, it advances': a 1-1 match keeps both where they are."""
    state = play(seeded(4, {"k": 1, "losers_target": 2}), lambda m: two(1, 0, 0, 1))
    assert set(where(state).values()) == {"winners"}


def test_open_question_28_a_bye_is_a_match_won() -> None:
    """OPEN-QUESTION 28: the entry with a bye stays in its bracket as if it had won."""
    bye = MatchState("B", 2, (Participant("E1"),))
    score = ENGINE.score_match(seeded(3), bye)
    assert score.winner == 0 and score.summary == "bye"
    state = play(seeded(9), higher_seed_wins)
    assert where(state)["E1"] == "winners"


def test_open_question_32_every_entry_has_had_a_bye() -> None:
    """OPEN-QUESTION 32: 'I will not award more than a single bye' - when every entry of an
    odd bracket has had one, the highest seed among those with the fewest byes gets it."""
    chosen, reason = choose_bye(["a", "b", "c"], {"a": 1, "b": 1, "c": 1})
    assert chosen == "a" and reason.code == "bot_contest.second_bye"
    chosen, reason = choose_bye(["a", "b", "c"], {"a": 2, "b": 1, "c": 1})
    assert chosen == "b"
    chosen, reason = choose_bye(["a", "b", "c"], {"a": 1})
    assert chosen == "b" and reason.code == "bot_contest.bye"


def test_open_question_31_repeat_matches_are_avoided_when_possible() -> None:
    """OPEN-QUESTION 31: 'I will try to avoid having two programs play "repeat" matches' -
    the highest seed takes the lowest seed it has not met, as long as the rest can still
    be paired; a repeat stays only when no pairing avoids it."""
    met = {frozenset(("a", "d"))}
    pairing = pair_bracket(["a", "b", "c", "d"], {}, met)
    assert pairing.pairs == [("a", "c"), ("b", "d")]
    assert pairing.reasons[-1].code == "bot_contest.repeat_avoided"
    # a-d and b-c both met: a-c / b-d avoids both
    met = {frozenset(("a", "d")), frozenset(("b", "c"))}
    assert pair_bracket(["a", "b", "c", "d"], {}, met).pairs == [("a", "c"), ("b", "d")]
    # every pairing of two repeats
    forced = pair_bracket(["a", "b"], {}, {frozenset(("a", "b"))})
    assert forced.pairs == [("a", "b")] and forced.repeats == 1
    # the highest seed gives way only as far as the rest needs: a-f is free, but then
    # b, c, d, e must avoid b-e, c-d, b-d... -> the fewest repeats decide
    met = {frozenset(p) for p in [("b", "e"), ("c", "d"), ("b", "d")]}
    pairing = pair_bracket(["a", "b", "c", "d", "e", "f"], {}, met)
    assert pairing.repeats == 0
    assert all(frozenset(p) not in met for p in pairing.pairs)
    assert pairing.pairs[0] == ("a", "f")


def test_open_question_31_in_play_tied_pairs_do_not_meet_again() -> None:
    """OPEN-QUESTION 31: two entries that tied and stay together are not paired again."""
    state = play(seeded(4, {"k": 1, "losers_target": 2}), lambda m: two(1, 0, 0, 1))
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan)
    assert pairs_of(outcome, "winners") == [("E1", "E3"), ("E2", "E4")]


def test_open_question_33_stage_two_ends_at_2k_winners_then_losers_to_the_rest() -> None:
    """'there will be only 2K entries left in the winners bracket ... continue the loser's
    bracket until there are roughly K entries remaining' (OPEN-QUESTION 33): the winners'
    bracket stops at 2K or fewer (5 -> 3 here), and the losers' bracket plays on until the
    final would hold 3K (here: until 3 or fewer remain)."""
    state = seeded(9)
    for _ in range(2):
        state = play(state, higher_seed_wins)
    assert sorted(e for e, b in where(state).items() if b == "winners") == ["E1", "E2", "E3"]
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan)
    assert {m.bracket for m in outcome.matches} == {"losers"}
    assert any(r.code == "bot_contest.bracket_waits" for r in outcome.reasons)
    # E4-E7 and E5-E6 met in round 2 (OPEN-QUESTION 31): E4-E6 and E5-E7 instead
    assert pairs_of(outcome, "losers") == [("E4", "E6"), ("E5", "E7")]
    state = play(state, higher_seed_wins)
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan) and outcome.stage == "final"
    assert outcome.details["finalists"] == ["E1", "E2", "E3", "E4", "E5"]


def test_open_question_33_small_fields_go_straight_to_the_final() -> None:
    """OPEN-QUESTION 33: a field of 2K or fewer entries has no stage two."""
    outcome, _ = plan(seeded(4))
    assert isinstance(outcome, RoundPlan) and outcome.stage == "final"
    assert outcome.details["seeds"] == ["E1", "E2", "E3", "E4"]


def test_open_question_33_k_and_the_final_size_are_checked() -> None:
    """'no fewer than 4 and no more than 8 entries remaining at this point'."""
    assert ENGINE.validate_settings({}) == []
    assert ENGINE.validate_settings({"k": 1, "losers_target": 2}) == []
    assert ENGINE.validate_settings({"k": 3, "losers_target": 2}) == []
    for bad in ({"k": 3}, {"k": 1}, {"k": 0}, {"k": 2, "losers_target": 5}):
        problems = ENGINE.validate_settings(bad)
        assert problems, bad
    assert ENGINE.validate_settings({"kay": 2})[0].code == "setting.unknown"


def test_open_question_37_each_round_a_different_board_shared_by_both_brackets() -> None:
    """'For each round, a different starting board will be used' (OPEN-QUESTION 37): one
    board per round for both brackets, rotating through the list; a reused board is said."""
    settings = {"boards": ["hex", "star", "cross"]}
    state = play(make_state(9, settings), by_number(NINE))
    assert state.rounds[0].details == {"board": "hex", "board_source": "rotation"}
    state = play(state, higher_seed_wins)
    state = play(state, higher_seed_wins)
    assert [r.details["board"] for r in state.rounds] == ["hex", "star", "cross"]
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan) and outcome.details["board"] == "hex"
    assert any(r.code == "bot_contest.board_reused" for r in outcome.reasons)


def test_open_question_37_the_director_may_pick_each_board() -> None:
    """OPEN-QUESTION 37: with board_choice = director the engine asks for the board and
    reads it from the recorded decision board/round-N."""
    state = make_state(4, {"boards": ["hex", "star"], "board_choice": "director"})
    outcome, _ = plan(state)
    assert isinstance(outcome, NeedsDecision)
    assert outcome.key == "board/round-1" and outcome.options == ("hex", "star")
    picked = DrawRecord("board/round-1", "star", DrawMethod.EXTERNAL)
    state = EventState(state.format, state.settings, state.entrants, (), (picked,))
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan)
    assert outcome.details == {"board": "star", "board_source": "director"}


def test_a_game_on_another_board_is_refused() -> None:
    """'Each match consists of 2 games on the same board'."""
    state = play(make_state(4, {"boards": ["hex"]}), by_number({}))
    games = (GameState(1, (1, 0), first=0, details={"board": "star"}),)
    match = MatchState("G1-R1", 1, (Participant("E1"), Participant("REF1")), games, "gauntlet")
    assert ENGINE.score_match(state, match).problems[0].code == "bot_contest.board"


# -- stage three -------------------------------------------------------------------------


def test_stage_three_everyone_plays_everyone_on_a_single_board() -> None:
    """'EVERYONE WILL PLAY EVERYONE ELSE IN THE FINAL ROUND. A SINGLE BOARD WILL BE USED FOR
    ALL THESE GAMES.' Each pair plays one two-game match (OPEN-QUESTION 35)."""
    state = seeded(4)
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan) and outcome.stage == "final"
    pairs = {frozenset(p) for p in pairs_of(outcome, "final")}
    assert len(pairs) == len(outcome.matches) == 6
    assert "board" in outcome.details


def test_stage_three_scored_as_stage_one_highest_total_wins() -> None:
    """'Scoring of these games will follow the rules for the first stage.' 'the winner will
    be the entry with the highest number of points.'"""
    state = play(seeded(4), higher_seed_wins)
    outcome, _ = plan(state)
    assert isinstance(outcome, Finished) and outcome.reason.params["winner"] == "E1"
    standings = ENGINE.standings(state)
    assert standings.final and standings.tables[0].key == "overall"
    final = standings.table("final")
    row = final.rows[0]
    assert row.entrant == "E1" and row.values["total"] == 3 * (1001 + 1201)
    assert row.values["vs:E2"] == 1001 + 1201 and row.values["vs:E1"] is None
    assert [r.entrant for r in standings.tables[0].rows] == ["E1", "E2", "E3", "E4"]


def test_open_question_36_a_tie_for_first_is_left_to_the_director() -> None:
    """'I'll think of something clever of course' (OPEN-QUESTION 36): the engine reports the
    tie and reads the director's decision recorded under final/winner."""
    state = play(seeded(4), lambda m: two(1, 1, 1, 1))
    outcome, _ = plan(state)
    assert isinstance(outcome, NeedsDecision)
    assert outcome.key == "final/winner" and set(outcome.options) == {"E1", "E2", "E3", "E4"}
    standings = ENGINE.standings(state)
    assert not standings.final and standings.pending[0].key == "final/winner"
    decided = DrawRecord("final/winner", "E3", DrawMethod.EXTERNAL, "director's decision")
    state = EventState(state.format, state.settings, state.entrants, state.rounds, (decided,))
    outcome = ENGINE.next_round(state, DrawSource("t", state.draws))
    assert isinstance(outcome, Finished) and outcome.reason.params["winner"] == "E3"
    standings = ENGINE.standings(state)
    assert standings.final and standings.tables[0].rows[0].entrant == "E3"
    assert [r.rank for r in standings.tables[0].rows] == [1, 2, 2, 2]


def test_standings_tables_through_the_event() -> None:
    """Standings: the gauntlet table, the brackets, the final crosstable, then the ranking."""
    state = seeded(9)
    assert [t.key for t in ENGINE.standings(state).tables] == ["gauntlet"]
    state = play(state, higher_seed_wins)
    standings = ENGINE.standings(state)
    assert [t.key for t in standings.tables] == ["gauntlet", "brackets"]
    rows = {r.entrant: r for r in standings.table("brackets").rows}
    assert rows["E1"].values["byes"] == 1 and rows["E9"].values["losses"] == 1
    for _ in range(3):  # stage two, rounds 2 and 3, then the final
        state = play(state, higher_seed_wins)
    standings = ENGINE.standings(state)
    assert standings.final
    overall = standings.table("overall")
    assert [r.entrant for r in overall.rows][:5] == ["E1", "E2", "E3", "E4", "E5"]
    # E6, E7 went out in round 4, E8, E9 in round 3: later out ranks higher, same round shares
    assert [(r.entrant, r.rank) for r in overall.rows][5:] == [
        ("E6", 6),
        ("E7", 6),
        ("E8", 8),
        ("E9", 8),
    ]
    statuses = {r.entrant: r.status for r in standings.table("brackets").rows}
    assert statuses["E1"] == "qualified" and statuses["E9"] == "eliminated"


def test_a_round_must_be_complete_before_the_next() -> None:
    """The brackets are read from results: a missing game stops the next pairing."""
    state = play(make_state(4), lambda m: two(1, 0, 0, 1)[:1])
    with pytest.raises(EngineError, match="both games must be entered"):
        plan(state)


def test_an_entry_withdrawn_in_stage_two_leaves_its_bracket() -> None:
    """A withdrawn entry is no longer paired; the brackets table shows it withdrawn."""
    state = play(seeded(9), higher_seed_wins)
    people = tuple(
        dataclasses.replace(e, status=EntrantStatus.WITHDRAWN, withdrawn_after_round=2)
        if e.id == "E7"
        else e
        for e in state.entrants
    )
    state = dataclasses.replace(state, entrants=people)
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan)
    assert pairs_of(outcome, "losers") == [("E8", "E9"), ("E6",)]
    assert where(state)["E7"] == "withdrawn"


def test_a_bracket_round_is_labelled_as_its_match_codes_are() -> None:
    """Issue 21 finding 10: "Stage two, round 1" held matches coded R2-W1; the label now
    carries the event's round number, as the codes do, with the stage's own count."""
    import random

    from rules.formats.bot_contest.simulate import simulate as simulate_contest

    state, _finished = simulate_contest(10, random.Random(3))
    brackets = [r for r in state.rounds if r.stage == "brackets"]
    assert brackets
    for rnd in brackets:
        codes = {m.code.split("-", 1)[0] for m in rnd.matches}
        assert rnd.label.startswith(f"Round {rnd.number} (stage two, round ")
        assert codes == {f"R{rnd.number}"}
