"""The match table of the WPF GP Playoffs, checked against the document and for brackets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.formats.wpf_playoffs import schedule
from rules.formats.wpf_playoffs.ladder import Ladder
from rules.formats.wpf_playoffs.schedule import MATCHES, SESSIONS, Bracket, Stage

# The document's tables, copied as text: code ranks bracket.
DOCUMENT = """
A A1 1 16 W; A2 2 15 W; A3 3 14 W; A4 4 13 W; A5 5 12 W; A6 6 11 W; A7 7 9 W; A8 8 10 W
B B1 1 8 W; B2 2 7 W; B3 3 6 W; B4 4 5 W; B9 9 16 L; B10 10 15 L; B11 11 14 L; B12 12 13 L
C C5 5 12 L; C6 6 11 L; C7 7 10 L; C8 8 9 L
D D1 1 4 W; D2 2 3 W; D5 5 8 L; D6 6 7 L; D9 9 12 P; D10 10 11 P; D13 13 16 P; D14 14 15 P
E E3 3 5 L; E4 4 6 L; E7 7 9 P; E8 8 10 P; E11 11 13 P; E12 12 14 P
F F5 5 6 P; F7 7 8 P; F9 9 10 P; F11 11 12 P; F13 13 14 P; F15 15 16 P
G G6 6 7 P; G8 8 9 P; G10 10 11 P; G12 12 13 P; G14 14 15 P
"""
LIVE = """
1 F F1 1 2 W; 1 F F3 3 4 L; 2 G G2 2 3 L; 2 G G4 4 5 P; 3 H H7 7 8 P; 3 H H9 9 10 P
4 H H3 3 4 P; 4 H H5 5 6 P; 5 H FINAL 1 2 C
"""
BRACKETS = {"W": Bracket.WINNERS, "L": Bracket.LOSERS, "P": Bracket.PLACEMENT}
BRACKETS["C"] = Bracket.CHAMPIONSHIP


def test_online_table_is_the_documents_brackets_table() -> None:
    """ "The list of matches and their relevant data are as follows" (with the August 30th
    correction of E3, E4, E11 and E12)."""
    for line in DOCUMENT.strip().splitlines():
        letter, first = line.split(" ", 1)
        for item in first.split("; "):
            code, better, worse, bracket = item.split()
            spec = MATCHES[code]
            assert (spec.letter, spec.better, spec.worse, spec.bracket, spec.stage) == (
                letter,
                int(better),
                int(worse),
                BRACKETS[bracket],
                Stage.ONLINE,
            )


def test_live_table_is_the_documents_heats_table() -> None:
    """ "A full list of matches for the live stage is listed below." - five heats."""
    for line in LIVE.strip().splitlines():
        for item in line.split("; "):
            heat, letter, code, better, worse, bracket = item.split()
            spec = MATCHES[code]
            assert (spec.heat, spec.letter, spec.ranks, spec.bracket, spec.stage) == (
                int(heat),
                letter,
                (int(better), int(worse)),
                BRACKETS[bracket],
                Stage.LIVE,
            )


def test_45_online_matches_and_9_live_matches() -> None:
    """ "45 matches total." (online) and "9 matches total." (live)."""
    assert len(schedule.online_matches()) == 45
    assert len(schedule.live_matches()) == 9
    assert len(MATCHES) == 54
    assert schedule.check_table() == []


def test_there_will_be_8_rounds_and_5_heats() -> None:
    """ "There will be 8 rounds in the playoffs, labeled with a letter from A through H."
    and "There will be 5 heats." """
    assert sorted({m.letter for m in MATCHES.values()}) == list("ABCDEFGH")
    assert [s.heat for s in SESSIONS if s.stage is Stage.LIVE] == [1, 2, 3, 4, 5]
    assert all(len(s.matches) <= 2 for s in SESSIONS if s.stage is Stage.LIVE)


def test_every_match_fits_its_bracket_for_every_sequence_of_results() -> None:
    """ "Each match is in one of three brackets based on its players' performance" -
    exhaustive over all results (loss counts capped at two). The document's table passes."""
    assert schedule.check_brackets() == []


