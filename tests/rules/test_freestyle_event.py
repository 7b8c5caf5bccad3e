"""freestyle.txt: planning the rounds, the draws, withdrawals, standings and whole events."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contract import (
    EngineError,
    EntrantStatus,
    EventState,
    Finished,
    NeedsDecision,
    PlannedMatch,
    RoundPlan,
)
from rules.draws import DrawNeeded, DrawSource
from rules.formats.freestyle import ENGINE, simulate_event
from tests.rules.test_freestyle_support import (
    Scores,
    advance,
    event,
    higher_seed_wins,
    order,
    players,
    recorded,
    source,
)


def plan(state: EventState, seed: str = "test") -> RoundPlan:
    result = ENGINE.next_round(state, source(state, seed))
    assert isinstance(result, RoundPlan), result
    return result


def members(result: RoundPlan) -> dict[str, tuple[str, ...]]:
    return {g.key: g.entrants for g in result.groups}


# --- Round 1 -------------------------------------------------------------------------------


def test_round1_groups_follow_the_table() -> None:
    """ "They are listed in descending order of points, then assigned to groups as shown in
    the table below." (question 2: group seeds 1..N are this order inside each group)."""
    groups = members(plan(event(players(28))))
    assert groups["B"] == ("p01", "p08", "p09", "p16", "p17", "p24", "p25")
    assert groups["G"] == ("p04", "p05", "p12", "p13", "p20", "p21", "p28")


@pytest.mark.parametrize(
    ("count", "sizes"),
    [(16, [4, 4, 4, 4]), (30, [7, 7, 8, 8]), (32, [8, 8, 8, 8]), (21, [5, 5, 5, 6])],
)
def test_other_field_sizes(count: int, sizes: list[int]) -> None:
    """Question 5: "The maximum number of participants is 28, but this is not set in stone.
    In the past, as many as 32 have played." 16 to 32 players (max_entrants setting)."""
    groups = members(plan(event(players(count))))
    assert [len(groups[k]) for k in "BYRG"] == sizes


def test_too_few_or_too_many_players_refused() -> None:
    with pytest.raises(EngineError) as small:
        plan(event(players(15)))
    assert "16 to 32" in str(small.value)
    with pytest.raises(EngineError):
        plan(event(players(33)))
    assert isinstance(
        ENGINE.next_round(event(players(33), max_entrants=36), source(event(players(33)))),
        RoundPlan,
    )
    assert [p.field for p in ENGINE.validate_settings({"max_entrants": 12})] == ["max_entrants"]
    assert [p.field for p in ENGINE.validate_settings({"tiebreaker_games": "x"})] == [
        "tiebreaker_games"
    ]


def test_every_group_is_a_single_round_robin_in_berger_order() -> None:
    """ "In each round, play is by Group, with each player playing against everyone else in
    the group." / "Matches are one game - no rematch.\""""
    result = plan(event(players(28)))
    for key, group in members(result).items():
        pairs = [
            frozenset(p.entrant for p in m.participants) for m in result.matches if m.group == key
        ]
        assert len(pairs) == len(set(pairs)) == 21
        rounds = [m.details["playing_round"] for m in result.matches if m.group == key]
        assert rounds == sorted(rounds) and set(rounds) == set(range(1, 8))
        assert set().union(*pairs) == set(group)


def test_round1_roles_from_the_seed_sum() -> None:
    """ "If the sum of the two seeds is even the higher seeded player is A, and if the sum is
    odd, the lower seeded player is A." Seat 0 is A."""
    for match in plan(event(players(28))).matches:
        a, b = match.participants
        assert (a.role, b.role) == ("A", "B")
        sa, sb = a.details["group_seed"], b.details["group_seed"]
        higher_is_a = sa < sb
        assert higher_is_a == ((sa + sb) % 2 == 0)


