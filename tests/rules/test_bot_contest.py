"""bot_contest.txt: stage one (seeding gauntlet) and game/match scoring, with the decided
open questions 24-27. Each test names the sentence or the OPEN-QUESTION it pins."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import pytest

from rules.contract import (
    DrawMethod,
    DrawRecord,
    EngineError,
    EntrantState,
    EntrantStatus,
    EventState,
    GameEnding,
    GameState,
    MatchState,
    NeedsDecision,
    Participant,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.bot_contest import ENGINE
from rules.formats.bot_contest.scoring import Game, bonus, contest_points, match_result
from rules.formats.bot_contest.simulate import field

Results = Callable[[MatchState], tuple[GameState, ...]]


def game(a: int, b: int, first: int | None = None, **details: Any) -> GameState:
    return GameState(
        number=1 if first in (None, 0) else 2, scores=(a, b), first=first, details=details
    )


def two(a1: int, b1: int, a2: int, b2: int) -> tuple[GameState, ...]:
    """Game 1 with seat 0 moving first, game 2 with seat 1 moving first."""
    return (
        GameState(1, (a1, b1), first=0),
        GameState(2, (a2, b2), first=1),
    )


def make_state(
    entrants: tuple[EntrantState, ...] | int, settings: Mapping[str, Any] | None = None
) -> EventState:
    people = field(entrants) if isinstance(entrants, int) else entrants
    return EventState("bot_contest", dict(settings or {}), people)


def plan(state: EventState, seed: str = "t") -> tuple[Any, tuple[DrawRecord, ...]]:
    source = DrawSource(seed, state.draws)
    outcome = ENGINE.next_round(state, source)
    return outcome, state.draws + tuple(source.new)


def play(state: EventState, results: Results, seed: str = "t") -> EventState:
    outcome, draws = plan(state, seed)
    assert isinstance(outcome, RoundPlan), outcome
    matches = tuple(
        MatchState(
            m.code,
            outcome.number,
            m.participants,
            () if m.is_bye else results(MatchState(m.code, outcome.number, m.participants)),
            m.bracket,
            details=m.details,
        )
        for m in outcome.matches
    )
    rnd = RoundState(
        outcome.number,
        outcome.label,
        RoundStatus.COMPLETED,
        matches,
        outcome.stage,
        details=outcome.details,
    )
    return EventState(state.format, state.settings, state.entrants, (*state.rounds, rnd), draws)


def by_number(points: Mapping[str, int]) -> Results:
    """Gauntlet: entry E scores points[E] in each game and the reference 0 (E wins both)."""

    def results(match: MatchState) -> tuple[GameState, ...]:
        entrant = match.participants[0].entrant
        assert entrant is not None
        p = points.get(entrant, 10)
        return two(p, 0, p, 0)

    return results


def seeds_of(state: EventState) -> list[str]:
    return [str(s) for s in state.rounds[1].details["seeds"]]


# -- stage one ---------------------------------------------------------------------------


def test_stage_one_step_3_each_entry_plays_each_reference_twice() -> None:
    """'For each program that passed system test, I ran a match against each of the three
    seed programs - for a total of six games.'"""
    outcome, _ = plan(make_state(4))
    assert isinstance(outcome, RoundPlan)
    assert outcome.stage == "gauntlet"
    assert len(outcome.matches) == 12
    pairs = {(m.participants[0].entrant, m.participants[1].entrant) for m in outcome.matches}
    assert pairs == {(f"E{i}", f"REF{j}") for i in range(1, 5) for j in range(1, 4)}
    assert all(m.bracket == "gauntlet" for m in outcome.matches)


def test_stage_one_game_one_entry_moves_first_game_two_reference() -> None:
    """'once as X and once as O': default first movers are seat 0 then seat 1."""
    state = play(make_state(2), lambda m: (GameState(1, (10, 0)), GameState(2, (10, 0))))
    table = ENGINE.standings(state).table("gauntlet")
    # a win as X (1000 + 10) and a win as O (1200 + 10), three times
    assert table.rows[0].values["total"] == 3 * (1010 + 1210)


