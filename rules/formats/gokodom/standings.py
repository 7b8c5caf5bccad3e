"""Standings: the Swiss table (II.E during the Swiss portion, III.A once it is over), the
elimination bracket, and the final ranking once the final is decided."""

from __future__ import annotations

import itertools
from typing import Any

from rules.contract import (
    Column,
    Decided,
    EventState,
    NeedsDecision,
    StandingRow,
    Standings,
    StandingsTable,
)
from rules.words import gettext_noop as _

from .context import Context
from .knockout import QUALIFIERS, ROUND_LABELS, Seeding
from .plan_knockout import EIGHTH_PLACE_KEY, current_seeding, eighth_place_method, outcome_of
from .plan_swiss import swiss_order
from .record import KNOCKOUT, SWISS
from .words import RESULT_IN_ROUND

BRACKET_KEYS = ("quarter_final", "semi_final", "final")
SWISS_COLUMNS = (
    Column("match_points", _("MP"), _("Match points: W, WD, WB 2; D, DD, BR 1; L, LD 0 (II.C).")),
    Column(
        "defaults", _("Def"), _("Draws by Default (II.D); fewest ranks higher after the Swiss.")
    ),
    Column(
        "solkoff", _("Solkoff"), _("Sum of all opponents' match points, virtual ones included.")
    ),
    Column("cumulative", _("Cum"), _("Sum of the player's match points at the end of each round.")),
    Column("cumulative_opponents", _("Opp cum"), _("Sum of the opponents' cumulative scores.")),
    Column("lot", _("Lot"), _("Place in the initial random order (II.A).")),
)


def build_standings(state: EventState, ctx: Context) -> Standings:
    record = ctx.record
    initial = ctx.initial_order or sorted(e.id for e in state.entrants if e.active)
    lot = {e: i for i, e in enumerate(initial)}
    swiss_rounds = ctx.rounds(state, SWISS)
    swiss_over = len(swiss_rounds) == ctx.swiss_rounds and not record.pending
    pending: list[NeedsDecision] = []
    active = [e for e in initial if not record.removed(e)]
    seeds: list[str] = []
    for rnd in ctx.rounds(state, KNOCKOUT)[:1]:
        seeds = [str(s) for s in rnd.details.get("seeds", [])]
    decided: list[Decided] = []
    if swiss_over:
        seeding = current_seeding(state, ctx)
        order, ranks = _seeding_ranks(seeding)
        decided.extend(seeding.ranking.decided)
        for tier in seeding.lots:
            decided.extend(
                Decided(a, b, "draw", _("coin flip")) for a, b in itertools.pairwise(tier)
            )
        border = seeding.border_tier()
        if border is not None and not seeds and eighth_place_method(state, ctx) is None:
            pending.append(
                NeedsDecision(
                    "gokodom.eighth_place.pending",
                    key=EIGHTH_PLACE_KEY,
                    options=("coin", "playoff"),
                )
            )
        qualified = set(seeds or (order[:QUALIFIERS] if not _crosses(seeding) else []))
    else:
        ranking = swiss_order(ctx, active, lot)
        order = ranking.order
        ranks = {e: i + 1 for i, e in enumerate(order)}
        decided.extend(ranking.decided)
        qualified = set()
    removed = sorted(
        (e for e in initial if record.removed(e)),
        key=lambda e: (-record.match_points(e), -record.solkoff(e), lot[e]),
    )
    for e in removed:
        ranks[e] = len(ranks) + 1
    for code in record.for_director:
        pending.append(
            NeedsDecision("gokodom.last_round_handshake.pending", key=code, params={"match": code})
        )
    rows = [
        _swiss_row(ctx, e, ranks[e], lot[e], qualified, len(swiss_rounds)) for e in order + removed
    ]
    round_columns = tuple(
        Column(f"round_{k}", f"R{k}", RESULT_IN_ROUND.format(n=k))
        for k in range(1, len(swiss_rounds) + 1)
    )
    swiss_table = StandingsTable(
        key="swiss",
        title=_("Swiss portion"),
        columns=SWISS_COLUMNS + round_columns,
        rows=tuple(rows),
        decided=tuple(decided),
    )
    tables = [swiss_table]
    final = False
    if seeds:
        bracket, champion = _bracket_table(state, ctx, seeds, pending)
        tables.insert(0, bracket)
        if champion is not None:
            final = True
            tables.insert(0, _final_table(bracket, order + removed, ranks))
    return Standings(tables=tuple(tables), pending=tuple(pending), final=final)


def _crosses(seeding: Seeding) -> bool:
    return any(tier in seeding.undrawn for tier in [seeding.border_tier()] if tier)


