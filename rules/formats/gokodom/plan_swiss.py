"""Drafting a Swiss round: the order of II.E, the pairing of II.F-H, byes of I.E and II.H."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules import absence
from rules.contract import (
    DrawSourceProtocol,
    EventState,
    Participant,
    PlannedMatch,
    Reason,
    RoundPlan,
)
from rules.tiebreaks import Ranking, Step, rank
from rules.words import gettext_noop as _
from rules.words import message
from rules.words_common import ROUND

from .context import Context, bye_requests
from .pairing import pair, window_for_round
from .record import SWISS
from .results import Result
from .words import LAST_SWISS_ROUND


def swiss_steps(ctx: Context, lot: dict[str, int]) -> list[Step]:
    """II.E.1-4: match points, Solkoff, cumulative score, random."""
    record = ctx.record
    return [
        Step("match_points", _("Match points"), lambda t: {e: record.match_points(e) for e in t}),
        Step("solkoff", _("Solkoff"), lambda t: {e: record.solkoff(e) for e in t}),
        Step("cumulative", _("Cumulative"), lambda t: {e: record.cumulative(e) for e in t}),
        Step(
            "random",
            _("Random order"),
            lambda t: {e: -lot.get(e, len(lot)) for e in t},
            show=lambda v: f"#{1 - int(v)}",
        ),
    ]


def swiss_order(ctx: Context, players: Sequence[str], lot: dict[str, int]) -> Ranking:
    return rank(players, swiss_steps(ctx, lot))


def first_seat_details(
    ctx: Context, draws: DrawSourceProtocol, number: int, code: str
) -> dict[str, Any]:
    if ctx.settings["first_seat"] != "drawn":
        return {}
    seat = draws.integer(
        f"round-{number}/{code}/first-seat", 0, 1, purpose=f"first seat of game 1 in {code}"
    )
    return {"first_seat": seat}


def plan_swiss_round(
    state: EventState, ctx: Context, draws: DrawSourceProtocol, number: int
) -> RoundPlan:
    record = ctx.record
    names = ctx.names
    details: dict[str, Any] = {"stage": SWISS}
    if ctx.initial_order is None:
        # II.A: initial seedings are random.
        entrants = sorted(e.id for e in state.entrants if e.active)
        initial = draws.shuffle("initial-order", entrants, purpose="initial random order (II.A)")
        details["initial_order"] = initial
    else:
        initial = ctx.initial_order
    players = [e for e in initial if not record.removed_before(e, number)]
    requested = [
        e for e in players if number in bye_requests(state.entrant(e)) and number < ctx.swiss_rounds
    ]
    # gokodom.md, Absence: an absent player with a Bye by Request gets it (I.E); the others
    # are not paired and get the ``absent_result`` setting's result
    gone = set(state.absent)
    absent = [e for e in players if e in gone and e not in requested]
    playing = [e for e in players if e not in requested and e not in absent]
    if ctx.settings["random_step"] == "each_round" and number > 1:
        shuffled = draws.shuffle(
            f"round-{number}/random-order", sorted(playing), purpose="random order (II.E.4)"
        )
        lot = {e: i for i, e in enumerate(shuffled)}
    else:
        lot = {e: i for i, e in enumerate(initial)}
    ranking = swiss_order(ctx, playing, lot)
    order = ranking.order
    window = window_for_round(number)
    points = {e: record.match_points(e) for e in order}
    pairing = pair(order, points, ctx.colours, record.met, window, names)
    place = {e: i + 1 for i, e in enumerate(order)}
    matches: list[PlannedMatch] = []
    for table, (higher, lower, tier) in enumerate(pairing.pairs, start=1):
        code = f"R{number}-{table}"
        reason = _paired(
            tier,
            {
                "tier": tier,
                "window": window,
                "higher_name": names[higher],
                "higher_place": place[higher],
                "lower_name": names[lower],
                "lower_place": place[lower],
            },
        )
        matches.append(
            PlannedMatch(
                code=code,
                participants=(
                    Participant(higher, ctx.colours[higher]),
                    Participant(lower, ctx.colours[lower]),
                ),
                table=table,
                reasons=(reason,),
                details=first_seat_details(ctx, draws, number, code),
            )
        )
    if pairing.bye is not None:
        matches.append(
            PlannedMatch(
                code=f"R{number}-BYE",
                participants=(Participant(pairing.bye, ctx.colours[pairing.bye]),),
                reasons=(
                    Reason(
                        "gokodom.bye",
                        rule="GokoDom II.H",
                        params={"entrant": pairing.bye, "name": names[pairing.bye]},
                    ),
                ),
                details={"result": str(Result.WB)},
            )
        )
    for index, entrant in enumerate(requested, start=1):
        matches.append(
            PlannedMatch(
                code=f"R{number}-BR{index}",
                participants=(Participant(entrant, ctx.colours[entrant]),),
                reasons=(
                    Reason(
                        "gokodom.requested_bye",
                        rule="GokoDom I.E, II.E.5",
                        params={"entrant": entrant, "name": names[entrant]},
                    ),
                ),
                details={"result": str(Result.BR)},
            )
        )
    result = Result.LD if ctx.settings["absent_result"] == "loss_by_default" else Result.L
    for index, entrant in enumerate(absent, start=1):
        outcome = (
            message("gokodom.absent.loss_by_default")
            if result is Result.LD
            else message("gokodom.absent.loss")
        )
        matches.append(
            PlannedMatch(
                code=f"R{number}-ABS{index}",
                participants=(Participant(entrant, ctx.colours[entrant]),),
                reasons=(absence.reason(names[entrant], outcome, "gokodom.md, Absence", entrant),),
                details={"result": str(result), absence.KEY: [entrant]},
            )
        )
    details.update({"order": order + requested, "window": window, "requested_byes": requested})
    if absent or gone & set(requested):
        details[absence.KEY] = [e for e in players if e in gone]
    reasons = [
        Reason("gokodom.swiss_order", rule="GokoDom II.E"),
        *pairing.reasons,
    ]
    label = (LAST_SWISS_ROUND if number == ctx.swiss_rounds else ROUND).format(n=number)
    return RoundPlan(
        number=number,
        label=label,
        matches=tuple(matches),
        stage=SWISS,
        reasons=tuple(reasons),
        details=details,
    )


def _paired(tier: int, params: dict[str, Any]) -> Reason:
    """II.F-G: why the higher player took the lower one, by the tier of the choice
    (pairing.py: 1 all three conditions, 2 no colour, 3 no window, 4 a rematch). A window
    of 1 has its own sentence ("1 match point")."""
    one = params.get("window") == 1
    if tier == 1:
        if one:
            return Reason("gokodom.paired.opposite_colour.one", rule="GokoDom II.F", params=params)
        return Reason("gokodom.paired.opposite_colour", rule="GokoDom II.F", params=params)
    if tier == 2:
        if one:
            return Reason("gokodom.paired.same_colour.one", rule="GokoDom II.G", params=params)
        return Reason("gokodom.paired.same_colour", rule="GokoDom II.G", params=params)
    if tier == 3:
        if one:
            return Reason("gokodom.paired.outside_window.one", rule="GokoDom II.G", params=params)
        return Reason("gokodom.paired.outside_window", rule="GokoDom II.G", params=params)
    return Reason("gokodom.paired.rematch", rule="GokoDom II.G", params=params)
