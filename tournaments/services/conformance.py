"""The rules checker run over an event's record: the verdict directors and commands show.

The checkers (rules/checkers/) are written from the rule documents, not from the engines,
so an event paired by hand, by another program or with a director's override is judged
by the rules themselves. Every override is reported as one, with who and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import checkers
from rules.contract import EventState, RoundStatus
from tournaments.models import Event, Match
from tournaments.services.state import load_event_state


@dataclass(frozen=True)
class Verdict:
    rounds: int
    pairings: int
    scores: int
    rows: int
    violations: tuple[checkers.Violation, ...]
    overrides: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    available: bool = True

    @property
    def conforms(self) -> bool:
        return not self.violations

    def summary(self) -> str:
        if not self.available:
            return "No rules checker exists for this format yet."
        if self.conforms:
            text = f"All {self.rounds} round{'s' if self.rounds != 1 else ''} conform"
            text += (
                f" ({self.pairings} pairings, {self.scores} scores, {self.rows} standings rows)."
            )
        else:
            text = (
                f"{len(self.violations)} violation{'s' if len(self.violations) != 1 else ''} "
                f"in {self.rounds} round{'s' if self.rounds != 1 else ''}."
            )
        if self.overrides:
            text += f" {len(self.overrides)} director override"
            text += "s" if len(self.overrides) != 1 else ""
            text += " (listed)."
        return text


def check_state(state: EventState, engine: Any | None = None) -> Verdict:
    if state.format not in checkers.CHECKERS:
        return Verdict(0, 0, 0, 0, (), available=False)
    # Drafts are proposals, not the record.
    played = tuple(r for r in state.rounds if r.status is not RoundStatus.DRAFT)
    record = EventState(state.format, state.settings, state.entrants, played, state.draws)
    standings = engine.standings(record) if engine is not None else None
    report = checkers.audit(record, standings)
    return Verdict(
        report.rounds, report.pairings, report.scores, report.rows, tuple(report.violations)
    )


def check_event(event: Event) -> Verdict:
    verdict = check_state(load_event_state(event), event.engine)
    overrides = tuple(
        {
            "round": match.round.label,
            "match": match.code,
            "by": match.details.get("override", {}).get("by", ""),
            "reason": match.details.get("override", {}).get("reason", ""),
        }
        for match in Match.objects.filter(round__event=event, overridden=True)
        .select_related("round")
        .order_by("round__number", "order")
    )
    return Verdict(
        verdict.rounds,
        verdict.pairings,
        verdict.scores,
        verdict.rows,
        verdict.violations,
        overrides,
        verdict.available,
    )


def check_draft(event: Event, number: int) -> list[checkers.Violation]:
    """What the rules say about a draft round as if it were published: shown to the
    director after a manual change, before anyone sees the round."""
    from dataclasses import replace

    state = load_event_state(event)
    if state.format not in checkers.CHECKERS:
        return []
    rounds = tuple(
        replace(r, status=RoundStatus.PUBLISHED) if r.number == number else r
        for r in state.rounds
        if r.status is not RoundStatus.DRAFT or r.number == number
    )
    report = checkers.audit(replace(state, rounds=rounds))
    return [v for v in report.violations if v.where.round in (None, number)]
