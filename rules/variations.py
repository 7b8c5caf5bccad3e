"""What can happen to a simulated event besides plain results: withdrawals, late entries,
defaults, drawn games and director overrides (issue 13's generator).

Pure, like the simulators that use it: every choice comes from the ``random.Random`` they
pass in, so one seed always gives the same event, overrides included. A director override is
recorded the way the service records one (tournaments/services/rounds.py ``swap``): the match
detail ``override`` holds who, why and what the engine had proposed, so the checker can report
each overridden match as an override.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.contract import EntrantState, EntrantStatus, EventState, Participant, PlannedMatch

OVERRIDE_BY = "simulation"


@dataclass(frozen=True)
class Variations:
    """Rates of the events a simulator adds (0 = never). A format uses only those its rules
    allow (see each ``simulate.py``)."""

    withdrawals: float = 0.0  # per entrant still in, after each completed round
    late_entries: int = 0  # entrants registering after the rest (before round 1 is drawn)
    defaults: float = 0.0  # per game or match: a time default, forfeit or unplayed match
    draws: float = 0.0  # per game: a drawn (tied) game where the format has draws
    overrides: float = 0.0  # per round: the director changes one pairing

    @classmethod
    def everything(cls) -> Variations:
        """The mix the conformance bench and ``simulate_event --vary`` use."""
        return cls(withdrawals=0.02, late_entries=2, defaults=0.05, draws=0.1, overrides=0.0)

    def with_overrides(self, rate: float) -> Variations:
        return dataclasses.replace(self, overrides=rate)


NONE = Variations()


def late_entrants(
    entrants: Sequence[EntrantState],
    count: int,
    make: Callable[[int], EntrantState],
) -> tuple[EntrantState, ...]:
    """The field with ``count`` late entrants appended (``make(n)`` builds the n-th entrant
    of the whole field, counting from 1); each carries the flag ``late``."""
    added = []
    for n in range(len(entrants) + 1, len(entrants) + count + 1):
        entrant = make(n)
        added.append(dataclasses.replace(entrant, flags={**entrant.flags, "late": True}))
    return (*entrants, *added)


def withdraw(
    state: EventState,
    rng: random.Random,
    rate: float,
    after_round: int,
    *,
    keep: int,
    limit: int | None = None,
    eligible: Callable[[EntrantState], bool] | None = None,
) -> EventState:
    """Entrants still in withdraw after round ``after_round``, each with chance ``rate``,
    leaving at least ``keep`` in and withdrawing at most ``limit`` at once."""
    if rate <= 0:
        return state
    still = [e for e in state.entrants if e.active]
    room = max(0, len(still) - keep)
    if limit is not None:
        room = min(room, limit)
    going: set[str] = set()
    for entrant in still:
        if len(going) >= room:
            break
        if (eligible is None or eligible(entrant)) and rng.random() < rate:
            going.add(entrant.id)
    if not going:
        return state
    return dataclasses.replace(
        state,
        entrants=tuple(
            dataclasses.replace(
                e, status=EntrantStatus.WITHDRAWN, withdrawn_after_round=after_round
            )
            if e.id in going
            else e
            for e in state.entrants
        ),
    )


def _record(match: PlannedMatch, engine: list[str | None], kind: str, reason: str) -> PlannedMatch:
    override: dict[str, Any] = {
        "engine": engine,
        "by": OVERRIDE_BY,
        "reason": reason,
        "kind": kind,
    }
    return dataclasses.replace(match, details={**match.details, "override": override})


def swap_seats(match: PlannedMatch) -> PlannedMatch:
    """The two players change seats (and so colour, role or first move); the roles stay
    with the seats."""
    first, second = match.participants
    seats = (
        Participant(second.entrant, first.role, second.details),
        Participant(first.entrant, second.role, first.details),
    )
    engine = [p.entrant for p in match.participants]
    changed = dataclasses.replace(match, participants=seats)
    return _record(changed, engine, "seats", "Players asked to change seats.")


def swap_players(
    first: PlannedMatch, second: PlannedMatch, rng: random.Random
) -> tuple[PlannedMatch, PlannedMatch]:
    """One player of each match changes places with one of the other (the seat stays)."""
    i, j = rng.randrange(2), rng.randrange(2)
    a, b = first.participants[i], second.participants[j]
    one = list(first.participants)
    two = list(second.participants)
    one[i] = Participant(b.entrant, a.role, b.details)
    two[j] = Participant(a.entrant, b.role, a.details)
    reason = f"Director paired {b.entrant} and {a.entrant} by hand."
    return (
        _record(
            dataclasses.replace(first, participants=tuple(one)),
            [p.entrant for p in first.participants],
            "swap",
            reason,
        ),
        _record(
            dataclasses.replace(second, participants=tuple(two)),
            [p.entrant for p in second.participants],
            "swap",
            reason,
        ),
    )


def override(
    matches: Sequence[PlannedMatch],
    rng: random.Random,
    rate: float,
    *,
    swap: bool,
    eligible: Callable[[PlannedMatch], bool] | None = None,
    together: Callable[[PlannedMatch, PlannedMatch], bool] | None = None,
) -> tuple[PlannedMatch, ...]:
    """With chance ``rate``, the director changes one pairing of the round: two players of
    different matches swapped (``swap``, when two eligible matches that may trade players
    exist), otherwise the seats of one match."""
    matches = tuple(matches)
    if rate <= 0 or rng.random() >= rate:
        return matches
    usable = [
        i
        for i, m in enumerate(matches)
        if len(m.participants) == 2
        and all(p.entrant is not None for p in m.participants)
        and (eligible is None or eligible(m))
    ]
    if not usable:
        return matches
    changed = list(matches)
    if swap and len(usable) >= 2:
        i = rng.choice(usable)
        partners = [
            j for j in usable if j != i and (together is None or together(matches[i], matches[j]))
        ]
        if partners:
            j = rng.choice(partners)
            changed[i], changed[j] = swap_players(matches[i], matches[j], rng)
            return tuple(changed)
    i = rng.choice(usable)
    changed[i] = swap_seats(matches[i])
    return tuple(changed)


def is_overridden(details: Mapping[str, Any]) -> bool:
    """Whether a match's details record a director override."""
    return bool(details.get("override"))
