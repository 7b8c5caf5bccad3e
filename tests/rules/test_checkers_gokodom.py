"""The GokoDom checker: clean simulated seasons, and records broken on purpose."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from rules.checkers import audit, check
from rules.contract import (
    EntrantState,
    EntrantStatus,
    EventState,
    GameState,
    MatchState,
    Participant,
    RoundState,
    RoundStatus,
)
from rules.formats.gokodom import ENGINE
from rules.formats.gokodom import checker as gc
from rules.formats.gokodom.simulate import simulate
from tests.rules.test_checkers_support import edit_match, edit_round, rules_of, swap_players


def season(players: int, seed: int) -> EventState:
    return simulate(players, random.Random(seed)).state


@pytest.mark.parametrize(("players", "seed"), [(5, 0), (9, 1), (16, 2), (33, 3)])
def test_simulated_seasons_conform(players: int, seed: int) -> None:
    state = season(players, seed)
    report = audit(state, ENGINE.standings(state))
    assert report.violations == []
    assert report.rows == players


def test_a_bracket_slot_that_skips_a_seed_is_reported() -> None:
    """III.B seeded into the elimination rounds by rank: QF1 is seed 1 against seed 8."""
    state = season(16, 0)
    number = next(r.number for r in state.rounds if r.details.get("bracket_round") == 1)
    state = swap_players(state, number, "QF1", 1, "QF2", 1)
    violations = [v for v in check(state) if v.rule == gc.SEEDING]
    assert {v.where.match for v in violations} >= {"QF1", "QF2"}


def test_a_rematch_that_could_be_avoided_is_reported() -> None:
    """II.F.1 Has not yet been played."""
    state = season(16, 2)
    first = next(m for m in state.rounds[0].matches if not m.is_bye)
    code = next(m.code for m in state.rounds[1].matches if not m.is_bye)
    state = edit_match(
        state, 2, code, lambda m: dataclasses.replace(m, participants=first.participants)
    )
    assert gc.REMATCH in rules_of(check(state)) or gc.ONE_SEAT in rules_of(check(state))


def test_games_out_of_the_seat_pattern_are_reported() -> None:
    """IV.A.1 A-B-B-A-A-B."""
    state = season(9, 1)
    match = next(m for m in state.rounds[0].matches if len(m.games) >= 2)
    state = edit_match(
        state,
        1,
        match.code,
        lambda m: dataclasses.replace(
            m, games=tuple(dataclasses.replace(g, first=m.games[0].first) for g in m.games)
        ),
    )
    assert gc.SEATS in rules_of(check(state))


def test_a_match_played_on_after_it_was_decided_is_reported() -> None:
    """IV.A.4 A player wins the match if after 3 or 4 games, s/he has 3 game points."""
    state = season(16, 0)
    number, match = next(
        (r.number, m) for r in state.rounds for m in r.matches if len(m.games) == 3
    )
    extra = dataclasses.replace(match.games[-1], number=4, first=1 - (match.games[0].first or 0))
    state = edit_match(
        state, number, match.code, lambda m: dataclasses.replace(m, games=(*m.games, extra))
    )
    assert gc.RESULT in rules_of(check(state))


def test_a_bye_by_request_in_the_last_swiss_round_is_reported() -> None:
    """I.E This privilege may not be used during the final Swiss round."""
    assert gc.decided((3, 0), 3) == 0 and gc.decided((3, 3), 6) is None
    state = season(5, 0)
    last = max(r.number for r in state.rounds if r.stage == "swiss")
    bye = next((m for m in state.rounds[last - 1].matches if m.is_bye), None)
    if bye is None:
        pytest.skip("no bye in the last round")
    state = edit_match(
        state,
        last,
        bye.code,
        lambda m: dataclasses.replace(m, details={**m.details, "result": "BR"}),
    )
    assert gc.BR in rules_of(check(state))


# -- Solkoff (III.A.3, with the virtual opponents of II.I and V.A) -----------------------


def _won(code: str, number: int, winner: str, loser: str) -> MatchState:
    """A match the first-named player wins 3-0 in the A-B-B seats of IV.A.1."""
    games = tuple(
        GameState(i + 1, (Fraction(1), Fraction(0)), first=first)
        for i, first in enumerate((0, 1, 1))
    )
    return MatchState(code, number, (Participant(winner), Participant(loser)), games)


def _bye(code: str, number: int, player: str, result: str = "WB") -> MatchState:
    return MatchState(code, number, (Participant(player),), details={"result": result})


def _three_players(p2_withdraws: bool) -> EventState:
    """Three players, two Swiss rounds (ceil(log2 3)): round 1 p1 beats p2, p3 has the bye;
    round 2 p3 beats p1 and p2 has the bye, or has withdrawn after round 1."""
    entrants = tuple(
        EntrantState(f"p{i}", f"Player {i}", flags={"colour": "red" if i % 2 else "blue"})
        for i in (1, 2, 3)
    )
    if p2_withdraws:
        entrants = (
            entrants[0],
            dataclasses.replace(
                entrants[1], status=EntrantStatus.WITHDRAWN, withdrawn_after_round=1
            ),
            entrants[2],
        )
    second = [_won("R2-1", 2, "p3", "p1")]
    if not p2_withdraws:
        second.append(_bye("R2-BYE", 2, "p2"))
    rounds = (
        RoundState(
            1,
            "Round 1",
            RoundStatus.COMPLETED,
            (_won("R1-1", 1, "p1", "p2"), _bye("R1-BYE", 1, "p3")),
            "swiss",
        ),
        RoundState(2, "Round 2", RoundStatus.COMPLETED, tuple(second), "swiss"),
    )
    return EventState("gokodom", {}, entrants, rounds)


def _solkoff_column(state: EventState) -> dict[str, object]:
    table = next(t for t in ENGINE.standings(state).tables if t.key == "swiss")
    return {row.entrant: row.values["solkoff"] for row in table.rows}


def test_solkoff_counts_a_byes_virtual_opponent() -> None:
    """p1 met p2 (2 points) and p3 (4): 6. p2 met p1 (2) and round 2's virtual opponent,
    who starts on p2's 0 points and loses: 2. p3's round 1 virtual opponent starts on 0,
    loses, then draws round 2 (1 point), plus p1 (2): 3."""
    state = _three_players(p2_withdraws=False)
    assert gc.solkoff_of(state) == {"p1": 6, "p2": 2, "p3": 3}
    assert check(state, ENGINE.standings(state)) == []


def test_solkoff_counts_a_withdrawn_player_as_drawing_every_later_round() -> None:
    """p2 withdrew after round 1 on 0 points: as a virtual player he draws round 2, so p1's
    Solkoff counts him as 1 (plus p3's 4); p2's own counts p1 (2)."""
    state = _three_players(p2_withdraws=True)
    assert gc.solkoff_of(state) == {"p1": 5, "p2": 2, "p3": 3}
    assert check(state, ENGINE.standings(state)) == []


def test_a_wrong_solkoff_is_reported() -> None:
    """III.A.3 Solkoff score, the sum of all opponents' total match points."""
    state = season(12, 4)
    standings = ENGINE.standings(state)
    table = next(t for t in standings.tables if t.key == "swiss")
    first = table.rows[0]
    bad = dataclasses.replace(
        first, values={**first.values, "solkoff": int(first.values["solkoff"]) + 1}
    )
    tables = tuple(
        dataclasses.replace(t, rows=(bad, *t.rows[1:])) if t.key == "swiss" else t
        for t in standings.tables
    )
    violations = check(state, dataclasses.replace(standings, tables=tables))
    assert [(v.rule, v.where.entrant) for v in violations] == [(gc.SOLKOFF, first.entrant)]


def test_a_second_assigned_bye_in_a_round_is_reported() -> None:
    """II.H the last unpaired player (one) receives a Bye in that round."""
    state = season(9, 5)
    match = next(m for m in state.rounds[0].matches if not m.is_bye)
    one, two = match.participants

    def split(rnd):  # type: ignore[no-untyped-def]
        kept = tuple(m for m in rnd.matches if m.code != match.code)
        byes = (
            MatchState(match.code, 1, (one,), details={"result": "WB"}),
            MatchState(match.code + "b", 1, (two,), details={"result": "WB"}),
        )
        return dataclasses.replace(rnd, matches=kept + byes)

    assert gc.BYE in rules_of(check(edit_round(state, 1, split)))


def during_round(state: EventState, number: int) -> EventState:
    """The season as it stood during round ``number``: later rounds gone, that round
    published with only half of its results in (as the demo is built)."""
    kept = list(state.rounds[:number])
    played = [m for m in kept[-1].matches if not m.is_bye]
    dropped = {m.code for m in played[len(played) // 2 :]}
    kept[-1] = dataclasses.replace(
        kept[-1],
        status=RoundStatus.PUBLISHED,
        matches=tuple(
            dataclasses.replace(m, games=()) if m.code in dropped else m for m in kept[-1].matches
        ),
    )
    return dataclasses.replace(state, rounds=tuple(kept))


@pytest.mark.parametrize(("players", "seed", "number"), [(24, 7, 3), (24, 7, 2), (17, 4, 3)])
def test_a_match_not_played_yet_is_pending_not_a_loss_by_default(players, seed, number) -> None:
    """II.A.6 "If the match was unplayed, and the player did not send a PM to the TO, the
    player receives a Loss by Default (LD)": a match is unplayed once its round is over (or
    the TO marks it so), not while the round is still being played. The GokoDom demo (24
    players, stopped during round 3) showed eight violations because the checker read each
    pending match as two LDs and counted the virtual players of II.I.2 in Solkoff."""
    state = during_round(season(players, seed), number)
    pending = [m for m in state.rounds[-1].matches if not m.is_bye and not m.games]
    assert pending, "the cut leaves matches to play"
    report = audit(state, ENGINE.standings(state))
    assert report.violations == []
    swiss = next(t for t in ENGINE.standings(state).tables if t.key == "swiss")
    engine_solkoff = {row.entrant: row.values["solkoff"] for row in swiss.rows}
    assert gc.solkoff_of(state) == {
        e: v for e, v in engine_solkoff.items() if e in gc.solkoff_of(state)
    }
