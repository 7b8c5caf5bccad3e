"""A sound points bound for "finish in the top N", for any pairing of the rounds still to play.

Each entrant has ``low``, the fewest points they can finish with (every remaining game lost, the
byes they are sure of), and ``high``, the most (every remaining game won, or the bye points where
those are more). These hold for ANY outcome and ANY pairing of the future rounds, because they
look at each entrant alone.

- Clinched: at most N - 1 others can reach ``low``. Everyone else finishes strictly below on
  points whatever happens, so even if every tiebreak goes against the entrant, at most N - 1 can
  be above. (Sound; it may miss a clinch that needs two rivals who must meet to both fall.)
- Eliminated: at least N others already have more than ``high`` (their ``low`` is above it).
  They finish strictly above on points whatever happens, whatever the tiebreaks. (Sound; it may
  miss an elimination that needs pairings or tiebreaks.)
- Otherwise alive.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .types import Method, Status, Verdict, verdict


@dataclass(frozen=True)
class Reach:
    entrant: str
    name: str
    low: Fraction
    high: Fraction
    can_place: bool = True  # False: withdrawn or removed, takes no place


def show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


def fraction(value: Any) -> Fraction:
    if value is None:
        return Fraction(0)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    return Fraction(value)


def top_bound(
    reaches: Sequence[Reach],
    places: int,
    *,
    goal: str,
    unit: str,
    left: str,
) -> dict[str, Verdict]:
    """Verdicts for "finish in the first ``places``" by the points bound.

    ``goal``: the verdict code's goal ("win", "stage"); ``unit``: "points", "match points";
    ``left``: words for what remains ("in the 2 rounds left").
    """
    verdicts: dict[str, Verdict] = {}
    # Counted by bisection in sorted lists, not by comparing every pair: at 1,000 entrants
    # the pairwise count took seconds of the standings task (docs/performance.md).
    highs = sorted(o.high for o in reaches)
    placing_lows = sorted(o.low for o in reaches if o.can_place)
    for me in reaches:
        if not me.can_place:
            verdicts[me.entrant] = verdict(
                goal, Status.ELIMINATED, "withdrawn", "withdrawn from the event", Method.BOUND
            )
            continue
        # others whose high reaches my low (I am one of them: my high is at least my low)
        rivals = len(highs) - bisect_left(highs, me.low) - (1 if me.high >= me.low else 0)
        # others able to place whose low is above my high
        ahead = len(placing_lows) - bisect_right(placing_lows, me.high)
        ahead -= 1 if me.low > me.high else 0
        if rivals <= places - 1:
            if not rivals:
                text = f"no one else can reach {show(me.low)} {unit} {left}"
            else:
                text = (
                    f"only {rivals} other{'s' if rivals > 1 else ''} can reach "
                    f"{show(me.low)} {unit} {left}, with {places} places"
                )
            verdicts[me.entrant] = verdict(
                goal, Status.CLINCHED, "points", text, Method.BOUND, low=str(me.low)
            )
        elif ahead >= places:
            have = "entrant already has" if ahead == 1 else "entrants already have"
            text = (
                f"{ahead} {have}"
                f" more than the {show(me.high)} {unit} {me.name} can still reach {left}"
            )
            verdicts[me.entrant] = verdict(
                goal, Status.ELIMINATED, "points", text, Method.BOUND, high=str(me.high)
            )
        else:
            text = f"can finish with {show(me.low)} to {show(me.high)} {unit} {left}"
            verdicts[me.entrant] = verdict(
                goal,
                Status.ALIVE,
                "points",
                text,
                Method.BOUND,
                low=str(me.low),
                high=str(me.high),
            )
    return verdicts
