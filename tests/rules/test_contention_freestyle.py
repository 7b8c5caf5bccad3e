"""Contention in Freestyle against brute force: the group rounds' "reach the next round" and the
knockout's "win", for every outcome of every game still to play, ranked by the engine itself.

Brute force (independent of rules/contention/explore.py):

- Group rounds: each pending game takes one of three results, seat 0 wins, seat 1 wins or a tie
  (a tie stands in the group rounds: "Tie games count as half-wins/half-losses"), with margins
  drawn per example, so that the score steps of the ranking vary from one example to the next.
  The round is completed and the engine's own standings read: a row ``qualified`` is IN,
  ``eliminated`` / ``withdrawn`` OUT. A tie that survives every step waits for a tiebreaker game
  (``standings.pending``); the brute force plays each possible winner (recorded as the director
  does) until no tie of the round is left, so every outcome ends settled.
- Knockout: every pending match takes seat 0 wins, seat 1 wins or a tie replayed and won by seat
  1; the engine plans the final from the semi-finals and the walk plays it through. The winner
  of the final is IN, everyone else OUT.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from rules.contention import contention
from rules.contention.explore import pending_by_score
from rules.contention.types import Contention, Finish, Method, Status
from rules.contract import (
    DrawMethod,
    DrawRecord,
    EntrantStatus,
    EventState,
    GameState,
    MatchState,
    RoundStatus,
    Standings,
)
from rules.formats.freestyle import ENGINE
from rules.formats.freestyle.simulate import simulate_event
from rules.variations import NONE, Variations

from .test_contention_support import brute_status, check_sound, completions

Scores = tuple[int, int]

# --- group rounds ----------------------------------------------------------------------------


def _settle_ties(state: EventState, number: int) -> Iterator[Standings]:
    """The standings once every tie of round ``number`` waiting for a tiebreaker game has one,
    for each winner of each such game ("Finally, if need be, there is a tie-breaker game")."""
    standings = ENGINE.standings(state)
    waiting = [q for q in standings.pending if q.params.get("round") == number]
    if not waiting:
        yield standings
        return
    question = waiting[0]
    assert question.code == "freestyle.tiebreaker_game", question
    for winner in question.options:
        record = DrawRecord(question.key, winner, DrawMethod.EXTERNAL)
        yield from _settle_ties(dataclasses.replace(state, draws=(*state.draws, record)), number)


def _group_finishes(state: EventState, menus: dict[int, list[Scores]]) -> dict[str, list[Finish]]:
    """Every outcome of the pending games (``menus``: match index -> results) of the last round,
    completed, ranked by the engine: per entrant, IN / OUT for the next round."""
    last = state.rounds[-1]
    number = last.number
    found: dict[str, list[Finish]] = {e.id: [] for e in state.entrants}
    indexes = sorted(menus)
    for results in itertools.product(*(menus[i] for i in indexes)):
        matches = list(last.matches)
        for index, scores in zip(indexes, results, strict=True):
            matches[index] = dataclasses.replace(matches[index], games=(GameState(1, scores),))
        rnd = dataclasses.replace(last, matches=tuple(matches), status=RoundStatus.COMPLETED)
        done = dataclasses.replace(state, rounds=(*state.rounds[:-1], rnd))
        for standings in _settle_ties(done, number):
            seen: dict[str, Finish] = {}
            for table in standings.tables:
                if table.key.startswith(f"round-{number}/"):
                    for row in table.rows:
                        assert row.status in ("qualified", "eliminated", "withdrawn"), (
                            row
                        )  # settled
                        seen[row.entrant] = Finish.IN if row.status == "qualified" else Finish.OUT
            for entrant, finishes in found.items():
                finishes.append(seen.get(entrant, Finish.OUT))  # out in an earlier round
    return found


@dataclass(frozen=True)
class GroupExample:
    label: str
    state: EventState
    result: Contention
    finishes: dict[str, list[Finish]]
    open_groups: frozenset[str]  # groups with games still to play
    group_of: dict[str, str]  # entrant -> group in the round in progress


@functools.cache
def _group_example(number: int, size: int, seed: int, withdrawals: bool) -> GroupExample:
    """Round ``number`` of a simulated event of ``size`` players with 3 or 4 of its games taken
    back; with ``withdrawals``, players may withdraw between rounds (one may be leaving after
    the round in progress)."""
    rng = random.Random(seed)
    vary = Variations(withdrawals=0.5) if withdrawals else NONE
    state = simulate_event(rng, size, stop_after=number, vary=vary)
    last = state.rounds[-1]
    assert last.number == number and last.groups
    played = [i for i, m in enumerate(last.matches) if not m.is_bye]
    taken = rng.sample(played, rng.randint(3, 4))
    menus: dict[int, list[Scores]] = {}
    for index in taken:
        win, tie = rng.randint(1, 12), rng.randint(0, 12)
        loss = rng.randint(0, win - 1)
        menus[index] = [(win, loss), (loss, win), (tie, tie)]
    matches = tuple(
        dataclasses.replace(m, games=()) if i in menus else m for i, m in enumerate(last.matches)
    )
    rnd = dataclasses.replace(last, matches=matches, status=RoundStatus.PUBLISHED)
    state = dataclasses.replace(state, rounds=(*state.rounds[:-1], rnd))
    return GroupExample(
        f"Round {number}, {size} players, seed {seed}{', withdrawals' if withdrawals else ''}",
        state,
        contention(state),
        _group_finishes(state, menus),
        frozenset(str(last.matches[i].group) for i in menus),
        {e: g.key for g in last.groups for e in g.entrants},
    )


GROUP_CASES = [
    (1, 24, 0, False),
    (1, 24, 1, False),
    (1, 22, 2, False),
    (1, 24, 3, True),
    (2, 16, 0, False),
    (2, 16, 2, False),
    (2, 20, 1, False),
    (2, 16, 1, True),
    (2, 16, 3, True),
    (3, 16, 0, False),
    (3, 16, 1, False),
    (3, 20, 2, False),
    (3, 16, 0, True),
    (3, 16, 2, True),
]


@pytest.mark.slow
@pytest.mark.parametrize(("number", "size", "seed", "withdrawals"), GROUP_CASES)
def test_group_round_stage_verdicts_are_sound(
    number: int, size: int, seed: int, withdrawals: bool
) -> None:
    """ "The top 4 of each Round 1 group of 7 will advance to Round 2", "The top two players from
    each Round 2 group of 4 will advance to Round 3", "The top two players from each Round 3
    group advance to the semi-finals": the stage verdict claims clinched only if the entrant goes
    on in every outcome of the games left, eliminated only if in none. A group whose games are
    all in is settled, so there the verdict is the brute force's; and no one wins the event who
    cannot go on."""
    example = _group_example(number, size, seed, withdrawals)
    result = example.result
    assert result.method is Method.EXACT  # 3 or 4 games left: every group is enumerated
    assert result.stage_key == {1: "round_2", 2: "round_3", 3: "semi_finals"}[number]
    for entrant, finishes in example.finishes.items():
        row = result.of(entrant)
        assert row.stage is not None
        what = f"{example.label}: {entrant} ({row.stage.reason.text})"
        check_sound(row.stage.status, finishes, what)
        win = [Finish.OUT if f is Finish.OUT else Finish.OPEN for f in finishes]
        check_sound(row.win.status, win, what)
        if example.group_of.get(entrant) not in example.open_groups:
            assert row.stage.status is brute_status(finishes), what
        elif row.stage.status is Status.ALIVE and brute_status(finishes) is not Status.ALIVE:
            # Exact on results: it leaves open only what the game-point margins (or a
            # tiebreaker game) decide, which the brute force drew once per example.
            assert "left to a tiebreak" in row.stage.reason.text, what


@pytest.mark.slow
def test_group_round_examples_decide_something() -> None:
    """The soundness check can fail: over the examples, the bound clinches and eliminates
    entrants of groups with games still to play, and other entrants of those groups go on in
    some outcomes and not in others."""
    counts: Counter[str] = Counter()
    for case in GROUP_CASES:
        example = _group_example(*case)
        counts["outcomes"] += len(next(iter(example.finishes.values())))
        for entrant, finishes in example.finishes.items():
            if example.group_of.get(entrant) not in example.open_groups:
                continue
            status = example.result.of(entrant).stage.status  # type: ignore[union-attr]
            counts[f"{status.value} with games left"] += 1
            counts[f"brute {brute_status(finishes).value} with games left"] += 1
    assert counts["clinched with games left"] >= 10, counts
    assert counts["eliminated with games left"] >= 10, counts
    assert counts["brute alive with games left"] >= 10, counts


@pytest.mark.slow  # enumerates every group's outcomes in many simulated events: about 4 s
def test_enumerating_a_group_decides_more_than_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact method agrees with the bound wherever the bound settles something, and
    settles more: the bound takes each player's best case alone, though two rivals of one
    game cannot both win it."""
    from rules.formats.freestyle import contention as freestyle

    exact: Counter[str] = Counter()
    for case in GROUP_CASES:
        example = _group_example(*case)
        monkeypatch.setattr(freestyle, "GROUP_LIMIT", 0)
        bound = contention(example.state)
        monkeypatch.undo()
        assert bound.method is Method.BOUND
        for row in example.result.entrants:
            assert row.stage is not None
            loose = bound.of(row.entrant).stage
            assert loose is not None
            if loose.status is not Status.ALIVE:
                assert row.stage.status is loose.status, (example.label, row.entrant)
            elif row.stage.status is not Status.ALIVE:
                exact[row.stage.status.value] += 1
    assert exact["clinched"] + exact["eliminated"] >= 3, exact


