"""The WPF GP Playoffs engine end to end: pairing by rank, swaps, standings, simulation."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from rules import registry
from rules.contract import (
    EngineError,
    EntrantState,
    EntrantStatus,
    EventState,
    Finished,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.wpf_playoffs import ENGINE
from rules.formats.wpf_playoffs.simulate import entrants, play_round, simulate

PEOPLE = tuple(
    EntrantState(f"p{i}", f"Player {i}", flags={"gp_total": 100 - i, "attending": True})
    for i in range(1, 17)
)


def advance(
    state: EventState, winners: Mapping[str, int] | None = None, seed: int = 0
) -> EventState:
    """Plan and play the next round; unnamed matches go to the better rank (seat 0)."""
    plan = ENGINE.next_round(state, DrawSource("t", state.draws))
    assert isinstance(plan, RoundPlan)
    fixed = {m.code: 0 for m in plan.matches} | dict(winners or {})
    played = play_round(plan, random.Random(seed), fixed)
    return EventState(state.format, state.settings, state.entrants, (*state.rounds, played))


def start(people: tuple[EntrantState, ...] = PEOPLE, **settings: object) -> EventState:
    return EventState("wpf_playoffs", dict(settings), people)


def ranks(state: EventState) -> list[str]:
    return [r.entrant for r in ENGINE.standings(state).table("overall").rows]


def test_engine_is_registered_by_key() -> None:
    assert ENGINE.key == "wpf_playoffs"
    assert registry.package("wpf_playoffs") == "rules.formats.wpf_playoffs"
    assert registry.get("wpf_playoffs") is ENGINE


def test_seed_and_rank_start_equal() -> None:
    """ "At the start of the tournament, these two numbers are identical for each player".\""""
    state = advance(start(), {m: 0 for m in ()})
    first = state.rounds[0]
    assert first.details["seeds"] == [f"p{i}" for i in range(1, 17)]
    a7 = next(m for m in first.matches if m.code == "A7")
    assert [p.details["rank"] for p in a7.participants] == [7, 9]
    assert [p.details["seed"] for p in a7.participants] == [7, 9]


def test_worse_rank_winning_swaps_ranks() -> None:
    """ "If the player with the better rank wins, the two players keep their ranks for the
    next round. If the player with the worse rank wins, then the two players swap their
    ranks for the next round.\""""
    state = advance(start(), {"A1": 1, "A2": 0})
    order = ranks(state)
    assert order[0] == "p16" and order[15] == "p1" and order[1] == "p2"
    row = ENGINE.standings(state).table("overall").rows[0]
    assert (
        row.details["reason"]
        == "Rank 1 since A1: won as rank 16 against p1, and the two swapped ranks."
    )
    assert row.values == {"seed": 16, "losses": 0, "bracket": "Winner's Bracket", "wins": 1}
    plan = ENGINE.next_round(state, DrawSource("t"))
    assert isinstance(plan, RoundPlan)
    b9 = next(m for m in plan.matches if m.code == "B9")
    assert [p.entrant for p in b9.participants] == ["p9", "p1"]
    assert b9.bracket == "losers"


def test_rounds_follow_the_table_and_finish_after_heat_5() -> None:
    """ "After eight rounds of competition ..., the rank of the players determine the
    finishing order.\""""
    state = start()
    labels = []
    for _ in range(12):
        state = advance(state)
        labels.append(state.rounds[-1].label)
    assert labels[0] == "Round A" and labels[7] == "Heat 1 (round F, live)"
    assert [m.code for m in state.rounds[-1].matches] == ["FINAL"]
    outcome = ENGINE.next_round(state, DrawSource("t"))
    assert isinstance(outcome, Finished)
    standings = ENGINE.standings(state)
    assert standings.final
    assert ranks(state) == [f"p{i}" for i in range(1, 17)]  # no upsets: seed order


def test_ranks_11_to_16_are_final_after_round_g() -> None:
    """ "The official final rankings of 11th place through 16th place." are presented at the
    start of the live stage."""
    state = start()
    for _ in range(7):
        state = advance(state)
    rows = ENGINE.standings(state).table("overall").rows
    assert [r.rank for r in rows if r.details["rank_final"]] == [11, 12, 13, 14, 15, 16]


def test_incomplete_round_blocks_the_next() -> None:
    state = advance(start())
    first = state.rounds[0]
    unplayed = RoundState(
        first.number,
        first.label,
        RoundStatus.PUBLISHED,
        tuple(type(m)(m.code, m.round_number, m.participants) for m in first.matches),
        first.stage,
        details=first.details,
    )
    with pytest.raises(EngineError):
        ENGINE.next_round(
            EventState(state.format, {}, state.entrants, (unplayed,)), DrawSource("t")
        )


def test_online_results_hidden_from_the_public_until_revealed() -> None:
    """ "Players will not know which 7 puzzles will be used, their opponent for each puzzle,
    or their official times." "At the beginning of the live stage, the official results of
    the online stage will be presented to the players and the audience.\""""
    state = advance(start(), {"A1": 1})
    public = ENGINE.standings(state).table("public")
    assert public.rows[0].entrant == "p1" and public.rows[0].details == {"hidden": True}
    assert public.notes[0].code == "wpf.hidden"
    assert state.rounds[0].matches[0].details["hidden_until_reveal"] is True
    shown = EventState(
        state.format, {"online_results_revealed": True}, state.entrants, state.rounds
    )
    assert ENGINE.standings(shown).table("public").rows[0].entrant == "p16"


def test_publishing_the_first_live_heat_reveals_the_online_results() -> None:
    state = start()
    for _ in range(8):
        state = advance(state, {"A1": 1})
    assert ENGINE.standings(state).table("public").rows[0].entrant == "p16"


def test_fewer_players_fill_with_byes_who_lose_every_match() -> None:
    """ "A "bye" player is seeded worst and loses all head-to-head competitions.\""""
    state = simulate(random.Random(5), PEOPLE[:10])
    rows = ENGINE.standings(state).table("overall").rows
    assert [r.entrant for r in rows[10:]] == [f"bye-{s}" for s in range(11, 17)]
    assert all(r.status == "virtual" for r in rows[10:])
    for rnd in state.rounds:
        for m in rnd.matches:
            score = ENGINE.score_match(state, m)
            if score.winner is not None and m.participants[score.winner].entrant is None:
                assert all(p.entrant is None for p in m.participants)


