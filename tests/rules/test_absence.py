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


def test_an_absence_of_someone_who_withdrew_changes_nothing():
    state = _rr()
    gone = dataclasses.replace(state.entrants[1], status="withdrawn", withdrawn_after_round=0)
    state = dataclasses.replace(state, entrants=(state.entrants[0], gone, *state.entrants[2:]))
    plan, _ = plan_of(dataclasses.replace(state, absent=("2",)))
    assert "absent" not in plan.details


# -- WOC -----------------------------------------------------------------------------------


def _woc(size: int, **settings: object) -> EventState:
    import random

    from rules.formats.woc.simulate import field

    return EventState("woc", {"final_stages": False, **settings}, field(size, random.Random(5)))


def _othello_game(match: PlannedMatch) -> tuple[GameState, ...]:
    return (GameState(1, (40, 24)),)


@pytest.mark.parametrize("absent_in", [1, 2])
def test_woc_an_absent_player_is_not_paired_and_the_round_counts_as_not_played(absent_in):
    # woc.md, Absence: "not paired; the round counts as one not played (Appendix A 3)"
    state = _woc(12, system="modified_swiss", rounds=4)
    for number in range(1, 4):
        gone = ("p3",) if number == absent_in else ()
        plan, source = plan_of(dataclasses.replace(state, absent=gone))
        paired = {p.entrant for m in plan.matches for p in m.participants}
        if gone:
            assert "p3" not in paired and plan.details["absent"] == ["p3"]
            said = f"{state.entrant('p3').name} is absent: not paired this round"
            assert any(t.startswith(said) for t in texts(plan))
            assert sum(1 for m in plan.matches if m.is_bye) == 1  # 11 left: one meets the BYE
        state = played(state, plan, source, _othello_game)
    engine = registry.get("woc")
    standings = engine.standings(state)
    row = next(r for r in standings.tables[0].rows if r.entrant == "p3")
    assert row.details["brightwell"]["unplayed_rounds"] == 1
    assert audit(state, standings).violations == []


def test_woc_round_robin_system_gives_the_absent_players_opponent_the_bye():
    # woc.md, Absence: "in a round robin the opponent meets the dummy BYE (II.7)"
    state = _woc(6, system="round_robin")
    plan, source = plan_of(dataclasses.replace(state, absent=("p2",)))
    assert all("p2" not in [p.entrant for p in m.participants] for m in plan.matches)
    bye = next(m for m in plan.matches if m.is_bye)
    assert "Paired against the dummy BYE: the opponent is absent." in [r.text for r in bye.reasons]
    state = played(state, plan, source, _othello_game)
    assert audit(state, registry.get("woc").standings(state)).violations == []


def test_woc_final_stages_an_absent_player_loses_by_walkover():
    # woc.md, Absence: "in the final stages the absent player's match is lost by walkover"
    import random

    from rules.formats.woc.simulate import field, play

    state = play(
        field(12, random.Random(2)), random.Random(2), {"system": "modified_swiss", "rounds": 6}
    )
    state = dataclasses.replace(state, settings={**state.settings, "final_stages": True})
    first, _ = plan_of(state)
    target = first.matches[0]
    gone = str(target.participants[1].entrant)
    plan, _ = plan_of(dataclasses.replace(state, absent=(gone,)))
    match = next(m for m in plan.matches if m.code == target.code)
    assert match.details["absent"] == [gone] and plan.details["absent"] == [gone]
    score = registry.get("woc").score_match(
        state,
        MatchState(match.code, plan.number, match.participants, details=match.details),
    )
    assert score.complete and score.winner == 0 and score.summary == "W/O"


# -- GokoDom -------------------------------------------------------------------------------


def _goko(players: int = 8, **settings: object) -> EventState:
    people = tuple(
        EntrantState(str(i), f"G{i}", flags={"colour": "red" if i % 2 else "blue"})
        for i in range(1, players + 1)
    )
    return EventState("gokodom", {"swiss_rounds": 3, **settings}, people)


def _three_wins(match: PlannedMatch) -> tuple[GameState, ...]:
    # seat 0 wins games 1-3 (A-B-B: seat 0 first in game 1, second in games 2 and 3)
    return (
        GameState(1, (1, 0), first=0),
        GameState(2, (1, 0), first=1),
        GameState(3, (1, 0), first=1),
    )


def _results(state: EventState, number: int) -> dict[str, str]:
    rnd = state.rounds[number - 1]
    engine = registry.get("gokodom")
    found: dict[str, str] = {}
    for match in rnd.matches:
        found |= dict(engine.score_match(state, match).details.get("results", {}))
    return found


def test_gokodom_an_absence_told_in_time_is_a_bye_by_request():
    # gokodom.md, Absence: "asked in time, an absence is a Bye by Request (I.E)"
    state = _goko()
    asked = dataclasses.replace(state.entrants[2], flags={"colour": "red", "bye_requests": [1]})
    state = dataclasses.replace(state, entrants=(*state.entrants[:2], asked, *state.entrants[3:]))
    plan, source = plan_of(dataclasses.replace(state, absent=("3",)))
    assert plan.details["absent"] == ["3"] and plan.details["requested_byes"] == ["3"]
    after = played(state, plan, source, _three_wins)
    assert _results(after, 1)["3"] == "BR"
    assert audit(after, registry.get("gokodom").standings(after)).violations == []


