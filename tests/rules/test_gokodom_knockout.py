"""GokoDom III (elimination rankings and bracket) and IV.A.4 in the elimination rounds."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from rules.contract import DrawMethod, DrawRecord, Finished, NeedsDecision, RoundPlan
from rules.formats.gokodom import ENGINE
from rules.formats.gokodom.knockout import seed, seeding_steps
from rules.formats.gokodom.simulate import simulate

from .test_gokodom_support import entrant, field, match, plan, play, state, swiss_round


class FakeRecord:
    """Stands in for the Swiss record: one value per player for each III.A step."""

    def __init__(self, **columns: dict[str, int]) -> None:
        self.columns = columns
        self.beat: set[tuple[str, str]] = set()

    def __getattr__(self, name: str) -> Any:
        column = self.columns.get(name, {})
        return lambda e: column.get(e, 0)

    def met(self, a: str, b: str) -> bool:
        return (a, b) in self.beat or (b, a) in self.beat

    def head_to_head(self, a: str, b: str) -> int:
        return 2 if (a, b) in self.beat else 0


def no_lot(tier: Any) -> None:
    return None


def test_seeding_steps_in_order_iii_a() -> None:
    """III.A: 'Total match points, Fewest defaults, Solkoff score, Cumulative score,
    Cumulative opponents' scores, ... the result ..., Coin flip' in that order."""
    keys = [s.key for s in seeding_steps(FakeRecord())]  # type: ignore[arg-type]
    assert keys == [
        "match_points",
        "defaults",
        "solkoff",
        "cumulative",
        "cumulative_opponents",
        "head_to_head",
    ]


@pytest.mark.parametrize(
    ("column", "better", "worse", "step"),
    [
        ("match_points", 5, 4, "match_points"),
        ("defaults", 0, 1, "defaults"),
        ("solkoff", 9, 8, "solkoff"),
        ("cumulative", 12, 10, "cumulative"),
        ("cumulative_opponents", 30, 20, "cumulative_opponents"),
    ],
)
def test_each_seeding_step_iii_a_1_to_5(column: str, better: int, worse: int, step: str) -> None:
    """III.A.1-5: each tiebreak splits players equal on every earlier one."""
    record = FakeRecord(**{column: {"x": worse, "y": better}})
    seeding = seed(record, ["x", "y"], no_lot)  # type: ignore[arg-type]
    assert seeding.order == ("y", "x")
    assert seeding.ranking.decided[0].step == step


def test_fewer_defaults_rank_higher_iii_a_2() -> None:
    """III.A.2: 'Fewest defaults'."""
    record = FakeRecord(match_points={"x": 4, "y": 4}, defaults={"x": 0, "y": 2})
    assert seed(record, ["y", "x"], no_lot).order == ("x", "y")  # type: ignore[arg-type]


def test_result_between_them_iii_a_6() -> None:
    """III.A.6: 'If the players met each other at any time in the Swiss portion, use that
    result to rank the players'."""
    record = FakeRecord()
    record.beat.add(("y", "x"))
    seeding = seed(record, ["x", "y"], no_lot)  # type: ignore[arg-type]
    assert seeding.order == ("y", "x")
    assert seeding.ranking.decided[0].step == "head_to_head"


def test_result_between_three_needs_all_to_have_met() -> None:
    """Document silent on three or more: the results count only when every pair met."""
    record = FakeRecord()
    record.beat.add(("y", "x"))
    seeding = seed(record, ["x", "y", "z"], no_lot)  # type: ignore[arg-type]
    assert seeding.undrawn == (("x", "y", "z"),)


def test_coin_flip_is_a_recorded_draw_iii_a_7() -> None:
    """III.A.7: 'Coin flip': the lot is a recorded draw, replayed from the record."""
    record = FakeRecord()
    seeding = seed(record, ["x", "y"], lambda tier: ["y", "x"])  # type: ignore[arg-type]
    assert seeding.order == ("y", "x") and seeding.lots == (("y", "x"),)


