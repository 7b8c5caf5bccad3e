"""The answer of the contention logic: per entrant, can they still win, still reach the next stage,
or have they clinched it, each with the reason in words.

Codes and data inside, words at the edge: every verdict carries a contract ``Reason`` whose
``code`` is one of ``contention.<goal>.<status>.<why>``, with the parameters its sentence shows;
the sentence is in words.py ("clinched: no one else can reach {low_shown} {unit} {left}").
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import words
from rules.contract import EventState, Reason


class Status(enum.StrEnum):
    CLINCHED = "clinched"  # reached whatever happens in the games still to play
    ALIVE = "alive"  # some outcomes reach it, some do not (or the method cannot tell)
    ELIMINATED = "eliminated"  # no outcome of the games still to play reaches it


class Method(enum.StrEnum):
    EXACT = "exact"  # every outcome of every remaining game was considered
    BOUND = "bound"  # a sound bound: clinched/eliminated are certain, alive may be loose
    SETTLED = "settled"  # nothing is left to play for this goal


class Finish(enum.IntEnum):
    """Where one completed outcome leaves an entrant with respect to one goal."""

    OUT = 0
    OPEN = 1  # undecided in this outcome: a lot, a tiebreaker game, a score tiebreak, a share
    IN = 2


@dataclass(frozen=True)
class Verdict:
    status: Status
    reason: Reason
    method: Method = Method.EXACT


@dataclass(frozen=True)
class EntrantContention:
    entrant: str
    win: Verdict
    # None when the event has no next stage (a plain round robin, or the last stage).
    stage: Verdict | None = None


@dataclass(frozen=True)
class Contention:
    """Contention for every entrant of the event's standings."""

    format: str
    # The next stage: a key ("semi_finals", "top_8", "final", "round_3") and words for the goal
    # ("reach the semi-finals"); both empty when there is none.
    stage_key: str
    stage_name: str
    entrants: tuple[EntrantContention, ...]
    method: Method
    notes: tuple[Reason, ...] = ()
    # What the method worked out on the way (each entrant's bound, the matches waiting for
    # a result), kept for the next contention of the same event after a result (Reuse).
    # Not part of the answer: equality and the stored snapshot ignore it.
    work: Any = field(default=None, compare=False, repr=False)

    def of(self, entrant: str) -> EntrantContention:
        for row in self.entrants:
            if row.entrant == entrant:
                return row
        raise KeyError(entrant)

    @property
    def by_entrant(self) -> Mapping[str, EntrantContention]:
        return {row.entrant: row for row in self.entrants}


@dataclass(frozen=True)
class Reuse:
    """The previous outlook of an event and how its state has changed since: only the
    results (games) of the matches in ``changed``, each named (round number, match code).
    Entrants, settings, rounds and draws are the same (the caller never asks otherwise)."""

    previous_state: EventState  # the state the previous outlook was computed for
    previous: Contention  # that outlook
    changed: frozenset[tuple[int, str]]  # matches whose results differ


def verdict(code: str, method: Method = Method.EXACT, **params: Any) -> Verdict:
    """The verdict of a code of words.py: its status is the code's third part
    (``contention.win.clinched.champion``), so the two cannot disagree."""
    return Verdict(Status(code.split(".")[2]), Reason(code, params=params), method)


def english(message: dict[str, Any]) -> str:
    """A message said in English: a stage's name is its target's sentence."""
    return words.render(message["code"], message["params"])


def aggregate(finishes: list[Finish]) -> Status:
    """Clinched if every outcome is IN, eliminated if every outcome is OUT, else alive."""
    if finishes and all(f is Finish.IN for f in finishes):
        return Status.CLINCHED
    if finishes and all(f is Finish.OUT for f in finishes):
        return Status.ELIMINATED
    return Status.ALIVE
