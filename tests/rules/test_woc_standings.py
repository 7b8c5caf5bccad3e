"""Standings: points (II.3.1) and the Mixed Brightwell System (Appendix A)."""

from __future__ import annotations

from typing import Any

from rules.contract import (
    DrawRecord,
    EntrantState,
    EntrantStatus,
    EventState,
    GameState,
    MatchState,
    Participant,
    RoundState,
    RoundStatus,
)
from rules.formats.woc import ENGINE
from rules.formats.woc.brightwell import lot_key

PEOPLE = ("a", "b", "c", "d")


def event(
    rounds: list[list[tuple[str, str | None, int, int]]],
    settings: dict[str, Any] | None = None,
    people: tuple[EntrantState, ...] | None = None,
    draws: tuple[DrawRecord, ...] = (),
) -> EventState:
    states = []
    for number, games in enumerate(rounds, start=1):
        matches = []
        for index, (black, white, bd, wd) in enumerate(games, start=1):
            if white is None:
                matches.append(MatchState(f"R{number}-BYE", number, (Participant(black),)))
            else:
                matches.append(
                    MatchState(
                        f"R{number}-T{index}",
                        number,
                        (Participant(black, "black"), Participant(white, "white")),
                        games=(GameState(1, (bd, wd)),),
                    )
                )
        details = {}
        if number == 1:
            ids = [e.id for e in people] if people else list(PEOPLE)
            details = {"system": "swiss", "rounds": len(rounds), "field": ids}
        states.append(
            RoundState(
                number,
                f"Round {number}",
                RoundStatus.COMPLETED,
                tuple(matches),
                "swiss",
                (),
                details,
            )
        )
    people = people or tuple(EntrantState(e, e.upper()) for e in PEOPLE)
    return EventState("woc", settings or {}, people, tuple(states), draws)


def rows(state: EventState) -> dict[str, Any]:
    return {r.entrant: r for r in ENGINE.standings(state).table("overall").rows}


def test_one_point_per_win_half_per_draw() -> None:
    """II.3.1: "one point will be awarded for each win and half a point for each draw"."""
    state = event([[("a", "b", 40, 24), ("c", "d", 32, 32)]])
    table = rows(state)
    assert [table[e].values["points"] for e in PEOPLE] == [1, 0, 0.5, 0.5]
    assert table["a"].values["discs"] == 40


def test_brightwell_quotient_and_its_parts() -> None:
    """Appendix A 3b: "Calculate the total number of discs scored by the player ... and add C
    times the sum of points scored in the tournament by all of the player's opponents"."""
    state = event(
        [
            [("a", "b", 40, 24), ("c", "d", 33, 31)],
            [("a", "c", 30, 34), ("b", "d", 50, 14)],
        ]
    )
    table = rows(state)
    # a: discs 40 + 30; opponents b (1 point) and c (2 points)
    parts = table["a"].details["brightwell"]
    assert parts["discs"] == 70
    assert parts["opponents_points"] == 3
    assert parts["strength"] == 18
    assert table["a"].values["bq"] == 70 + 6 * 3
    assert parts["bq"] == table["a"].values["bq"]


def test_constant_c_is_a_setting() -> None:
    """Appendix A 2: "For the World Championship ... C will be set equal to 6"."""
    games = [[("a", "b", 40, 24), ("c", "d", 33, 31)]]
    assert rows(event(games))["a"].values["bq"] == 40
    assert rows(event(games, {"c": 10}))["d"].values["bq"] == 31 + 10 * 1


def test_bye_leaves_the_game_out_and_adds_32_plus_c_times_own_score() -> None:
    """Appendix A 3a/3c: "if a player has been paired against "BYE" ... leave out such a
    game"; "each bye received ... add 32 plus (C times the player's own tournament score)"."""
    people = tuple(EntrantState(e, e.upper()) for e in "abc")
    state = event([[("a", "b", 40, 24), ("c", None, 0, 0)]], people=people)
    table = rows(state)
    assert table["c"].values["points"] == 1  # bye score: a win by default
    assert table["c"].values["bq"] == 32 + 6 * 1
    assert table["c"].details["brightwell"]["byes"] == 1
    assert table["c"].values["discs"] == 32  # decision: a bye counts 32 discs