def _eighth_place_event(**settings: Any) -> Any:
    """Two Swiss rounds, twelve players. After them p1, p5, p11 have 4 match points; p2,
    p3, p6, p7 have 2 and no default; p9 and p10 have 2 and one default each (they drew by
    default, then drew 3-3): only a coin flip separates them for ranks 8 and 9."""
    ids = [f"p{i}" for i in range(1, 13)]
    entrants = [entrant(x, "red" if i % 2 else "blue") for i, x in enumerate(ids)]
    r1 = swiss_round(
        1,
        [
            match("R1-1", 1, "p1", "p2", spec="111"),
            match("R1-2", 1, "p3", "p4", spec="111"),
            match("R1-3", 1, "p5", "p6", spec="111"),
            match("R1-4", 1, "p7", "p8", spec="111"),
            match("R1-5", 1, "p11", "p12", spec="111"),
            match("R1-6", 1, "p9", "p10", messages=["p9", "p10"]),
        ],
        initial_order=ids,
    )
    r2 = swiss_round(
        2,
        [
            match("R2-1", 2, "p1", "p3", spec="111"),
            match("R2-2", 2, "p5", "p7", spec="111"),
            match("R2-3", 2, "p2", "p4", spec="111"),
            match("R2-4", 2, "p6", "p8", spec="111"),
            match("R2-5", 2, "p11", "p12", spec="111"),
            match("R2-6", 2, "p9", "p10", spec="101010"),
        ],
    )
    return state(entrants, [r1, r2], settings={"swiss_rounds": 2, **settings})


def test_eighth_place_coin_flip_asks_director_iii_a() -> None:
    """III.A: 'If the coin flip affects the order of ranks 8 and 9 (and would cause an
    elimination), that order may instead be determined by a match between those two
    players'. The engine asks which."""
    asked = plan(_eighth_place_event())
    assert isinstance(asked, NeedsDecision)
    assert asked.key == "knockout/eighth-place" and asked.options == ("coin", "playoff")
    assert set(asked.params["players"]) == {"p9", "p10"}
    standings = ENGINE.standings(_eighth_place_event())
    assert [p.code for p in standings.pending] == ["gokodom.eighth_place.pending"]


def test_eighth_place_playoff_iii_a() -> None:
    """III.A: the playoff match between ranks 8 and 9 decides who goes on."""
    event = _eighth_place_event()
    choice = DrawRecord("knockout/eighth-place", "playoff", DrawMethod.EXTERNAL)
    event = dataclasses.replace(event, draws=(choice,))
    playoff = plan(event)
    assert isinstance(playoff, RoundPlan) and playoff.stage == "playoff"
    assert [m.code for m in playoff.matches] == ["P8"]
    pair = [p.entrant for p in playoff.matches[0].participants]
    assert set(pair) == {"p9", "p10"}
    event = play(event, playoff, {"P8": "000"})  # the second player wins
    quarter = plan(event)
    assert isinstance(quarter, RoundPlan) and quarter.label == "Quarter-finals"
    assert quarter.details["seeds"][7] == pair[1]
    assert pair[0] not in quarter.details["seeds"]


def test_eighth_place_coin_setting_iii_a() -> None:
    """III.A: 'If order matters only for seeding, a coin flip will be used'; with
    eighth_place_tie=coin the border is flipped too."""
    quarter = plan(_eighth_place_event(eighth_place_tie="coin"))
    assert isinstance(quarter, RoundPlan)
    keys = {d.key for d in quarter.draws}
    assert "knockout/seeding-lot/p10,p9" in keys
    assert quarter.details["seeds"][7] in ("p9", "p10")
    assert set(quarter.details["seeds"][:3]) == {"p1", "p5", "p11"}


def test_top_eight_and_bracket_iii_b() -> None:
    """III.A/B: 'The top eight players ... move on'; seeded 1-8, 4-5, 2-7, 3-6 so that 1
    and 2 can only meet in the final."""
    event = _eighth_place_event(eighth_place_tie="coin")
    quarter = plan(event)
    seeds = quarter.details["seeds"]
    pairs = [(m.code, [p.entrant for p in m.participants]) for m in quarter.matches]
    s = seeds
    assert pairs == [
        ("QF1", [s[0], s[7]]),
        ("QF2", [s[3], s[4]]),
        ("QF3", [s[1], s[6]]),
        ("QF4", [s[2], s[5]]),
    ]
    event = play(event, quarter)  # the higher seed wins each
    semi = plan(event)
    assert semi.label == "Semi-finals"
    assert [[p.entrant for p in m.participants] for m in semi.matches] == [
        [s[0], s[3]],
        [s[1], s[2]],
    ]
    event = play(event, semi)
    final = plan(event)
    assert final.label == "Final"
    assert [p.entrant for p in final.matches[0].participants] == [s[0], s[1]]
    event = play(event, final, {"F": "0100"})
    done = plan(event)
    assert isinstance(done, Finished) and done.reason.params["champion"] == s[1]
    standings = ENGINE.standings(event)
    assert standings.final
    overall = standings.tables[0]
    assert overall.key == "overall"
    assert [r.rank for r in overall.rows[:8]] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert overall.rows[0].entrant == s[1]
    assert len(overall.rows) == 12


