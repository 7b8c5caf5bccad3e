"""Verdicts from an exhaustive list of outcomes (see explore.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .explore import Outcome
from .types import Finish, Method, Status, Verdict, aggregate, verdict

# The codes of words.py by goal and status; the ``.one`` and ``.open`` variants say it in
# other words (a single outcome; outcomes left open to a tiebreak).
CODES = {
    ("win", Status.CLINCHED): "contention.win.clinched.enumerated",
    ("win", Status.ELIMINATED): "contention.win.eliminated.enumerated",
    ("win", Status.ALIVE): "contention.win.alive.enumerated",
    ("stage", Status.CLINCHED): "contention.stage.clinched.enumerated",
    ("stage", Status.ELIMINATED): "contention.stage.eliminated.enumerated",
    ("stage", Status.ALIVE): "contention.stage.alive.enumerated",
}
ONLY_OUTCOME = {
    "win": "contention.win.clinched.enumerated.one",
    "stage": "contention.stage.clinched.enumerated.one",
}
SOME_OPEN = {
    "win": "contention.win.alive.enumerated.open",
    "stage": "contention.stage.alive.enumerated.open",
}


def exact_verdicts(
    outcomes: Sequence[Outcome],
    entrants: Sequence[str],
    names: Mapping[str, str],
    *,
    index: int,
    goal: str,
    target: dict[str, Any],
) -> dict[str, Verdict]:
    """``index`` 0 reads the win finishes, 1 the stage finishes; ``target`` is the message of
    words.py for the goal ("finish first", "reach the semi-finals")."""
    count = len(outcomes)
    result: dict[str, Verdict] = {}
    for entrant in entrants:
        finishes = [o.get(entrant, (Finish.OUT, Finish.OUT))[index] for o in outcomes]
        status = aggregate(finishes)
        code = CODES[goal, status]
        said: dict[str, Any] = {"name": names[entrant], "target": target}
        if status is Status.CLINCHED and count == 1:
            code = ONLY_OUTCOME[goal]
        elif status is Status.ALIVE:
            said["reach"] = sum(1 for f in finishes if f is Finish.IN)
            said["open"] = sum(1 for f in finishes if f is Finish.OPEN)
            if said["open"]:
                code = SOME_OPEN[goal]
        result[entrant] = verdict(code, Method.EXACT, outcomes=count, **said)
    return result
