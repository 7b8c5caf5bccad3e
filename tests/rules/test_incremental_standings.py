"""Issue 33, item 1: "A result changes a few rows". An engine's standings after a change of
a few matches' results, made from the previous standings' work (``standings_after``), are
the whole recompute's (``standings``), over simulated events of every format: results
entered in the open round, corrections of earlier rounds, forfeits, draws, results taken
back, and several updates chained."""

import dataclasses
import random
from fractions import Fraction

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from rules import variations
from rules.contract import (
    EngineError,
    EventState,
    GameEnding,
    GameState,
    MatchState,
    PlannedMatch,
    RoundState,
    RoundStatus,
)
from rules.formats.bot_contest.simulate import play_event as play_contest
from rules.formats.freestyle.simulate import play_event as play_freestyle
from rules.formats.gokodom.engine import GokodomEngine
from rules.formats.gokodom.simulate import _games as gokodom_games
from rules.formats.gokodom.simulate import simulate as season
from rules.formats.round_robin.engine import RoundRobinEngine
from rules.formats.round_robin.simulate import simulate as round_robin
from rules.formats.woc.engine import WocEngine
from rules.formats.woc.simulate import field, play, random_game
from rules.formats.wpf_playoffs.simulate import play_event as play_wpf
from rules.registry import get
from rules.reranking import Reranker
from rules.tiebreaks import Step, rank

MIXED = variations.Variations(draws=0.2, defaults=0.1, withdrawals=0.1)
SEEDS = st.integers(0, 10**6)


def _with(state: EventState, number: int, code: str, **changes: object) -> EventState:
    rounds = []
    for rnd in state.rounds:
        if rnd.number == number:
            rnd = dataclasses.replace(
                rnd,
                matches=tuple(
                    dataclasses.replace(m, **changes) if m.code == code else m  # type: ignore[arg-type]
                    for m in rnd.matches
                ),
            )
        rounds.append(rnd)
    return dataclasses.replace(state, rounds=tuple(rounds))


def _cut(state: EventState, rng: random.Random, keep: list[RoundState]) -> EventState:
    """The first rounds of ``keep``, the last of them open (published) with some of its
    results not in yet."""
    rounds = keep[: rng.randint(1, len(keep))]
    if rng.random() < 0.6:
        last = rounds[-1]
        matches = tuple(
            _bare(m) if not m.is_bye and rng.random() < 0.5 else m for m in last.matches
        )
        open_round = dataclasses.replace(last, status=RoundStatus.PUBLISHED, matches=matches)
        rounds = [*rounds[:-1], open_round]
    return dataclasses.replace(state, rounds=tuple(rounds))


def _bare(match: MatchState) -> MatchState:
    """The match with no result in: no games, nothing recorded about its play."""
    kept = {k: v for k, v in match.details.items() if k not in ("unplayed", "messages", "results")}
    return dataclasses.replace(match, games=(), details=kept)


def _chain(engine, fresh, state, change, rng, steps=4, *, always=True):
    """Updates ``steps`` times, each changing one to three matches, and compares each
    update with a fresh engine's whole standings."""
    standings, work = engine.standings_work(state)
    assert standings == fresh().standings(state)
    used = 0
    for _ in range(steps):
        matches = [(r, m) for r in state.rounds for m in r.matches if not m.is_bye]
        picked = rng.sample(matches, min(len(matches), rng.randint(1, 3)))
        for rnd, match in picked:
            state = _with(state, rnd.number, match.code, **change(rnd, match, rng))
        changed = frozenset((rnd.number, match.code) for rnd, match in picked)
        out = None if work is None else engine.standings_after(work, state, changed)
        if out is None:
            assert not always, "the format has a path for this change"
            standings, work = engine.standings_work(state)
            continue
        used += 1
        standings, work = out
        assert standings == fresh().standings(state)
    return state, used


