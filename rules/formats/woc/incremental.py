"""The provisional list kept up to date as results come in (issue 33, item 1).

A result (or a correction) in a qualifying round changes the points, discs and games of its
two players; their points change the Brightwell Quotient of every opponent they met (C x
the opponent's points, Appendix A 2) and their own (32 + C x own points per substitute).
Everything else in the field keeps its figures. :class:`Work` keeps the tally, each BQ and
the ranking (:class:`rules.reranking.Reranker`) and updates only those; the lists of the
final stages are made again from the updated figures, as ``standings`` makes them.

The tally kept here is the standings' one: its floats (``Record.floats``/``last_float``) are
pairing data, read by ``swiss_players`` from a tally of its own, and are not kept up to date.
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from fractions import Fraction
from typing import TYPE_CHECKING

from rules.contract import (
    EngineError,
    EventState,
    MatchState,
    RoundStatus,
    StandingRow,
    Standings,
)
from rules.formats.woc import brightwell, history, system
from rules.reranking import Reranker, find_match

if TYPE_CHECKING:
    from rules.formats.woc.engine import Computed, WocEngine


class Work:
    def __init__(self, engine: WocEngine, state: EventState) -> None:
        from rules.formats.woc.engine import provisional_row

        self.engine = engine
        self.state = state
        settings = engine.resolved(state)
        tally = engine._tally(state, settings)
        self.ids = ids = engine._listed(state, tally)
        try:
            self.field = set(system.plan(state, settings).field)
        except EngineError:  # as _listed: no field then
            self.field = set()
        c = brightwell.as_fraction(settings["c"])
        withdrawn = brightwell.withdrawn_ids(state)
        values = {e: brightwell.brightwell(e, tally, withdrawn, c) for e in ids}
        self.names = names = {e.id: e.name for e in state.entrants}
        steps = brightwell.provisional_steps(tally, values, state.draws)
        self.ranker = Reranker(
            ids, steps, 3, initial=lambda tier: sorted(tier, key=lambda e: names[e])
        )
        self.computed: Computed = (settings, tally, values, self.ranker.ranking, withdrawn, c)
        self.complete = engine._qualifying_complete(state, settings)
        self.bye = (
            brightwell.as_fraction(settings["bye_points"]),
            int(settings["bye_discs"]),
        )
        ranks = self.ranker.ranking.ranks()
        self.rows: dict[str, StandingRow] = {
            e: provisional_row(e, ranks[e], tally, values, withdrawn) for e in ids
        }
        self.fresh: set[str] = set()
        self._remember(state)

    def _remember(self, state: EventState) -> None:
        """The engine's provisional list of ``state`` is this one (``progress`` reads it)."""
        engine = self.engine
        engine._last = (weakref.ref(state, engine._forget), self.computed)

    def update(self, state: EventState, changed: frozenset[tuple[int, str]]) -> bool:
        """Applies the changed matches; False when it cannot (the caller recomputes)."""
        engine = self.engine
        if engine._last is not None and engine._last[1] is self.computed:
            engine._last = None  # the tally changes below: no stale list may outlive it
        settings, tally, values, _, withdrawn, c = self.computed
        rounds = {r.number: r for r in state.rounds}
        old_state = self.state
        changes: list[tuple[int, MatchState, MatchState]] = []
        for number, code in changed:
            old, new = find_match(old_state, number, code), find_match(state, number, code)
            rnd = rounds.get(number)
            if old is None or new is None or rnd is None or old.entrant_ids != new.entrant_ids:
                return False
            if rnd.status is RoundStatus.DRAFT or not history.qualifying(rnd.stage):
                continue  # not in the tally (a final stage is read by the lists below)
            changes.append((number, old, new))
        exact: dict[object, Fraction] = {}
        scored = []
        for number, old, new in changes:
            ids = old.entrant_ids
            before = history._score(old, ids, lambda m: engine.score_match(old_state, m), exact)
            after = history._score(new, ids, lambda m: engine.score_match(state, m), exact)
            if before != after:
                scored.append((number, before, after))
        scale = math.lcm(tally.scale, *(f.denominator for f in exact.values()))
        if scale != tally.scale:
            factor = scale // tally.scale
            for e in tally.units:
                tally.units[e] *= factor
            tally.scale = scale
        units = tally.units
        players: set[str] = set()
        for number, before, after in scored:
            for found, sign in ((before, -1), (after, 1)):
                if found is None:
                    continue
                black, white, black_discs, white_discs, black_points, white_points = found
                if white is None:  # a bye counts whatever its games say: never changes
                    return False
                for seat, me, other, own, theirs, points in (
                    (0, black, white, black_discs, white_discs, black_points),
                    (1, white, black, white_discs, black_discs, white_points),
                ):
                    record = tally.record(me)
                    value = exact[points]
                    units[me] = units.get(me, 0) + sign * value.numerator * (
                        scale // value.denominator
                    )
                    record.discs += sign * own
                    record.opponents[other] += sign
                    if not record.opponents[other]:
                        del record.opponents[other]
                    game = history.Played(number, other, seat, own, theirs, value)
                    if sign < 0:
                        record.games.remove(game)
                    else:
                        if any(g.round == number for g in record.games):
                            return False  # two games in a round: their order is the tally's
                        at = next(
                            (i for i, g in enumerate(record.games) if g.round > number),
                            len(record.games),
                        )
                        record.games.insert(at, game)
                    players.add(me)
        listed = set(self.ranker.place)
        for e in players:
            if (e in self.field or bool(tally.records[e].games)) != (e in listed):
                return False  # an entrant joins or leaves the list: not a few rows
        moved = set()
        for e in players:
            points = Fraction(units[e], scale)
            if points != tally.records[e].points:
                tally.records[e].points = points
                moved.add(e)
        near = set(players)
        for e in moved:
            near.update(g.opponent for g in tally.records[e].games if g.opponent is not None)
        near &= listed
        for e in near:
            values[e] = brightwell.brightwell(e, tally, withdrawn, c)
        ranking = self.ranker.update(near)
        self.fresh |= near
        self.computed = (settings, tally, values, ranking, withdrawn, c)
        self.state = state
        self._remember(state)
        return True

    def result(self, state: EventState) -> Standings:
        from rules.formats.woc.engine import provisional_row

        _, tally, values, ranking, withdrawn, _ = self.computed
        ranks = ranking.ranks()
        rows, fresh, old = [], self.fresh, self.rows
        for entrant in ranking.order:
            row = old[entrant]
            if entrant in fresh:
                row = old[entrant] = provisional_row(
                    entrant, ranks[entrant], tally, values, withdrawn
                )
            elif row.rank != ranks[entrant]:  # only moved: its figures are the same
                row = old[entrant] = dataclasses.replace(row, rank=ranks[entrant])
            rows.append(row)
        self.fresh = set()
        return self.engine._standings(state, self.computed, tuple(rows), self.complete)
