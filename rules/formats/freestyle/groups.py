"""Planning the three group rounds: Round 1 by the snake, Rounds 2 and 3 by drawn groupings."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any

from rules import berger
from rules.contract import (
    Decided,
    DrawSourceProtocol,
    EngineError,
    GroupState,
    NeedsDecision,
    Participant,
    PlannedMatch,
    Problem,
    Reason,
    RoundPlan,
)
from rules.formats.freestyle import ranking
from rules.formats.freestyle.results import Context
from rules.formats.freestyle.tables import (
    MIN_ENTRANTS,
    ROUND1_GROUP_NAMES,
    ROUND1_GROUPS,
    ROUND2_GROUPINGS,
    ROUND2_GROUPS,
    ROUND3_GROUPINGS,
    ROUND3_GROUPS,
    ROUND_LABELS,
    round1_a_seed,
    round2_grouping,
    round3_grouping,
    slot,
    snake_group,
)
from rules.formats.freestyle.words import (
    EQUAL_RATING_PURPOSE,
    GROUP,
    GROUPING_PURPOSE,
    GROUPING_PURPOSE_AGAIN,
    GROUPING_RULE_2,
    GROUPING_RULE_3,
    RANDOM_CALL_CALLED,
    ROUND1_GROUP,
    SEEDING_CALL_PURPOSE,
)
from rules.tiebreaks import Step
from rules.words import message

RULE_ROLES = "Choosing Who is A and Who is B"
RULE_ROUND1 = "Round 1 - 4 Groups of 7 Players"
RULE_ROUND2 = "Round 2 - 4 Groups of 4 Players"
RULE_ROUND3 = "Round 3 - 2 Groups of 4 Players"
RULE_RANDOM = "Random processes for Round 2 and Round 3 groups"
MAX_ATTEMPTS = 200


def rating_order(
    ctx: Context, draws: DrawSourceProtocol, maximum: int
) -> tuple[list[str], list[Reason]]:
    """Round 1 entrants "in descending order of points" (question 4).

    When the director gave every entrant a seed, the seeds are that list. Otherwise ratings
    decide, highest first; equal (or missing) ratings are ordered by a recorded lot.
    """
    players = [e for e in ctx.state.entrants if ctx.in_round(e.id, 1)]
    if not MIN_ENTRANTS <= len(players) <= maximum:
        raise EngineError(
            [
                Problem(
                    "freestyle.field_size",
                    "entrants",
                    params={"given": len(players), "minimum": MIN_ENTRANTS, "maximum": maximum},
                )
            ]
        )
    reasons: list[Reason] = []
    if all(e.seed is not None for e in players):
        ordered = sorted(players, key=lambda e: (e.seed or 0, e.id))
        return [e.id for e in ordered], [Reason("freestyle.seed_order")]
    players.sort(key=lambda e: (e.rating is None, -(e.rating or 0), e.id))
    order: list[str] = []
    for rating, same in groupby(players, key=lambda e: e.rating):
        ids = [e.id for e in same]
        if len(ids) > 1:
            label = "none" if rating is None else str(rating)
            ids = draws.shuffle(
                f"round-1/equal-rating/{label}",
                ids,
                purpose=EQUAL_RATING_PURPOSE.format(rating=label),
            )
            reasons.append(
                Reason(
                    "freestyle.equal_rating",
                    rule=RULE_ROUND1,
                    params={
                        "entrants": ids,
                        "names": ctx.names(ids),
                        "rating": message("freestyle.rating.none") if rating is None else label,
                    },
                )
            )
        order.extend(ids)
    return order, reasons


def plan_round1(ctx: Context, draws: DrawSourceProtocol, maximum: int) -> RoundPlan:
    order, reasons = rating_order(ctx, draws, maximum)
    members: list[list[str]] = [[], [], [], []]
    for index, entrant in enumerate(order):
        members[snake_group(index)].append(entrant)
    groups = [
        GroupState(
            key, ROUND1_GROUP.format(key=key, colour=ROUND1_GROUP_NAMES[key]), tuple(members[i])
        )
        for i, key in enumerate(ROUND1_GROUPS)
    ]
    reasons.append(Reason("freestyle.snake", rule=RULE_ROUND1, params={"rating_order": order}))
    return _plan(1, groups, reasons, {"rating_order": order})


def _plan(
    number: int,
    groups: Sequence[GroupState],
    reasons: Sequence[Reason],
    details: dict[str, object],
) -> RoundPlan:
    matches = [m for g in groups for m in group_matches(number, g)]
    return RoundPlan(
        number=number,
        label=ROUND_LABELS[number],
        matches=tuple(matches),
        stage="groups",
        groups=tuple(groups),
        reasons=tuple(reasons),
        details=details,
    )


def group_matches(number: int, group: GroupState) -> list[PlannedMatch]:
    """A single round robin in the group, in the playing order of the Berger tables."""
    entrants = group.entrants
    matches: list[PlannedMatch] = []
    for playing_round in berger.schedule(len(entrants)):
        for pairing in playing_round:
            if pairing.second is None:
                continue
            high, low = sorted((pairing.first, pairing.second))
            if number == 1:
                a = round1_a_seed(high, low)
                b = low if a == high else high
                parity = (
                    message("freestyle.even") if (high + low) % 2 == 0 else message("freestyle.odd")
                )
                participants = (
                    Participant(entrants[a - 1], "A", {"group_seed": a}),
                    Participant(entrants[b - 1], "B", {"group_seed": b}),
                )
                why = Reason(
                    "freestyle.round1_roles",
                    rule=f"{RULE_ROLES}: In Round 1",
                    params={
                        "a": a,
                        "b": b,
                        "high": high,
                        "low": low,
                        "total": high + low,
                        "parity": parity,
                    },
                )
            else:
                participants = (
                    Participant(entrants[high - 1], "", {"group_seed": high}),
                    Participant(entrants[low - 1], "", {"group_seed": low}),
                )
                why = Reason(
                    "freestyle.higher_seed_chooses",
                    rule=f"{RULE_ROLES}: After the first round",
                    params={"high": high},
                )
            order = Reason(
                "freestyle.berger",
                rule="Overview of tournament",
                params={"round": pairing.round},
            )
            matches.append(
                PlannedMatch(
                    code=f"R{number}-{group.key}-{len(matches) + 1}",
                    participants=participants,
                    table=pairing.table,
                    group=group.key,
                    reasons=(order, why),
                    details={"playing_round": pairing.round},
                )
            )
    return matches


def previous_places(ctx: Context, number: int, mode: str) -> dict[str, str | None] | NeedsDecision:
    """{"B1": entrant, ...} for the groups of round ``number``, or a tiebreaker to play."""
    places: dict[str, str | None] = {}
    for group in ctx.rounds[number].groups:
        result = ranking.group_ranking(ctx, number, group)
        waiting = ranking.pending(ctx, result, mode)
        if waiting:
            return waiting[0]
        for index, entrant in enumerate(ranking.advancing(ctx, result)):
            places[f"{group.key}{index + 1}"] = entrant
    return places


def draw_grouping(draws: DrawSourceProtocol, number: int) -> tuple[int, list[int], list[Reason]]:
    """Draw digits until one chooses a grouping; one key per attempt."""
    digits: list[int] = []
    reasons: list[Reason] = []
    for attempt in range(1, MAX_ATTEMPTS + 1):
        key = f"round-{number}/grouping/{attempt}"
        digit = draws.integer(key, 0, 9, purpose=grouping_purpose(number, attempt, digits))
        digits.append(digit)
        chosen = round2_grouping(digit) if number == 2 else round3_grouping(digit)
        if chosen is None:
            reasons.append(
                Reason(
                    "freestyle.digit_again",
                    rule=RULE_RANDOM,
                    params={"key": key, "digit": digit},
                )
            )
            continue
        reasons.append(
            Reason(
                "freestyle.digit",
                rule=RULE_RANDOM,
                params={"key": key, "digit": digit, "grouping": chosen},
            )
        )
        return chosen, digits, reasons
    raise EngineError([Problem("freestyle.draw", "draws", params={"round": number})])


def grouping_purpose(number: int, attempt: int, earlier: Sequence[int]) -> str:
    """What a grouping digit is for, in words a director types an outside draw from."""
    rule = GROUPING_RULE_2 if number == 2 else GROUPING_RULE_3
    if earlier:
        return GROUPING_PURPOSE_AGAIN.format(
            n=number, attempt=attempt, rule=rule, earlier=", ".join(str(d) for d in earlier)
        )
    return GROUPING_PURPOSE.format(n=number, attempt=attempt, rule=rule)


def plan_round2(ctx: Context, draws: DrawSourceProtocol, mode: str) -> RoundPlan | NeedsDecision:
    places = previous_places(ctx, 1, mode)
    if isinstance(places, NeedsDecision):
        return places
    chosen, digits, reasons = draw_grouping(draws, 2)
    groups = []
    for key, codes in zip(ROUND2_GROUPS, ROUND2_GROUPINGS[chosen], strict=True):
        # "a #1, #2, #3, #4 from different Round 1 Groups, seeded in that order"
        ordered = sorted(codes, key=lambda c: slot(c)[1])
        entrants = tuple(e for e in (places.get(c) for c in ordered) if e is not None)
        groups.append(GroupState(key, GROUP.format(key=key), entrants))
    reasons.append(
        Reason(
            "freestyle.grouping.round2",
            rule=RULE_ROUND2,
            params={
                "grouping": chosen,
                "groups": " . ".join("(" + ",".join(g) + ")" for g in ROUND2_GROUPINGS[chosen]),
            },
        )
    )
    return _plan(2, groups, reasons, {"grouping": chosen, "digits": digits})


def plan_round3(ctx: Context, draws: DrawSourceProtocol, mode: str) -> RoundPlan | NeedsDecision:
    places = previous_places(ctx, 2, mode)
    if isinstance(places, NeedsDecision):
        return places
    chosen, digits, reasons = draw_grouping(draws, 3)
    groups = []
    for key, codes in zip(ROUND3_GROUPS, ROUND3_GROUPINGS[chosen], strict=True):
        entrants: list[str] = []
        for place in (1, 2):
            pair = [places.get(c) for c in codes if slot(c)[1] == place]
            present = [e for e in pair if e is not None]
            if len(present) == 2:
                seeded = ranking.seed_pair(present, round3_steps(ctx, draws, key, place, pair))
                entrants += seeded.order
                where = message("freestyle.where.group", group=key)
                reasons.extend(seeding_reasons(ctx, seeded.decided, where))
            else:
                entrants += present
        groups.append(GroupState(key, GROUP.format(key=key), tuple(entrants)))
    reasons.append(
        Reason(
            "freestyle.grouping.round3",
            rule=RULE_ROUND3,
            params={
                "grouping": chosen,
                "groups": " & ".join("(" + ", ".join(g) + ")" for g in ROUND3_GROUPINGS[chosen]),
            },
        )
    )
    return _plan(3, groups, reasons, {"grouping": chosen, "digits": digits})


def round3_steps(
    ctx: Context,
    draws: DrawSourceProtocol,
    group: str,
    place: int,
    printed: Sequence[str | None],
) -> list[Step]:
    """ "Within a group, the seeding of the #1's vis-a-vis each other (and similarly for
    the #2's)": Round 2 record, Round 2 points, Round 1 head-to-head, Round 1 record,
    Round 1 points, then a random call by the player printed first (question 18)."""
    key = f"round-3/group-{group}/seeding-{place}/digit"
    caller = str(printed[0])
    return [
        ranking.win_loss_step(ctx, 2),
        ranking.points_step(ctx, 2),
        ranking.prior_head_to_head_step(ctx, 1),
        ranking.win_loss_step(ctx, 1),
        ranking.points_step(ctx, 1),
        ranking.random_call_step(
            lambda: draws.integer(
                key,
                0,
                9,
                purpose=SEEDING_CALL_PURPOSE.format(
                    group=group, place=place, name=ctx.name(caller)
                ),
            ),
            caller,
            "random_call",
            RANDOM_CALL_CALLED.format(key=key, name=ctx.name(caller)),
        ),
    ]


def seeding_reasons(
    ctx: Context, decided: Sequence[Decided], where: dict[str, Any], rule: str = RULE_ROUND3
) -> list[Reason]:
    """Why one of a pair is seeded above the other; ``where`` is a freestyle.where.*
    message (a Round 3 group, the final, the third place game)."""
    return [
        Reason(
            "freestyle.seeded",
            rule=rule,
            params={
                "ahead": item.ahead,
                "behind": item.behind,
                "step": item.step,
                "where": where,
                "ahead_name": ctx.name(item.ahead),
                "behind_name": ctx.name(item.behind),
                "detail": item.detail,
            },
        )
        for item in decided
    ]