@pytest.mark.parametrize(
    ("winner", "seat", "first", "expected"),
    [
        (0, 0, 0, 1000),  # win as X
        (0, 0, 1, 1200),  # win as O
        (None, 0, 0, 500),  # tie as X
        (None, 0, 1, 600),  # tie as O
        (1, 0, 0, 0),  # a loss earns no bonus
    ],
)
def test_stage_one_step_4_bonuses(winner: int | None, seat: int, first: int, expected: int) -> None:
    """'You get 1000 points for winning when you play X (first) / 1200 ... O (second) / 500
    for tieing when you play X / 600 ... O'."""
    settings = ENGINE.defaults()
    assert bonus(Game(1, first, winner, (5, 5)), seat, settings) == expected


def test_stage_one_step_4_total_points_not_the_difference() -> None:
    """'For each of the six games, you get the total points you scored (NOT the difference
    in scores!)'."""
    settings = ENGINE.defaults()
    assert contest_points(Game(1, 0, 0, (40, 24)), 0, settings) == 1040
    assert contest_points(Game(1, 0, 0, (40, 24)), 1, settings) == 24


def test_stage_one_step_5_seeds_by_total() -> None:
    """'I sorted the programs according to the total points scored in all six games ... The
    top scoring program is seeded first'."""
    state = play(make_state(4), by_number({"E1": 5, "E2": 30, "E3": 20, "E4": 10}))
    table = ENGINE.standings(state).table("gauntlet")
    assert [r.entrant for r in table.rows] == ["E2", "E3", "E4", "E1"]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]
    state = play(state, lambda m: two(1, 0, 0, 1))
    assert seeds_of(state) == ["E2", "E3", "E4", "E1"]


def test_open_question_25_equal_totals_broken_by_game_points() -> None:
    """OPEN-QUESTION 25: equal totals go to total game points first."""

    def equal(match: MatchState) -> tuple[GameState, ...]:
        entrant = match.participants[0].entrant
        if entrant == "E1":
            return two(200, 0, 0, 0)  # win as X 1200 + tie as O 600 = 1800; 200 points
        if entrant == "E2":
            return two(0, 0, 100, 0)  # tie as X 500 + win as O 1300 = 1800; 100 points
        return two(0, 5, 0, 5)

    state = play(make_state(3), equal)
    table = ENGINE.standings(state).table("gauntlet")
    rows = {r.entrant: r for r in table.rows}
    assert rows["E1"].values["total"] == rows["E2"].values["total"] == 5400
    assert [r.entrant for r in table.rows][:2] == ["E1", "E2"]
    assert any(d.step == "game_points" and d.ahead == "E1" for d in table.decided)


def test_open_question_25_level_on_both_goes_to_a_recorded_draw() -> None:
    """OPEN-QUESTION 25: entries level on total and game points are ordered by a recorded
    random draw (key seeding/tie-N), and the standings say so."""
    state = play(make_state(5), by_number({"E1": 50, "E2": 10, "E3": 10, "E4": 10, "E5": 1}))
    before = ENGINE.standings(state).table("gauntlet")
    ranks = {r.entrant: r.rank for r in before.rows}
    assert ranks["E2"] == ranks["E3"] == ranks["E4"] == 2
    assert before.notes and before.notes[0].code == "bot_contest.seeding_draw_pending"
    outcome, draws = plan(state)
    assert isinstance(outcome, RoundPlan)
    record = next(d for d in draws if d.key == "seeding/tie-2")
    assert sorted(record.value) == ["E2", "E3", "E4"]
    assert outcome.details["seeds"] == ["E1", *record.value, "E5"]
    after = play(state, lambda m: two(1, 0, 0, 1))
    table = ENGINE.standings(after).table("gauntlet")
    assert [r.entrant for r in table.rows] == ["E1", *record.value, "E5"]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4, 5]