def _round_robin_change(rnd: RoundState, match: MatchState, rng: random.Random) -> dict:
    if rng.random() < 0.2:
        return {"games": ()}  # the result taken back
    count = max(1, len(match.games))
    ending = GameEnding.FORFEIT if rng.random() < 0.15 else GameEnding.NORMAL
    games = tuple(
        GameState(n + 1, (rng.randint(0, 2), rng.randint(0, 2)), ending=ending)  # draws too
        for n in range(count)
    )
    return {"games": games}


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, entrants=st.integers(3, 14), tiebreaks=st.sampled_from([0, 1, 2, 3]))
def test_round_robin_after_a_few_results_is_the_whole_recompute(seed, entrants, tiebreaks):
    """The two rows, their Sonneborn-Berger neighbours and head-to-head among the level."""
    rng = random.Random(seed)
    chosen = [
        {},  # head-to-head, Sonneborn-Berger, wins, score difference
        {"tiebreaks": ["sonneborn_berger", "wins"]},  # the bench's
        {"tiebreaks": ["wins", "head_to_head", "score_for"], "games_per_match": 2},
        {"tiebreaks": [], "cycles": 2, "absent_result": "bye"},
    ][tiebreaks]
    whole = round_robin(entrants, rng, chosen, MIXED if seed % 2 else variations.NONE)
    state = _cut(whole, rng, list(whole.rounds))
    engine = RoundRobinEngine()
    _chain(engine, RoundRobinEngine, state, _round_robin_change, rng)


def _woc_change(rnd: RoundState, match: MatchState, rng: random.Random) -> dict:
    if rnd.stage not in ("swiss", "round_robin"):
        return {"games": () if rng.random() < 0.5 else match.games}
    if rng.random() < 0.2:
        return {"games": ()}
    vary = variations.Variations(draws=0.3, defaults=0.2)  # 32-32, time defaults
    return {"games": (random_game(rng, vary),)}


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, entrants=st.integers(6, 18))
def test_woc_after_a_few_results_is_the_whole_recompute(seed, entrants):
    """Points, discs and the Brightwell terms of the two players and their opponents, the
    lot of a tie, the final stages' lists; the engine's provisional list (what contention's
    progress reads) is the new state's too."""
    rng = random.Random(seed)
    try:
        whole = play(field(entrants, rng), rng, finals=seed % 3 == 0, vary=MIXED)
    except EngineError:  # a withdrawal left a round only the director can pair
        reject()
    state = _cut(whole, rng, list(whole.rounds))
    engine = WocEngine()
    state, used = _chain(engine, WocEngine, state, _woc_change, rng)
    assert used == 4
    assert engine.progress(state) == WocEngine().progress(state)


def test_woc_bye_halves_and_a_new_denominator():
    """A draw entered in an event that had none changes the tally's unit (its scale)."""
    rng = random.Random(5)
    whole = play(field(9, rng), rng)
    decisive = [
        dataclasses.replace(
            r,
            matches=tuple(
                m if m.is_bye else dataclasses.replace(m, games=(GameState(1, (40, 24)),))
                for m in r.matches
            ),
        )
        for r in whole.rounds[:3]
    ]
    state = dataclasses.replace(whole, rounds=tuple(decisive))
    engine = WocEngine()
    _, work = engine.standings_work(state)
    match = next(m for m in state.rounds[0].matches if not m.is_bye)
    drawn = _with(state, 1, match.code, games=(GameState(1, (32, 32)),))
    out = engine.standings_after(work, drawn, frozenset({(1, match.code)}))
    assert out is not None
    assert out[0] == WocEngine().standings(drawn)
    row = next(r for r in out[0].tables[0].rows if r.entrant == match.entrant_ids[0])
    assert Fraction(row.values["points"]).denominator in (1, 2)