def test_equal_ratings_are_ordered_by_a_recorded_lot() -> None:
    """Question 4: equal rating points are ordered by lot; an outside draw is asked for."""
    people = list(players(16))
    people[1] = replace(people[1], rating=people[0].rating)
    state = event(people)
    with pytest.raises(DrawNeeded) as needed:
        ENGINE.next_round(state, DrawSource("x", external=True))
    assert needed.value.key == "round-1/equal-rating/1990"
    typed = replace(state, draws=tuple(recorded(**{"round-1/equal-rating/1990": ["p02", "p01"]})))
    assert members(plan(typed))["B"][0] == "p02"


def test_seeds_given_by_the_director_are_the_order() -> None:
    people = [replace(p, seed=17 - i) for i, p in enumerate(players(16), start=1)]
    assert members(plan(event(people)))["B"][0] == "p16"


# --- Round 2 -------------------------------------------------------------------------------


def test_round2_grouping_drawn_until_1_to_6() -> None:
    """ "For Round 2, the function is used repeatedly until a number in the range 1-6 comes
    up" with one key per attempt; the plan's reasons say which grouping the digit chose."""
    state = advance(event(players(28)))
    typed = replace(
        state,
        draws=state.draws
        + tuple(
            recorded(**{"round-2/grouping/1": 0, "round-2/grouping/2": 9, "round-2/grouping/3": 4})
        ),
    )
    result = plan(typed)
    assert result.details["grouping"] == 4
    assert result.details["digits"] == [0, 9, 4]
    assert [r.code for r in result.reasons][:3] == [
        "freestyle.digit_again",
        "freestyle.digit_again",
        "freestyle.digit",
    ]
    assert "grouping 4" in result.reasons[2].text
    # Question 15: "seeded in that order" is by Round 1 place, not by the printed letters.
    # Places follow the group seeds (the higher seed always won): B1=p01, Y1=p02, ...
    # grouping 4, group T: (B1,Y3,R4,G2) seeded #1..#4: B1, G2, Y3, R4.
    assert members(result)["T"] == ("p01", "p05", "p10", "p14")
    assert [g.key for g in result.groups] == ["T", "E", "B", "S"]


def test_round2_external_draw_asks_attempt_by_attempt() -> None:
    """ "Every random digit is drawn through the DrawSource ... typed in by the director"."""
    state = advance(event(players(16)))
    with pytest.raises(DrawNeeded) as first:
        ENGINE.next_round(state, DrawSource("x", state.draws, external=True))
    assert first.value.key == "round-2/grouping/1"
    typed = replace(state, draws=state.draws + tuple(recorded(**{"round-2/grouping/1": 8})))
    with pytest.raises(DrawNeeded) as second:
        ENGINE.next_round(typed, DrawSource("x", typed.draws, external=True))
    assert second.value.key == "round-2/grouping/2"


def test_round2_waits_for_a_tiebreaker_game() -> None:
    """ "9. Finally, if need be, there is a tie-breaker game.": next_round asks for it."""
    state = advance(
        event(players(28)), lambda m, n: [(9, 9)] if m.group == "B" else higher_seed_wins(m, n)
    )
    result = ENGINE.next_round(state, source(state))
    assert isinstance(result, NeedsDecision)
    assert result.code == "freestyle.tiebreaker_game"
    assert result.key == "round-1/group-B/tiebreaker/" + "+".join(
        sorted(members(plan(event(players(28))))["B"])
    )
    order_typed = list(result.options)
    typed = replace(state, draws=(*state.draws, *recorded(**{result.key: order_typed})))
    assert isinstance(ENGINE.next_round(typed, source(typed)), RoundPlan)


def test_round2_higher_seed_chooses_a_or_b() -> None:
    """ "the higher seeded player has the choice of being A or B\""""
    state = advance(event(players(16)))
    for match in plan(state).matches:
        high, low = match.participants
        assert high.details["group_seed"] < low.details["group_seed"]
        assert (high.role, low.role) == ("", "")


# --- Round 3 -------------------------------------------------------------------------------


