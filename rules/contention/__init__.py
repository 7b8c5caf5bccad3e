"""Who can still win, who can still reach the next stage, who has clinched it (issue 14).

``contention(state)`` answers for an event in progress, per entrant, with a status (clinched,
alive, eliminated) and the reason in words; docs/contention.md gives the method per format, what
is exact and what is a sound bound.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from rules import registry
from rules.contract import EventState, Standings

from .types import Contention, EntrantContention, Finish, Method, Reuse, Status, Verdict

# key -> contention, for every format with a contention module (rules/formats/<key>/contention.py)
CONTENTION: registry.Parts[Callable[..., Contention]] = registry.Parts("contention", "contention")


def contention(
    state: EventState, standings: Standings | None = None, *, reuse: Reuse | None = None
) -> Contention:
    """``standings``: the engine's standings of this very ``state``, when the caller has
    them (the standings task): the formats that rank the state itself reuse them instead of
    computing them again (a 10,000-entrant Swiss ranked three times per refresh).

    ``reuse``: the previous outlook of the same event, when only the results of
    ``reuse.changed`` differ since: a format that can carries over the verdicts those
    results cannot have moved (the bound of the others rests on the same numbers). The
    answer is the same (==) as without it; a format that cannot, or a ``reuse`` whose
    state differs in more than results, computes it all."""
    compute = CONTENTION[state.format]
    if reuse is not None and _takes_reuse(compute) and _only_results(reuse, state):
        return compute(state, standings, reuse=reuse)
    return compute(state, standings)


@functools.cache
def _takes_reuse(compute: Callable[..., Any]) -> bool:
    return "reuse" in inspect.signature(compute).parameters


def _only_results(reuse: Reuse, state: EventState) -> bool:
    """A cheap check of the caller's promise: the same format, settings, entrants and
    rounds (number, stage, status and match codes); the games it takes on trust."""
    before = reuse.previous_state
    if (
        before.format != state.format
        or before.settings != state.settings
        or before.entrants != state.entrants
        or len(before.rounds) != len(state.rounds)
        or reuse.previous.format != state.format
    ):
        return False
    return all(
        (a.number, a.stage, a.status, len(a.matches))
        == (b.number, b.stage, b.status, len(b.matches))
        for a, b in zip(before.rounds, state.rounds, strict=True)
    )


__all__ = [
    "CONTENTION",
    "Contention",
    "EntrantContention",
    "Finish",
    "Method",
    "Reuse",
    "Status",
    "Verdict",
    "contention",
]
