"""Standings: the gauntlet table, the brackets, the final crosstable and the final ranking."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.contract import (
    Column,
    EventState,
    NeedsDecision,
    Reason,
    StandingRow,
    Standings,
    StandingsTable,
)
from rules.formats.bot_contest import brackets as bk
from rules.formats.bot_contest import final as fin
from rules.formats.bot_contest.scoring import plain
from rules.formats.bot_contest.seeding import (
    competitors,
    gauntlet_rows,
    recorded_seeds,
    seed_order,
)
from rules.tiebreaks import Step, rank
from rules.words import gettext_noop as _


def first_place(state: EventState, table: fin.FinalTable) -> str | NeedsDecision:
    """The winner, or the question for the director when totals tie (OPEN-QUESTION 36)."""
    tied = fin.leaders(table)
    if len(tied) == 1:
        return tied[0]
    record = state.draw(fin.WINNER_KEY)
    if record is not None and str(record.value) in tied:
        return str(record.value)
    names = ", ".join(state.entrant(e).name for e in tied)
    return NeedsDecision(
        "bot_contest.final_tie",
        key=fin.WINNER_KEY,
        options=tuple(tied),
        params={"total": plain(table.totals[tied[0]]), "names": names},
    )


def _gauntlet_table(
    state: EventState, settings: Mapping[str, Any], seeds: list[str] | None
) -> StandingsTable:
    rows = gauntlet_rows(state, settings)
    notes: list[Reason] = []
    if seeds is not None:
        order = list(seeds)
        ranks = {e: i + 1 for i, e in enumerate(order)}
        decided: tuple[Any, ...] = ()
    else:
        seeding = seed_order(state, settings, competitors(state, 1), None)
        order, decided = seeding.order, seeding.decided
        ranks = {e: i + 1 for i, e in enumerate(order)}
        for group in seeding.unresolved:
            place = order.index(group[0]) + 1
            for entrant in group:
                ranks[entrant] = place
            notes.append(
                Reason(
                    "bot_contest.seeding_draw_pending",
                    rule="OPEN-QUESTION 25",
                    params={"entrants": group, "count": len(group)},
                )
            )
    unseeded = [e for e in rows if e not in order]
    table_rows = []
    for entrant in order + unseeded:
        row = rows.get(entrant)
        table_rows.append(
            StandingRow(
                entrant=entrant,
                rank=ranks.get(entrant, len(order) + 1),
                values={
                    "total": plain(row.total) if row else 0,
                    "game_points": plain(row.game_points) if row else 0,
                    "games": row.games if row else 0,
                },
                status="withdrawn" if entrant in unseeded else "",
                details={
                    "wins": row.wins if row else 0,
                    "ties": row.ties if row else 0,
                    "losses": row.losses if row else 0,
                    "by_reference": {k: plain(v) for k, v in row.by_reference.items()}
                    if row
                    else {},
                },
            )
        )
    return StandingsTable(
        key="gauntlet",
        title=_("Stage one: seeding gauntlet"),
        columns=(
            Column("total", _("Total"), _("Bonuses for wins and ties plus the points scored.")),
            Column("game_points", _("Game points"), _("Points scored; breaks equal totals.")),
            Column("games", _("Games")),
        ),
        rows=tuple(table_rows),
        decided=decided,
        notes=tuple(notes),
    )


def _out_order(state_of: bk.BracketState, finalists: list[str]) -> list[list[str]]:
    """Everyone not in the final, in groups: latest out first, then by seed."""
    out = [
        e
        for e in state_of.seeds
        if e not in finalists and state_of.where[e] in (bk.ELIMINATED, bk.WITHDRAWN)
    ]
    rounds = sorted({state_of.out_round.get(e, 0) for e in out}, reverse=True)
    return [[e for e in out if state_of.out_round.get(e, 0) == r] for r in rounds]


def _brackets_table(state_of: bk.BracketState, finalists: list[str]) -> StandingsTable:
    order = [
        *state_of.members(bk.WINNERS),
        *state_of.members(bk.LOSERS),
        *[e for group in _out_order(state_of, finalists) for e in group],
    ]
    rows = []
    for place, entrant in enumerate(order, start=1):
        where = state_of.where[entrant]
        rows.append(
            StandingRow(
                entrant=entrant,
                rank=place,
                values={
                    "seed": state_of.seed(entrant),
                    "bracket": where,
                    "byes": state_of.byes.get(entrant, 0),
                    "losses": state_of.losses.get(entrant, 0),
                },
                status="qualified" if entrant in finalists else where,
                details={"out_round": state_of.out_round.get(entrant)},
            )
        )
    return StandingsTable(
        key="brackets",
        title=_("Stage two: winners' and losers' brackets"),
        columns=(
            Column("seed", _("Seed")),
            Column("bracket", _("Bracket"), _("winners, losers, eliminated or withdrawn")),
            Column("byes", _("Byes")),
            Column("losses", _("Match losses")),
        ),
        rows=tuple(rows),
    )


def _final_ranking(
    state: EventState, table: fin.FinalTable, chosen: str | None
) -> tuple[list[list[str]], tuple[Any, ...]]:
    steps = [
        Step("total", _("Final total"), lambda t: {e: table.totals[e] for e in t}),
        Step("director", _("Director's decision"), lambda t: {e: int(e == chosen) for e in t}),
        Step("game_points", _("Game points"), lambda t: {e: table.game_points[e] for e in t}),
    ]
    ranking = rank(table.finalists, steps)
    return [list(t) for t in ranking.tiers], ranking.decided


def _final_table(
    state: EventState, table: fin.FinalTable, tiers: list[list[str]], decided: tuple[Any, ...]
) -> StandingsTable:
    rows = []
    place = 1
    for tier in tiers:
        for entrant in tier:
            values: dict[str, Any] = {
                "total": plain(table.totals[entrant]),
                "game_points": plain(table.game_points[entrant]),
            }
            for other in table.finalists:
                got = table.against.get((entrant, other))
                values[f"vs:{other}"] = None if got is None else plain(got)
            rows.append(
                StandingRow(
                    entrant=entrant,
                    rank=place,
                    values=values,
                    details={"games": table.played[entrant]},
                )
            )
        place += len(tier)
    columns = [
        Column("total", _("Total"), _("Bonuses for wins and ties plus the points scored.")),
        Column("game_points", _("Game points")),
    ]
    columns.extend(
        Column(f"vs:{e}", state.entrant(e).name, _("Points scored against this finalist"))
        for e in table.finalists
    )
    return StandingsTable(
        key="final",
        title=_("Stage three: final round robin"),
        columns=tuple(columns),
        rows=tuple(rows),
        decided=decided,
    )


def build(state: EventState, settings: Mapping[str, Any]) -> Standings:
    seeds = recorded_seeds(state)
    tables = [_gauntlet_table(state, settings, seeds)]
    pending: list[NeedsDecision] = []
    if seeds is None:
        return Standings(tables=tuple(tables))
    table = fin.final_table(state, settings)
    finalists = table.finalists if table is not None else []
    upto = next((r.number for r in state.rounds if r.stage == "final"), None)
    state_of = bk.replay(state, seeds, settings, upto)
    tables.append(_brackets_table(state_of, finalists))
    if table is None:
        return Standings(tables=tuple(tables))
    chosen: str | None = None
    finished = False
    if table.complete:
        answer = first_place(state, table)
        if isinstance(answer, NeedsDecision):
            pending.append(answer)
        else:
            chosen, finished = answer, True
    tiers, decided = _final_ranking(state, table, chosen)
    tables.append(_final_table(state, table, tiers, decided))
    if finished:
        tables.insert(0, _overall(state_of, tiers, finalists, decided))
    return Standings(tables=tuple(tables), pending=tuple(pending), final=finished)


def _overall(
    state_of: bk.BracketState,
    tiers: list[list[str]],
    finalists: list[str],
    decided: tuple[Any, ...],
) -> StandingsTable:
    rows = []
    place = 1
    for group in [*tiers, *_out_order(state_of, finalists)]:
        for entrant in group:
            rows.append(
                StandingRow(
                    entrant=entrant,
                    rank=place,
                    values={"seed": state_of.seed(entrant)},
                    status="qualified" if entrant in finalists else state_of.where[entrant],
                    details={"out_round": state_of.out_round.get(entrant)},
                )
            )
        place += len(group)
    return StandingsTable(
        key="overall",
        title=_("Final ranking"),
        columns=(Column("seed", _("Seed")),),
        rows=tuple(rows),
        decided=decided,
        notes=(Reason("bot_contest.ranking", rule="Stage three"),),
    )
