"""The pairing's time budget (issue 24): a round is always paired, within a budget the
director sets (the WOC setting ``pairing_seconds``), counted in solver work so that no clock
is read and a draft never depends on the machine's load. When the proof of optimality does
not finish within it, the draft offers the best pairing found, with the floor no pairing of
the round goes below: its distance from the optimum is proven, and shown in the draft."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules.contract import (
    EntrantState,
    EventState,
    GameState,
    MatchState,
    Participant,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.woc import ENGINE, swiss, swiss_pruned
from rules.formats.woc.swiss_budget import WORK_PER_SECOND, Budget
from rules.formats.woc.swiss_pruned import UNPROVEN, Tuning
from rules.formats.woc.swiss_sample import Shape, players

TINY = Tuning(windows_up_to=0, large=4, run=6, prepair=6)


@pytest.mark.slow
def test_out_of_budget_pairing_lies_between_the_floor_and_the_optimum() -> None:
    """With no budget beyond the route's first solve, the pairing offered is never below
    the complete graph's optimum, the floor never above it, and a pairing called proven is
    the optimum. Small fields with the sizes shrunk reach every way the route can stop
    (after a block solve, with no block pairing at all, before joining blocks)."""
    methods = set()
    for seed in range(24):
        size = 12 + 7 * seed % 41
        form = (
            Shape(),
            Shape(concentration=0.6, countries=3, rounds=7),
            Shape(draws=0.25),
            Shape(noise=2.5),
        )[seed % 4]
        field = players(size, random.Random(f"budget-{seed}"), form)
        optimum = swiss_pruned.pair(field, False, route="complete")
        offered = swiss_pruned.pair(field, False, route="pruned", tuning=TINY, budget=Budget(0))
        assert offered.bound is not None
        assert offered.bound <= optimum.cost <= offered.cost
        if offered.proven:
            assert offered.cost == optimum.cost
        methods.add(offered.method)
        assert sorted(p.id for p in field) == sorted(
            e for p in offered.pairings for e in (p.black, p.white) if e is not None
        )
    assert UNPROVEN in methods and "bound" in methods


def test_work_is_counted_the_same_on_every_run() -> None:
    """No clock: the same field and budget give the same work, pairing and verdict."""
    field = players(400, random.Random(5), Shape(concentration=0.6, countries=3, rounds=7))
    one = swiss_pruned.pair(field, False, budget=Budget.seconds(1))
    two = swiss_pruned.pair(field, False, budget=Budget.seconds(1))
    assert one.work == two.work > 0
    assert [(p.black, p.white) for p in one.pairings] == [(p.black, p.white) for p in two.pairings]
    assert one.method == two.method
    assert Budget.seconds(2).units == 2 * WORK_PER_SECOND


def _event(size: int, rounds: int, seed: int, settings: dict[str, object]) -> EventState:
    """A Swiss record of ``size`` entrants after ``rounds`` rounds, 60 % of them from one
    country (greedy pairings by points, random results), as the service hands it over."""
    rng = random.Random(seed)
    ids = [f"e{i}" for i in range(size)]
    entrants = tuple(
        EntrantState(e, f"Player {i:05d}", country="NL" if rng.random() < 0.6 else f"C{i % 2}")
        for i, e in enumerate(ids)
    )
    points = dict.fromkeys(ids, Fraction(0))
    met: set[frozenset[str]] = set()
    played = []
    for number in range(1, rounds + 1):
        order = sorted(ids, key=lambda e: (-points[e], rng.random()))
        matches = []
        while order:
            first = order.pop(0)
            index = next(
                (i for i, e in enumerate(order[:30]) if frozenset((first, e)) not in met), 0
            )
            second = order.pop(index)
            met.add(frozenset((first, second)))
            black = rng.choice((20, 32, 44))
            table = len(matches) + 1
            matches.append(
                MatchState(
                    f"R{number}-T{table}",
                    number,
                    (Participant(first, "black"), Participant(second, "white")),
                    (GameState(1, (black, 64 - black)),),
                    table=table,
                )
            )
            if black == 32:
                points[first] += Fraction(1, 2)
                points[second] += Fraction(1, 2)
            else:
                points[first if black > 32 else second] += 1
        details = {"system": "swiss", "rounds": 13, "field": ids} if number == 1 else {}
        played.append(
            RoundState(
                number,
                f"Round {number}",
                RoundStatus.COMPLETED,
                tuple(matches),
                "swiss",
                details=details,
            )
        )
    return EventState("woc", {"final_stages": False, **settings}, entrants, tuple(played))


def _plan(state: EventState) -> RoundPlan:
    plan = ENGINE.next_round(state, DrawSource("budget", state.draws))
    assert isinstance(plan, RoundPlan)
    return plan


def test_draft_offers_the_best_pairing_found_with_its_distance_from_the_optimum() -> None:
    """Round 8 of 150 players, 60 % from one country: the fast route's first solve misses
    the bound by a same-country pair, and a budget of 0 seconds lets nothing wider run. The
    draft is the best pairing found; its reason says it is not proven, what it breaks, and
    between which totals the optimum lies under the first rule where that is open, with the
    choice: publish, or search longer. With the default budget (30 s) the same round is
    proven optimal."""
    hurried = _plan(_event(150, 7, 4, {"pairing_seconds": 0}))
    proof = hurried.details["pairing_proof"]
    assert proof["method"] == UNPROVEN and proof["proven_by"] is None
    assert proof["floor"] < proof["cost"]
    unproven = next(r for r in hurried.reasons if r.code == "woc.pairing.unproven")
    assert unproven.text.startswith("Not proven optimal")
    assert "time budget of 0 s" in unproven.text
    assert "Publish it, or search longer" in unproven.text
    rule = unproven.params["rule"]
    assert unproven.params["least"] < unproven.params["totals"][rule]
    assert f"under rule ({rule}) the optimum has between {unproven.params['least']} and" in (
        unproven.text
    )
    assert not any(r.code == "woc.pairing.optimal" for r in hurried.reasons)

    patient = _plan(_event(150, 7, 4, {}))
    assert patient.details["pairing_proof"]["proven_by"] in ("lower bound", "exact solve")
    optimal = next(r for r in patient.reasons if r.code == "woc.pairing.optimal")
    # the optimum lies where the hurried draft said
    assert unproven.params["least"] <= optimal.params["totals"][rule]
    assert optimal.params["totals"][rule] <= unproven.params["totals"][rule]
    assert all(
        optimal.params["totals"][r] == unproven.params["totals"][r]
        for r in swiss.RULES[: swiss.RULES.index(rule)]
    )


def test_pairing_seconds_is_checked() -> None:
    """A budget must be a number of seconds from 0 to an hour, named in the message."""
    for bad in (-1, 121):
        problems = ENGINE.validate_settings({"pairing_seconds": bad})
        assert [p.field for p in problems] == ["pairing_seconds"]
        assert "'pairing_seconds' must be 0 to 120" in problems[0].text
    assert ENGINE.validate_settings({"pairing_seconds": 120}) == []
