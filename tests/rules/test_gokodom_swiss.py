"""GokoDom I (structure, byes by request), II.A (random order, colours), II.E (ordering),
II.I and V.A (virtual opponents), and the Swiss standings table."""

from __future__ import annotations

import dataclasses

import pytest

from rules.contract import EngineError, NeedsDecision, RoundPlan, RoundStatus
from rules.formats.gokodom import ENGINE
from rules.formats.gokodom.context import auto_rounds, build
from rules.formats.gokodom.plan_swiss import swiss_order

from .test_gokodom_support import entrant, field, match, plan, play, state, swiss_round


def record_of(event):  # type: ignore[no-untyped-def]
    return build(event, ENGINE.resolved(event)).record


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 1), (8, 3), (9, 4), (33, 6), (64, 6), (65, 7), (128, 7)]
)
def test_rounds_ceil_log2_i_b(players: int, rounds: int) -> None:
    """I.B: 'For N players, ceil(log2(N)) rounds will be played. (This is 6 rounds for
    33-64, 7 rounds for 65-128, etc.)'"""
    assert auto_rounds(players) == rounds


def test_swiss_rounds_setting_overrides() -> None:
    """I.B: the number of rounds is an editable setting (0 = automatic)."""
    event = state(field(8), settings={"swiss_rounds": 5})
    assert build(event, ENGINE.resolved(event)).swiss_rounds == 5


def test_initial_order_is_a_recorded_random_draw_ii_a() -> None:
    """II.A: 'Initial seedings for the tournament will be random.'"""
    event = state(field(8))
    first = plan(event)
    assert isinstance(first, RoundPlan)
    drawn = {d.key: d.value for d in first.draws}
    assert sorted(drawn["initial-order"]) == sorted(e.id for e in event.entrants)
    assert first.details["initial_order"] == drawn["initial-order"]
    assert plan(event).details == first.details  # same seed, same draw
    assert plan(event, seed="other").details["initial_order"] != first.details["initial_order"]


def test_each_player_has_a_colour_ii_a() -> None:
    """II.A: 'Each player is assigned color Red or Blue'."""
    event = state([entrant("a"), entrant("b", colour="green")])
    with pytest.raises(EngineError) as error:
        plan(event)
    assert error.value.problems[0].code == "gokodom.colour"
    assert "B has no colour" in error.value.problems[0].text


def test_round_one_pairs_opposite_colours_ii_f_3() -> None:
    """II.F.3: 'Has the opposite color' (all on 0 points in round 1)."""
    first = plan(state(field(8)))
    colours = [tuple(p.role for p in m.participants) for m in first.matches]
    assert all(set(c) == {"red", "blue"} for c in colours)


def test_bye_by_request_i_e() -> None:
    """I.E: a player who will be unavailable 'may send a PM ... and receive a Bye by
    Request'; II.E.5: 'Requested Byes last and unpaired this round.'"""
    entrants = list(field(8))
    entrants[0] = dataclasses.replace(entrants[0], flags={**entrants[0].flags, "bye_requests": [1]})
    first = plan(state(entrants))
    byes = [m for m in first.matches if m.details.get("result") == "BR"]
    assert [m.participants[0].entrant for m in byes] == ["p1"]
    assert byes[0].details == {"result": "BR"}
    assert first.details["order"][-1] == "p1"
    assert first.details["requested_byes"] == ["p1"]
    # 7 others: one of them receives the assigned bye (WB) as well.
    assert sum(1 for m in first.matches if m.details.get("result") == "WB") == 1


def test_bye_by_request_refused_in_final_round_i_e() -> None:
    """I.E: 'This privilege may not be used during the final Swiss round or the elimination
    rounds.'"""
    entrants = list(field(8))
    entrants[2] = dataclasses.replace(entrants[2], flags={**entrants[2].flags, "bye_requests": [3]})
    with pytest.raises(EngineError) as error:
        plan(state(entrants))
    problem = error.value.problems[0]
    assert problem.code == "gokodom.bye_request_refused"
    assert "final Swiss round (round 3)" in problem.text
    entrants[2] = dataclasses.replace(entrants[2], flags={**entrants[2].flags, "bye_requests": [5]})
    with pytest.raises(EngineError):
        plan(state(entrants))


