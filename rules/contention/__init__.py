"""Who can still win, who can still reach the next stage, who has clinched it (issue 14).

``contention(state)`` answers for an event in progress, per entrant, with a status (clinched,
alive, eliminated) and the reason in words; docs/contention.md gives the method per format, what
is exact and what is a sound bound.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.contract import EventState

from .types import Contention, EntrantContention, Finish, Method, Status, Verdict


def contention(state: EventState) -> Contention:
    return _dispatch()[state.format](state)


def _dispatch() -> dict[str, Callable[[EventState], Contention]]:
    from . import brackets, freestyle, gokodom, round_robin, woc

    return {
        "round_robin": round_robin.contention,
        "freestyle": freestyle.contention,
        "bot_contest": brackets.bot_contest,
        "wpf_playoffs": brackets.wpf_playoffs,
        "gokodom": gokodom.contention,
        "woc": woc.contention,
    }


__all__ = ["Contention", "EntrantContention", "Finish", "Method", "Status", "Verdict", "contention"]
