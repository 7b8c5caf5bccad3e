"""Berger tables as printed in the FIDE Handbook (C.05, Annex 1)."""

import pytest

from rules import berger

FIDE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def pairs(schedule):
    return [[(p.first, p.second) for p in rnd] for rnd in schedule]


def test_six_players_match_the_printed_fide_table():
    assert pairs(berger.schedule(6)) == FIDE_6


def test_four_players_match_the_printed_fide_table():
    assert pairs(berger.schedule(4)) == FIDE_4


def test_odd_field_gives_the_dummy_opponent_as_a_bye_listed_last():
    rounds = berger.schedule(5)
    assert len(rounds) == 5
    for rnd in rounds:
        byes = [p for p in rnd if p.second is None]
        assert len(byes) == 1
        assert rnd[-1] is byes[0]
    # everyone has exactly one round off
    assert sorted(p.first for rnd in rounds for p in rnd if p.second is None) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("players", range(2, 17))
def test_every_pair_meets_exactly_once_and_colours_are_balanced(players):
    rounds = berger.schedule(players)
    assert len(rounds) == berger.rounds_needed(players)
    met = [frozenset((p.first, p.second)) for rnd in rounds for p in rnd if p.second]
    assert len(met) == len(set(met)) == players * (players - 1) // 2
    whites = {n: 0 for n in range(1, players + 1)}
    for rnd in rounds:
        seen = [n for p in rnd for n in (p.first, p.second) if n]
        assert len(seen) == len(set(seen))  # nobody plays twice in a round
        for p in rnd:
            if p.second:
                whites[p.first] += 1
    games = players - 1
    for count in whites.values():
        assert abs(2 * count - games) <= 1 + (players % 2)


def test_second_cycle_repeats_with_colours_reversed():
    single = pairs(berger.schedule(6))
    double = pairs(berger.schedule(6, cycles=2))
    assert double[:5] == single
    assert double[5:] == [[(b, a) for a, b in rnd] for rnd in single]