def test_the_check_finds_the_old_e3_error() -> None:
    """The August 30th change log: E3 and E4 had wrong opponents. A wrong opponent is found."""
    good = MATCHES["E3"]
    bad = schedule.MatchSpec("E3", "E", 3, 7, Bracket.LOSERS, Stage.ONLINE)
    index = next(i for i, s in enumerate(SESSIONS) if good in s.matches)
    original = SESSIONS[index]
    broken = schedule.Session(
        original.number,
        original.letter,
        original.stage,
        original.heat,
        original.label,
        tuple(bad if m is good else m for m in original.matches if m.code != "E12"),
    )
    patched = (*SESSIONS[:index], broken, *SESSIONS[index + 1 :])
    try:
        schedule.SESSIONS = patched
        misfits = schedule.check_brackets()
    finally:
        schedule.SESSIONS = SESSIONS
    assert misfits and misfits[0].code == "E3"
    assert "Loser's Bracket" in misfits[0].text


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.booleans(), min_size=54, max_size=54))
def test_random_results_keep_every_match_in_its_bracket(upsets: list[bool]) -> None:
    """Property: whatever the results, the players' losses fit each match's bracket
    (uncapped loss counts, played on the real ladder)."""
    ladder = Ladder()
    flips = iter(upsets)
    for session in SESSIONS:
        for spec in session.matches:
            upper, lower = ladder.pair(spec)
            assert schedule.fits(spec.bracket, (ladder.losses[upper], ladder.losses[lower]))
            ladder.play(spec, lower if next(flips) else upper, session.number)
    assert sorted(ladder.order) == list(range(1, 17))
    assert sum(ladder.losses.values()) == 54


def test_seven_rounds_for_ranks_11_to_16() -> None:
    """ "After eight rounds of competition (seven for ranks 11th through 16th), the rank of
    the players determine the finishing order." - no round H match touches ranks 11-16."""
    for spec in MATCHES.values():
        if spec.letter == "H":
            assert max(spec.ranks) <= 10
    assert {r for m in MATCHES.values() if m.letter == "G" for r in m.ranks} >= {11, 12, 13}


def test_live_stage_participation_as_announced() -> None:
    """The live stage list: ranks 9-10 one match, 7-8 one match, rank 6 one match, rank 5
    two matches, ranks 3 and 4 three matches, ranks 1 and 2 two or three matches."""
    live = schedule.live_matches()
    # ranks at the start of the live stage; a player's path follows their results, so
    # count the matches of the rank's occupants for both outcomes of each match.
    assert [m.code for m in live if 9 in m.ranks or 10 in m.ranks] == ["H9"]
    assert [m.code for m in live if 6 in m.ranks] == ["H5"]
    assert not any(r in m.ranks for m in live for r in range(11, 17))


def test_players_who_no_longer_solve_online() -> None:
    """ "(For 2023, this is ranks 1-2 in round E, 1-4 in round F, and 1-5 in round G.)"
    The table also leaves rank 16 without a round G match (see the docs)."""
    assert set(range(1, 17)) - schedule.solving_later("E") == {1, 2}
    assert set(range(1, 17)) - schedule.solving_later("F") == {1, 2, 3, 4}
    assert set(range(1, 17)) - schedule.solving_later("G") == {1, 2, 3, 4, 5, 16}
    assert schedule.solving_later("C") == set(range(1, 17))


def test_brackets_by_losses() -> None:
    """ "The Winner's Bracket is for matches involving players who have not lost any
    matches." / "exactly one match" / "two or more matches"."""
    assert schedule.bracket_of(0) is Bracket.WINNERS
    assert schedule.bracket_of(1) is Bracket.LOSERS
    assert schedule.bracket_of(2) is Bracket.PLACEMENT
    assert schedule.bracket_of(5) is Bracket.PLACEMENT
    assert schedule.fits(Bracket.CHAMPIONSHIP, (0, 1))
    assert not schedule.fits(Bracket.CHAMPIONSHIP, (1, 1))
