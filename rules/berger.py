"""Round-robin schedules by Berger tables (FIDE Handbook C.05 Annex 1).

Used by the round_robin engine, the Freestyle groups, the WOC round robins and the
contest's final. Players are numbered 1..n by their draw number; an odd field gets a
dummy n+1, and whoever meets it has the round off (a bye).

The tables follow two facts of the FIDE tables: in round r, players i and j (both below
the last number m) meet when i + j = r + 1 modulo m - 1, and the one for whom 2i = r + 1
meets m; the lower number has white when j - i is odd, and m has white in even rounds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    round: int  # 1-based, counting across cycles
    table: int  # 1-based within the round
    first: int  # draw number with the first colour/seat (white, A, X)
    second: int | None  # None: ``first`` has a bye


def rounds_needed(players: int, cycles: int = 1) -> int:
    size = players + players % 2
    return (size - 1) * cycles


def schedule(players: int, cycles: int = 1) -> list[list[Pairing]]:
    """Every round of a ``cycles``-fold round robin among draw numbers 1..players.

    In the second (fourth, ...) cycle each pairing repeats with the colours reversed.
    """
    if players < 2:
        return []
    size = players + players % 2  # the dummy, if any, is number ``size``
    per_cycle = size - 1
    rounds: list[list[Pairing]] = []
    for cycle in range(cycles):
        for r in range(1, per_cycle + 1):
            number = cycle * per_cycle + r
            table_pairs = _round_pairs(size, r)
            reverse = cycle % 2 == 1
            pairings = []
            table = 0
            for white, black in table_pairs:
                if reverse:
                    white, black = black, white
                if white > players or black > players:
                    present = black if white > players else white
                    pairings.append(Pairing(number, 0, present, None))
                    continue
                table += 1
                pairings.append(Pairing(number, table, white, black))
            # byes last, numbered after the games
            games = [p for p in pairings if p.second is not None]
            byes = [
                Pairing(p.round, len(games) + i + 1, p.first, None)
                for i, p in enumerate(x for x in pairings if x.second is None)
            ]
            rounds.append(games + byes)
    return rounds


def _round_pairs(size: int, r: int) -> list[tuple[int, int]]:
    """(white, black) pairs of round r of the Berger table for ``size`` (even) players."""
    m = size
    mod = m - 1
    target = (r + 1) % mod

    def residue(i: int) -> int:
        return i % mod

    # the player who meets m
    opponent_of_last = next(i for i in range(1, m) if residue(2 * i) == target)
    pairs: list[tuple[int, int]] = []
    if r % 2 == 0:
        pairs.append((m, opponent_of_last))
    else:
        pairs.append((opponent_of_last, m))
    # further tables go outwards from the opponent of m, as the printed tables do
    for step in range(1, m // 2):
        a = (opponent_of_last - 1 + step) % mod + 1
        b = (opponent_of_last - 1 - step) % mod + 1
        low, high = min(a, b), max(a, b)
        pairs.append((low, high) if (high - low) % 2 == 1 else (high, low))
    return pairs
