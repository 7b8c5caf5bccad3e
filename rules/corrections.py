"""What a correction changes, before it is saved (issue 14).

A correction is an event state changed in the past: a result of an earlier round, or an
entrant's status. Everything here compares two states (as recorded, as corrected) through the
engine's own ``standings`` and ``next_round`` and the contention logic, so it works for every
format alike:

- ``standings_changes``: rows whose rank, points, tiebreak values or status differ;
- ``contention_flips``: entrants whose "can still win / reach the next stage" answer changes;
- ``replan``: each later round planned again on the corrected record, compared with the
  pairings as played (the round's first ``next_round``; recorded draws are reused, so only
  the correction itself can make a difference).

Later rounds are never changed here: this is the diff a director confirms.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from rules import absence
from rules.contention import Contention, Verdict
from rules.contract import (
    Engine,
    EngineError,
    EventState,
    Finished,
    GameState,
    MatchState,
    NeedsDecision,
    RoundPlan,
    RoundState,
    Standings,
    StandingsTable,
    Value,
)
from rules.draws import DrawNeeded, DrawSource, InvalidDraw

Seats = tuple[str | None, ...]


@dataclass(frozen=True)
class ValueChange:
    key: str
    label: str
    before: Value | None
    after: Value | None


@dataclass(frozen=True)
class RowChange:
    """One entrant's row in one table, before and after the correction."""

    table: str
    title: str
    entrant: str
    rank_before: int | None
    rank_after: int | None
    status_before: str
    status_after: str
    values: tuple[ValueChange, ...]

    @property
    def moved(self) -> bool:
        return self.rank_before != self.rank_after


@dataclass(frozen=True)
class Flip:
    """A contention answer that changes: ``goal`` is "win" or the stage's key."""

    entrant: str
    goal: str
    goal_name: str
    before: str
    after: str
    before_text: str
    after_text: str


@dataclass(frozen=True)
class PairingDiff:
    """A later round as played against the engine's plan on the corrected record."""

    number: int
    label: str
    played: tuple[Seats, ...]
    planned: tuple[Seats, ...] | None  # None: the engine gave no plan (see ``note``)
    note: str = ""
    # The engine's plan on the record as it stands: where it already differs from the round
    # as played, a director changed the pairing (an override), not the correction.
    planned_before: tuple[Seats, ...] | None = None

    @property
    def caused(self) -> bool:
        """The correction itself changes the engine's plan for this round."""
        if self.planned is None:
            return False
        return _as_set(self.planned) != _as_set(self.planned_before or ())

    @property
    def only_played(self) -> tuple[Seats, ...]:
        planned = {frozenset(m) for m in self.planned or ()}
        return tuple(m for m in self.played if frozenset(m) not in planned)

    @property
    def only_planned(self) -> tuple[Seats, ...]:
        played = {frozenset(m) for m in self.played}
        return tuple(m for m in self.planned or () if frozenset(m) not in played)

    @property
    def seats_changed(self) -> tuple[Seats, ...]:
        """Same opponents, other seats (colours, sides, first player)."""
        planned = set(self.planned or ())
        opponents = {frozenset(m) for m in self.planned or ()}
        return tuple(m for m in self.played if m not in planned and frozenset(m) in opponents)

    @property
    def differs(self) -> bool:
        if self.planned is None:
            return False
        return bool(self.only_played or self.only_planned or self.seats_changed)


# -- correcting a state -----------------------------------------------------------------


def with_games(
    state: EventState,
    round_number: int,
    code: str,
    games: Sequence[GameState],
    details: dict[str, object] | None = None,
) -> EventState:
    """The state with one match's games (and result details) replaced."""

    def fix(match: MatchState) -> MatchState:
        if match.code != code:
            return match
        merged = {**match.details, **(details or {})}
        return replace(match, games=tuple(games), details=merged)

    rounds = tuple(
        replace(r, matches=tuple(fix(m) for m in r.matches)) if r.number == round_number else r
        for r in state.rounds
    )
    return replace(state, rounds=rounds)


def with_details(
    state: EventState, round_number: int, code: str, details: Mapping[str, object]
) -> EventState:
    """The state with one match's details replaced whole (a format's own result fields, such
    as GokoDom's result codes, where a field may also be cleared)."""
    rounds = tuple(
        replace(
            r,
            matches=tuple(
                replace(m, details=dict(details)) if m.code == code else m for m in r.matches
            ),
        )
        if r.number == round_number
        else r
        for r in state.rounds
    )
    return replace(state, rounds=rounds)


def withdrawn(state: EventState, entrant: str, after_round: int) -> EventState:
    """The state with ``entrant`` withdrawn after ``after_round``."""
    from rules.contract import EntrantStatus

    entrants = tuple(
        replace(e, status=EntrantStatus.WITHDRAWN, withdrawn_after_round=after_round)
        if e.id == entrant
        else e
        for e in state.entrants
    )
    return replace(state, entrants=entrants)


