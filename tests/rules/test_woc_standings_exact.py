"""The WOC standings' fast arithmetic (issue 24, item 1) gives the exact values of the rules.

The tally adds points up in whole numbers of 1/scale and Brightwell builds each value as one
Fraction; these tests recompute everything the slow, plain way (Fraction sums, Appendix A's
formula) on simulated events with byes, draws, time defaults, withdrawals and late entries,
under settings that make the scale and C fractional, and compare value for value.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from rules import variations
from rules.contention import contention
from rules.contract import EventState
from rules.formats.woc import ENGINE, brightwell
from rules.formats.woc.simulate import field, play

MIX = variations.Variations(
    withdrawals=0.05, late_entries=3, defaults=0.2, draws=0.15, overrides=0.2
)


def simulated(seed: int, size: int, **settings: object) -> EventState:
    rng = random.Random(seed)
    return play(field(size, rng), rng, {"system": "swiss", **settings}, vary=MIX)


@pytest.mark.parametrize(
    ("seed", "chosen"),
    [
        (1, {}),
        (2, {"bye_points": 0.5, "c": 1.5}),
        (3, {"bye_points": 0, "c": 0.25}),
    ],
)
def test_tally_and_brightwell_equal_the_plain_fraction_sums(seed, chosen):
    state = simulated(seed, 33, **chosen)  # odd: byes every round
    resolved = ENGINE.resolved(state)
    tally = ENGINE._tally(state, resolved)
    c = brightwell.as_fraction(resolved["c"])
    withdrawn = brightwell.withdrawn_ids(state)
    assert any(g.opponent is None for r in tally.records.values() for g in r.games)
    for entrant, record in tally.records.items():
        plain = sum((g.points for g in record.games), Fraction(0))
        assert record.points == plain
        assert Fraction(tally.units[entrant], tally.scale) == plain
        value = brightwell.brightwell(entrant, tally, withdrawn, c)
        counted = [g for g in record.games if g.opponent is not None]
        kept = [g for g in counted if g.opponent not in withdrawn]
        opponents = sum((tally.records[g.opponent].points for g in kept), Fraction(0))
        unplayed = len(set(tally.rounds) - record.rounds - tally.paired.get(entrant, set()))
        substituted = len(counted) - len(kept) + record.byes + unplayed
        # Appendix A: discs + C x opponents' points + (32 + C x own points) per substitute
        formula = sum(g.own for g in kept) + c * opponents + substituted * (32 + c * plain)
        assert value.opponents_points == opponents
        assert value.value == formula
        assert value.parts()["bq"] == brightwell.plain(formula)


def test_the_floats_follow_the_points_before_each_round():
    state = simulated(4, 40)
    tally = ENGINE._tally(state, ENGINE.resolved(state))
    points: dict[str, Fraction] = {}
    for number in tally.rounds:
        before = dict(points)
        for entrant, record in tally.records.items():
            for game in record.games:
                if game.round != number:
                    continue
                points[entrant] = points.get(entrant, Fraction(0)) + game.points
                if game.opponent is None:
                    continue
                mine, theirs = before.get(entrant, 0), before.get(game.opponent, 0)
                floated = (number, "up" if theirs > mine else "down")
                assert (floated in record.floats) == (mine != theirs)


def test_contention_given_the_standings_ranks_nothing_again(monkeypatch):
    """The standings task hands its standings to the contention: a completed Swiss is not
    ranked a second and third time (issue 24), and the answers are the same."""
    state = simulated(5, 30, final_stages=False)
    standings = ENGINE.standings(state)
    expected = contention(state)
    calls = []
    original = type(ENGINE).standings

    def counted(self, s):
        calls.append(s)
        return original(self, s)

    monkeypatch.setattr(type(ENGINE), "standings", counted)
    assert contention(state, standings) == expected
    assert calls == []
    assert contention(state) == expected
    assert len(calls) == 1  # without them: ranked once (the only outcome is the record)


def test_a_tie_level_keeps_the_entrants_in_order_and_splits_by_value():
    from rules.tiebreaks import Step, rank

    values = {f"e{i}": Fraction(i % 7, 2) for i in range(200)}
    ranking = rank(list(values), [Step("v", "Value", lambda tied: values)])
    order = ranking.order
    assert [values[e] for e in order] == sorted(values.values(), reverse=True)
    for tier in ranking.tiers:  # within a level: the input order
        assert list(tier) == sorted(tier, key=lambda e: int(e[1:]))
    assert len(ranking.decided) == 6


def test_the_progress_of_a_state_just_ranked_reuses_its_provisional_list(monkeypatch):
    """The standings task ranks a state and its contention asks for the same state's final
    stages: the field is ranked once. Another state object, even an equal one, is ranked
    anew, and the list goes when its state goes."""
    import gc

    from rules.formats.woc.engine import WocEngine

    engine = WocEngine()
    state = simulated(6, 20)
    tallies = []
    original = WocEngine._tally

    def counted(self, s, settings):
        tallies.append(len(s.rounds))  # not the state itself: it must be able to go
        return original(self, s, settings)

    monkeypatch.setattr(WocEngine, "_tally", counted)
    standings = engine.standings(state)
    progress = engine.progress(state)
    assert len(tallies) == 1
    assert progress == WocEngine().progress(state)  # a fresh engine ranks it itself
    copy = replace(state, rounds=tuple(state.rounds))
    assert engine.standings(copy) == standings
    assert len(tallies) == 3
    del state, copy
    gc.collect()
    assert engine._last is None


def test_a_pending_check_keeps_a_state_only_for_an_engine_with_a_scorer():
    """The WOC engine's scorer is made once per state (the 65,000 matches of a 10,000 Swiss
    are checked with one); an engine without one is asked match by match and its checker,
    made once for a module, holds no state."""
    import gc
    import weakref

    from rules.contention.explore import pending_by_score
    from rules.formats.woc.engine import WocEngine

    state = simulated(7, 30)
    match = state.rounds[-1].matches[0]
    made = []

    class Counting(WocEngine):
        def scorer(self, s):
            made.append(1)
            return super().scorer(s)

    with_scorer = pending_by_score(Counting())
    assert [with_scorer(state, m) for r in state.rounds for m in r.matches].count(True) == 0
    assert len(made) == 1
    del with_scorer  # it holds its last state: a checker is made per contention call

    class Plain:  # an engine without a scorer
        def score_match(self, s, m):
            return ENGINE.score_match(s, m)

    plain = pending_by_score(Plain())
    assert plain(state, match) is False
    gone = weakref.ref(state)
    del state, match
    gc.collect()
    assert gone() is None
