"""Playing system (woc II.2), round 1 (II.6.1), later Swiss rounds (II.6.2), byes (II.7)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contract import (
    EngineError,
    EntrantState,
    EntrantStatus,
    EventState,
    Finished,
    GameState,
    MatchState,
    Participant,
    PlannedMatch,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.woc import ENGINE, simulate, swiss, system


def entrants(n: int, **flags: dict[str, Any]) -> tuple[EntrantState, ...]:
    return tuple(
        EntrantState(f"p{i}", f"Player {i:02d}", flags=flags.get(f"p{i}", {}))
        for i in range(1, n + 1)
    )


def ids_of(match: PlannedMatch) -> tuple[str | None, ...]:
    return tuple(p.entrant for p in match.participants)


def first_round(state: EventState, seed: str = "s") -> RoundPlan:
    plan = ENGINE.next_round(state, DrawSource(seed, state.draws))
    assert isinstance(plan, RoundPlan)
    return plan


def meetings(state: EventState) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for rnd in state.rounds:
        for m in rnd.matches:
            if not m.is_bye:
                met[frozenset(e for e in m.entrant_ids if e)] += 1
    return met


# -- II.2 playing system -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "system_key", "rounds"),
    [
        (4, "double_round_robin", 6),
        (8, "double_round_robin", 14),
        (9, "round_robin", 9),
        (14, "round_robin", 13),
        (15, "modified_swiss", 13),
        (24, "modified_swiss", 13),
        (25, "swiss", 13),
        (67, "swiss", 13),
    ],
)
def test_playing_system_by_number_of_players(size: int, system_key: str, rounds: int) -> None:
    """II.2: "a) Up to 8 players: a double Round Robin. b) 9-14 players: a single Round
    Robin. c) 15-24 players: a modified Swiss system. d) More than 24 players: an
    unmodified Swiss system." and "seven rounds ... on the first day and six on the second"."""
    plan = first_round(EventState("woc", {}, entrants(size)))
    assert plan.details["system"] == system_key
    assert plan.details["rounds"] == rounds
    assert plan.stage in ("swiss", "round_robin")


def test_director_may_override_system_and_rounds() -> None:
    state = EventState("woc", {"system": "swiss", "rounds": 5}, entrants(10))
    plan = first_round(state)
    assert plan.details["system"] == "swiss"
    assert plan.details["rounds"] == 5
    assert {r.code for r in plan.reasons} >= {"woc.system.override", "woc.rounds.override"}


def test_host_additional_player_plays_only_when_the_field_would_be_odd() -> None:
    """II.2: "If there would otherwise be an odd number of players, the host country may
    enter an additional player ... to prevent the introduction of a bye"."""
    odd = EventState("woc", {}, entrants(28, p28={"host_additional": True}))
    plan = first_round(odd)
    assert "p28" in plan.details["field"]
    assert not any(m.is_bye for m in plan.matches)
    even = EventState("woc", {}, entrants(27, p1={"host_additional": True}))
    plan = first_round(even)
    assert "p1" not in plan.details["field"]
    assert "woc.field.additional_idle" in {r.code for r in plan.reasons}


def test_odd_field_without_additional_player_gets_a_bye() -> None:
    """II.7: a dummy player called "BYE" is introduced into the pairing process."""
    plan = first_round(EventState("woc", {}, entrants(25)))
    assert plan.details["field"] == [f"p{i}" for i in range(1, 26)]
    byes = [m for m in plan.matches if m.is_bye]
    assert len(byes) == 1


def test_two_additional_players_are_refused() -> None:
    flags = {"p1": {"host_additional": True}, "p2": {"host_additional": True}}
    with pytest.raises(EngineError, match="Only one additional host player"):
        first_round(EventState("woc", {}, entrants(9, **flags)))


def test_too_few_players_is_refused() -> None:
    with pytest.raises(EngineError):
        first_round(EventState("woc", {}, entrants(1)))