# -- comparing --------------------------------------------------------------------------


def _changes_in(title: str, old: StandingsTable | None, new: StandingsTable) -> list[RowChange]:
    before = {r.entrant: r for r in old.rows} if old is not None else {}
    labels = {c.key: c.label for c in new.columns}
    changes = []
    for row in new.rows:
        was = before.get(row.entrant)
        values = tuple(
            ValueChange(key, labels[key], was.values.get(key) if was else None, row.values.get(key))
            for key in labels
            if (was.values.get(key) if was else None) != row.values.get(key)
        )
        rank_before = was.rank if was else None
        status_before = was.status if was else ""
        if values or rank_before != row.rank or status_before != row.status:
            changes.append(
                RowChange(
                    new.key,
                    title,
                    row.entrant,
                    rank_before,
                    row.rank,
                    status_before,
                    row.status,
                    values,
                )
            )
    return changes


def standings_changes(before: Standings, after: Standings) -> tuple[RowChange, ...]:
    """Every row whose rank, values or status differ, table by table (after's order)."""
    old = {t.key: t for t in before.tables}
    changes: list[RowChange] = []
    for table in after.tables:
        changes += _changes_in(table.title, old.get(table.key), table)
    return tuple(changes)


def contention_flips(before: Contention | None, after: Contention | None) -> tuple[Flip, ...]:
    """Entrants whose win or next-stage answer changes status."""
    if before is None or after is None:
        return ()
    old = before.by_entrant
    flips: list[Flip] = []
    for row in after.entrants:
        was = old.get(row.entrant)
        if was is None:
            continue
        pairs: list[tuple[str, str, Verdict | None, Verdict | None]] = [
            ("win", "win the event", was.win, row.win),
            (after.stage_key or "stage", after.stage_name, was.stage, row.stage),
        ]
        for goal, name, a, b in pairs:
            if a is not None and b is not None and a.status != b.status:
                flips.append(
                    Flip(
                        row.entrant,
                        goal,
                        name,
                        a.status.value,
                        b.status.value,
                        a.reason.text,
                        b.reason.text,
                    )
                )
    return tuple(flips)


def _as_set(matches: Sequence[Seats]) -> set[Seats]:
    return set(matches)


def _seats(matches: Sequence[MatchState]) -> tuple[Seats, ...]:
    return tuple(tuple(p.entrant for p in m.participants) for m in matches)


def _plan_seats(plan: RoundPlan) -> tuple[Seats, ...]:
    return tuple(tuple(p.entrant for p in m.participants) for m in plan.matches)


def replan(
    engine: Engine,
    recorded: EventState,
    corrected: EventState,
    after_round: int,
    source: Callable[[EventState], DrawSource],
) -> tuple[PairingDiff, ...]:
    """Each round after ``after_round``: its pairings as played (or drafted) against the
    engine's plan from the corrected record of the rounds before it, and from the record as
    it stands (to tell the correction's effect from a director's override)."""
    diffs: list[PairingDiff] = []
    for rnd in corrected.rounds:
        if rnd.number <= after_round:
            continue
        diff = _replan_one(engine, corrected, rnd, source)
        if diff.planned is not None:
            before = _replan_one(engine, recorded, rnd, source)
            diff = replace(diff, planned_before=before.planned)
        diffs.append(diff)
    return tuple(diffs)


def _replan_one(
    engine: Engine,
    corrected: EventState,
    rnd: RoundState,
    source: Callable[[EventState], DrawSource],
) -> PairingDiff:
    earlier = replace(
        corrected,
        rounds=tuple(r for r in corrected.rounds if r.number < rnd.number),
        absent=tuple(sorted(absence.in_round(rnd))),  # as checked in when it was drafted
    )
    played = _seats(rnd.matches)
    try:
        plan = engine.next_round(earlier, source(earlier))
    except DrawNeeded as needed:
        note = f"the engine needs a draw that is not recorded ({needed.purpose or needed.key})"
        return PairingDiff(rnd.number, rnd.label, played, None, note)
    except (InvalidDraw, EngineError) as error:
        return PairingDiff(rnd.number, rnd.label, played, None, f"the engine refused: {error}")
    if isinstance(plan, Finished):
        note = f"the engine would have ended the event instead: {plan.reason.text}"
        return PairingDiff(rnd.number, rnd.label, played, None, note)
    if isinstance(plan, NeedsDecision):
        note = f"the engine would first need a decision: {plan.text}"
        return PairingDiff(rnd.number, rnd.label, played, None, note)
    assert isinstance(plan, RoundPlan)
    return PairingDiff(rnd.number, rnd.label, played, _plan_seats(plan))