@pytest.mark.slow
@pytest.mark.parametrize(
    ("number", "size", "seed"), [(1, 28, 7), (1, 24, 8), (2, 16, 9), (3, 16, 10)]
)
def test_result_blocks_follow_the_engine_order(number: int, size: int, seed: int) -> None:
    """Steps 1-2, "Number of wins. (Tie games count as half-wins/half-losses.)" and
    "Head-to-head matchups. (Win-loss records among just the tied players.)", applied again
    within each tie ("In case of three or more tied players, the process is iterative"): the
    blocks the exact method forms from results alone hold, in order, exactly the players the
    engine ranks in those places, whatever the margins. Many ties: tie games are frequent."""
    from rules.formats.freestyle.contention import result_blocks
    from rules.formats.freestyle.results import Context

    checked = 0
    for offset in range(6):
        rng = random.Random(seed * 100 + offset)
        state = simulate_event(rng, size, stop_after=number, vary=Variations(draws=0.3))
        record = Context(state).record(number)
        for table in ENGINE.standings(state).tables:
            if not table.key.startswith(f"round-{number}/"):
                continue
            order = [r.entrant for r in table.rows]
            at = 0
            for block in result_blocks(record, order):
                assert set(order[at : at + len(block)]) == set(block), (table.key, order, block)
                at += len(block)
                checked += 1
            assert at == len(order)
    assert checked >= 12