def season_rounds(event, count, results=None):  # type: ignore[no-untyped-def]
    for _ in range(count):
        event = play(event, plan(event), (results or {}))
    return event


def test_ld_removes_player_ii_b_6() -> None:
    """II.B.6: an LD player 'is removed from the tournament.'"""
    event = state(field(8))
    first = plan(event)
    code = first.matches[0].code
    loser = first.matches[0].participants[1].entrant
    event = play(
        event,
        first,
        {code: {"unplayed": True, "messages": [first.matches[0].participants[0].entrant]}},
    )
    second = plan(event)
    assert loser not in [p.entrant for m in second.matches for p in m.participants]
    standings = ENGINE.standings(event).table("swiss")
    row = next(r for r in standings.rows if r.entrant == loser)
    assert row.status == "removed" and row.rank == 8


def test_dd_adds_a_default_ii_d() -> None:
    """II.D: 'A result of DD adds one Default to a player's record.'"""
    event = state(field(4))
    first = plan(event)
    m = first.matches[0]
    ids = [p.entrant for p in m.participants]
    event = play(event, first, {m.code: {"unplayed": True, "messages": ids}})
    rows = {r.entrant: r for r in ENGINE.standings(event).table("swiss").rows}
    assert [rows[i].values["defaults"] for i in ids] == [1, 1]
    assert [rows[i].values["match_points"] for i in ids] == [1, 1]
    assert [rows[i].values["round_1"] for i in ids] == ["DD", "DD"]


def test_handshake_counts_as_met_decision() -> None:
    """Document silent: two players who drew by default are not paired again (setting)."""
    event = state(field(4))
    first = plan(event)
    m = first.matches[0]
    ids = [p.entrant for p in m.participants]
    event = play(event, first, {m.code: {"unplayed": True, "messages": ids}})
    assert record_of(event).met(*ids)
    off = dataclasses.replace(event, settings={"handshake_counts_as_met": False})
    assert not record_of(off).met(*ids)


def test_last_round_handshake_goes_to_director_ii_b_5() -> None:
    """II.B.5: no DD in the last Swiss round: the engine asks the director."""
    event = season_rounds(state(field(4)), 1)
    last = plan(event)
    m = last.matches[0]
    ids = [p.entrant for p in m.participants]
    event = play(event, last, {m.code: {"unplayed": True, "messages": ids}})
    asked = plan(event)
    assert isinstance(asked, NeedsDecision)
    assert asked.code == "gokodom.last_round_handshake" and asked.key == m.code
    # The director records the results; the event goes on.
    rnd = event.rounds[-1]
    fixed = [
        dataclasses.replace(x, details={**x.details, "results": {ids[0]: "W", ids[1]: "L"}})
        if x.code == m.code
        else x
        for x in rnd.matches
    ]
    event = dataclasses.replace(
        event, rounds=(*event.rounds[:-1], dataclasses.replace(rnd, matches=tuple(fixed)))
    )
    assert isinstance(plan(event), RoundPlan)


def _three_round_event():  # type: ignore[no-untyped-def]
    """a beats b, c, d; with byes and an LD to test virtual opponents."""
    entrants = [entrant(x, c) for x, c in zip("abcdef", ["red", "blue"] * 3, strict=True)]
    r1 = swiss_round(
        1,
        [
            match("R1-1", 1, "a", "b", spec="111"),
            match("R1-2", 1, "c", "d", spec="111"),
            match("R1-3", 1, "e", "f", messages=["e"]),  # f: LD, removed
        ],
        initial_order=list("abcdef"),
    )
    r2 = swiss_round(
        2,
        [
            match("R2-1", 2, "a", "c", spec="111"),
            match("R2-2", 2, "d", "e", spec="111"),
            match("R2-BYE", 2, "b", result="WB"),
        ],
    )
    r3 = swiss_round(
        3,
        [
            match("R3-1", 3, "a", "d", spec="000"),
            match("R3-2", 3, "c", "e", spec="101010"),
            match("R3-BR1", 3, "b", result="BR"),
        ],
    )
    return state(entrants, [r1, r2, r3], settings={"swiss_rounds": 4})


