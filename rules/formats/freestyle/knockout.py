"""Semi-finals, the final and the third place game, and the final ranking."""

from __future__ import annotations

from dataclasses import dataclass

from rules.contract import (
    Column,
    DrawSourceProtocol,
    NeedsDecision,
    Participant,
    PlannedMatch,
    Reason,
    RoundPlan,
    StandingRow,
    StandingsTable,
)
from rules.formats.freestyle import ranking
from rules.formats.freestyle.groups import previous_places, seeding_reasons
from rules.formats.freestyle.results import Context
from rules.formats.freestyle.tables import FINALS, ROUND_LABELS, SEMI_FINALS
from rules.formats.freestyle.words import (
    FINAL_CALL_PURPOSE,
    RANDOM_CALL_CALLED,
    THIRD_PLACE_CALL_PURPOSE,
)
from rules.tiebreaks import Step
from rules.words import gettext_noop as _
from rules.words import message

RULE_SEMI = "Semi-finals - 2 Pairings of 2 Players"
RULE_FINAL = "Finals - 2 Players, 1 Game"
RULE_WITHDRAWALS = "Player withdrawals from the tournament"


def plan_semi_finals(ctx: Context, mode: str) -> RoundPlan | NeedsDecision:
    places = previous_places(ctx, 3, mode)
    if isinstance(places, NeedsDecision):
        return places
    # "Each semi-final has a #1 from one group and the #2 from the other group. The #1's
    # have the higher seed in the semi-finals."
    pairs = (
        ("SF1", places.get("11"), places.get("22")),
        ("SF2", places.get("21"), places.get("12")),
    )
    matches = []
    for code, high, low in pairs:
        why = Reason(
            "freestyle.semi_final",
            rule=RULE_SEMI,
            params={"match": code, "high": ctx.who(high), "low": ctx.who(low)},
        )
        match = knockout_match(ctx, code, high, low, why)
        if match is not None:
            matches.append(match)
    return RoundPlan(
        number=SEMI_FINALS,
        label=ROUND_LABELS[SEMI_FINALS],
        matches=tuple(matches),
        stage="knockout",
    )


def knockout_match(
    ctx: Context, code: str, high: str | None, low: str | None, why: Reason
) -> PlannedMatch | None:
    present = [e for e in (high, low) if e is not None]
    if not present:
        return None
    if len(present) == 1:
        return PlannedMatch(
            code=code,
            participants=(Participant(present[0]),),
            reasons=(
                why,
                Reason(
                    "freestyle.no_opponent",
                    rule=RULE_WITHDRAWALS,
                    params={"entrant": present[0], "name": ctx.name(present[0])},
                ),
            ),
        )
    return PlannedMatch(
        code=code,
        participants=(
            Participant(high, "", {"seed": 1}),
            Participant(low, "", {"seed": 2}),
        ),
        reasons=(why,),
    )


@dataclass(frozen=True)
class Outcome:
    winner: str | None
    loser: str | None  # None when nobody lost on the board (a bye, a withdrawal)


def outcome(ctx: Context, number: int, code: str) -> Outcome | None:
    """Who won and who lost a knockout match; None when it is not decided."""
    match = next((m for m in ctx.matches(number) if m.code == code), None)
    if match is None:
        return Outcome(None, None)
    score = ctx.score(match)
    if not score.valid or not score.complete or score.winner is None:
        return None if score.details.get("void") is None else Outcome(None, None)
    winner = match.participants[score.winner].entrant
    loser = None
    if len(match.participants) == 2 and not score.details.get("walkover"):
        loser = match.participants[1 - score.winner].entrant
    return Outcome(winner, loser)