def _group_of(state: EventState, number: int, key: str) -> tuple[str, ...]:
    rnd = state.rounds[number - 1]
    return next(g.entrants for g in rnd.groups if g.key == key)


def _set_results(
    state: EventState, results: dict[frozenset[str], tuple[GameState, ...]]
) -> EventState:
    """The last round with the given games (by the pair of players) and published."""
    last = state.rounds[-1]
    matches = tuple(
        dataclasses.replace(m, games=results[frozenset(m.entrant_ids)])
        if frozenset(m.entrant_ids) in results
        else m
        for m in last.matches
    )
    rnd = dataclasses.replace(last, matches=matches, status=RoundStatus.PUBLISHED)
    return dataclasses.replace(state, rounds=(*state.rounds[:-1], rnd))


@pytest.mark.slow
def test_a_tie_across_the_cut_waiting_for_its_tiebreaker_game_is_open() -> None:
    """Step 9, "Finally, if need be, there is a tie-breaker game", with "The top 4 of each
    Round 1 group ... will advance": five players of a group all tied after every step, their
    group complete. Who goes on waits for the tiebreaker games, so no one of the five has
    clinched or is out (the engine's table marks them "tiebreaker" meanwhile); once a winner is
    recorded, the winner has clinched and the other four are still open."""
    state = simulate_event(random.Random(5), 20, stop_after=1)
    five = _group_of(state, 1, "B")
    assert len(five) == 5
    ties = {frozenset(p): (GameState(1, (6, 6)),) for p in itertools.combinations(five, 2)}
    state = _set_results(state, ties)
    assert ENGINE.standings(state).pending
    for recorded in (False, True):
        if recorded:
            state = dataclasses.replace(
                state,
                draws=(
                    *state.draws,
                    DrawRecord(
                        ENGINE.standings(state).pending[0].key, five[4], DrawMethod.EXTERNAL
                    ),
                ),
            )
        found = _group_finishes(state, {})
        result = contention(state)
        table = ENGINE.standings(state).table("round-1/group-B")
        statuses = {r.entrant: r.status for r in table.rows}
        if not recorded:
            # the public table does not call anyone of the tie qualified or out meanwhile
            assert {statuses[e] for e in five} == {"tiebreaker"}, statuses
        for entrant in five:
            row = result.of(entrant)
            assert row.stage is not None
            check_sound(row.stage.status, found[entrant], entrant)
            assert row.stage.status is brute_status(found[entrant]), entrant
        expected = {Status.ALIVE} if not recorded else {Status.ALIVE, Status.CLINCHED}
        assert {result.of(e).stage.status for e in five} == expected  # type: ignore[union-attr]
        if recorded:
            assert result.of(five[4]).stage.status is Status.CLINCHED  # type: ignore[union-attr]