def test_knockout_tie_asks_director_iv_a_4() -> None:
    """IV.A.4: 'A 3-3 tie on game points is a tie for the match': in the elimination the
    rules leave it open; the director records who goes through ('advances')."""
    event = _eighth_place_event(eighth_place_tie="coin")
    quarter = plan(event)
    event = play(event, quarter, {"QF2": "101010"})
    asked = plan(event)
    assert isinstance(asked, NeedsDecision)
    assert asked.key == "QF2" and asked.code == "gokodom.tied.decision"
    players = tuple(p.entrant for p in quarter.matches[1].participants)
    assert asked.options == players
    score = ENGINE.score_match(event, event.rounds[-1].matches[1])
    assert not score.complete and score.summary == "3-3"
    rnd = event.rounds[-1]
    decided = dataclasses.replace(rnd.matches[1], details={"advances": players[1]})
    rnd = dataclasses.replace(rnd, matches=(rnd.matches[0], decided, *rnd.matches[2:]))
    event = dataclasses.replace(event, rounds=(*event.rounds[:-1], rnd))
    semi = plan(event)
    assert players[1] in [p.entrant for p in semi.matches[0].participants]


def test_knockout_unplayed_one_messaged_goes_through_ii_b_4() -> None:
    """II.B.4 in the elimination: the player who sent the PM wins by default."""
    event = _eighth_place_event(eighth_place_tie="coin")
    quarter = plan(event)
    lower = quarter.matches[0].participants[1].entrant
    event = play(event, quarter, {"QF1": {"unplayed": True, "messages": [lower]}})
    semi = plan(event)
    assert lower in [p.entrant for p in semi.matches[0].participants]


def test_fewer_than_eight_players_get_walkovers() -> None:
    """Document silent: with fewer than eight players left the top seeds go through."""
    event = state(field(5), settings={"eighth_place_tie": "coin"})
    while True:
        step = plan(event)
        if not isinstance(step, RoundPlan) or step.stage != "swiss":
            break
        event = play(event, step)
    assert isinstance(step, RoundPlan)
    # Seeds 6, 7 and 8 are missing: seeds 1, 2 and 3 have walkovers; 4 meets 5.
    assert [len(m.participants) for m in step.matches] == [1, 2, 1, 1]


@pytest.mark.slow
@pytest.mark.parametrize("players", [8, 33, 64, 100])
def test_simulated_season_finishes_with_a_champion(players: int) -> None:
    """A whole season with random legal results, defaults and requested byes."""
    season = simulate(players, random.Random(players))
    assert season.champion is not None
    standings = ENGINE.standings(season.state)
    assert standings.final and standings.tables[0].rows[0].entrant == season.champion
    swiss = [r for r in season.state.rounds if r.stage == "swiss"]
    assert len(swiss) == (3 if players == 8 else 6 if players <= 64 else 7)
    codes = {m.details.get("result") for r in swiss for m in r.matches}
    assert "WB" in codes or players % 2 == 0
    for rnd in swiss:
        for m in rnd.matches:
            assert ENGINE.score_match(season.state, m).valid


def test_simulation_uses_defaults_and_requested_byes() -> None:
    season = simulate(64, random.Random(7), default_rate=0.15, bye_rate=0.1)
    results = [
        r
        for row in ENGINE.standings(season.state).table("swiss").rows
        for r in (row.values.get(f"round_{k}") for k in range(1, 7))
        if r
    ]
    assert {"BR", "LD", "WD"} <= set(results)
    assert season.champion is not None