def test_withdrawn_opponent_counts_as_32_plus_c_times_own_score() -> None:
    """Appendix A 3a: "If any of the player's opponents have withdrawn ... ignore any such
    games"; 3c: "For each game against an opponent who has withdrawn ... add 32 plus (C
    times the player's own tournament score)"."""
    people = (
        EntrantState("a", "A"),
        EntrantState("b", "B", status=EntrantStatus.WITHDRAWN, withdrawn_after_round=1),
        EntrantState("c", "C"),
        EntrantState("d", "D"),
    )
    state = event([[("a", "b", 40, 24), ("c", "d", 33, 31)], [("a", "c", 20, 44)]], people=people)
    table = rows(state)
    parts = table["a"].details["brightwell"]
    assert parts["withdrawn_opponents"] == 1
    # a: game v c counts (20 discs + 6 x c's 2 points); game v withdrawn b: 32 + 6 x 1
    assert table["a"].values["bq"] == 20 + 12 + 32 + 6
    assert table["b"].status == "withdrawn"
    # d has no game in round 2: an unplayed round (3c)
    assert table["d"].details["brightwell"]["unplayed_rounds"] == 1
    assert table["d"].values["bq"] == 31 + 6 * 2 + 32 + 6 * 0


def test_ties_by_bq_then_discs() -> None:
    """II.3.1: "ties shall be resolved by ranking the players in descending Brightwell
    Quotient (BQ) order ... same BQ ... descending disc-count order"."""
    state = event([[("a", "b", 40, 24), ("c", "d", 33, 31)]])
    standings = ENGINE.standings(state)
    table = standings.table("overall")
    # a 40 v c 33 (each beat a 0-point opponent); d 31 + 6 x 1 = 37 v b 24 + 6 x 1 = 30
    assert [r.entrant for r in table.rows] == ["a", "c", "d", "b"]
    first = next(d for d in table.decided if d.ahead == "a")
    assert (first.ahead, first.behind, first.step) == ("a", "c", "bq")
    assert first.detail == "Brightwell Quotient 40 against 33"


def test_equal_everything_is_shared_and_a_lot_is_asked_for() -> None:
    """Appendix A 4: "Further ties shall be resolved by any random equitable means"."""
    state = event([[("a", "b", 32, 32), ("c", "d", 32, 32)]])
    standings = ENGINE.standings(state)
    ranks = {r.entrant: r.rank for r in standings.table("overall").rows}
    assert set(ranks.values()) == {1}
    (pending,) = standings.pending
    assert pending.code == "woc.lot.list"
    assert pending.key == lot_key(["a", "b", "c", "d"])
    decided = event(
        [[("a", "b", 32, 32), ("c", "d", 32, 32)]],
        draws=(DrawRecord(pending.key, ["c", "a", "d", "b"]),),
    )
    standings = ENGINE.standings(decided)
    assert [r.entrant for r in standings.table("overall").rows] == ["c", "a", "d", "b"]
    assert [r.rank for r in standings.table("overall").rows] == [1, 2, 3, 4]
    assert standings.pending == ()
    assert standings.table("overall").decided[0].step == "draw"


def test_no_lot_asked_while_rounds_remain() -> None:
    state = event([[("a", "b", 32, 32), ("c", "d", 32, 32)]])
    first = state.rounds[0]
    longer = RoundState(
        1, first.label, first.status, first.matches, "swiss", (), {**first.details, "rounds": 5}
    )
    state = EventState("woc", {}, state.entrants, (longer,))
    standings = ENGINE.standings(state)
    assert standings.pending == ()
    assert not standings.final