def test_virtual_opponent_for_assigned_bye_ii_i_1() -> None:
    """II.I.1: 'That player will start the virtual match with the same record as the
    player, lose this match, then draw every future virtual match'."""
    record = record_of(_three_round_event())
    # b: L in round 1 (0), WB in round 2, BR in round 3.
    assert record.bye_history("b", 2, record.line("b", 2).result) == [0, 0, 1]


def test_virtual_opponent_for_requested_bye_v_a_2() -> None:
    """V.A.2: 'The virtual opponent then loses (for an assigned bye) or draws (for a
    requested bye), then draws every further match.'"""
    record = record_of(_three_round_event())
    assert record.bye_history("b", 3, record.line("b", 3).result) == [0, 2, 1]
    # b's Solkoff: a (6 - it lost round 3: 2+2+0 = 4), the WB virtual (1), the BR one (3).
    assert record.solkoff("b") == 4 + 1 + 3


def test_ld_player_becomes_virtual_ii_i_2() -> None:
    """II.I.2: 'That virtual player has his/her original score, loses the unplayed match,
    then draws every future match. The paired player who got the WD is considered to have
    played this player.'"""
    record = record_of(_three_round_event())
    assert record.virtual_history("f") == [0, 1, 1]
    assert record.met("e", "f")
    assert record.removed("f") and record.removed_before("f", 2)
    assert record.match_points("f") == 0  # the real record is kept for the standings


def test_solkoff_ii_e_2() -> None:
    """II.E.2: 'Solkoff score, the sum of all opponents' total match points'."""
    record = record_of(_three_round_event())
    # e: f (virtual 2), d (0+0+2 = 2... d: L, W, W = 4), c (L(0)... c: W, L, D = 3)
    assert record.match_points("d") == 4 and record.match_points("c") == 3
    assert record.solkoff("e") == 2 + 4 + 3


def test_cumulative_ii_e_3() -> None:
    """II.E.3: 'Cumulative score, the sum of a player's total match points at the end of
    each round'."""
    record = record_of(_three_round_event())
    assert record.cumulative("a") == 2 + 4 + 4
    assert record.cumulative("d") == 0 + 2 + 4


def test_order_by_points_solkoff_cumulative_random_ii_e() -> None:
    """II.E.1-4: total match points, then Solkoff, then cumulative, then random."""
    event = _three_round_event()
    ctx = build(event, ENGINE.resolved(event))
    lot = {e: i for i, e in enumerate("abcdef")}
    ranking = swiss_order(ctx, list("abcde"), lot)
    steps = {(d.ahead, d.behind): d.step for d in ranking.decided}
    assert ranking.order[0] in ("a", "d")
    assert all(s in {"match_points", "solkoff", "cumulative", "random"} for s in steps.values())
    points = [ctx.record.match_points(e) for e in ranking.order]
    assert points == sorted(points, reverse=True)


def test_random_step_uses_lot_order() -> None:
    """II.E.4 'Random': by default the initial random order decides the last ties."""
    event = state(field(4))
    ctx = build(event, ENGINE.resolved(event))
    lot = {"p3": 0, "p1": 1, "p4": 2, "p2": 3}
    assert swiss_order(ctx, ["p1", "p2", "p3", "p4"], lot).order == ["p3", "p1", "p4", "p2"]


def test_random_step_each_round_draws() -> None:
    """Setting random_step=each_round draws a fresh random order each round."""
    event = state(field(8), settings={"random_step": "each_round"})
    event = play(event, plan(event))
    second = plan(event)
    assert any(d.key == "round-2/random-order" for d in second.draws)