def test_open_question_25_external_draw_is_asked_for() -> None:
    """OPEN-QUESTION 25: with draws made outside, the engine asks for the tie's order."""
    state = play(make_state(3), by_number({"E1": 10, "E2": 10, "E3": 1}))
    outcome = ENGINE.next_round(state, DrawSource("t", state.draws, external=True))
    assert isinstance(outcome, NeedsDecision)
    assert outcome.key == "seeding/tie-1"
    typed = DrawRecord("seeding/tie-1", ["E2", "E1"], DrawMethod.EXTERNAL)
    state = EventState(state.format, state.settings, state.entrants, state.rounds, (typed,))
    outcome = ENGINE.next_round(state, DrawSource("t", state.draws, external=True))
    assert isinstance(outcome, RoundPlan)
    assert outcome.details["seeds"] == ["E2", "E1", "E3"]


def test_open_question_24_references_are_never_seeded() -> None:
    """OPEN-QUESTION 24: 'the three seed opponents ... were not actual entries that would
    compete in the finals' - references are never seeded; every other entry is."""
    state = play(make_state(6), by_number({}))
    state = play(state, lambda m: two(1, 0, 0, 1))
    seeds = seeds_of(state)
    assert sorted(seeds) == [f"E{i}" for i in range(1, 7)]
    brackets = ENGINE.standings(state).table("brackets")
    assert all(not r.entrant.startswith("REF") for r in brackets.rows)


def test_open_question_24_withdrawn_entries() -> None:
    """OPEN-QUESTION 24: an entry withdrawn before the gauntlet does not play it; one
    withdrawn after it keeps its gauntlet row but gets no seed."""
    people = list(field(4))
    people[0] = EntrantState(
        "E1", "Entry 1", status=EntrantStatus.WITHDRAWN, withdrawn_after_round=0
    )
    people[1] = EntrantState(
        "E2", "Entry 2", status=EntrantStatus.WITHDRAWN, withdrawn_after_round=1
    )
    state = make_state(tuple(people))
    outcome, _ = plan(state)
    assert isinstance(outcome, RoundPlan)
    assert {m.participants[0].entrant for m in outcome.matches} == {"E2", "E3", "E4"}
    state = play(state, by_number({}))
    state = play(state, lambda m: two(1, 0, 0, 1))
    assert "E2" not in seeds_of(state)
    table = ENGINE.standings(state).table("gauntlet")
    assert next(r for r in table.rows if r.entrant == "E2").status == "withdrawn"


def test_references_must_be_marked() -> None:
    """'I chose three programs': the gauntlet needs the set number of references."""
    with pytest.raises(EngineError, match="3 reference programs"):
        ENGINE.next_round(make_state(field(4, references=2)), DrawSource("t"))


# -- a game's result (OPEN-QUESTION 26) --------------------------------------------------


def _match(*games: GameState, bracket: str = "winners") -> MatchState:
    return MatchState("M", 1, (Participant("E1"), Participant("E2")), games, bracket)


def test_open_question_26_result_follows_points_by_default() -> None:
    """OPEN-QUESTION 26: by default the program with more points wins; equal points tie."""
    state = make_state(2)
    score = ENGINE.score_match(state, _match(*two(30, 20, 20, 20)))
    assert score.details["results"] == ["X", "tie"]
    assert score.winner == 0


def test_open_question_26_referee_result_contradicting_points_is_a_problem() -> None:
    """OPEN-QUESTION 26: a referee 'result' that disagrees with the points is refused."""
    games = (
        GameState(1, (30, 20), first=0, details={"result": "O"}),
        GameState(2, (1, 2), first=1),
    )
    score = ENGINE.score_match(make_state(2), _match(*games))
    assert not score.valid
    assert score.problems[0].code == "bot_contest.result_points"