def test_a_finalist_who_withdraws_loses_the_rest() -> None:
    """ "or a finalist ends up not being present at the WSPC ... they will be replaced with
    a virtual "bye" player.\""""
    people = tuple(
        EntrantState(
            p.id, p.name, flags=p.flags, status=EntrantStatus.WITHDRAWN, withdrawn_after_round=7
        )
        if p.id == "p1"
        else p
        for p in PEOPLE
    )
    state = start(people)
    for _ in range(7):
        state = advance(state)
    state = advance(state, {"F1": 0})  # entered as a win for p1, but p1 is not there
    row = ENGINE.standings(state).table("overall").rows[1]
    assert row.entrant == "p1" and row.status == "withdrawn" and row.values["losses"] == 1


def test_live_puzzle_is_chosen_by_rank_1_from_the_pool() -> None:
    """ "For the live stage, the player with rank 1 (not seed 1) will choose that round's
    puzzle from the pool of puzzles at the start of each round.\""""
    state = start(live_puzzles=["L1", "L2", "L3", "L4"])
    for _ in range(7):
        state = advance(state, {"A1": 1})
    plan = ENGINE.next_round(state, DrawSource("t"))
    assert isinstance(plan, RoundPlan)
    assert plan.details["puzzle_chooser"] == "p16"
    assert plan.details["puzzle_options"] == ["L1", "L2", "L3", "L4"]
    heat1 = play_round(plan, random.Random(1), {"F1": 0, "F3": 0})
    heat1 = RoundState(
        heat1.number,
        heat1.label,
        heat1.status,
        heat1.matches,
        heat1.stage,
        details=dict(heat1.details) | {"puzzle": "L3"},
    )
    state = EventState(state.format, state.settings, state.entrants, (*state.rounds, heat1))
    plan = ENGINE.next_round(state, DrawSource("t"))
    assert isinstance(plan, RoundPlan)
    assert plan.details["puzzle_options"] == ["L1", "L2", "L4"]


def test_settings_are_validated() -> None:
    assert ENGINE.validate_settings({}) == []
    problems = ENGINE.validate_settings({"online_puzzles": ["a", "a"], "eligible_top": 10})
    assert {p.field for p in problems} == {"online_puzzles", "eligible_top"}
    assert ENGINE.validate_settings({"puzzle_selection": "dice"})[0].code == "setting.choice"


@pytest.mark.parametrize("count", [16, 20, 13, 9, 2, 1])
def test_simulation_finishes(count: int) -> None:
    """A whole playoff with random legal results finishes, with 16 players or virtual byes."""
    rng = random.Random(count)
    state = simulate(rng, entrants(count, rng))
    standings = ENGINE.standings(state)
    assert standings.final
    rows = standings.table("overall").rows
    assert [r.rank for r in rows] == list(range(1, 17))
    assert len({r.entrant for r in rows}) == 16
    assert sum(r.values["losses"] for r in rows) == 54
    assert len(state.rounds) == 12


def test_simulation_is_deterministic() -> None:
    one = simulate(random.Random(42))
    two = simulate(random.Random(42))
    assert ranks(one) == ranks(two)


def test_simulation_with_puzzle_preferences() -> None:
    rng = random.Random(3)
    pool = [f"P{i}" for i in range(8)]
    people = tuple(
        EntrantState(
            e.id, e.name, flags=dict(e.flags) | {"puzzle_preferences": rng.sample(pool, 8)}
        )
        for e in entrants(16, rng)
    )
    state = simulate(rng, people, {"online_puzzles": pool})
    used = [r.details["puzzle"] for r in state.rounds[:7]]
    assert len(set(used)) == 7 and set(used) <= set(pool)
