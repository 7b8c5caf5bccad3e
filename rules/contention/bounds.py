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

from .types import Method, Verdict, verdict


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


# The codes of words.py, by goal (top_bound serves the win and the next stage alike).
WITHDRAWN = {
    "win": "contention.win.eliminated.withdrawn",
    "stage": "contention.stage.eliminated.withdrawn",
}
NO_ONE_ELSE = {"win": "contention.win.clinched.points", "stage": "contention.stage.clinched.points"}
ONE_OTHER = {
    "win": "contention.win.clinched.points.one_other",
    "stage": "contention.stage.clinched.points.one_other",
}
OTHERS = {
    "win": "contention.win.clinched.points.others",
    "stage": "contention.stage.clinched.points.others",
}
ONE_AHEAD = {
    "win": "contention.win.eliminated.points.one",
    "stage": "contention.stage.eliminated.points.one",
}
AHEAD = {"win": "contention.win.eliminated.points", "stage": "contention.stage.eliminated.points"}
BETWEEN = {"win": "contention.win.alive.points", "stage": "contention.stage.alive.points"}


def top_bound(
    reaches: Sequence[Reach],
    places: int,
    *,
    goal: str,
    unit: dict[str, Any],
    left: dict[str, Any],
) -> dict[str, Verdict]:
    """Verdicts for "finish in the first ``places``" by the points bound.

    ``goal``: the verdict code's goal ("win", "stage"); ``unit``: a message of words.py
    ("points", "match points"); ``left``: one for what remains ("in the 2 rounds left").
    """
    verdicts: dict[str, Verdict] = {}
    # Counted by bisection in sorted lists, not by comparing every pair: at 1,000 entrants
    # the pairwise count took seconds of the standings task (docs/performance.md).
    highs = sorted(o.high for o in reaches)
    placing_lows = sorted(o.low for o in reaches if o.can_place)
    shown = {"unit": unit, "left": left}
    for me in reaches:
        if not me.can_place:
            verdicts[me.entrant] = verdict(WITHDRAWN[goal], Method.BOUND)
            continue
        # others whose high reaches my low (I am one of them: my high is at least my low)
        rivals = len(highs) - bisect_left(highs, me.low) - (1 if me.high >= me.low else 0)
        # others able to place whose low is above my high
        ahead = len(placing_lows) - bisect_right(placing_lows, me.high)
        ahead -= 1 if me.low > me.high else 0
        if rivals <= places - 1:
            code = NO_ONE_ELSE if not rivals else ONE_OTHER if rivals == 1 else OTHERS
            verdicts[me.entrant] = verdict(
                code[goal],
                Method.BOUND,
                low=str(me.low),
                low_shown=show(me.low),
                rivals=rivals,
                places=places,
                **shown,
            )
        elif ahead >= places:
            verdicts[me.entrant] = verdict(
                (ONE_AHEAD if ahead == 1 else AHEAD)[goal],
                Method.BOUND,
                high=str(me.high),
                high_shown=show(me.high),
                ahead=ahead,
                name=me.name,
                **shown,
            )
        else:
            verdicts[me.entrant] = verdict(
                BETWEEN[goal],
                Method.BOUND,
                low=str(me.low),
                high=str(me.high),
                low_shown=show(me.low),
                high_shown=show(me.high),
                **shown,
            )
    return verdicts
