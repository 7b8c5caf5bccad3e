"""Who can still win, who can still reach the next stage, who has clinched it (issue 14).

``contention(state)`` answers for an event in progress, per entrant, with a status (clinched,
alive, eliminated) and the reason in words; docs/contention.md gives the method per format, what
is exact and what is a sound bound.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.contract import EventState, Standings

from .types import Contention, EntrantContention, Finish, Method, Status, Verdict


def contention(state: EventState, standings: Standings | None = None) -> Contention:
    """``standings``: the engine's standings of this very ``state``, when the caller has
    them (the standings task): the formats that rank the state itself reuse them instead of
    computing them again (a 10,000-entrant Swiss ranked three times per refresh)."""
    return _dispatch()[state.format](state, standings)


def _dispatch() -> dict[str, Callable[[EventState, Standings | None], Contention]]:
    import importlib

    keys = ("round_robin", "freestyle", "bot_contest", "wpf_playoffs", "gokodom", "woc")
    return {k: importlib.import_module(f"rules.formats.{k}.contention").contention for k in keys}


__all__ = ["Contention", "EntrantContention", "Finish", "Method", "Status", "Verdict", "contention"]
