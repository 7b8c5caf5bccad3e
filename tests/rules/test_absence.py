"""Check-in (issue 21, item 12): an entrant checked in as absent for the round being drafted
reaches the engine as ``EventState.absent``; each engine leaves them out of that round as
its format says (docs/formats/<key>.md, section "Absence"), with the reason, and its checker
accepts the record. Each test names the decision it pins."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from rules import registry
from rules.checkers import audit
from rules.contract import (
    EntrantState,
    EventState,
    GameState,
    MatchState,
    PlannedMatch,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource


def plan_of(state: EventState, seed: str = "seed") -> tuple[RoundPlan, DrawSource]:
    source = DrawSource(seed, state.draws)
    plan = registry.get(state.format).next_round(state, source)
    assert isinstance(plan, RoundPlan), plan
    return plan, source


def played(
    state: EventState,
    plan: RoundPlan,
    source: DrawSource,
    games: Callable[[PlannedMatch], tuple[GameState, ...]],
    status: RoundStatus = RoundStatus.COMPLETED,
) -> EventState:
    """The state with ``plan`` stored as played (a match marked absent keeps no games)."""
    matches = tuple(
        MatchState(
            m.code,
            plan.number,
            m.participants,
            () if m.is_bye or "absent" in m.details else games(m),
            bracket=m.bracket,
            group=m.group,
            table=m.table,
            details=m.details,
        )
        for m in plan.matches
    )
    rnd = RoundState(
        plan.number, plan.label, status, matches, plan.stage, plan.groups, plan.details
    )
    return dataclasses.replace(
        state, rounds=(*state.rounds, rnd), draws=(*state.draws, *source.new), absent=()
    )


def who(match: PlannedMatch) -> tuple[str | None, ...]:
    return tuple(p.entrant for p in match.participants)


def texts(plan: RoundPlan) -> list[str]:
    return [r.text for m in plan.matches for r in m.reasons] + [r.text for r in plan.reasons]


# -- round robin ---------------------------------------------------------------------------


def _rr(players: int = 4, **settings: object) -> EventState:
    people = tuple(EntrantState(str(i), f"P{i}", rating=2000 - i) for i in range(1, players + 1))
    return EventState("round_robin", dict(settings), people)


def _first_game_wins(match: PlannedMatch) -> tuple[GameState, ...]:
    return (GameState(1, (1, 0)),)


def test_round_robin_the_table_keeps_its_shape_and_the_absent_players_game_is_a_forfeit():
    # round_robin.md, Absence: "the Berger table keeps its shape: the game is a forfeit"
    state = _rr()
    present_plan, _ = plan_of(state)
    plan, source = plan_of(dataclasses.replace(state, absent=("2",)))
    assert [who(m) for m in plan.matches] == [who(m) for m in present_plan.matches]
    forfeit = next(m for m in plan.matches if "2" in who(m))
    assert forfeit.details == {"absent": ["2"]}
    assert "P2 is absent: the game is a forfeit, won by the opponent." in texts(plan)
    assert plan.details["absent"] == ["2"]
    after = played(state, plan, source, _first_game_wins)
    engine = registry.get("round_robin")
    match = next(m for m in after.rounds[0].matches if "2" in m.entrant_ids)
    score = engine.score_match(after, match)
    assert score.complete and score.summary == "forfeit"
    assert score.winner == 1 - match.seat_of("2")
    points = {r.entrant: r.values["points"] for r in engine.standings(after).tables[0].rows}
    assert points["2"] == 0 and points[match.entrant_ids[1 - match.seat_of("2")]] == 1
    assert audit(after, engine.standings(after)).violations == []


def test_round_robin_absent_result_bye_leaves_the_game_unplayed():
    # round_robin.md, Absence: "absent_result = bye: the absent player scores nothing, the
    # opponent has the round off (bye_points)"
    state = _rr(absent_result="bye", bye_points=0.5)
    plan, source = plan_of(dataclasses.replace(state, absent=("3",)))
    assert "P3 is absent: the game is not played; the opponent has the round off." in texts(plan)
    after = played(state, plan, source, _first_game_wins)
    engine = registry.get("round_robin")
    match = next(m for m in after.rounds[0].matches if "3" in m.entrant_ids)
    score = engine.score_match(after, match)
    seat = match.seat_of("3")
    assert score.winner is None and score.points[seat] == 0 and score.points[1 - seat] == 0.5
    assert audit(after, engine.standings(after)).violations == []


def test_round_robin_games_entered_after_all_take_over_from_the_forfeit():
    # rules/absence.py: "games entered later (the player came after all) take over"
    state = _rr()
    plan, _ = plan_of(dataclasses.replace(state, absent=("2",)))
    forfeit = next(m for m in plan.matches if "2" in who(m))
    seat = [p.entrant for p in forfeit.participants].index("2")
    scores = (3, 1) if seat == 0 else (1, 3)  # the absent player came and won
    match = MatchState(
        forfeit.code, 1, forfeit.participants, (GameState(1, scores),), details=forfeit.details
    )
    score = registry.get("round_robin").score_match(state, match)
    assert score.winner == seat


def test_round_robin_checker_reports_an_absence_the_round_does_not_record():
    state = _rr()
    plan, source = plan_of(dataclasses.replace(state, absent=("2",)))
    after = played(state, plan, source, _first_game_wins)
    rnd = after.rounds[0]
    tampered = dataclasses.replace(rnd, details={**rnd.details, "absent": []})
    report = audit(dataclasses.replace(after, rounds=(tampered,)))
    assert any("marks 2 absent" in v.text for v in report.violations)


@pytest.mark.parametrize("fmt", ["round_robin"])
def test_an_absence_of_someone_who_withdrew_changes_nothing(fmt):
    state = _rr()
    gone = dataclasses.replace(state.entrants[1], status="withdrawn", withdrawn_after_round=0)
    state = dataclasses.replace(state, entrants=(state.entrants[0], gone, *state.entrants[2:]))
    plan, _ = plan_of(dataclasses.replace(state, absent=("2",)))
    assert "absent" not in plan.details