def _seeding_ranks(seeding: Seeding) -> tuple[list[str], dict[str, int]]:
    ranks: dict[str, int] = {}
    place = 1
    order = list(seeding.order)
    for tier in seeding.ranking.tiers:
        if tier in seeding.undrawn:
            for e in tier:
                ranks[e] = place
            place += len(tier)
        else:
            for e in tier:
                ranks[e] = place + order[place - 1 : place - 1 + len(tier)].index(e)
            place += len(tier)
    return order, ranks


def _swiss_row(
    ctx: Context, entrant: str, rank: int, lot: int, qualified: set[str], rounds: int
) -> StandingRow:
    record = ctx.record
    values: dict[str, Any] = {
        "match_points": record.match_points(entrant),
        "defaults": record.defaults(entrant),
        "solkoff": record.solkoff(entrant),
        "cumulative": record.cumulative(entrant),
        "cumulative_opponents": record.cumulative_opponents(entrant),
        "lot": lot + 1,
    }
    lines = []
    for k in range(1, rounds + 1):
        line = record.line(entrant, k)
        values[f"round_{k}"] = str(line.result) if line else None
        if line:
            lines.append(
                {
                    "round": k,
                    "result": str(line.result),
                    "opponent": line.opponent,
                    "match": line.match,
                }
            )
    if entrant in record.ld_round:
        status = "removed"
    elif entrant in record.withdrawn_after:
        status = "withdrawn"
    else:
        status = "qualified" if entrant in qualified else ""
    return StandingRow(
        entrant=entrant,
        rank=rank,
        values=values,
        status=status,
        details={"colour": ctx.colours.get(entrant, ""), "rounds": lines},
    )


def _bracket_table(
    state: EventState, ctx: Context, seeds: list[str], pending: list[NeedsDecision]
) -> tuple[StandingsTable, str | None]:
    cells: dict[str, dict[str, Any]] = {e: {"seed": i + 1} for i, e in enumerate(seeds)}
    out_in: dict[str, int] = {}
    champion: str | None = None
    for index, rnd in enumerate(ctx.rounds(state, KNOCKOUT)):
        key = BRACKET_KEYS[index]
        for match in rnd.matches:
            outcome = outcome_of(rnd, match)
            players = [p.entrant for p in match.participants if p.entrant]
            if outcome.for_director:
                pending.append(_open_match(match.code, outcome.for_director, tuple(players)))
            for e in players:
                cells.setdefault(e, {})[key] = _cell(match, e, outcome)
                if outcome.decided and outcome.winner != e:
                    out_in[e] = index + 1
            if key == "final" and outcome.decided:
                champion = outcome.winner
    place_by_exit = {1: 5, 2: 3, 3: 2}
    rows = []
    for e in seeds:
        rank = place_by_exit.get(out_in[e], 5) if e in out_in else 1 if e == champion else 0
        status = "eliminated" if e in out_in else ("champion" if e == champion else "")
        rows.append(StandingRow(e, rank or cells[e]["seed"], values=cells[e], status=status))
    rows.sort(key=lambda r: (r.rank, r.values["seed"]))
    columns = (
        Column("seed", _("Seed")),
        *(Column(k, label) for k, label in zip(BRACKET_KEYS, ROUND_LABELS, strict=True)),
    )
    return StandingsTable("knockout", _("Elimination rounds"), columns, tuple(rows)), champion


def _open_match(code: str, why: str, players: tuple[str, ...]) -> NeedsDecision:
    """IV.A.4: an elimination match the rules leave open (a 3-3 tie, or both sent a PM)."""
    params = {"match": code}
    if why == "tied":
        return NeedsDecision("gokodom.tied.pending", key=code, options=players, params=params)
    return NeedsDecision("gokodom.both_messaged.pending", key=code, options=players, params=params)


def _cell(match: Any, entrant: str, outcome: Any) -> str:
    if len(match.participants) == 1:
        return "bye"
    if not outcome.decided:
        return ""
    won = outcome.winner == entrant
    if outcome.tally is not None:
        mine = outcome.tally.points[match.seat_of(entrant)]
        theirs = outcome.tally.points[1 - match.seat_of(entrant)]
        return f"{'W' if won else 'L'} {_num(mine)}-{_num(theirs)}"
    return str((outcome.results or {}).get(entrant, ""))


def _final_table(
    bracket: StandingsTable, swiss_order: list[str], swiss_ranks: dict[str, int]
) -> StandingsTable:
    rows = list(bracket.rows)
    top = {r.entrant for r in rows}
    place = len(rows) + 1
    for e in swiss_order:
        if e in top:
            continue
        rows.append(
            StandingRow(e, place, values={"seed": None}, details={"swiss_rank": swiss_ranks[e]})
        )
        place += 1
    return StandingsTable("overall", "Final ranking", bracket.columns, tuple(rows), notes=())


def _num(value: Any) -> str:
    return f"{float(value):g}"
