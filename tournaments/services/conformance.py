"""The rules checker run over an event's record: the verdict directors and commands show.

The checkers (rules/checkers/) are written from the rule documents, not from the engines,
so an event paired by hand, by another program or with a director's override is judged
by the rules themselves. Every override is reported as one, with who and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
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

    # each round drafted and not yet published, checked as if it were (issue 28, item 6):
    # draft -> check -> publish; never part of the record's verdict above
    drafts: tuple[DraftVerdict, ...] = field(default_factory=tuple)

    @property
    def overrides(self) -> tuple[dict[str, Any], ...]:
        """Each director override: where, who, why, and the rules it departs from."""
        return _overrides(self.overridden)

    def summary(self) -> str:
        """The verdict in a sentence, in the active language (the check page's reader's;
        English for a command)."""
        if not self.available:
            return gettext("No rules checker exists for this format yet.")
        if not self.rounds and self.conforms and not self.overridden:
            # not "All 0 rounds conform": a drafted round is checked apart (drafts)
            return gettext("No round is published yet: the record has nothing to check.")
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
        return text + _overrides_said(self.overridden)


def _overrides_said(overridden: tuple[checkers.Violation, ...]) -> str:
    """The sentence a verdict ends with when directors changed pairings ("" when none)."""
    if not overridden:
        return ""
    count = len(overridden)
    return " " + ngettext(
        "%(count)d pairing changed by a director (overrides, listed apart: not violations).",
        "%(count)d pairings changed by a director (overrides, listed apart: not violations).",
        count,
    ) % {"count": count}


def _overrides(overridden: tuple[checkers.Violation, ...]) -> tuple[dict[str, Any], ...]:
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
        for v in overridden
    )


@dataclass(frozen=True)
class DraftVerdict:
    """What the rules say about one drafted round as if it were published: its own
    findings only (a finding of the published rounds stays the record's)."""

    number: int
    pairings: int
    violations: tuple[checkers.Violation, ...]
    overridden: tuple[checkers.Violation, ...] = field(default_factory=tuple)

    @property
    def conforms(self) -> bool:
        return not self.violations

    @property
    def overrides(self) -> tuple[dict[str, Any], ...]:
        return _overrides(self.overridden)

    @property
    def findings(self) -> tuple[checkers.Violation, ...]:
        return self.violations + self.overridden

    def summary(self) -> str:
        if self.conforms:
            text = ngettext(
                "Draft of round %(number)d (not published): it conforms to the rules "
                "(%(pairings)d pairing).",
                "Draft of round %(number)d (not published): it conforms to the rules "
                "(%(pairings)d pairings).",
                self.pairings,
            ) % {"number": self.number, "pairings": self.pairings}
        else:
            count = len(self.violations)
            text = ngettext(
                "Draft of round %(number)d (not published): %(count)d violation. Check the "
                "pairing before you publish it.",
                "Draft of round %(number)d (not published): %(count)d violations. Check the "
                "pairing before you publish it.",
                count,
            ) % {"number": self.number, "count": count}
        return text + _overrides_said(self.overridden)


def _key(v: checkers.Violation) -> tuple[str, str, str]:
    return (v.rule, v.code, v.text)


def _check_drafted(state: EventState, number: int, published: checkers.Report) -> DraftVerdict:
    """The drafted round ``number`` checked as if it were published: the checker's input is
    the published rounds and the draft's pairings, in every format."""
    rounds = tuple(
        replace(r, status=RoundStatus.PUBLISHED) if r.number == number else r
        for r in state.rounds
        if r.status is not RoundStatus.DRAFT or r.number == number
    )
    report = checkers.audit(replace(state, rounds=rounds))
    known = {_key(v) for v in published.violations}
    # the draft's own findings: in its round, or event-wide ones the record alone lacks
    own = [
        v
        for v in report.violations
        if v.where.round == number or (v.where.round is None and _key(v) not in known)
    ]
    return DraftVerdict(
        number=number,
        pairings=max(report.pairings - published.pairings, 0),
        violations=tuple(v for v in own if v.rule != checkers.OVERRIDE),
        overridden=tuple(v for v in own if v.rule == checkers.OVERRIDE),
    )


def check_state(state: EventState, engine: Any | None = None) -> Verdict:
    if state.format not in checkers.CHECKERS:
        return Verdict(0, 0, 0, 0, (), available=False)
    # Drafts are proposals, not the record: checked apart, each as if it were published.
    played = tuple(r for r in state.rounds if r.status is not RoundStatus.DRAFT)
    record = EventState(state.format, state.settings, state.entrants, played, state.draws)
    standings = engine.standings(record) if engine is not None else None
    report = checkers.audit(record, standings)
    # an override is the director's decision, reported with what it departs from, and
    # never counted as a broken rule
    found = tuple(v for v in report.violations if v.rule != checkers.OVERRIDE)
    overridden = tuple(v for v in report.violations if v.rule == checkers.OVERRIDE)
    drafts = tuple(
        _check_drafted(state, r.number, report)
        for r in state.rounds
        if r.status is RoundStatus.DRAFT
    )
    return Verdict(
        report.rounds, report.pairings, report.scores, report.rows, found, overridden, drafts=drafts
    )


def check_event(event: Event) -> Verdict:
    return check_state(load_event_state(event), event.engine)


def check_drafted_round(event: Event, number: int) -> DraftVerdict | None:
    """The rules check of one drafted round, for its page; None when the format has no
    checker or the round is not a draft."""
    state = load_event_state(event)
    if state.format not in checkers.CHECKERS:
        return None
    if not any(r.number == number and r.status is RoundStatus.DRAFT for r in state.rounds):
        return None
    played = tuple(r for r in state.rounds if r.status is not RoundStatus.DRAFT)
    return _check_drafted(state, number, checkers.audit(replace(state, rounds=played)))


def check_draft(event: Event, number: int) -> list[checkers.Violation]:
    """What the rules say about a draft round as if it were published: shown to the
    director after a manual change, before anyone sees the round."""
    verdict = check_drafted_round(event, number)
    return list(verdict.findings) if verdict is not None else []
