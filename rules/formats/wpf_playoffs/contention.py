"""Contention in the WPF playoffs: the shared bracket reading (rules/contention/brackets.py),
exact from each player's losses on the ladder."""

from __future__ import annotations

from rules.contention import brackets
from rules.contention.types import Contention
from rules.contract import EventState, Standings


def contention(state: EventState, standings: Standings | None = None) -> Contention:
    return brackets.wpf_playoffs(state, standings)
