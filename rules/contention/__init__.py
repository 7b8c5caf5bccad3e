"""Who can still win, who can still reach the next stage, who has clinched it (issue 14).

``contention(state)`` answers for an event in progress, per entrant, with a status (clinched,
alive, eliminated) and the reason in words; docs/contention.md gives the method per format, what
is exact and what is a sound bound.
"""

from __future__ import annotations

from collections.abc import Callable

from rules import registry
from rules.contract import EventState, Standings

from .types import Contention, EntrantContention, Finish, Method, Status, Verdict

# key -> contention, for every format with a contention module (rules/formats/<key>/contention.py)
CONTENTION: registry.Parts[Callable[[EventState, Standings | None], Contention]] = registry.Parts(
    "contention", "contention"
)


def contention(state: EventState, standings: Standings | None = None) -> Contention:
    """``standings``: the engine's standings of this very ``state``, when the caller has
    them (the standings task): the formats that rank the state itself reuse them instead of
    computing them again (a 10,000-entrant Swiss ranked three times per refresh)."""
    return CONTENTION[state.format](state, standings)


__all__ = [
    "CONTENTION",
    "Contention",
    "EntrantContention",
    "Finish",
    "Method",
    "Status",
    "Verdict",
    "contention",
]
