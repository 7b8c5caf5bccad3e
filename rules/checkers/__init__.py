"""Rules checkers: one per format, written from the rule documents, not from the engines.

``check(state)`` returns every violation of the record; ``audit(state, standings)`` also
verifies the engine's standings and returns a :class:`Report` with the counts of what was
checked (rounds, pairings, scores, standings rows).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from rules.checkers.common import OVERRIDE, Report, Violation, Where, attribute_overrides
from rules.contract import EventState, Standings

__all__ = ["CHECKERS", "OVERRIDE", "Report", "Violation", "Where", "audit", "check"]

CHECKERS: dict[str, str] = {
    "round_robin": "rules.formats.round_robin.checker",
    "freestyle": "rules.formats.freestyle.checker",
    "bot_contest": "rules.formats.bot_contest.checker",
    "wpf_playoffs": "rules.formats.wpf_playoffs.checker",
    "gokodom": "rules.formats.gokodom.checker",
    "woc": "rules.formats.woc.checker",
}


def _checker(key: str) -> Callable[[EventState, Standings | None], Report]:
    module = importlib.import_module(CHECKERS[key])
    function: Callable[[EventState, Standings | None], Report] = module.check
    return function


def audit(state: EventState, standings: Standings | None = None) -> Report:
    """Every violation of the record (and of ``standings``, when given), with counts; each
    director override is reported as one violation (rule ``OVERRIDE``) instead of what it
    breaks in its round."""
    return attribute_overrides(state, _checker(state.format)(state, standings))


def check(state: EventState, standings: Standings | None = None) -> list[Violation]:
    return audit(state, standings).violations
