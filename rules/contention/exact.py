"""Verdicts from an exhaustive list of outcomes (see explore.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .explore import Outcome
from .types import Finish, Method, Status, Verdict, aggregate, verdict


def exact_verdicts(
    outcomes: Sequence[Outcome],
    entrants: Sequence[str],
    names: Mapping[str, str],
    *,
    index: int,
    goal: str,
    target: str,
) -> dict[str, Verdict]:
    """``index`` 0 reads the win finishes, 1 the stage finishes; ``target`` words the goal
    ("finish first", "reach the semi-finals")."""
    count = len(outcomes)
    every = "the only outcome" if count == 1 else f"all {count} outcomes"
    result: dict[str, Verdict] = {}
    for entrant in entrants:
        finishes = [o.get(entrant, (Finish.OUT, Finish.OUT))[index] for o in outcomes]
        status = aggregate(finishes)
        if status is Status.CLINCHED:
            text = f"{names[entrant]} will {target} in {every} of the games left"
        elif status is Status.ELIMINATED:
            text = (
                f"{names[entrant]} cannot {target} in any of the {count} outcomes of the games left"
            )
        else:
            reach = sum(1 for f in finishes if f is Finish.IN)
            open_ = sum(1 for f in finishes if f is Finish.OPEN)
            text = (
                f"{names[entrant]} can {target} in {reach} of the {count} outcomes "
                "of the games left"
            )
            if open_:
                text += f" ({open_} more left to a tiebreak on scores, a lot or a tiebreaker game)"
        result[entrant] = verdict(goal, status, "enumerated", text, Method.EXACT, outcomes=count)
    return result