@pytest.mark.parametrize(("size", "cycles"), [(6, 2), (7, 2), (10, 1), (13, 1)])
def test_round_robins_by_berger_tables_with_balanced_colours(size: int, cycles: int) -> None:
    """II.2 a-b: everyone meets everyone once (twice in the double round robin)."""
    state = simulate.play(entrants(size), random.Random(size))
    met = meetings(state)
    assert len(met) == size * (size - 1) // 2
    assert set(met.values()) == {cycles}
    blacks: Counter[str] = Counter()
    whites: Counter[str] = Counter()
    for rnd in state.rounds:
        assert rnd.stage == "round_robin"
        for m in rnd.matches:
            if not m.is_bye:
                blacks[m.participants[0].entrant or ""] += 1
                whites[m.participants[1].entrant or ""] += 1
    for e in state.entrants:
        assert abs(blacks[e.id] - whites[e.id]) <= 1
    assert isinstance(ENGINE.next_round(state, DrawSource("x", state.draws)), Finished)


# -- II.6.1 first round ----------------------------------------------------------------------


def test_round_one_group_a_meets_group_b_alternating_black_and_white() -> None:
    """II.6.1: "paired against each other, with the player from group A assigned black.
    This is repeated, with the player from group A assigned alternately black and white,
    until one of the two groups is empty. The remaining players are paired by random draw."""
    group_a = {f"p{i}": {"group_a": True} for i in (3, 8, 11, 20, 29)}
    state = EventState("woc", {}, entrants(30, **group_a))
    source = DrawSource("seed", ())
    plan = ENGINE.next_round(state, source)
    assert isinstance(plan, RoundPlan)
    a_ids = set(group_a)
    a_matches = [m for m in plan.matches if a_ids & set(ids_of(m))]
    assert len(a_matches) == 5
    for index, match in enumerate(plan.matches[:5]):
        black, white = ids_of(match)
        assert (black in a_ids) == (index % 2 == 0)
        assert (white in a_ids) == (index % 2 == 1)
        assert len(a_ids & {black, white}) == 1
        assert match.reasons[0].rule == "woc II.6.1"
    assert {d.key for d in source.new} == {"round-1/group-a", "round-1/group-b", "round-1/rest"}
    # The draw is recorded: the same records give the same pairing with any seed.
    again = ENGINE.next_round(state, DrawSource("other", source.new))
    assert isinstance(again, RoundPlan)
    assert [ids_of(m) for m in again.matches] == [ids_of(m) for m in plan.matches]


def test_round_one_more_group_a_than_group_b() -> None:
    group_a = {f"p{i}": {"group_a": True} for i in range(1, 21)}
    plan = first_round(EventState("woc", {}, entrants(26, **group_a)))
    ids = [set(ids_of(m)) for m in plan.matches]
    assert all(ids[i] & set(group_a) for i in range(13))
    assert sum(1 for s in ids if s <= set(group_a)) == 7


# -- II.6.2 later rounds -------------------------------------------------------------------


def _brute(players: Sequence[swiss.SwissPlayer], modified: bool) -> tuple[int, ...] | None:
    nodes = list(players)
    if len(nodes) % 2:
        nodes.append(swiss.SwissPlayer(swiss.BYE, Fraction(0)))
    order = {p.id: i for i, p in enumerate(nodes)}
    best: tuple[int, ...] | None = None

    def walk(rest: list[swiss.SwissPlayer], costs: list[swiss.PairCost]) -> None:
        nonlocal best
        if not rest:
            found = swiss.total(costs)
            best = found if best is None or found < best else best
            return
        first, others = rest[0], rest[1:]
        for index, other in enumerate(others):
            if swiss.allowed(first, other, modified):
                cost = swiss.pair_cost(first, other, modified, order)
                walk(others[:index] + others[index + 1 :], [*costs, cost])

    walk(nodes, [])
    return best