def round3(digit: int = 5) -> tuple[EventState, RoundPlan]:
    state = advance(advance(event(players(28))))
    typed = replace(
        state,
        draws=state.draws
        + tuple(recorded(**{"round-3/grouping/1": 0, "round-3/grouping/2": digit})),
    )
    return typed, plan(typed)


def test_round3_digit_0_drawn_again_and_2_5_8_choose_grouping_2() -> None:
    """ "2, 5, 8: use grouping #2 ... 0: try again." Grouping 2: (T1, B1, E2, S2) & (E1, S1,
    T2, B2); question 16: T, E, B, S are the Round 2 groups in printed order; question 17:
    the #1s are seeds 1-2, the #2s seeds 3-4."""
    state, result = round3(5)
    assert result.details == {"grouping": 2, "digits": [0, 5]}
    round2 = {g.key: g for g in state.rounds[1].groups}
    ones = {order(state, 2, k)[0] for k in "TB"}
    twos = {order(state, 2, k)[1] for k in "ES"}
    group1 = members(result)["1"]
    assert set(group1[:2]) == ones and set(group1[2:]) == twos
    assert set(round2) == {"T", "E", "B", "S"}


def test_round3_seeding_of_the_ones_by_round2_record() -> None:
    """ "Within a group, the seeding of the #1's vis-a-vis each other ... 1. Round 2 win-loss
    records": T's #1 tied one game in Round 2, so B's #1 (three wins) is seeded first."""
    state = advance(event(players(28)))

    def round2(match: PlannedMatch, number: int) -> Scores:
        seeds = [p.details["group_seed"] for p in match.participants]
        if match.group == "T" and seeds == [1, 4]:
            return [(15, 15)]
        return higher_seed_wins(match, number)

    state = advance(state, round2)
    typed = replace(state, draws=state.draws + tuple(recorded(**{"round-3/grouping/1": 2})))
    result = plan(typed)
    t1, b1 = order(typed, 2, "T")[0], order(typed, 2, "B")[0]
    assert members(result)["1"][:2] == (b1, t1)
    seeded = [r for r in result.reasons if r.code == "freestyle.seeded"]
    assert seeded[0].params["step"] == "round_2_win_loss"


def test_random_call_even_digit_seeds_the_caller_higher() -> None:
    """ "with one of the players calling odd or even. If the call matches the result, that
    player is seeded higher." Question 18: the caller calls even; 0 is even."""
    from rules.formats.freestyle.ranking import random_call_step, seed_pair

    assert seed_pair(["y", "x"], [random_call_step(lambda: 0, "x", "k")]).order == ["x", "y"]
    assert seed_pair(["x", "y"], [random_call_step(lambda: 7, "x", "k")]).order == ["y", "x"]


# --- Semi-finals, final, third place ---------------------------------------------------------


def test_semi_finals_pair_a_one_with_the_other_groups_two() -> None:
    """ "Each semi-final has a #1 from one group and the #2 from the other group. The #1's
    have the higher seed in the semi-finals.\""""
    state = advance(advance(advance(event(players(28)))))
    result = plan(state)
    sf1, sf2 = result.matches
    assert [p.entrant for p in sf1.participants] == [
        order(state, 3, "1")[0],
        order(state, 3, "2")[1],
    ]
    assert [p.entrant for p in sf2.participants] == [
        order(state, 3, "2")[0],
        order(state, 3, "1")[1],
    ]
    assert sf1.participants[0].details["seed"] == 1


def semis_played(first: tuple[int, int], second: tuple[int, int]) -> EventState:
    state = advance(advance(advance(event(players(28)))))
    scores = {"SF1": [first], "SF2": [second]}
    return advance(state, lambda m, n: scores[m.code])


