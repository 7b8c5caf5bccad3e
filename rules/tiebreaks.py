"""Tiebreak chains: order entrants by a list of steps and say which step split each pair.

A step gives each entrant of the currently tied set a value (higher is better). Values may
depend on the tied set itself (head-to-head among the tied), which is why a step is called
with the set. When ``restart`` is set, every part that a step splits off and that is still
tied goes through the chain again from the first step (the "iterative" procedure several
rule sets use for three or more tied); otherwise it goes on with the next step.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.contract import Decided, Number
from rules.words import gettext_noop as _

# Why a step split two entrants; its parts are kept in Decided.params (each said as a label
# on the web side: "Sonneborn-Berger", "won the call", "lot place 2").
DETAIL = _("{label} {ahead} against {behind}")


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    values: Callable[[Sequence[str]], Mapping[str, Number]]
    # How to show a value in a reason; default: the number, halves as ".5".
    show: Callable[[Number], str] | None = None


def show_number(value: Number) -> str:
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{float(value):g}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True)
class Ranking:
    """``tiers`` is the order: each tier holds entrants that no step could split."""

    tiers: tuple[tuple[str, ...], ...]
    decided: tuple[Decided, ...]

    @property
    def order(self) -> list[str]:
        return [entrant for tier in self.tiers for entrant in tier]

    def ranks(self) -> dict[str, int]:
        """Shared ranks: entrants of one tier share the rank of its first place."""
        ranks: dict[str, int] = {}
        place = 1
        for tier in self.tiers:
            for entrant in tier:
                ranks[entrant] = place
            place += len(tier)
        return ranks


def rank(
    entrants: Sequence[str],
    steps: Sequence[Step],
    *,
    restart: bool = False,
    initial: Callable[[Sequence[str]], list[str]] | None = None,
) -> Ranking:
    """Order ``entrants`` by ``steps``; ties that survive every step stay as tiers.

    ``initial`` orders the members of a tier that no step split (for a stable display,
    e.g. by name); it never decides a rank.
    """
    decided: list[Decided] = []
    tiers = _split(list(entrants), steps, 0, restart, initial, decided)
    return Ranking(tuple(tuple(t) for t in tiers), tuple(decided))


def _split(
    tied: list[str],
    steps: Sequence[Step],
    start: int,
    restart: bool,
    initial: Callable[[Sequence[str]], list[str]] | None,
    decided: list[Decided],
) -> list[list[str]]:
    if len(tied) <= 1:
        return [tied] if tied else []
    for index in range(start, len(steps)):
        step = steps[index]
        values = step.values(tied)
        # One pass groups the tied by value (equal values share a hash, as in a set); a
        # scan of the whole set per distinct value was quadratic in a large field.
        levels: dict[Number, list[str]] = {}
        for e in tied:
            levels.setdefault(values[e], []).append(e)
        if len(levels) == 1:
            continue
        distinct = sorted(levels, reverse=True)
        next_start = 0 if restart else index + 1
        parts = [_split(levels[v], steps, next_start, restart, initial, decided) for v in distinct]
        show = step.show or show_number
        for upper, lower in itertools.pairwise(parts):
            ahead, behind = upper[-1][-1], lower[0][0]
            params = {
                "label": step.label,
                "ahead": show(values[ahead]),
                "behind": show(values[behind]),
            }
            decided.append(
                Decided(
                    ahead=ahead,
                    behind=behind,
                    step=step.key,
                    detail=DETAIL.format_map(params),
                    params=params,
                )
            )
        return [tier for part in parts for tier in part]
    return [initial(tied) if initial else tied]