@pytest.mark.parametrize(("setting", "code"), [("loss", "L"), ("loss_by_default", "LD")])
def test_gokodom_an_absence_without_a_bye_request_follows_the_setting(setting, code):
    # gokodom.md, Absence: "absent_result: loss (0 match points, stays in) or
    # loss_by_default (an LD, removed, II.B.6)"
    state = _goko(absent_result=setting)
    plan, source = plan_of(dataclasses.replace(state, absent=("2",)))
    out = next(m for m in plan.matches if "2" in who(m))
    assert out.is_bye and out.details == {"result": code, "absent": ["2"]}
    assert any(t.startswith("G2 is absent: not paired;") for t in texts(plan))
    assert sum(1 for m in plan.matches if m.is_bye and "absent" not in m.details) == 1  # 7 left
    state = played(state, plan, source, _three_wins)
    assert _results(state, 1)["2"] == code
    plan, source = plan_of(state)
    assert ("2" in {e for m in plan.matches for e in who(m)}) == (code == "L")
    state = played(state, plan, source, _three_wins)
    assert audit(state, registry.get("gokodom").standings(state)).violations == []


def test_gokodom_in_the_elimination_an_absent_player_loses_by_default():
    # gokodom.md, Absence: "in the elimination rounds the match is lost by default"
    import random

    from rules.formats.gokodom.record import SWISS
    from rules.formats.gokodom.simulate import simulate

    season = simulate(10, random.Random(4), settings={"swiss_rounds": 3})
    swiss = tuple(r for r in season.state.rounds if r.stage == SWISS)
    state = dataclasses.replace(season.state, rounds=swiss)
    first, _ = plan_of(state)
    target = first.matches[0]
    gone = str(target.participants[0].entrant)
    plan, source = plan_of(dataclasses.replace(state, absent=(gone,)))
    match = next(m for m in plan.matches if m.code == target.code)
    assert match.details["absent"] == [gone]
    after = played(state, plan, source, _three_wins, RoundStatus.PUBLISHED)
    score = registry.get("gokodom").score_match(after, after.rounds[-1].matches[0])
    assert score.complete and score.winner == 1 and score.summary == "LD-WD"
    assert audit(after).violations == []


# -- Freestyle -----------------------------------------------------------------------------


def _freestyle(stop_after: int) -> EventState:
    import random

    from rules.formats.freestyle.simulate import simulate_event

    return simulate_event(random.Random(7), 16, stop_after=stop_after)


def test_freestyle_a_group_round_is_refused_for_an_absent_player():
    # freestyle.md, Absence: "a group round is every game of the group: withdraw instead"
    from rules.contract import EngineError

    state = _freestyle(1)
    playing = next(e for m in state.rounds[0].matches for e in m.entrant_ids if e)
    source = DrawSource("x", state.draws)
    with pytest.raises(EngineError, match="marked absent: a Freestyle group round"):
        registry.get("freestyle").next_round(dataclasses.replace(state, absent=(playing,)), source)


def test_freestyle_an_absent_semi_finalist_loses_by_walkover_and_plays_for_third():
    # freestyle.md, Absence: "in the semi-finals and the final round the absent player
    # loses by walkover and stays in the event"
    state = _freestyle(3)
    first, _ = plan_of(state)
    semi = first.matches[0]
    gone = str(semi.participants[0].entrant)
    plan, source = plan_of(dataclasses.replace(state, absent=(gone,)))
    marked = next(m for m in plan.matches if m.code == semi.code)
    assert marked.details["absent"] == [gone] and plan.details["absent"] == [gone]

    def decisive(match: PlannedMatch) -> tuple[GameState, ...]:
        return (GameState(1, (3, 1)),)

    after = played(state, plan, source, decisive)
    score = registry.get("freestyle").score_match(after, after.rounds[-1].matches[0])
    assert score.winner == 1 and score.summary == "W/O"
    finals, _ = plan_of(after)
    third = next(m for m in finals.matches if m.code == "3P")
    assert gone in who(third)  # absent from one round only: still plays for third place
    assert audit(after, registry.get("freestyle").standings(after)).violations == []


# -- WPF playoffs --------------------------------------------------------------------------


def test_wpf_an_absent_player_loses_the_match_as_a_virtual_bye_would():
    # wpf_playoffs.md, Absence: "an absent player loses that match, as a 'bye' player
    # loses all head-to-head competitions (Eligibility); later matches are played"
    import random

    from rules.formats.wpf_playoffs.simulate import entrants, play_round

    rng = random.Random(3)
    state = EventState("wpf_playoffs", {}, entrants(16, rng))
    first, _ = plan_of(state)
    target = first.matches[0]
    gone = str(target.participants[0].entrant)  # the better rank of the match
    plan, source = plan_of(dataclasses.replace(state, absent=(gone,)))
    marked = next(m for m in plan.matches if m.code == target.code)
    assert marked.details["absent"] == [gone] and plan.details["absent"] == [gone]
    rnd = play_round(plan, rng)
    rnd = dataclasses.replace(
        rnd,
        matches=tuple(
            dataclasses.replace(m, games=()) if "absent" in m.details else m for m in rnd.matches
        ),
    )
    after = dataclasses.replace(state, rounds=(rnd,), draws=(*state.draws, *source.new))
    engine = registry.get("wpf_playoffs")
    score = engine.score_match(after, rnd.matches[0])
    assert score.complete and score.winner == 1
    assert audit(after, engine.standings(after)).violations == []
    later, _ = plan_of(after)
    assert gone in {e for m in later.matches for e in who(m)}  # absent for one round only


# -- bot contest ---------------------------------------------------------------------------


def test_bot_contest_has_no_check_in():
    # bot_contest.md, Absence: "programs play unattended: no check-in"
    from rules.contract import EngineError

    people = tuple(EntrantState(str(i), f"Bot {i}") for i in range(1, 6))
    state = EventState("bot_contest", {}, people, absent=("2",))
    with pytest.raises(EngineError, match="programs play unattended"):
        registry.get("bot_contest").next_round(state, DrawSource("x"))