def _gokodom_change(rnd: RoundState, match: MatchState, rng: random.Random) -> dict:
    bare = _bare(match)
    roll = rng.random()
    if roll < 0.2 and rnd.status is RoundStatus.PUBLISHED:
        # taken back in the open round (in a completed one no result is an LD, II.B.6)
        return {"games": (), "details": bare.details}
    if roll < 0.6:
        planned = PlannedMatch(match.code, match.participants)
        return {"games": gokodom_games(rng, planned, draws=0.2), "details": bare.details}
    a, b = (e for e in match.entrant_ids if e is not None)
    results = rng.choice([{a: "W", b: "L"}, {a: "L", b: "W"}, {a: "D", b: "D"}, {a: "DD", b: "DD"}])
    return {"games": (), "details": {**bare.details, "results": results}}


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, players=st.integers(8, 40), handshake=st.booleans())
def test_gokodom_after_a_few_results_is_the_whole_recompute(seed, players, handshake):
    """The Solkoff and opponents' cumulative scores of those who met the two players,
    virtual opponents (byes, withdrawn players) and Defaults included; where a result
    reaches further (the Swiss over, an LD) the engine says so and the whole recompute
    takes over."""
    rng = random.Random(seed)
    chosen = {"handshake_counts_as_met": handshake}
    whole = season(players, rng, settings=chosen, vary=MIXED if seed % 2 else variations.NONE)
    swiss = [r for r in whole.state.rounds if r.stage == "swiss"]
    state = _cut(whole.state, rng, swiss)
    _chain(GokodomEngine(), GokodomEngine, state, _gokodom_change, rng, always=False)


def test_gokodom_a_result_in_the_swiss_uses_the_path():
    """Mid-Swiss, a result entered and then corrected never needs the whole recompute
    (while no LD is given or taken back: every match was played)."""
    rng = random.Random(3)
    whole = season(40, rng, default_rate=0.0).state
    swiss = [r for r in whole.rounds if r.stage == "swiss"]
    last = swiss[3]
    open_round = dataclasses.replace(
        last,
        status=RoundStatus.PUBLISHED,
        matches=tuple(m if m.is_bye else _bare(m) for m in last.matches),
    )
    state = dataclasses.replace(whole, rounds=(*swiss[:3], open_round))
    engine = GokodomEngine()
    _, used = _chain(engine, GokodomEngine, state, _gokodom_change, rng, steps=6)
    assert used == 6


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_reranker_is_the_ranking(data):
    """rules/reranking.py: re-placing changed entrants gives rank()'s tiers and reasons, in
    rank()'s order, with steps that depend on the tied set after the absolute ones."""
    size = data.draw(st.integers(1, 30))
    ids = [f"e{i}" for i in range(size)]
    value = st.integers(0, 3).map(lambda v: Fraction(v, 2))
    values = [{e: data.draw(value) for e in ids} for _ in range(3)]
    names = {e: data.draw(st.sampled_from("ABC")) for e in ids}
    absolute = data.draw(st.integers(1, 3))
    steps = [
        Step(f"s{i}", f"S{i}", lambda tied, i=i: {e: values[i][e] for e in tied}) for i in range(3)
    ][:absolute]
    # a step that reads the tied set, as head-to-head and a recorded lot do
    steps.append(Step("odd", "Odd", lambda tied: {e: int(e[1:]) % 2 * len(tied) for e in tied}))
    initial = (
        (lambda tier: sorted(tier, key=names.__getitem__)) if data.draw(st.booleans()) else None
    )
    ranker = Reranker(ids, steps, absolute, initial)
    assert ranker.ranking == rank(ids, steps, initial=initial)
    for _ in range(data.draw(st.integers(1, 4))):
        moved = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3))
        for e in moved:
            for column in values:
                column[e] = data.draw(value)
        assert ranker.update(moved) == rank(ids, steps, initial=initial)


def test_formats_without_the_path_say_none():
    """Freestyle (28 players), the bot contest (200) and the WPF playoffs (16) recompute
    the whole: standings_work gives no work and standings_after None."""
    for play_event, count in ((play_freestyle, 16), (play_contest, 12), (play_wpf, 8)):
        state = play_event(count, random.Random(1))
        engine = get(state.format)
        standings, work = engine.standings_work(state)
        assert work is None
        assert standings == engine.standings(state)
        last = state.rounds[-1]
        changed = frozenset({(last.number, last.matches[0].code)})
        assert engine.standings_after(object(), state, changed) is None


def test_a_work_from_another_engine_is_refused():
    state = round_robin(6, random.Random(2))
    _, work = RoundRobinEngine().standings_work(state)
    assert RoundRobinEngine().standings_after(work, state, frozenset()) is None
    assert WocEngine().standings_after(work, state, frozenset()) is None