@st.composite
def fields(draw: Any) -> tuple[list[swiss.SwissPlayer], bool]:
    size = draw(st.integers(2, 9))
    ids = [f"p{i}" for i in range(size)] + [swiss.BYE]
    players = []
    for i in range(size):
        played = draw(st.integers(0, 5))
        seats = tuple(draw(st.lists(st.integers(0, 1), min_size=played, max_size=played)))
        met = draw(st.lists(st.sampled_from([x for x in ids if x != f"p{i}"]), max_size=played))
        players.append(
            swiss.SwissPlayer(
                id=f"p{i}",
                points=Fraction(draw(st.integers(0, 2 * played)), 2),
                seats=seats,
                last_float=draw(st.sampled_from([None, "up", "down"])),
                opponents=Counter(met),
                country=draw(st.sampled_from(["", "JPN", "FRA"])),
            )
        )
    # meetings are symmetric
    for p in players:
        for q in players:
            if q.id in p.opponents:
                q.opponents[p.id] = p.opponents[q.id]  # type: ignore[index]
    players.sort(key=lambda p: -p.points)
    return players, draw(st.booleans())


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(fields())
def test_pairing_is_the_rule_by_rule_optimum(case: tuple[list[swiss.SwissPlayer], bool]) -> None:
    """II.6.2: rules a-g "in decreasing order of priority": the matching equals an exhaustive
    search that minimises the breaches of b, then c, ..., then g, among pairings allowed by a."""
    players, modified = case
    best = _brute(players, modified)
    if best is None:
        with pytest.raises(swiss.PairingImpossible):
            swiss.pair_round(players, modified)
        return
    pairings = swiss.pair_round(players, modified)
    assert swiss.total([p.cost for p in pairings]) == best
    seen = [p.black for p in pairings] + [p.white for p in pairings if p.white]
    assert sorted(seen) == sorted(p.id for p in players)


def P(ident: str, points: float, seats: str = "", **kw: Any) -> swiss.SwissPlayer:
    return swiss.SwissPlayer(
        ident, Fraction(points).limit_denominator(2), tuple("BW".index(s) for s in seats), **kw
    )


def test_unmodified_swiss_never_repeats_a_pairing() -> None:
    """II.6.2(a): "two players who have already played against each other cannot be paired
    together again" - even at the cost of a points difference."""
    players = [
        P("a", 1, "B", opponents={"b": 1}),
        P("b", 1, "W", opponents={"a": 1}),
        P("c", 0, "W", opponents={"d": 1}),
        P("d", 0, "B", opponents={"c": 1}),
    ]
    pairs = {frozenset((p.black, p.white)) for p in swiss.pair_round(players, False)}
    assert frozenset("ab") not in pairs
    assert any(
        r.code == "woc.pairing.points_differ"
        for p in swiss.pair_round(players, False)
        for r in p.reasons
    )


def test_modified_swiss_allows_one_rematch_but_not_a_third_meeting() -> None:
    """II.6.2(a) modified: "two players who have played against each other twice cannot be
    paired together"; (b) comes before (c) "should not be paired together again"."""
    players = [
        P("a", 2, "BW", opponents={"b": 1}),
        P("b", 2, "WB", opponents={"a": 1}),
        P("c", 0, "WB"),
        P("d", 0, "BW"),
    ]
    pairs = swiss.pair_round(players, True)
    assert {frozenset((p.black, p.white)) for p in pairs} == {frozenset("ab"), frozenset("cd")}
    assert any(r.code == "woc.pairing.rematch" for r in pairs[0].reasons)
    twice = [P("a", 2, opponents={"b": 2}), P("b", 2, opponents={"a": 2}), P("c", 0), P("d", 0)]
    assert frozenset("ab") not in {
        frozenset((p.black, p.white)) for p in swiss.pair_round(twice, True)
    }


def test_equal_points_first() -> None:
    """II.6.2(b): "The two players paired together should have the same number of points"."""
    players = [P("a", 2), P("b", 1), P("c", 2), P("d", 1)]
    pairs = {frozenset((p.black, p.white)) for p in swiss.pair_round(players, False)}
    assert pairs == {frozenset("ac"), frozenset("bd")}


def test_colours_balance_then_alternate() -> None:
    """II.6.2(d) black and white the same number of times; (f) alternate colours."""
    a, b = P("a", 1, "BB" + "W"), P("b", 1, "WWB")
    (pairing,) = swiss.pair_round([a, b], False)
    assert (pairing.black, pairing.white) == ("b", "a")
    c, d = P("c", 1, "BW"), P("d", 1, "WB")
    (pairing,) = swiss.pair_round([c, d], False)
    assert (pairing.black, pairing.white) == ("c", "d")  # c had White last, d Black


def test_float_direction_alternates() -> None:
    """II.6.2(e): "A player who has already floated up should float down"."""
    players = [
        P("top", 2),
        P("x", 1, last_float="down"),
        P("y", 1, last_float="up"),
        P("z", 1, last_float="down"),
    ]
    pairs = {frozenset((p.black, p.white)) for p in swiss.pair_round(players, False)}
    # y floated up last time: it should not float up again; x (last down) floats up.
    assert frozenset(("top", "y")) not in pairs
    assert frozenset(("top", "x")) in pairs or frozenset(("top", "z")) in pairs