def test_final_between_the_winners_seeded_by_semi_final_margin() -> None:
    """ "The winners of the two semi-finals play. The #1 seed is given to the player who:
    1. Won by more in the Semi-finals"; third place: "The losing players in the Semi-Finals
    play off for 3rd/4th place, seeded similarly" (question 20: lost by less)."""
    state = semis_played((20, 18), (5, 25))
    sf1, sf2 = (m.entrant_ids for m in state.rounds[3].matches)
    result = plan(state)
    final, third = result.matches
    assert [p.entrant for p in final.participants] == [sf2[1], sf1[0]]
    assert [p.entrant for p in third.participants] == [sf1[1], sf2[0]]
    assert (final.code, third.code) == ("F", "3P")


def test_final_seeding_goes_on_to_places_when_margins_are_equal() -> None:
    """ "2. Had the higher ranking in Round 3, then Round 2, then Round 1.\""""
    state = semis_played((20, 10), (20, 10))
    result = plan(state)
    final = result.matches[0]
    high, low = (p.entrant for p in final.participants)
    assert high is not None and low is not None
    steps = [r.params["step"] for r in result.reasons if r.code == "freestyle.seeded"]
    assert steps[0] != "semi_final_margin"


def test_latest_head_to_head_skips_ties() -> None:
    """ "3. Won the most recent head-to-head game (repeated as necessary and available)\"
    (question 21: the latest game between them that was not a tie)."""
    from rules.formats.freestyle.ranking import latest_head_to_head_step
    from rules.formats.freestyle.results import Context
    from tests.rules.test_freestyle_support import group_round, named

    rounds = [
        group_round(1, {"B": "xy"}, {("x", "y"): (10, 5)}),
        group_round(3, {"1": "xy"}, {("x", "y"): (7, 7)}),
    ]
    step = latest_head_to_head_step(Context(event(named("xy"), rounds)), (1, 2, 3))
    assert step.values(["x", "y"]) == {"x": 1, "y": 0}


def final_played(scores: dict[str, list[tuple[int, int]]]) -> EventState:
    state = semis_played((20, 18), (5, 25))
    return advance(state, lambda m, n: scores[m.code])


def test_final_ranking_and_finished() -> None:
    """Final ranking: 1st and 2nd from the final, 3rd and 4th from the third place game."""
    state = final_played({"F": [(9, 9), (3, 10)], "3P": [(12, 4)]})
    final, third = state.rounds[4].matches
    standings = ENGINE.standings(state)
    assert standings.final
    table = standings.tables[0]
    assert table.key == "final"
    assert [r.entrant for r in table.rows] == [
        final.entrant_ids[1],
        final.entrant_ids[0],
        third.entrant_ids[0],
        third.entrant_ids[1],
    ]
    done = ENGINE.next_round(state, source(state))
    assert isinstance(done, Finished)
    assert done.reason.params["champion"] == final.entrant_ids[1]


def test_unreplayed_final_tie_is_not_finished() -> None:
    state = final_played({"F": [(9, 9)], "3P": [(12, 4)]})
    result = ENGINE.next_round(state, source(state))
    assert isinstance(result, NeedsDecision)
    assert result.options == ("F",)
    assert not ENGINE.standings(state).final


# --- Withdrawals ---------------------------------------------------------------------------


def withdraw(state: EventState, entrant: str, after: int) -> EventState:
    people = tuple(
        replace(e, status=EntrantStatus.WITHDRAWN, withdrawn_after_round=after)
        if e.id == entrant
        else e
        for e in state.entrants
    )
    return replace(state, entrants=people)


def test_withdrawal_during_round1_group_goes_on_without_him() -> None:
    """ "If a round is in-progress, his games (even if he played all of them) do not count
    and the remaining players continue without him." Question 14: the top 4 of those left
    advance."""
    state = withdraw(advance(event(players(28))), "p01", 0)
    table = ENGINE.standings(state).table("round-1/group-B")
    assert table.rows[-1].entrant == "p01" and table.rows[-1].status == "withdrawn"
    assert table.rows[0].entrant == "p08" and table.rows[0].values["played"] == 5
    result = plan(state)
    assert "p01" not in {e for g in result.groups for e in g.entrants}
    assert "p17" in {e for g in result.groups for e in g.entrants}


