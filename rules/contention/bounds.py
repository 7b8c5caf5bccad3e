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

import math
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Mapping, Sequence
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
    return TopBound.build(reaches, places, goal=goal, unit=unit, left=left).verdicts


# What a verdict of the bound says, given its goal, places, unit and what is left: entrants
# whose verdicts say the same share one Verdict (and its sentence, said once).
Said = tuple[Any, ...]


@dataclass
class TopBound:
    """The bound's verdicts with what each rests on, so that a result that moves a few
    entrants' ``low`` and ``high`` recomputes only the verdicts whose counts it can move.

    An entrant's verdict depends on its own ``low`` and ``high``, on ``rivals`` (the others
    whose high reaches its low) and on ``ahead`` (the placing others whose low is above its
    high), and on what is left. When another entrant's high moves between h and h', only
    the entrants whose low lies in (min, max] count it differently as a rival; when a
    placing entrant's low moves between l and l', only those whose high lies in [min, max)
    count it differently as ahead. Every other verdict is carried over as it is: it rests on
    exactly the same numbers. Points are compared as integers, scaled by the common
    denominator of every bound (halves, quarters), which bisects far faster than Fractions.
    """

    places: int
    goal: str
    unit: dict[str, Any]
    left: dict[str, Any]
    scale: int
    reaches: dict[str, Reach]
    highs: list[int]  # every entrant's high, scaled, sorted
    lows: list[int]  # the placing entrants' lows, scaled, sorted
    by_low: list[tuple[int, str]]  # the placing entrants by scaled low
    by_high: list[tuple[int, str]]  # the placing entrants by scaled high
    verdicts: dict[str, Verdict]
    said: dict[Said, Verdict]

    @classmethod
    def build(
        cls,
        reaches: Iterable[Reach],
        places: int,
        *,
        goal: str,
        unit: dict[str, Any],
        left: dict[str, Any],
        before: TopBound | None = None,
    ) -> TopBound:
        """``before``: an earlier bound, whose verdicts are shared again where they say the
        same (when its goal, places, unit, what is left and scale are the same)."""
        by_entrant = {r.entrant: r for r in reaches}
        scale = math.lcm(1, *{v.denominator for r in by_entrant.values() for v in (r.low, r.high)})
        keys = {e: (_key(r.low, scale), _key(r.high, scale)) for e, r in by_entrant.items()}
        placing = [e for e, r in by_entrant.items() if r.can_place]
        bound = cls(
            places,
            goal,
            unit,
            left,
            scale,
            by_entrant,
            sorted(high for _, high in keys.values()),
            sorted(keys[e][0] for e in placing),
            sorted((keys[e][0], e) for e in placing),
            sorted((keys[e][1], e) for e in placing),
            {},
            {},
        )
        if before is not None and before.figures == bound.figures:
            bound.said = before.said
        for entrant, reach in by_entrant.items():
            bound.verdicts[entrant] = bound._judge(reach)
        return bound

    def after(self, changes: Mapping[str, Reach], left: dict[str, Any]) -> TopBound:
        """The bound with the reaches in ``changes`` replaced (self is left as it was).

        Built anew when what is left changes (every sentence says it), when an entrant
        starts or stops taking a place (it joins or leaves every count), or when a bound
        needs a finer denominator than the scale."""
        moved = {e: r for e, r in changes.items() if self.reaches.get(e) != r}
        if left != self.left or any(
            e not in self.reaches
            or self.reaches[e].can_place != r.can_place
            or self.scale % r.low.denominator
            or self.scale % r.high.denominator
            for e, r in moved.items()
        ):
            return TopBound.build(
                {**self.reaches, **changes}.values(),
                self.places,
                goal=self.goal,
                unit=self.unit,
                left=left,
                before=self,
            )
        # The shared verdicts grow by those a result says anew (an eliminated entrant's
        # sentence names them): past a few per entrant, start again rather than keep them all.
        said = self.said if len(self.said) <= 4 * len(self.reaches) + 1000 else {}
        bound = TopBound(
            self.places,
            self.goal,
            self.unit,
            self.left,
            self.scale,
            dict(self.reaches),
            list(self.highs),
            list(self.lows),
            list(self.by_low),
            list(self.by_high),
            dict(self.verdicts),
            said,
        )
        again: set[str] = set(moved)
        for entrant, reach in moved.items():
            old = bound.reaches[entrant]
            scale = self.scale
            old_low, old_high = _key(old.low, scale), _key(old.high, scale)
            low, high = _key(reach.low, scale), _key(reach.high, scale)
            if old_high != high:
                _move(bound.highs, old_high, high)
                if reach.can_place:
                    _move(bound.by_high, (old_high, entrant), (high, entrant))
                # rivals count the highs at or above one's low: changed for lows in (a, b]
                a, b = min(old_high, high), max(old_high, high)
                start = bisect_left(bound.by_low, (a + 1, ""))
                end = bisect_left(bound.by_low, (b + 1, ""))
                again.update(e for _, e in bound.by_low[start:end])
            if old_low != low and reach.can_place:
                _move(bound.lows, old_low, low)
                _move(bound.by_low, (old_low, entrant), (low, entrant))
                # ahead counts the placing lows above one's high: changed for highs in [a, b)
                a, b = min(old_low, low), max(old_low, low)
                start = bisect_left(bound.by_high, (a, ""))
                end = bisect_left(bound.by_high, (b, ""))
                again.update(e for _, e in bound.by_high[start:end])
            bound.reaches[entrant] = reach
        for entrant in again:
            bound.verdicts[entrant] = bound._judge(bound.reaches[entrant])
        return bound

    @property
    def figures(self) -> tuple[Any, ...]:
        """What a verdict says besides the entrant's own numbers and counts."""
        return (self.places, self.goal, self.unit, self.left, self.scale)

    def _judge(self, me: Reach) -> Verdict:
        if not me.can_place:
            said: Said = ("withdrawn",)
        else:
            low, high = _key(me.low, self.scale), _key(me.high, self.scale)
            # others whose high reaches my low (I am one of them: my high is at least my low)
            rivals = len(self.highs) - bisect_left(self.highs, low) - (1 if high >= low else 0)
            # others able to place whose low is above my high
            ahead = len(self.lows) - bisect_right(self.lows, high) - (1 if low > high else 0)
            if rivals <= self.places - 1:
                said = ("clinched", low, rivals)
            elif ahead >= self.places:
                said = ("eliminated", high, ahead, me.name)
            else:
                said = ("alive", low, high)
        found = self.said.get(said)
        if found is None:
            found = self.said[said] = self._say(said, me)
        return found

    def _say(self, said: Said, me: Reach) -> Verdict:
        goal, shown = self.goal, {"unit": self.unit, "left": self.left}
        if said[0] == "withdrawn":
            return verdict(WITHDRAWN[goal], Method.BOUND)
        if said[0] == "clinched":
            rivals = said[2]
            code = NO_ONE_ELSE if not rivals else ONE_OTHER if rivals == 1 else OTHERS
            return verdict(
                code[goal],
                Method.BOUND,
                low=str(me.low),
                low_shown=show(me.low),
                rivals=rivals,
                places=self.places,
                **shown,
            )
        if said[0] == "eliminated":
            ahead = said[2]
            return verdict(
                (ONE_AHEAD if ahead == 1 else AHEAD)[goal],
                Method.BOUND,
                high=str(me.high),
                high_shown=show(me.high),
                ahead=ahead,
                name=me.name,
                **shown,
            )
        return verdict(
            BETWEEN[goal],
            Method.BOUND,
            low=str(me.low),
            high=str(me.high),
            low_shown=show(me.low),
            high_shown=show(me.high),
            **shown,
        )


def _key(value: Fraction, scale: int) -> int:
    return value.numerator * (scale // value.denominator)


def _move(values: list[Any], old: Any, new: Any) -> None:
    """One ``old`` of the sorted ``values`` replaced by ``new``, kept sorted."""
    del values[bisect_left(values, old)]
    insort(values, new)