def test_same_country_avoided_when_an_equivalent_pairing_exists() -> None:
    """II.6.2(g): "Two players registered for the same country ... should not play together
    ... if an equivalent pairing ... can be found"."""
    players = [
        P("a", 1, country="JPN"),
        P("b", 1, country="JPN"),
        P("c", 1, country="FRA"),
        P("d", 1, country="NED"),
    ]
    pairs = {frozenset((p.black, p.white)) for p in swiss.pair_round(players, False)}
    assert frozenset("ab") not in pairs
    forced = [P("a", 1, country="JPN"), P("b", 1, country="JPN"), P("c", 0), P("d", 0)]
    pairing = swiss.pair_round(forced, False)[0]
    assert any(r.code == "woc.pairing.same_country" for r in pairing.reasons)


def test_bye_goes_to_a_lowest_scorer_and_not_twice() -> None:
    """II.7 dummy BYE; rule (a) applies to it like to any player (decision in docs)."""
    players = [P("a", 2), P("b", 1), P("c", 0, opponents={swiss.BYE: 1}), P("d", 0), P("e", 1)]
    pairings = swiss.pair_round(players, False)
    assert [p.black for p in pairings if p.white is None] == ["d"]
    assert pairings[-1].reasons[0].code == "woc.pairing.bye"


@pytest.mark.slow
@pytest.mark.parametrize("size", [8, 12, 20, 67])
def test_whole_events_run_to_the_end(size: int) -> None:
    rng = random.Random(1000 + size)
    state = simulate.play(simulate.field(size, rng), rng)
    plan = system.plan(state, ENGINE.resolved(state))
    assert len(state.rounds) == plan.rounds
    met = meetings(state)
    if plan.system == "swiss":
        assert max(met.values()) == 1
    if plan.system == "modified_swiss":
        assert max(met.values()) <= 2
    standings = ENGINE.standings(state)
    assert standings.final
    assert len(standings.table("overall").rows) == size


def test_withdrawn_player_is_not_paired_and_a_bye_appears() -> None:
    """II.7: "A player who has withdrawn will not be considered for the purposes of pairing
    rounds after his withdrawal, and instead a dummy player called "BYE" will be introduced"."""
    rng = random.Random(5)
    state = simulate.play(simulate.field(26, rng), rng, {"rounds": 3})
    gone = state.entrants[0]
    people = (
        EntrantState(gone.id, gone.name, status=EntrantStatus.WITHDRAWN, withdrawn_after_round=3),
        *state.entrants[1:],
    )
    state = EventState("woc", {"rounds": 4}, people, state.rounds, state.draws)
    plan = ENGINE.next_round(state, DrawSource("x", state.draws))
    assert isinstance(plan, RoundPlan)
    assert all(gone.id not in ids_of(m) for m in plan.matches)
    assert sum(1 for m in plan.matches if m.is_bye) == 1
    assert plan.matches[0].details["pairing_cost"].keys() == set("bcdefg")


def test_a_round_that_cannot_be_paired_is_refused_in_words() -> None:
    ids = entrants(2)
    game = GameState(1, (40, 24))
    rnd = RoundState(
        1,
        "Round 1",
        RoundStatus.COMPLETED,
        (MatchState("R1-T1", 1, (Participant("p1"), Participant("p2")), games=(game,)),),
        "swiss",
        details={"system": "swiss", "rounds": 3, "field": ["p1", "p2"]},
    )
    state = EventState("woc", {}, ids, (rnd,))
    with pytest.raises(EngineError, match="cannot be paired"):
        ENGINE.next_round(state, DrawSource("x"))


def test_simulation_is_reproducible_from_its_random_generator() -> None:
    """Randomness is an input: the same seeded generator plays the same event."""
    one = simulate.play(simulate.field(16, random.Random(7)), random.Random(8), {"rounds": 4})
    two = simulate.play(simulate.field(16, random.Random(7)), random.Random(8), {"rounds": 4})
    assert one == two


def test_standings_before_round_one_list_the_field_level() -> None:
    state = EventState("woc", {}, entrants(5))
    standings = ENGINE.standings(state)
    assert {r.rank for r in standings.table("overall").rows} == {1}
    assert not standings.final
    assert standings.pending == ()