def test_a_player_leaving_after_the_round_takes_no_place() -> None:
    """ "If it is between rounds, then he is removed from the next round, and everyone who
    finished below him in the previous round moves up one place": in a Round 2 group whose
    leader leaves after the round, the two players at the bottom are not out, since the winner
    of their game moves up to second place among those going on."""
    state = simulate_event(random.Random(0), 16, stop_after=2)
    first, second, third, fourth = _group_of(state, 2, "T")
    results = {
        frozenset((first, second)): (GameState(1, (9, 2)),),
        frozenset((first, third)): (GameState(1, (9, 2)),),
        frozenset((first, fourth)): (GameState(1, (9, 2)),),
        frozenset((second, third)): (GameState(1, (9, 2)),),
        frozenset((second, fourth)): (GameState(1, (9, 2)),),
        frozenset((third, fourth)): (),
    }
    state = _set_results(state, results)
    leaving = dataclasses.replace(
        state.entrant(first), status=EntrantStatus.WITHDRAWN, withdrawn_after_round=2
    )
    state = dataclasses.replace(
        state, entrants=tuple(leaving if e.id == first else e for e in state.entrants)
    )
    last = state.rounds[-1]
    index = next(i for i, m in enumerate(last.matches) if set(m.entrant_ids) == {third, fourth})
    found = _group_finishes(state, {index: [(5, 1), (1, 5), (3, 3)]})
    result = contention(state)
    for entrant in (first, second, third, fourth):
        row = result.of(entrant)
        assert row.stage is not None
        check_sound(row.stage.status, found[entrant], entrant)
    assert result.of(first).stage.status is Status.ELIMINATED  # type: ignore[union-attr]
    assert result.of(second).stage.status is Status.CLINCHED  # type: ignore[union-attr]
    assert result.of(third).stage.status is Status.ALIVE  # type: ignore[union-attr]
    assert result.of(fourth).stage.status is Status.ALIVE  # type: ignore[union-attr]


# --- knockout ----------------------------------------------------------------------------------


def _knockout_menu(state: EventState, match: MatchState) -> list[MatchState]:
    """ "If a semi-final or final game is a tie game, it is replayed, with the players switching
    A and B roles": a win either way, or a tie replayed and won."""
    games = [
        (GameState(1, (7, 3)),),
        (GameState(1, (2, 9)),),
        (GameState(1, (5, 5)), GameState(2, (4, 8))),
    ]
    return [dataclasses.replace(match, games=g) for g in games]