def test_open_question_26_referee_setting_takes_the_explicit_result() -> None:
    """OPEN-QUESTION 26: with result_from = referee, the 'result' detail decides."""
    state = make_state(2, {"result_from": "referee"})
    games = (
        GameState(1, (10, 50), first=0, details={"result": "X"}),
        GameState(2, (10, 10), first=1, details={"result": "O"}),
    )
    score = ENGINE.score_match(state, _match(*games))
    assert score.details["results"] == ["X", "O"]
    assert score.winner == 0  # seat 0 won as X (game 1) and as O (game 2)
    missing = ENGINE.score_match(state, _match(*two(1, 0, 0, 1)))
    assert missing.problems[0].code == "bot_contest.result_missing"


def test_open_question_26_forfeit_needs_the_referees_result() -> None:
    """OPEN-QUESTION 26: a game that did not end normally needs the referee's result."""
    forfeit = GameState(1, (0, 0), first=0, ending=GameEnding.FORFEIT)
    score = ENGINE.score_match(make_state(2), _match(forfeit, GameState(2, (1, 0), first=1)))
    assert score.problems[0].code == "bot_contest.result_missing"
    forfeit = GameState(1, (0, 0), first=0, ending=GameEnding.FORFEIT, details={"result": "O"})
    score = ENGINE.score_match(make_state(2), _match(forfeit, GameState(2, (0, 1), first=1)))
    assert score.winner == 1


def test_game_problems_in_the_directors_words() -> None:
    """Scores must be present and not negative; a bye is no ending for a played game."""
    state = make_state(2)
    for games, code in [
        ((GameState(1, (None, 3)),), "bot_contest.score_missing"),
        ((GameState(1, (-1, 3)),), "bot_contest.score_negative"),
        ((GameState(1, (1, 3), ending=GameEnding.BYE),), "bot_contest.ending"),
        ((GameState(1, (1, 3), details={"result": "win"}),), "bot_contest.result"),
        ((*two(1, 0, 0, 1), GameState(3, (1, 0))), "bot_contest.game_count"),
    ]:
        score = ENGINE.score_match(state, _match(*games))
        assert score.problems[0].code == code
        assert score.problems[0].text[0].isupper()


def test_one_game_entered_is_incomplete_not_wrong() -> None:
    score = ENGINE.score_match(make_state(2), _match(GameState(1, (3, 1))))
    assert score.valid and not score.complete and score.winner is None


# -- a match's result (OPEN-QUESTION 27) -------------------------------------------------


def test_open_question_27_match_is_decided_by_game_wins_tie_counts_half() -> None:
    """OPEN-QUESTION 27: game wins decide, a tied game counting half to each."""
    settings = ENGINE.defaults()
    win_tie = match_result([Game(1, 0, 0, (9, 1)), Game(2, 1, None, (5, 5))], settings)
    assert win_tie.winner == 0 and win_tie.wins == (Fraction(3, 2), Fraction(1, 2))
    split = match_result([Game(1, 0, 0, (9, 1)), Game(2, 1, 1, (1, 50))], settings)
    assert split.winner is None and split.reason.code == "bot_contest.match_tied"
    score = ENGINE.score_match(make_state(2), _match(*two(9, 1, 5, 5)))
    assert score.summary == "1.5-0.5" and score.points == (Fraction(3, 2), Fraction(1, 2))


def test_open_question_27_games_then_points_setting() -> None:
    """OPEN-QUESTION 27: directors who want fewer tied matches may let total points decide
    equal game wins."""
    settings = {**ENGINE.defaults(), "match_decider": "games_then_points"}
    split = match_result([Game(1, 0, 0, (9, 1)), Game(2, 1, 1, (1, 50))], settings)
    assert split.winner == 1 and split.reason.code == "bot_contest.match_points"
    level = match_result([Game(1, 0, 0, (9, 1)), Game(2, 1, 1, (1, 9))], settings)
    assert level.winner is None


def test_gauntlet_and_final_matches_score_contest_points() -> None:
    """'Scoring of these games will follow the rules for the first stage.'"""
    score = ENGINE.score_match(make_state(2), _match(*two(30, 20, 20, 20), bracket="final"))
    assert score.points == (1030 + 620, 20 + 500 + 20)
