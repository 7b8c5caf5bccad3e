"""The Swiss table kept up to date as results come in (issue 33, item 1).

During the Swiss portion a result changes its two players' lines (match points, Defaults,
cumulative score) and, through their histories, the Solkoff and opponents' cumulative
score of everyone who met them (II.E.2, III.A.5); a bye's virtual opponent is the player's
own history (II.I.1), so the players' own Solkoff moves too. :class:`Work` keeps the Swiss
record, the order (:class:`rules.reranking.Reranker`) and the rows, and updates only those.

A removed player's virtual history (II.I.2, V.A.1) follows their real one from the round
they left, so their earlier results update the same way. It gives up (the caller
recomputes the whole) where one result reaches further: an LD given or taken back (it
removes the player), a player withdrawn without a recorded last round (that round is their
last result), a match the director must decide, the Swiss portion over (the seeding of
III.A, the bracket) or an elimination round.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rules.contract import (
    EventState,
    RoundStatus,
    StandingRow,
    Standings,
    StandingsTable,
)
from rules.reranking import Reranker, find_match

from .context import build
from .plan_swiss import swiss_steps
from .record import KNOCKOUT, SWISS, Line, stage_of, swiss_outcome
from .results import Result
from .standings import _swiss_row, build_standings


class Work:
    def __init__(self, engine: object, state: EventState, settings: Mapping[str, Any]) -> None:
        self.engine = engine
        self.state = state
        ctx = self.ctx = build(state, settings)
        record = ctx.record
        self.standings = build_standings(state, ctx)
        initial = ctx.initial_order or sorted(e.id for e in state.entrants if e.active)
        self.lot = {e: i for i, e in enumerate(initial)}
        self.initial = initial
        self.rounds = len(ctx.rounds(state, SWISS))
        # withdrawn players whose last round is their last line (SwissRecord.withdrawn_after)
        self.open_ended = {
            e.id
            for e in state.entrants
            if not e.active and e.withdrawn_after_round is None and e.id not in record.ld_round
        }
        # only the Swiss portion under way: the seeding and the bracket read far more
        self.usable = not ctx.rounds(state, KNOCKOUT) and not self._over()
        if not self.usable:
            return
        active = [e for e in initial if not record.removed(e)]
        self.ranker = Reranker(active, swiss_steps(ctx, self.lot), 4)
        table = self.standings.tables[0]
        self.rows = {row.entrant: row for row in table.rows}
        self.fresh: set[str] = set()

    def _over(self) -> bool:
        record = self.ctx.record
        return self.rounds == self.ctx.swiss_rounds and not record.pending

    def update(self, state: EventState, changed: frozenset[tuple[int, str]]) -> bool:
        """Applies the changed matches; False when it cannot (the caller recomputes)."""
        if not self.usable:
            return False
        ctx, record = self.ctx, self.ctx.record
        rounds = {r.number: r for r in state.rounds}
        touched: set[str] = set()
        for number, code in changed:
            old, new = find_match(self.state, number, code), find_match(state, number, code)
            rnd = rounds.get(number)
            if old is None or new is None or rnd is None or old.entrant_ids != new.entrant_ids:
                return False
            if rnd.status is RoundStatus.DRAFT or stage_of(rnd) != SWISS:
                return False
            players = [e for e in new.entrant_ids if e is not None]
            if any(e in self.open_ended or e not in self.lot for e in players):
                return False  # withdrawn after their last result: it moves with the results
            over, last = rnd.status is RoundStatus.COMPLETED, number == ctx.swiss_rounds
            before = swiss_outcome(old, round_over=over, last_round=last)
            after = swiss_outcome(new, round_over=over, last_round=last)
            if before.for_director or after.for_director:
                return False  # the director's question is in the standings, in match order
            if any(r is Result.LD for o in (before, after) for r in (o.results or {}).values()):
                return False  # an LD removes the player (II.B.6)
            record.problems = [(c, p) for c, p in record.problems if c != code]
            record.problems.extend((code, p) for p in after.problems)
            if code in record.pending:
                record.pending.remove(code)
            for entrant in players:
                lines = record.lines.setdefault(entrant, {})
                line = lines.get(number)
                if line is not None and line.match == code:
                    del lines[number]
            if after.results is None:
                record.pending.append(code)
            else:
                for entrant, result in after.results.items():
                    others = [o for o in players if o != entrant]
                    record.lines.setdefault(entrant, {})[number] = Line(
                        number, result, others[0] if others else None, code
                    )
            touched.update(players)
        record.state = self.state = state
        if self._over():
            self.usable = False
            return False  # the last result of the Swiss: the seeding of III.A comes in
        near = set(touched)
        for e in touched:
            near.update(record.opponents(e))
            near.update(line.opponent for line in record.lines.get(e, {}).values() if line.opponent)
        self.ranker.update(near)
        self.fresh |= near
        return True

    def result(self) -> Standings:
        ctx, record = self.ctx, self.ctx.record
        ranking = self.ranker.ranking
        order = ranking.order
        rows: list[StandingRow] = []
        old, fresh = self.rows, self.fresh
        for place, entrant in enumerate(order, start=1):
            row = old[entrant]
            if entrant in fresh:
                row = _swiss_row(ctx, entrant, place, self.lot[entrant], set(), self.rounds)
            elif row.rank != place:
                row = dataclasses.replace(row, rank=place)
            old[entrant] = row
            rows.append(row)
        removed = sorted(
            (e for e in self.initial if record.removed(e)),
            key=lambda e: (-record.match_points(e), -record.solkoff(e), self.lot[e]),
        )
        for index, entrant in enumerate(removed, start=len(order) + 1):
            row = _swiss_row(ctx, entrant, index, self.lot[entrant], set(), self.rounds)
            old[entrant] = row
            rows.append(row)
        self.fresh = set()
        table = self.standings.tables[0]
        swiss: StandingsTable = dataclasses.replace(
            table, rows=tuple(rows), decided=ranking.decided
        )
        self.standings = dataclasses.replace(self.standings, tables=(swiss,))
        return self.standings
