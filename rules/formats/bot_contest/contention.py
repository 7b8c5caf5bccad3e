"""Contention in the bot contest: the shared bracket reading (rules/contention/brackets.py),
exact from the sizes of the brackets alone."""

from __future__ import annotations

from rules.contention import brackets
from rules.contention.types import Contention
from rules.contract import EventState, Standings


def contention(state: EventState, standings: Standings | None = None) -> Contention:
    return brackets.bot_contest(state, standings)
