"""The work budget of one Swiss pairing (woc II.6.2): a director's time limit, without a clock.

The director sets the pairing's time budget in seconds (the event setting
``pairing_seconds``, 30 by default). rules/ reads no clock, and a pairing that depended on
how loaded the machine was could not be drafted again or checked: the same event must give
the same draft on any machine. So the route counts work instead. Almost all of a hard
round's time goes to the exact matchings (rustworkx), whose cost grows with the number of
candidate pairs times the number of players of each solve; the route charges every solve
``solve_work`` and does not start an optional one (a wider exact solve) that would take it
past the budget. ``WORK_PER_SECOND`` converts the director's seconds: the work one CPU second
covers on the project's reference machine (2 cores, see docs/performance.md), measured by
``python -m bench.woc_pairing --calibrate``. A faster machine finishes within the budget
sooner; the draft is the same.

What always runs, whatever the budget: the lower bound and the first solve of the blocks
(about a second at 10,000 players), so that a round always has a pairing. When the proof is
not done within the budget, the round is drafted with the best pairing found and how far
from the optimum it can be at most (its cost against the bound), and the director decides.
"""

from __future__ import annotations

from dataclasses import dataclass

WORK_PER_SECOND = 80_000_000  # solve_work units per CPU second on the reference machine
SECONDS = 30  # the default budget


def solve_work(edges: int, vertices: int) -> int:
    """The work charged for one exact matching of ``edges`` candidate pairs over
    ``vertices`` players (the blossom algorithm's time grows about so; the constant term
    covers building the graph)."""
    return edges * (vertices + 100)


@dataclass
class Budget:
    """Work allowed to one pairing and spent so far (None: no limit)."""

    units: int | None = None
    spent: int = 0

    @classmethod
    def seconds(cls, seconds: float) -> Budget:
        return cls(int(seconds * WORK_PER_SECOND))

    def affords(self, work: int) -> bool:
        return self.units is None or self.spent + work <= self.units

    def charge(self, work: int) -> None:
        self.spent += work
