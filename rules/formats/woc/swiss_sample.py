"""Mid-event Swiss fields for tests and benchmarks of the pairing (woc II.6.2).

``players`` plays ``rounds`` rounds of a Swiss with a quick greedy pairing (score order, a
little noise, no rematch where it can help it, colours as due) and random results, and
returns the players as ``swiss.SwissPlayer`` ready for the next round. Its knobs make the
hard cases the pairing must survive: draws (half-point groups), heavy floats (a noisier
order), concentrated countries (one country holding a share of the field), byes (an odd
field) and a modified Swiss (rematches allowed once). All randomness comes from the
``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from rules.formats.woc.swiss import BLACK, BYE, WHITE, SwissPlayer


@dataclass(frozen=True)
class Shape:
    """How a sample field is made."""

    rounds: int = 6
    draws: float = 0.03  # share of drawn games
    noise: float = 0.0  # points of random noise in the greedy order: heavier floats
    countries: int = 30
    concentration: float = 0.0  # share of the field from one country
    modified: bool = False


@dataclass
class _Entrant:
    id: str
    country: str
    points: Fraction = Fraction(0)
    seats: list[int] = field(default_factory=list)
    last_float: str | None = None
    opponents: Counter[str] = field(default_factory=Counter)


def players(size: int, rng: random.Random, shape: Shape = Shape()) -> list[SwissPlayer]:
    """``size`` players after ``shape.rounds`` rounds, sorted by points (best first)."""
    people = []
    for index in range(size):
        if rng.random() < shape.concentration:
            country = "C0"
        else:
            country = f"C{rng.randrange(1, shape.countries + 1)}"
        people.append(_Entrant(f"p{index}", country))
    for _ in range(shape.rounds):
        _play_round(people, rng, shape)
    players = [
        SwissPlayer(
            id=p.id,
            points=p.points,
            seats=tuple(p.seats),
            last_float=p.last_float,
            opponents=dict(p.opponents),
            country=p.country,
        )
        for p in people
    ]
    players.sort(key=lambda p: (-p.points, p.id))
    return players


def _play_round(people: list[_Entrant], rng: random.Random, shape: Shape) -> None:
    order = sorted(people, key=lambda p: -(float(p.points) + shape.noise * rng.random()))
    limit = 2 if shape.modified else 1
    waiting = list(order)
    if len(waiting) % 2:
        candidates = [p for p in reversed(waiting) if p.opponents[BYE] < limit]
        bye = candidates[0] if candidates else waiting[-1]
        waiting.remove(bye)
        bye.opponents[BYE] += 1
        bye.points += 1
    before = {p.id: p.points for p in people}
    while waiting:
        first = waiting.pop(0)
        met = first.opponents
        index = next((i for i, q in enumerate(waiting[:40]) if met[q.id] < limit), 0)
        second = waiting.pop(index)
        black, white = _colours(first, second, rng)
        _result(black, white, rng, shape.draws)
        for me, other, seat in ((black, white, BLACK), (white, black, WHITE)):
            me.seats.append(seat)
            me.opponents[other.id] += 1
            if before[me.id] != before[other.id]:
                me.last_float = "up" if before[other.id] > before[me.id] else "down"


def _balance(p: _Entrant) -> int:
    return sum(1 if s == BLACK else -1 for s in p.seats)


def _colours(a: _Entrant, b: _Entrant, rng: random.Random) -> tuple[_Entrant, _Entrant]:
    ka, kb = _balance(a), _balance(b)
    if ka != kb:
        return (b, a) if ka > kb else (a, b)
    if a.seats and b.seats and a.seats[-1] != b.seats[-1]:
        return (a, b) if a.seats[-1] == WHITE else (b, a)
    return (a, b) if rng.random() < 0.5 else (b, a)


def _result(black: _Entrant, white: _Entrant, rng: random.Random, draws: float) -> None:
    roll = rng.random()
    if roll < draws:
        black.points += Fraction(1, 2)
        white.points += Fraction(1, 2)
    elif roll < (1 + draws) / 2:
        black.points += 1
    else:
        white.points += 1
