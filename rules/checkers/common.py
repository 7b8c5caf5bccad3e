"""What every checker shares: the violation record, a collector, and small record helpers.

A checker reads an event record (an :class:`EventState`, complete or partial) and, where
given, the standings the engine produced for it, and says where the record breaks the
format's rules. It never asks the engine what it would have decided.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules import words
from rules.contract import EventState, MatchState, Number, RoundState, RoundStatus, Standings


@dataclass(frozen=True)
class Where:
    """The place of a violation: any of round number, match code and entrant id."""

    round: int | None = None
    match: str = ""
    entrant: str = ""

    def __str__(self) -> str:
        parts = []
        if self.round is not None:
            parts.append(f"round {self.round}")
        if self.match:
            parts.append(f"match {self.match}")
        if self.entrant:
            parts.append(f"entrant {self.entrant}")
        return ", ".join(parts) or "event"


@dataclass(frozen=True)
class Violation:
    """One place where the record breaks a rule.

    ``rule`` names (or quotes) the sentence or section of the format's document, or the
    numbered decision of docs/formats/<format>.md where the document is silent.
    """

    rule: str
    where: Where
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    # the words module's code the text is said from (rules/words.py); its parameters are
    # ``data``, so a page says the finding in the reader's language
    code: str = ""

    @property
    def params(self) -> Mapping[str, Any]:
        return self.data


@dataclass
class Report:
    """Collects violations and counts what was checked (for the conformance bench)."""

    violations: list[Violation] = field(default_factory=list)
    rounds: int = 0
    pairings: int = 0
    scores: int = 0
    rows: int = 0
    overrides: int = 0  # overridden matches, each reported once as an override

    def add(
        self,
        rule: str,
        text: str = "",
        *,
        code: str = "",
        round: int | None = None,
        match: str = "",
        entrant: str = "",
        **data: Any,
    ) -> None:
        """A finding: said by ``code`` from ``data`` (what the sentence shows, written as
        shown, as for an engine's messages), or, until a checker is converted, in ``text``."""
        if code and not text:
            text = words.render(code, data)
        where = Where(round, match, entrant)
        self.violations.append(Violation(rule, where, text, data, code))


def setting(state: EventState, key: str, default: Any) -> Any:
    value = state.settings.get(key)
    return default if value is None else value


def num(value: Any) -> Fraction:
    """An exact number: floats are read as the decimal a director typed (0.5, 1.0)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str):
        return Fraction(value)
    raise TypeError(f"not a number: {value!r}")


def same(a: Any, b: Number | None) -> bool:
    """Whether a standings value equals an exact figure (floats compared to 1e-6)."""
    if a is None or b is None:
        return a is None and b is None
    try:
        return abs(float(num(a)) - float(b)) < 1e-6
    except (TypeError, ValueError, ZeroDivisionError):
        return False


def played_rounds(state: EventState) -> list[RoundState]:
    """Rounds that count: published or completed (a draft is only a proposal)."""
    return [r for r in state.rounds if r.status is not RoundStatus.DRAFT]


def who(state: EventState, entrant: str) -> str:
    """An entrant as a director reads it in a message: the name, then the number."""
    found = state.entrants_by_id.get(entrant)
    return f"{found.name} (#{entrant})" if found is not None and found.name else f"#{entrant}"


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def ids(match: MatchState) -> list[str]:
    return [p.entrant for p in match.participants if p.entrant is not None]


def check_once_per_round(
    report: Report, rule: str, rnd: RoundState, expected: Iterable[str] | None = None
) -> None:
    """Nobody sits twice in one round; with ``expected``, everyone expected sits once."""
    seen: dict[str, str] = {}
    for match in rnd.matches:
        for entrant in ids(match):
            if entrant in seen:
                report.add(
                    rule,
                    code="check.paired_twice",
                    round=rnd.number,
                    match=match.code,
                    entrant=entrant,
                    matches=[seen[entrant], match.code],
                    player=entrant,
                    number=rnd.number,
                    first=seen[entrant],
                    second=match.code,
                )
            seen[entrant] = match.code
    if expected is None:
        return
    wanted = set(expected)
    for entrant in sorted(wanted - set(seen)):
        report.add(
            rule,
            code="check.not_paired",
            round=rnd.number,
            entrant=entrant,
            player=entrant,
            number=rnd.number,
        )
    for entrant in sorted(set(seen) - wanted):
        report.add(
            rule,
            code="check.not_in_event",
            round=rnd.number,
            match=seen[entrant],
            entrant=entrant,
            player=entrant,
            number=rnd.number,
        )


def standings_rows(standings: Standings | None, key: str) -> dict[str, Any] | None:
    """The rows of one standings table by entrant, or None when there is no such table."""
    if standings is None:
        return None
    for table in standings.tables:
        if table.key == key:
            return {row.entrant: row for row in table.rows}
    return None


def lexicographic_order_ok(order: Sequence[str], keys: Mapping[str, tuple[Any, ...]]) -> int:
    """Index of the first row ranked above a row with a better key, or -1 when none."""
    for index in range(1, len(order)):
        if keys[order[index]] > keys[order[index - 1]]:
            return index
    return -1


OVERRIDE = "Director override: the director changed the engine's pairing (reported, not checked)"


def attribute_overrides(state: EventState, report: Report) -> Report:
    """Report every overridden match once, as an override, in place of what it breaks.

    A director's override (match detail ``override``: who, why, the engine's proposal) is a
    decision outside the rules' pairing, so the checker does not judge it by them: the
    violations it causes in its own round (in the overridden match, about its players, or
    about the round as a whole) are replaced by one override per overridden match, which
    names the rules the change departs from (data ``breaks``), so a director still sees what
    the override costs. Later rounds are still checked in full, against the record as it
    happened.
    """
    found: dict[int, list[tuple[MatchState, set[str], dict[str, Any]]]] = {}
    for rnd in played_rounds(state):
        for match in rnd.matches:
            override = match.details.get("override")
            if not override:
                continue
            info = dict(override) if isinstance(override, Mapping) else {"override": override}
            engine = info.get("engine") or []
            people = {str(e) for e in (*ids(match), *engine) if e is not None}
            found.setdefault(rnd.number, []).append((match, people, info))
    if not found:
        return report
    breaks: dict[tuple[int, str], list[Violation]] = defaultdict(list)
    kept: list[Violation] = []
    for v in report.violations:
        here = found.get(v.where.round) if v.where.round is not None else None
        owners = [
            m.code
            for m, people, _ in here or []
            if (v.where.match == m.code)
            or (v.where.entrant and v.where.entrant in people)
            or (not v.where.match and not v.where.entrant)
        ]
        if not owners:
            kept.append(v)
        for code in owners:
            breaks[(v.where.round or 0, code)].append(v)
    notes: list[Violation] = []
    for number, matches in found.items():
        for match, _people, info in matches:
            engine = info.get("engine") or []
            broken = breaks.get((number, match.code), [])
            rules = list(dict.fromkeys(v.rule for v in broken))
            # the data keep the override's own record (by, reason, engine: conformance.py
            # reads them); the sentence's display keys sit beside them
            said = {
                "match_code": match.code,
                "who": info.get("by") or words.message("check.override.a_director"),
                "why": info.get("reason") or words.message("check.override.no_reason"),
                "proposal": " v ".join(str(e) for e in engine)
                or words.message("check.override.another_pairing"),
            }
            if rules:
                said["departs"] = "; ".join(rules)
            code = "check.override.departs" if rules else "check.override"
            data = {
                **info,
                "recorded": ids(match),
                "breaks": [{"rule": v.rule, "text": v.text} for v in broken],
                **said,
            }
            notes.append(
                Violation(OVERRIDE, Where(number, match.code), words.render(code, data), data, code)
            )
    report.violations = kept + notes
    report.overrides = len(notes)
    return report
