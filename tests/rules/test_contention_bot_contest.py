"""Contention in the bot contest against brute force: stage two (the winners' and losers'
brackets) played out through the engine's own ``next_round`` until the final round robin is
planned, for every outcome of every match still to play.

Brute force (independent of rules/contention/explore.py): each pending bracket match takes
"seat 0 wins both games" or "seat 1 wins both games"; the engine pairs the rounds that follow
until it plans the final. An entrant is IN in that outcome when they play in the final, else
OUT. Tied matches (1-1 in games) leave both entries where they are, so with ties in the menu the
walk is endless (every match tied, forever). They are brought in two ways instead:

- an entry that every decisive outcome puts in the final, but that the rule leaves alive, must
  be put out by some outcome with at most MAX_TIES tied matches (a depth-first search: the
  entry's loss first, other matches tied first): the brute-force verdict is then alive;
- random playouts with tied matches (at most PLAYOUT_TIES each) never put a clinched entry out
  nor an eliminated one in.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from rules.contention import contention
from rules.contention.explore import pending_by_score
from rules.contention.types import Contention, Finish, Status
from rules.contract import EntrantStatus, EventState, GameState, MatchState, RoundStatus
from rules.formats.bot_contest import ENGINE
from rules.formats.bot_contest.simulate import simulate
from rules.variations import NONE, Variations

from .test_contention_support import brute_status, check_sound, completions

FINAL = "final"
BRACKETS = "brackets"
# The settings and variations of a simulated event, by name (K = 2 and its default losers'
# target K unless said).
VARIANTS: dict[str, tuple[dict[str, int], Variations]] = {
    "plain": ({}, NONE),
    "withdrawals": ({}, Variations(withdrawals=0.15)),
    "k1": ({"k": 1, "losers_target": 2}, NONE),
    "k1 withdrawals": ({"k": 1, "losers_target": 2}, Variations(withdrawals=0.15)),
    "target 1": ({"k": 2, "losers_target": 1}, NONE),
    # tied games (and so tied matches) and director's re-pairings in the rounds played
    "ties": ({}, Variations(draws=0.3, overrides=0.3)),
}
# (entries, seed, variant): the events whose stage two is cut at each of its rounds.
EVENTS = [(7, 0, "plain"), (7, 2, "plain"), (8, 1, "plain"), (8, 2, "plain"), (9, 0, "plain")]
EVENTS += [(8, 3, "withdrawals"), (9, 5, "withdrawals"), (10, 1, "withdrawals")]
EVENTS += [(6, 0, "plain"), (7, 3, "plain"), (8, 0, "plain"), (9, 3, "plain")]
EVENTS += [(7, 1, "k1"), (10, 4, "k1 withdrawals"), (8, 6, "target 1"), (7, 3, "target 1")]
EVENTS += [(8, 0, "ties"), (9, 3, "ties"), (8, 4, "ties")]
LIMIT = 300  # outcomes one example may take (the first bracket round of a big field takes more)
MAX_TIES = 4  # tied matches the search for an outcome that puts an entry out may use
SEARCH = 2000  # outcomes that search may look at
PLAYOUTS = 3  # random playouts with tied matches per example
PLAYOUT_TIES = 8


def _won_by(seat: int) -> tuple[GameState, ...]:
    scores = (40, 10) if seat == 0 else (10, 40)
    return (GameState(1, scores), GameState(2, scores))


TIED = (GameState(1, (40, 10)), GameState(2, (10, 40)))  # a game each: a tied match


def _menu(state: EventState, match: MatchState) -> list[MatchState]:
    return [dataclasses.replace(match, games=_won_by(seat)) for seat in (0, 1)]


def _ties(state: EventState) -> int:
    return sum(1 for r in state.rounds for m in r.matches if m.games == TIED)


_scored = pending_by_score(ENGINE)


def _pending(state: EventState, match: MatchState) -> bool:
    """Bracket matches only: the walk stops once the final is planned, before its games."""
    return match.bracket != FINAL and _scored(state, match)


def _final_planned(state: EventState) -> bool:
    return any(r.stage == FINAL for r in state.rounds)


def _finalists(state: EventState) -> set[str]:
    return {e for r in state.rounds if r.stage == FINAL for m in r.matches for e in m.entrant_ids}


def _cut(full: EventState, kept: int, rng: random.Random) -> EventState:
    """The event during round ``kept``: later rounds gone, about half of that round's matches
    still to play, and only the withdrawals made by then (a later one is not known yet)."""
    last = full.rounds[kept - 1]
    matches = tuple(
        m if m.is_bye or rng.random() < 0.5 else dataclasses.replace(m, games=())
        for m in last.matches
    )
    entrants = tuple(
        e
        if e.withdrawn_after_round is None or e.withdrawn_after_round <= kept
        else dataclasses.replace(e, status=EntrantStatus.ACTIVE, withdrawn_after_round=None)
        for e in full.entrants
    )
    rnd = dataclasses.replace(last, matches=matches, status=RoundStatus.PUBLISHED)
    return dataclasses.replace(full, entrants=entrants, rounds=(*full.rounds[: kept - 1], rnd))


@dataclass(frozen=True)
class Example:
    label: str
    state: EventState
    result: Contention
    stage: dict[str, list[Finish]]  # per entrant, in every outcome: plays the final?
    win: dict[str, list[Finish]]  # OUT without the final; OPEN in it (the final is not played)
    pending: int  # matches still to play in the state


def _brute(label: str, state: EventState) -> Example:
    competitors = [e.id for e in state.entrants if not e.flags.get("reference")]
    stage: dict[str, list[Finish]] = {e: [] for e in competitors}
    for count, done in enumerate(
        completions(state, ENGINE, _menu, _pending, until=_final_planned), start=1
    ):
        assert count <= LIMIT, f"{label}: more than {LIMIT} outcomes"
        assert _final_planned(done), f"{label}: the walk stopped before the final"
        finalists = _finalists(done)
        for entrant, finishes in stage.items():
            finishes.append(Finish.IN if entrant in finalists else Finish.OUT)
    win = {
        e: [Finish.OPEN if f is Finish.IN else Finish.OUT for f in fs] for e, fs in stage.items()
    }
    pending = sum(1 for r in state.rounds for m in r.matches if _pending(state, m))
    return Example(label, state, contention(state), stage, win, pending)


@functools.cache
def _examples(entries: int, seed: int, variant: str) -> tuple[Example, ...]:
    settings, vary = VARIANTS[variant]
    full, _ = simulate(entries, random.Random(seed), settings=settings, vary=vary)
    brackets = [i + 1 for i, r in enumerate(full.rounds) if r.stage == BRACKETS]
    # From the second bracket round on (the first of a field of 9 has 500 outcomes and more),
    # and the smallest fields from their first.
    cuts = brackets if entries <= 7 else brackets[1:]
    found = []
    for kept in cuts:
        state = _cut(full, kept, random.Random(f"{seed}/{kept}"))
        found.append(_brute(f"{entries} entries, seed {seed}, {variant}, round {kept}", state))
    return tuple(found)


def _out_with_ties(state: EventState, entrant: str) -> EventState | None:
    """An outcome with at most MAX_TIES tied matches in which ``entrant`` does not play the
    final, looked for depth first (the entrant's loss first, other matches tied first), or
    None."""

    def menu(state: EventState, match: MatchState) -> list[MatchState]:
        decisive = _menu(state, match)
        tie = [dataclasses.replace(match, games=TIED)] if _ties(state) < MAX_TIES else []
        if entrant not in match.entrant_ids:
            return [*tie, *decisive]
        if match.entrant_ids.index(entrant) == 0:
            decisive.reverse()
        return [decisive[0], *tie, decisive[1]]  # the entrant's loss, a tie, its win

    walk = completions(state, ENGINE, menu, _pending, until=_final_planned)
    for count, done in enumerate(walk, start=1):
        assert count <= SEARCH, f"{entrant}: no outcome found in {SEARCH}"
        assert _final_planned(done)
        if entrant not in _finalists(done):
            return done
    return None


def _brute_status(example: Example, entrant: str) -> Status:
    """The brute-force verdict: every decisive outcome, and for an entry that all of them put
    in the final but the rule leaves alive, the search for an outcome with ties that puts it
    out (the rule is compared with it below, so it is searched only where they differ)."""
    brute = brute_status(example.stage[entrant])
    claimed = example.result.of(entrant).stage
    assert claimed is not None
    tied = brute is Status.CLINCHED and claimed.status is Status.ALIVE
    if tied and _out_with_ties(example.state, entrant) is not None:
        return Status.ALIVE
    return brute


@pytest.mark.slow
@pytest.mark.parametrize(("entries", "seed", "variant"), EVENTS)
def test_brackets_verdicts_equal_the_brute_force(entries: int, seed: int, variant: str) -> None:
    """Stage two: "If an entry wins or ties, it advances to the next round in that bracket",
    "First time losers will drop to the next lower bracket. A loss in the losers bracket will
    eliminate you." and "EVENTUALLY ... only 2K entries left in the winners bracket. These will
    advance ... continue the loser's bracket until there are roughly K entries remaining. These
    will also advance". Clinched (reach the final) if and only if the entry plays the final in
    every outcome, eliminated if and only if in none, alive otherwise; the win verdict never
    claims more than the final allows, and is out exactly when the final is."""
    for example in _examples(entries, seed, variant):
        assert set(example.stage) == {row.entrant for row in example.result.entrants}
        for entrant, finishes in example.stage.items():
            row = example.result.of(entrant)
            assert row.stage is not None
            what = f"{example.label}: {entrant}"
            check_sound(row.stage.status, finishes, what)
            check_sound(row.win.status, example.win[entrant], what)
            brute = _brute_status(example, entrant)
            assert row.stage.status is brute, f"{what}: {row.stage.reason.text}, brute {brute}"
            assert (row.win.status is Status.ELIMINATED) == (brute is Status.ELIMINATED), what


def _playout(state: EventState, rng: random.Random) -> EventState:
    """One outcome: each match a win either way or a tie (at most PLAYOUT_TIES of them)."""

    def menu(state: EventState, match: MatchState) -> list[MatchState]:
        choices = _menu(state, match)
        if _ties(state) < PLAYOUT_TIES:
            choices.append(dataclasses.replace(match, games=TIED))
        return [rng.choice(choices)]

    return next(completions(state, ENGINE, menu, _pending, until=_final_planned))


@pytest.mark.slow
@pytest.mark.parametrize(("entries", "seed", "variant"), EVENTS)
def test_clinches_hold_with_tied_matches(entries: int, seed: int, variant: str) -> None:
    """Stage two, step 3: "If an entry wins or ties, it advances to the next round in that
    bracket": a tied match leaves both entries in their bracket, so brackets shrink slower.
    In outcomes with tied matches, a clinched entry still plays the final and an eliminated
    one does not."""
    for example in _examples(entries, seed, variant):
        rng = random.Random(example.label)
        for _ in range(PLAYOUTS):
            done = _playout(example.state, rng)
            assert _final_planned(done), example.label
            finalists = _finalists(done)
            for row in example.result.entrants:
                assert row.stage is not None
                if row.stage.status is Status.CLINCHED:
                    assert row.entrant in finalists, (example.label, row.entrant, _ties(done))
                if row.stage.status is Status.ELIMINATED:
                    assert row.entrant not in finalists, (example.label, row.entrant)


@pytest.mark.slow
@pytest.mark.parametrize("entries", [6, 7, 8])
@pytest.mark.parametrize("seed", [0, 1])
def test_after_the_gauntlet(entries: int, seed: int) -> None:
    """Stage two, step 2 ("seed 1 plays seed N") and "EVENTUALLY ... 2K entries left in the
    winners bracket ... continue the loser's bracket until there are roughly K entries
    remaining": after the gauntlet, before the brackets, a field of at most 2K + K (6 here)
    has clinched the final, since the losers' bracket never holds more than it sends; a larger
    field is alive (brute force, as above)."""
    full, _ = simulate(entries, random.Random(seed))
    state = dataclasses.replace(full, rounds=full.rounds[:1])
    example = _brute(f"{entries} entries, seed {seed}, after the gauntlet", state)
    for entrant in example.stage:
        row = example.result.of(entrant)
        assert row.stage is not None
        assert row.stage.status is _brute_status(example, entrant), (entrant, row.stage)
        expected = Status.CLINCHED if entries <= 6 else Status.ALIVE
        assert row.stage.status is expected, (entrant, row.stage.reason.text)


@pytest.mark.slow
def test_the_brackets_examples_decide_something() -> None:
    """The checks above can fail: over the examples, games are left, outcomes branch, entries
    are eliminated and clinched with matches still to play, some entries reach the final in
    some outcomes and not in others, and some are alive only because a tied match can keep a
    bracket playing another round."""
    counts: Counter[str] = Counter()
    for event in EVENTS:
        for example in _examples(*event):
            outcomes = len(next(iter(example.stage.values())))
            counts["outcomes"] += outcomes
            counts["branching"] += outcomes > 1
            for entrant, finishes in example.stage.items():
                status = example.result.of(entrant).stage.status  # type: ignore[union-attr]
                brute = brute_status(finishes)
                if example.pending:
                    counts[f"{status.value} with matches left"] += 1
                counts[f"brute {brute.value}"] += 1
                counts["verdicts"] += 1
                if status is not brute:
                    counts["alive through ties"] += 1
    assert counts["branching"] >= 10, counts
    assert counts["eliminated with matches left"] >= 10, counts
    assert counts["alive with matches left"] >= 10, counts
    assert counts["clinched with matches left"] >= 10, counts
    assert counts["brute alive"] >= 10, counts
    assert counts["alive through ties"] >= 10, counts


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_final_round_robin_finalists_have_clinched_the_stage(seed: int) -> None:
    """ "EVERYONE WILL PLAY EVERYONE ELSE IN THE FINAL ROUND": once the final is planned its
    entries have reached it and the others cannot; while it is played no finalist has won or
    lost it (the totals are open-ended), so every finalist is alive for the win."""
    full, _ = simulate(8, random.Random(seed))
    kept = next(i + 1 for i, r in enumerate(full.rounds) if r.stage == FINAL)
    state = _cut(full, kept, random.Random(seed))
    last = state.rounds[-1]
    first = dataclasses.replace(last.matches[0], games=())  # at least one final match left
    state = dataclasses.replace(
        state,
        rounds=(*state.rounds[:-1], dataclasses.replace(last, matches=(first, *last.matches[1:]))),
    )
    example = _brute(f"seed {seed}, final", state)
    finalists = _finalists(state)
    assert 4 <= len(finalists) <= 8
    for entrant, finishes in example.stage.items():
        row = example.result.of(entrant)
        assert row.stage is not None
        assert row.stage.status is brute_status(finishes), (entrant, row.stage.reason.text)
        expected = Status.ALIVE if entrant in finalists else Status.ELIMINATED
        assert row.win.status is expected, (entrant, row.win.reason.text)


def test_eliminated_reason_names_the_two_losses() -> None:
    """An entry with two losses is out "in the double elimination", in words; a withdrawn
    entry is out as withdrawn, also one who left before the seeding (no brackets row)."""
    full, _ = simulate(10, random.Random(2), vary=Variations(withdrawals=0.15))
    kept = max(i + 1 for i, r in enumerate(full.rounds) if r.stage == BRACKETS)
    state = _cut(full, kept, random.Random(0))
    table = ENGINE.standings(state).table("brackets")
    result = contention(state)
    out = [r for r in table.rows if r.status == "eliminated"]
    gone = [r.entrant for r in table.rows if r.status == "withdrawn"]
    unseeded = {f"E{i}" for i in range(1, 11)} - {r.entrant for r in table.rows}
    assert out and gone and unseeded
    for found in out:
        assert found.values["losses"] == 2
        row = result.of(found.entrant)
        assert row.stage is not None
        assert row.stage.reason.text == "eliminated: two losses in the double elimination"
        assert row.win.reason.text == "eliminated: two losses in the double elimination"
    for entrant in [*gone, *unseeded]:
        row = result.of(entrant)
        assert row.stage is not None
        assert row.stage.reason.text == "eliminated: withdrawn from the event"
        assert row.win.status is Status.ELIMINATED
    settled = {r.entrant for r in out} | set(gone) | unseeded
    rest = [row for row in result.entrants if row.entrant not in settled]
    assert rest
    for row in rest:
        assert row.stage is not None
        assert row.stage.status is not Status.ELIMINATED
        assert row.stage.reason.text.startswith(f"{row.stage.status.value}: ")
        assert row.win.reason.text == "alive: still in a bracket"