def test_first_seat_drawn_setting_iv_a_1() -> None:
    """IV.A.1: the first seat of game 1 is random: drawn by the application on request."""
    drawn = plan(state(field(4), settings={"first_seat": "drawn"}))
    assert all(m.details.get("first_seat") in (0, 1) for m in drawn.matches if not m.is_bye)
    entered = plan(state(field(4)))
    assert all("first_seat" not in m.details for m in entered.matches)


def test_pending_match_blocks_next_round() -> None:
    """Every match needs a result before the next round is paired."""
    event = state(field(4))
    first = plan(event)
    event = play(event, first, {first.matches[0].code: "11"})
    with pytest.raises(EngineError) as error:
        plan(event)
    assert error.value.problems[0].code == "gokodom.match_unfinished"


def test_late_entry_refused() -> None:
    """Document silent: the number of rounds depends on the players signed up (I.B), so no
    one joins after round 1."""
    event = state(field(4))
    event = play(event, plan(event))
    event = dataclasses.replace(event, entrants=(*event.entrants, entrant("late")))
    with pytest.raises(EngineError) as error:
        plan(event)
    assert error.value.problems[0].code == "gokodom.late_entry"


def test_schedule_dates_i_c() -> None:
    """I.C: weekly rounds from the first round's date; 'The first round will start on Monday
    10 February and last until the following Monday, 17 February. The final round of the
    Swiss portion will last no longer than two weeks.'"""
    settings = {"first_round_start": "2025-02-10"}
    event = state(field(4), settings=settings)
    first = plan(event)
    assert (first.details["starts"], first.details["ends"]) == ("2025-02-10", "2025-02-17")
    event = play(event, first)
    last = plan(event)
    assert (last.details["starts"], last.details["ends"]) == ("2025-02-17", "2025-03-03")
    assert "starts" not in plan(state(field(4))).details


def test_settings_validation() -> None:
    problems = ENGINE.validate_settings(
        {"first_round_start": "10 Feb", "last_swiss_round_days": 21, "eighth_place_tie": "x"}
    )
    assert {p.field for p in problems} == {
        "first_round_start",
        "last_swiss_round_days",
        "eighth_place_tie",
    }
    assert ENGINE.validate_settings({}) == []


def test_standings_table_columns_and_rounds() -> None:
    """Standings: match points, Solkoff, cumulative, defaults and results per round."""
    event = season_rounds(state(field(8)), 2)
    table = ENGINE.standings(event).table("swiss")
    keys = [c.key for c in table.columns]
    assert keys[:5] == ["match_points", "defaults", "solkoff", "cumulative", "cumulative_opponents"]
    assert "round_1" in keys and "round_2" in keys
    top = table.rows[0]
    assert top.values["match_points"] == 4 and top.rank == 1
    assert top.details["rounds"][0]["result"] == "W"


def test_published_round_counts_results_in() -> None:
    """Standings during a round count the results already in."""
    event = state(field(4))
    first = plan(event)
    event = play(event, first)
    rnd = dataclasses.replace(event.rounds[0], status=RoundStatus.PUBLISHED)
    matches = (rnd.matches[0], dataclasses.replace(rnd.matches[1], games=()))
    event = dataclasses.replace(event, rounds=(dataclasses.replace(rnd, matches=matches),))
    points = sorted(r.values["match_points"] for r in ENGINE.standings(event).table("swiss").rows)
    assert points == [0, 0, 0, 2]


def test_season_schedule_elimination_weeks_i_c() -> None:
    """I.C: 'The elimination rounds will each last one week.'"""
    from rules.formats.gokodom.schedule import season

    rounds = season(ENGINE.resolved({"first_round_start": "2025-02-10"}), 6)
    labels = [r[0] for r in rounds]
    assert labels[-3:] == ["Quarter-finals", "Semi-finals", "Final"]
    assert str(rounds[5][1]) == "2025-03-17" and str(rounds[5][2]) == "2025-03-31"
    assert all((end - start).days == 7 for _, start, end in rounds[6:])
    assert season(ENGINE.resolved({}), 6) == []