def test_withdrawal_between_rounds_moves_the_others_up() -> None:
    """ "If it is between rounds, then he is removed from the next round, and everyone who
    finished below him in the previous round moves up one place." Question 22: his games
    stand and he keeps his place in the table."""
    state = withdraw(advance(event(players(28))), "p08", 1)
    table = ENGINE.standings(state).table("round-1/group-B")
    assert [r.entrant for r in table.rows][:2] == ["p01", "p08"]
    assert table.rows[1].status == "withdrawn"
    assert table.rows[4].status == "qualified"  # p17, fifth, moves up to #4
    result = plan(state)
    everyone = {e for g in result.groups for e in g.entrants}
    assert "p08" not in everyone and "p17" in everyone


def test_withdrawal_during_round2_leaves_a_group_of_three() -> None:
    """Question 23: a Round 2 group of three still sends its top two on."""
    state = advance(advance(event(players(16))))
    gone = state.rounds[1].groups[0].entrants[0]
    state = withdraw(state, gone, 1)
    assert len(ENGINE.standings(state).table("round-2/group-T").rows) == 4
    result = plan(state)
    assert gone not in {e for g in result.groups for e in g.entrants}
    assert sum(len(g.entrants) for g in result.groups) == 8


def test_semi_final_winner_withdrawing_before_the_final_is_replaced() -> None:
    """Question 23: the loser of his semi-final moves up to the final; the other loser gets
    third place without play."""
    state = semis_played((20, 18), (5, 25))
    sf1 = state.rounds[3].matches[0].entrant_ids
    state = withdraw(state, str(sf1[0]), 4)
    final, third = plan(state).matches
    assert sf1[1] in [p.entrant for p in final.participants]
    assert third.is_bye


def test_withdrawal_during_the_final_is_a_walkover() -> None:
    state = final_played({"F": [(3, 10)], "3P": [(12, 4)]})
    final = state.rounds[4].matches[0]
    state = withdraw(state, str(final.entrant_ids[1]), 4)
    assert ENGINE.standings(state).tables[0].rows[0].entrant == final.entrant_ids[0]


# --- Whole events --------------------------------------------------------------------------


@pytest.mark.parametrize("count", [16, 28, 32])
def test_simulated_event_finishes_with_a_champion(count: int) -> None:
    state = simulate_event(random.Random(count), count)
    assert len(state.rounds) == 5
    standings = ENGINE.standings(state)
    assert standings.final
    assert len({r.entrant for r in standings.tables[0].rows}) == 4
    assert isinstance(ENGINE.next_round(state, source(state)), Finished)


def test_event_replays_from_its_record() -> None:
    """Every draw is recorded: planning again from the record gives the same rounds."""
    state = simulate_event(random.Random(7), 28)
    for number in range(1, 6):
        before = replace(state, rounds=state.rounds[: number - 1])
        again = ENGINE.next_round(before, DrawSource("another seed", state.draws, external=True))
        assert isinstance(again, RoundPlan)
        assert [tuple(p.entrant for p in m.participants) for m in again.matches] == [
            m.entrant_ids for m in state.rounds[number - 1].matches
        ]


def test_standings_have_a_table_per_group_of_every_round() -> None:
    state = simulate_event(random.Random(3), 28)
    keys = [t.key for t in ENGINE.standings(state).tables]
    assert keys[0] == "final"
    assert "round-3/group-1" in keys and "round-2/group-S" in keys
    assert "round-1/group-G" in keys
    assert len(keys) == 1 + 2 + 4 + 4


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(count=st.integers(16, 32), seed=st.integers(0, 10_000))
def test_any_field_finishes(count: int, seed: int) -> None:
    state = simulate_event(random.Random(seed), count)
    assert ENGINE.standings(state).final
