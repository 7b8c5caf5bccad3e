"""After the Swiss portion: seeding (III.A), the playoff for 8th place, the bracket (III.B)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.contract import (
    DrawSourceProtocol,
    EngineError,
    EventState,
    Finished,
    MatchState,
    NeedsDecision,
    NextRound,
    Participant,
    PlannedMatch,
    Problem,
    Reason,
    RoundPlan,
    RoundState,
    RoundStatus,
)

from .context import Context
from .knockout import (
    LATER_ROUNDS,
    QUALIFIERS,
    QUARTER_FINALS,
    ROUND_LABELS,
    KnockoutOutcome,
    Seeding,
    knockout_outcome,
    lot_key,
    seed,
)
from .plan_swiss import first_seat_details
from .record import KNOCKOUT, PLAYOFF
from .words import COIN_FLIP_PURPOSE, EIGHTH_PLACE_PLAYOFF

EIGHTH_PLACE_KEY = "knockout/eighth-place"


def outcome_of(rnd: RoundState, match: MatchState) -> KnockoutOutcome:
    return knockout_outcome(match, round_over=rnd.status is RoundStatus.COMPLETED)


def settle(ctx: Context, rnd: RoundState) -> dict[str, str | None] | NeedsDecision:
    """Winners of a finished knockout or playoff round by match code."""
    winners: dict[str, str | None] = {}
    problems: list[Problem] = []
    for match in rnd.matches:
        outcome = outcome_of(rnd, match)
        if outcome.for_director:
            players = tuple(p.entrant for p in match.participants if p.entrant)
            a, b = (ctx.names[p] for p in players)
            params = {"match": match.code, "a": a, "b": b}
            if outcome.for_director == "tied":
                return NeedsDecision(
                    "gokodom.tied.decision", key=match.code, options=players, params=params
                )
            return NeedsDecision(
                "gokodom.both_messaged.decision", key=match.code, options=players, params=params
            )
        problems.extend(outcome.problems)
        if not outcome.decided and not outcome.problems:
            problems.append(
                Problem("gokodom.match_pending", match.code, params={"match": match.code})
            )
        winners[match.code] = outcome.winner
    if problems:
        raise EngineError(problems)
    return winners


def playoff_pair(seeding: Seeding) -> tuple[str, ...] | None:
    border = seeding.border_tier()
    return border if border is not None and len(border) == 2 else None


def eighth_place_method(state: EventState, ctx: Context) -> str | None:
    method = str(ctx.settings["eighth_place_tie"])
    if method != "ask":
        return method
    record = state.draw(EIGHTH_PLACE_KEY)
    if record is not None and record.value in ("coin", "playoff"):
        return str(record.value)
    return None


def current_seeding(state: EventState, ctx: Context) -> Seeding:
    """The seeding as far as the record settles it, without drawing or deciding anything."""
    eligible = [e for e in (ctx.initial_order or []) if not ctx.record.removed(e)]
    fixed: list[tuple[str, ...]] = []
    for rnd in ctx.rounds(state, PLAYOFF)[:1]:
        for match in rnd.matches:
            outcome = outcome_of(rnd, match)
            pair = [p.entrant for p in match.participants if p.entrant]
            if outcome.decided and outcome.winner is None:
                eligible = [e for e in eligible if e not in pair]
            elif outcome.decided and outcome.winner is not None:
                fixed.append((outcome.winner, *(p for p in pair if p != outcome.winner)))

    def recorded_lot(tier: Sequence[str]) -> list[str] | None:
        record = state.draw(lot_key(tier))
        return [str(v) for v in record.value] if record is not None else None

    return seed(ctx.record, eligible, recorded_lot, fixed=fixed)


def qualifiers(
    state: EventState, ctx: Context, draws: DrawSourceProtocol | None
) -> tuple[list[str], Seeding] | NextRound:
    """III.A: the seeded top eight, or the round/decision that must come first."""
    eligible = [e for e in (ctx.initial_order or []) if not ctx.record.removed(e)]
    playoffs = ctx.rounds(state, PLAYOFF)
    fixed: list[tuple[str, ...]] = []
    if playoffs:
        settled = settle(ctx, playoffs[0])
        if isinstance(settled, NeedsDecision):
            return settled
        match = playoffs[0].matches[0]
        pair = [p.entrant for p in match.participants if p.entrant]
        winner = settled[match.code]
        if winner is None:  # both lost by default: both removed (II.B.6)
            eligible = [e for e in eligible if e not in pair]
        else:
            fixed.append((winner, *(p for p in pair if p != winner)))

    def recorded_lot(tier: Sequence[str]) -> list[str] | None:
        record = state.draw(lot_key(tier))
        return [str(v) for v in record.value] if record is not None else None

    preview = seed(ctx.record, eligible, recorded_lot, fixed=fixed)
    border = playoff_pair(preview)
    if border is not None and not playoffs and recorded_lot(border) is None:
        method = eighth_place_method(state, ctx)
        if method is None:
            a, b = (ctx.names[e] for e in border)
            return NeedsDecision(
                code="gokodom.eighth_place",
                key=EIGHTH_PLACE_KEY,
                options=("coin", "playoff"),
                params={"players": list(border), "a": a, "b": b},
            )
        if method == "playoff":
            return _playoff_plan(state, ctx, draws, border)

    def lot(tier: Sequence[str]) -> list[str] | None:
        if draws is None:
            return recorded_lot(tier)
        return draws.shuffle(lot_key(tier), list(tier), purpose=COIN_FLIP_PURPOSE)

    seeding = seed(ctx.record, eligible, lot, fixed=fixed)
    return list(seeding.order[:QUALIFIERS]), seeding


def _playoff_plan(
    state: EventState, ctx: Context, draws: DrawSourceProtocol | None, pair: Sequence[str]
) -> RoundPlan:
    assert draws is not None
    number = len([r for r in state.rounds if r.status is not RoundStatus.DRAFT]) + 1
    a, b = (ctx.names[e] for e in pair)
    match = PlannedMatch(
        code="P8",
        participants=tuple(Participant(e, ctx.colours[e]) for e in pair),
        reasons=(Reason("gokodom.playoff", rule="GokoDom III.A", params={"a": a, "b": b}),),
        details=first_seat_details(ctx, draws, number, "P8"),
    )
    return RoundPlan(
        number=number,
        label=EIGHTH_PLACE_PLAYOFF,
        matches=(match,),
        stage=PLAYOFF,
        details={"stage": PLAYOFF},
    )


def next_knockout_round(state: EventState, ctx: Context, draws: DrawSourceProtocol) -> NextRound:
    rounds = ctx.rounds(state, KNOCKOUT)
    number = len([r for r in state.rounds if r.status is not RoundStatus.DRAFT]) + 1
    if not rounds:
        found = qualifiers(state, ctx, draws)
        if not isinstance(found, tuple):
            return found
        seeds, seeding = found
        slots = [(code, _seed(seeds, a), _seed(seeds, b)) for code, a, b in QUARTER_FINALS]
        reasons = [Reason("gokodom.seeding", rule="GokoDom III.A")]
        for tier in seeding.lots:
            reasons.append(
                Reason(
                    "gokodom.coin_flip",
                    rule="GokoDom III.A.7",
                    params={"order": list(tier), "names": ", ".join(ctx.names[e] for e in tier)},
                )
            )
        return _bracket_plan(ctx, draws, number, 0, slots, reasons, {"seeds": seeds})
    winners: dict[str, str | None] = {}
    for rnd in rounds:
        settled = settle(ctx, rnd)
        if isinstance(settled, NeedsDecision):
            return settled
        winners.update(settled)
    if len(rounds) >= len(ROUND_LABELS):
        champion = winners.get("F")
        if champion is None:
            return Finished(Reason("gokodom.no_champion", rule="IV"))
        return Finished(
            Reason(
                "gokodom.champion",
                rule="GokoDom III.B",
                params={"champion": champion, "name": ctx.names[champion]},
            )
        )
    _, later = LATER_ROUNDS[len(rounds) - 1]
    slots = [(code, winners.get(a), winners.get(b)) for code, a, b in later]
    return _bracket_plan(ctx, draws, number, len(rounds), slots, [], {})


def _seed(seeds: Sequence[str], number: int) -> str | None:
    return seeds[number - 1] if number <= len(seeds) else None


def _bracket_plan(
    ctx: Context,
    draws: DrawSourceProtocol,
    number: int,
    index: int,
    slots: Sequence[tuple[str, str | None, str | None]],
    reasons: list[Reason],
    details: dict[str, Any],
) -> RoundPlan:
    matches: list[PlannedMatch] = []
    for code, a, b in slots:
        present = tuple(e for e in (a, b) if e is not None)
        if not present:
            continue
        why = (
            Reason("gokodom.bracket", rule="GokoDom III.B", params={"match": code})
            if len(present) == 2
            else Reason(
                "gokodom.walkover",
                rule="GokoDom III.B",
                params={"entrant": present[0], "name": ctx.names[present[0]], "match": code},
            )
        )
        matches.append(
            PlannedMatch(
                code=code,
                participants=tuple(Participant(e, ctx.colours[e]) for e in present),
                bracket="main",
                reasons=(why,),
                details=first_seat_details(ctx, draws, number, code) if len(present) == 2 else {},
            )
        )
    return RoundPlan(
        number=number,
        label=ROUND_LABELS[index],
        matches=tuple(matches),
        stage=KNOCKOUT,
        reasons=tuple(reasons),
        details={"stage": KNOCKOUT, "bracket_round": index + 1, **details},
    )
