"""The plain round_robin engine: the contract exercised end to end without a database."""

import random
from fractions import Fraction

import pytest

from rules import registry
from rules.contract import (
    EngineError,
    EntrantState,
    EntrantStatus,
    EventState,
    Finished,
    GameState,
    MatchState,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource

ENGINE = registry.get("round_robin")


def entrants(n, **flags):
    return tuple(EntrantState(str(i), f"P{i}", rating=2000 - i) for i in range(1, n + 1))


def play(state, scores, draws=None):
    """Plan the next round and play it with ``scores(match) -> (a, b)``."""
    plan = ENGINE.next_round(state, draws or DrawSource("seed"))
    assert isinstance(plan, RoundPlan)
    matches = tuple(
        MatchState(
            m.code,
            plan.number,
            m.participants,
            () if m.is_bye else (GameState(1, scores(m)),),
            table=m.table,
        )
        for m in plan.matches
    )
    rnd = RoundState(plan.number, plan.label, RoundStatus.COMPLETED, matches, details=plan.details)
    return EventState(state.format, state.settings, state.entrants, (*state.rounds, rnd))


def test_registry_knows_the_engine_and_it_satisfies_the_contract():
    from rules.contract import Engine

    assert isinstance(ENGINE, Engine)
    assert "round_robin" in registry.formats()
    with pytest.raises(registry.UnknownFormat):
        registry.get("no-such-format")


def test_draw_numbers_follow_seeds_then_rating_and_round_one_is_the_berger_table():
    people = (
        EntrantState("1", "Low", rating=1500),
        EntrantState("2", "Seeded", rating=1000, seed=1),
        EntrantState("3", "High", rating=2500),
        EntrantState("4", "Mid", rating=2000),
    )
    plan = ENGINE.next_round(EventState("round_robin", {}, people), DrawSource("s"))
    assert plan.details["draw_numbers"] == ["2", "3", "4", "1"]
    # Berger round 1 for four: 1-4, 2-3, the lower number white
    assert [(m.participants[0].entrant, m.participants[1].entrant) for m in plan.matches] == [
        ("2", "1"),
        ("3", "4"),
    ]
    assert plan.matches[0].participants[0].role == "white"


def test_a_lot_for_draw_numbers_is_recorded():
    state = EventState("round_robin", {"draw_numbers": "lot"}, entrants(6))
    source = DrawSource("seed")
    plan = ENGINE.next_round(state, source)
    assert [r.key for r in source.new] == ["draw-numbers"]
    assert plan.details["draw_numbers"] == source.new[0].value


def test_whole_event_runs_to_finished_and_everyone_meets_everyone_once():
    rng = random.Random(3)
    state = EventState("round_robin", {}, entrants(7))
    for _ in range(7):
        state = play(state, lambda m: (rng.randint(0, 2), rng.randint(0, 2)))
    outcome = ENGINE.next_round(state, DrawSource("seed"))
    assert isinstance(outcome, Finished)
    met = [frozenset(m.entrant_ids) for r in state.rounds for m in r.matches if not m.is_bye]
    assert len(met) == len(set(met)) == 21
    standings = ENGINE.standings(state)
    assert standings.final
    rows = standings.tables[0].rows
    assert sum(r.values["points"] for r in rows) == 21  # one point per game
    assert all(r.details["byes"] == 1 for r in rows)


def test_points_then_head_to_head_with_the_reason_recorded():
    # 1 beats 2, 2 beats 3, 3 beats 1 ... and 4 loses to everyone except 1
    outcomes = {
        ("1", "2"): (1, 0),
        ("2", "3"): (1, 0),
        ("3", "1"): (1, 0),
        ("1", "4"): (0, 1),
        ("2", "4"): (1, 0),
        ("3", "4"): (1, 0),
    }

    def scores(match):
        a, b = match.participants[0].entrant, match.participants[1].entrant
        if (a, b) in outcomes:
            return outcomes[(a, b)]
        x, y = outcomes[(b, a)]
        return (y, x)

    state = EventState("round_robin", {"tiebreaks": ["head_to_head", "wins"]}, entrants(4))
    for _ in range(3):
        state = play(state, scores)
    table = ENGINE.standings(state).tables[0]
    points = {r.entrant: r.values["points"] for r in table.rows}
    assert points == {"1": 1, "2": 2, "3": 2, "4": 1}
    order = [r.entrant for r in table.rows]
    assert order == ["2", "3", "4", "1"]  # 2 beat 3; 4 beat 1
    reasons = {(d.ahead, d.behind): d.step for d in table.decided}
    assert reasons[("2", "3")] == "head_to_head"
    assert reasons[("4", "1")] == "head_to_head"
    assert reasons[("3", "4")] == "points"


def test_invalid_scores_are_refused_with_the_field_named():
    match = MatchState(
        "R1-T1",
        1,
        ENGINE.next_round(EventState("round_robin", {}, entrants(2)), DrawSource("s"))
        .matches[0]
        .participants,
        (GameState(1, (-1, 2)),),
    )
    score = ENGINE.score_match(EventState("round_robin", {}, entrants(2)), match)
    assert not score.valid
    assert score.problems[0].field == "games[0].scores"
    assert "negative" in score.problems[0].text
    two_games = MatchState("x", 1, match.participants, (GameState(1, (1, 0)), GameState(2, (0, 1))))
    score = ENGINE.score_match(EventState("round_robin", {}, entrants(2)), two_games)
    assert score.problems[0].code == "round_robin.game_count"


def test_settings_are_validated_with_the_key_named():
    problems = ENGINE.validate_settings({"cycles": 3, "tiebreaks": ["coin"], "nonsense": 1})
    fields = sorted(p.field for p in problems)
    assert fields == ["cycles", "nonsense", "tiebreaks"]


def test_withdrawn_entrant_leaves_byes_for_their_later_opponents():
    people = list(entrants(4))
    state = EventState("round_robin", {"bye_points": 1.0}, tuple(people))
    state = play(state, lambda m: (1, 0))
    people[0] = EntrantState("1", "P1", status=EntrantStatus.WITHDRAWN, withdrawn_after_round=1)
    state = EventState(state.format, state.settings, tuple(people), state.rounds)
    plan = ENGINE.next_round(state, DrawSource("s"))
    byes = [m for m in plan.matches if m.is_bye]
    assert len(byes) == 1
    assert byes[0].reasons[-1].code == "round_robin.opponent_withdrawn"
    bye_score = ENGINE.score_match(state, MatchState(byes[0].code, 2, byes[0].participants))
    assert bye_score.points == (Fraction(1),)


def test_late_entries_are_refused():
    state = play(EventState("round_robin", {}, entrants(4)), lambda m: (1, 1))
    late = EventState(
        state.format, state.settings, (*state.entrants, EntrantState("5", "Late")), state.rounds
    )
    with pytest.raises(EngineError) as error:
        ENGINE.next_round(late, DrawSource("s"))
    assert "Late" in str(error.value)


def test_double_round_robin_has_twice_the_rounds_with_colours_reversed():
    state = EventState("round_robin", {"cycles": 2}, entrants(4))
    for _ in range(6):
        state = play(state, lambda m: (1, 0))
    assert isinstance(ENGINE.next_round(state, DrawSource("s")), Finished)
    first = {m.entrant_ids for m in state.rounds[0].matches}
    fourth = {tuple(reversed(m.entrant_ids)) for m in state.rounds[3].matches}
    assert first == fourth