def _champions(state: EventState) -> dict[str, list[Finish]]:
    found: dict[str, list[Finish]] = {e.id: [] for e in state.entrants}
    for done in completions(state, ENGINE, _knockout_menu, pending_by_score(ENGINE)):
        standings = ENGINE.standings(done)
        assert standings.final, "the walk stopped before the final was played"
        champion = standings.table("final").rows[0].entrant
        for entrant, finishes in found.items():
            finishes.append(Finish.IN if entrant == champion else Finish.OUT)
    return found


def _knockout_state(seed: int, kept: int, taken: tuple[str, ...]) -> EventState:
    full = simulate_event(random.Random(seed), 16)
    assert [r.number for r in full.rounds] == [1, 2, 3, 4, 5]
    last = full.rounds[kept - 1]
    matches = tuple(
        dataclasses.replace(m, games=()) if m.code in taken else m for m in last.matches
    )
    rnd = dataclasses.replace(last, matches=matches, status=RoundStatus.PUBLISHED)
    return dataclasses.replace(full, rounds=(*full.rounds[: kept - 1], rnd))


KNOCKOUT_CASES = [
    (4, ("SF1",)),
    (4, ("SF2",)),
    (4, ("SF1", "SF2")),
    (5, ("F",)),
    (5, ("3P",)),
    (5, ("F", "3P")),
]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("kept", "taken"), KNOCKOUT_CASES)
def test_knockout_win_verdicts_are_exact(seed: int, kept: int, taken: tuple[str, ...]) -> None:
    """ "The winners of the two semi-finals play" the final: with semi-finals or the final left,
    the win verdict is the brute force's, entrant by entrant (the final's winner has won even
    while the third place game is still to play)."""
    state = _knockout_state(seed, kept, taken)
    result = contention(state)
    assert result.method is Method.EXACT
    found = _champions(state)
    assert all(len(f) >= 3 for f in found.values())
    for entrant, finishes in found.items():
        verdict = result.of(entrant).win
        assert verdict.status is brute_status(finishes), (entrant, verdict.reason.text)


def test_knockout_semi_final_loser_moves_up_when_the_winner_withdraws() -> None:
    """ "If it is between rounds, then he is removed from the next round, and everyone who
    finished below him in the previous round moves up one place": the winner of a semi-final
    withdraws after it, so its loser plays the final and can still win; and if both players of
    that semi-final withdraw, the other winner has no opponent left and wins."""
    state = _knockout_state(0, 4, ())
    semi = state.rounds[-1].matches[0]
    score = ENGINE.score_match(state, semi)
    assert score.winner is not None
    winner = str(semi.participants[score.winner].entrant)
    loser = str(semi.participants[1 - score.winner].entrant)
    for leaving in ({winner}, {winner, loser}):
        after = dataclasses.replace(
            state,
            entrants=tuple(
                dataclasses.replace(e, status=EntrantStatus.WITHDRAWN, withdrawn_after_round=4)
                if e.id in leaving
                else e
                for e in state.entrants
            ),
        )
        result = contention(after)
        found = _champions(after)
        for entrant, finishes in found.items():
            verdict = result.of(entrant).win
            assert verdict.status is brute_status(finishes), (leaving, entrant, verdict.reason)
        assert result.of(winner).win.status is Status.ELIMINATED
        expected = Status.ALIVE if leaving == {winner} else Status.ELIMINATED
        assert result.of(loser).win.status is expected
        # Both gone: the other winner has no opponent left in the final and goes through.
        other = Status.ALIVE if leaving == {winner} else Status.CLINCHED
        assert [e for e, f in found.items() if brute_status(f) is other] == [
            row.entrant for row in result.entrants if row.win.status is other
        ]
        assert sum(brute_status(f) is not Status.ELIMINATED for f in found.values()) == 2 - (
            len(leaving) - 1
        )