def plan_finals(ctx: Context, draws: DrawSourceProtocol) -> RoundPlan:
    first = outcome(ctx, SEMI_FINALS, "SF1") or Outcome(None, None)
    second = outcome(ctx, SEMI_FINALS, "SF2") or Outcome(None, None)
    reasons: list[Reason] = []
    finalists = [first.winner, second.winner]
    losers = [first.loser, second.loser]
    for index in (0, 1):
        winner, loser = finalists[index], losers[index]
        if winner is not None and not ctx.in_round(winner, FINALS):
            # "everyone who finished below him in the previous round moves up one place"
            moved = loser if loser is not None and ctx.in_round(loser, FINALS) else None
            reasons.append(
                Reason(
                    "freestyle.moved_up",
                    rule=RULE_WITHDRAWALS,
                    params={"name": ctx.name(winner), "moved": ctx.who(moved)},
                )
            )
            finalists[index], losers[index] = moved, None
        elif loser is not None and not ctx.in_round(loser, FINALS):
            losers[index] = None
    matches = []
    for code, pair, third in (("F", finalists, False), ("3P", losers, True)):
        present = [e for e in pair if e is not None]
        high: str | None = None
        low: str | None = None
        if len(present) == 2:
            key = f"finals/{code}/seeding/digit"
            steps = final_steps(ctx, draws, present[0], key, third)
            seeded = ranking.seed_pair(present, steps)
            where = (
                message("freestyle.where.third_place")
                if third
                else message("freestyle.where.final")
            )
            reasons.extend(seeding_reasons(ctx, seeded.decided, where, RULE_FINAL))
            high, low = seeded.order[0], seeded.order[1]
        else:
            high = present[0] if present else None
        why = (
            Reason("freestyle.third_place", rule=RULE_FINAL)
            if third
            else Reason("freestyle.final", rule=RULE_FINAL)
        )
        match = knockout_match(ctx, code, high, low, why)
        if match is not None:
            matches.append(match)
    return RoundPlan(
        number=FINALS,
        label=ROUND_LABELS[FINALS],
        matches=tuple(matches),
        stage="knockout",
        reasons=tuple(reasons),
    )


def final_steps(
    ctx: Context, draws: DrawSourceProtocol, caller: str, key: str, third: bool
) -> list[Step]:
    """ "The #1 seed is given to the player who: 1. Won by more in the Semi-finals 2. Had the
    higher ranking in Round 3, then Round 2, then Round 1. 3. Won the most recent
    head-to-head game 4. ... win-loss record in Round 3 5. ... points margin in Round 3
    6. ... Win-Loss record in Round 2, better points difference in Round 2, and then
    Round 1." Then a random call, as in Round 3. For the third place game step 1 reads
    "lost by less" (question 20)."""
    steps = [ranking.margin_step(ctx, SEMI_FINALS)]
    for number in (3, 2, 1):
        steps.append(ranking.place_step(ctx, number, ctx.rounds[number].groups))
    steps.append(ranking.latest_head_to_head_step(ctx, (1, 2, 3, SEMI_FINALS)))
    for number in (3, 2, 1):
        steps += [ranking.win_loss_step(ctx, number), ranking.points_step(ctx, number)]
    steps.append(
        ranking.random_call_step(
            lambda: draws.integer(
                key,
                0,
                9,
                purpose=(THIRD_PLACE_CALL_PURPOSE if third else FINAL_CALL_PURPOSE).format(
                    name=ctx.name(caller)
                ),
            ),
            caller,
            "random_call",
            RANDOM_CALL_CALLED.format(key=key, name=ctx.name(caller)),
        )
    )
    return steps


def final_table(ctx: Context) -> StandingsTable | None:
    """1st and 2nd from the final, 3rd and 4th from the third place game."""
    final = outcome(ctx, FINALS, "F")
    third = outcome(ctx, FINALS, "3P")
    if final is None or third is None or not ctx.matches(FINALS):
        return None
    rows = []
    placed = [
        (final.winner, "won the final"),
        (final.loser, "lost the final"),
        (third.winner, "won the third place game"),
        (third.loser, "lost the third place game"),
    ]
    place = 0
    for entrant, how in placed:
        if entrant is None:
            continue
        place += 1
        rows.append(StandingRow(entrant, place, {"place": place}, details={"how": how}))
    return StandingsTable(
        key="final",
        title=_("Final ranking"),
        columns=(Column("place", _("Place")),),
        rows=tuple(rows),
        notes=(Reason("freestyle.final_ranking", rule=RULE_FINAL),),
    )
