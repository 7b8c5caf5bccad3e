"""The rules checker run over an event's record: the verdict directors and commands show.

The checkers (rules/checkers/) are written from the rule documents, not from the engines,
so an event paired by hand, by another program or with a director's override is judged
by the rules themselves. Every override is reported as one, with who and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, ngettext

from rules import checkers
from rules.contract import EventState, RoundStatus
from tournaments.models import Event
from tournaments.services.state import load_event_state


@dataclass(frozen=True)
class Verdict:
    rounds: int
    pairings: int
    scores: int
    rows: int
    violations: tuple[checkers.Violation, ...]  # the rules broken; never an override
    overridden: tuple[checkers.Violation, ...] = field(default_factory=tuple)
    available: bool = True

    @property
    def conforms(self) -> bool:
        return not self.violations

    @property
    def overrides(self) -> tuple[dict[str, Any], ...]:
        """Each director override: where, who, why, and the rules it departs from."""
        return tuple(
            {
                "round": v.where.round,
                "match": v.where.match,
                "by": v.data.get("by", ""),
                "reason": v.data.get("reason", ""),
                "text": v.text,
                "breaks": v.data.get("breaks", []),
                # said from these on the check page, in the reader's language
                "code": v.code,
                "params": v.params,
            }
            for v in self.overridden
        )

    def summary(self) -> str:
        """The verdict in a sentence, in the active language (the check page's reader's;
        English for a command)."""
        if not self.available:
            return gettext("No rules checker exists for this format yet.")
        if self.conforms:
            text = ngettext(
                "All %(rounds)d round conform (%(pairings)d pairings, %(scores)d scores, "
                "%(rows)d standings rows).",
                "All %(rounds)d rounds conform (%(pairings)d pairings, %(scores)d scores, "
                "%(rows)d standings rows).",
                self.rounds,
            ) % {
                "rounds": self.rounds,
                "pairings": self.pairings,
                "scores": self.scores,
                "rows": self.rows,
            }
        else:
            count = len(self.violations)
            rounds = ngettext("%(rounds)d round", "%(rounds)d rounds", self.rounds) % {
                "rounds": self.rounds
            }
            text = ngettext(
                "%(count)d violation in %(rounds)s.", "%(count)d violations in %(rounds)s.", count
            ) % {"count": count, "rounds": rounds}
        if self.overridden:
            count = len(self.overridden)
            text += " " + ngettext(
                "%(count)d pairing changed by a director (overrides, listed apart: not "
                "violations).",
                "%(count)d pairings changed by a director (overrides, listed apart: not "
                "violations).",
                count,
            ) % {"count": count}
        return text


def check_state(state: EventState, engine: Any | None = None) -> Verdict:
    if state.format not in checkers.CHECKERS:
        return Verdict(0, 0, 0, 0, (), available=False)
    # Drafts are proposals, not the record.
    played = tuple(r for r in state.rounds if r.status is not RoundStatus.DRAFT)
    record = EventState(state.format, state.settings, state.entrants, played, state.draws)
    standings = engine.standings(record) if engine is not None else None
    report = checkers.audit(record, standings)
    # an override is the director's decision, reported with what it departs from, and
    # never counted as a broken rule
    found = tuple(v for v in report.violations if v.rule != checkers.OVERRIDE)
    overridden = tuple(v for v in report.violations if v.rule == checkers.OVERRIDE)
    return Verdict(report.rounds, report.pairings, report.scores, report.rows, found, overridden)


def check_event(event: Event) -> Verdict:
    return check_state(load_event_state(event), event.engine)


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
