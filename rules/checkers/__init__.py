"""Rules checkers: one per format, written from the rule documents, not from the engines.

``check(state)`` returns every violation of the record; ``audit(state, standings)`` also
verifies the engine's standings and returns a :class:`Report` with the counts of what was
checked (rounds, pairings, scores, standings rows).
"""

from __future__ import annotations

from collections.abc import Callable

from rules import registry
from rules.checkers.common import OVERRIDE, Report, Violation, Where, attribute_overrides
from rules.contract import EventState, Standings

__all__ = ["CHECKERS", "OVERRIDE", "Report", "Violation", "Where", "audit", "check"]

Checker = Callable[[EventState, Standings | None], Report]

# key -> check, for every format with a checker module (rules/formats/<key>/checker.py)
CHECKERS: registry.Parts[Checker] = registry.Parts("checker", "check")


def audit(state: EventState, standings: Standings | None = None) -> Report:
    """Every violation of the record (and of ``standings``, when given), with counts; each
    director override is reported as one violation (rule ``OVERRIDE``) instead of what it
    breaks in its round."""
    return attribute_overrides(state, CHECKERS[state.format](state, standings))


def check(state: EventState, standings: Standings | None = None) -> list[Violation]:
    return audit(state, standings).violations
