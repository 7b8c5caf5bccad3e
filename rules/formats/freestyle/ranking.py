"""Ranking a Freestyle group, and the seeding comparisons of Round 3 and the finals.

Group ranking ("the steps applied until each player has a unique ranking"):

1. wins (a tie is half a win); 2. wins among the tied; 3. game points difference in the
whole group; 4. game points difference among the tied; then for the previous round, then
the round before that (question 9): 6. head-to-head among the tied in that round (only when
every pair of them met there, question 10), 7. win-loss record, 8. points difference
(per game when the tied played different numbers of games, question 11); 9. a tiebreaker
game, whose result the director records as a draw (question 12). Whenever a step splits
the tied set, each part still tied starts again from the top (question 8).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.contract import GroupState, NeedsDecision, Number
from rules.formats.freestyle.results import Context, RoundRecord, show
from rules.formats.freestyle.tables import ADVANCE
from rules.formats.freestyle.words import (
    LOST_CALL,
    PLACE_IN_ROUND,
    PRIOR_HEAD_TO_HEAD,
    PRIOR_POINTS,
    PRIOR_WINS,
    RANDOM_CALL,
    WON_CALL,
)
from rules.tiebreaks import Ranking, Step, rank
from rules.words import gettext_noop as _

RULE_RANKING = "Ranking and Advancement: Later Rounds"


@dataclass(frozen=True)
class GroupRanking:
    round: int
    group: GroupState
    players: tuple[str, ...]  # the group's entrants whose games count in this round
    ranking: Ranking
    complete: bool

    @property
    def order(self) -> list[str]:
        return self.ranking.order

    def ranks(self) -> dict[str, int]:
        return self.ranking.ranks()


def tiebreaker_key(number: int, group: str, tied: Sequence[str]) -> str:
    return f"round-{number}/group-{group}/tiebreaker/{'+'.join(sorted(tied))}"


def group_ranking(ctx: Context, number: int, group: GroupState) -> GroupRanking:
    cache_key = ("group", number, group.key)
    if cache_key not in ctx.cache:
        players = tuple(e for e in group.entrants if ctx.in_round(e, number))
        seeds = {e: i for i, e in enumerate(group.entrants)}
        ranking = rank(
            players,
            group_steps(ctx, number, group.key),
            restart=True,
            initial=lambda tier: sorted(tier, key=lambda e: seeds[e]),
        )
        ctx.cache[cache_key] = GroupRanking(
            number, group, players, ranking, _complete(ctx, number, group.key)
        )
    result: GroupRanking = ctx.cache[cache_key]
    return result


def _complete(ctx: Context, number: int, group: str) -> bool:
    matches = [m for m in ctx.matches(number) if m.group == group]
    return bool(matches) and all(ctx.score(m).complete and ctx.score(m).valid for m in matches)


def group_steps(ctx: Context, number: int, group: str) -> list[Step]:
    record = ctx.record(number)
    steps = [
        Step("wins", _("Wins"), lambda tied: {e: record.wins(e) for e in tied}),
        Step(
            "head_to_head",
            _("Wins among the tied"),
            lambda tied: {e: record.wins(e, tied) for e in tied},
        ),
        Step(
            "points_difference",
            _("Game points difference"),
            lambda tied: {e: record.difference(e) for e in tied},
        ),
        Step(
            "head_to_head_points",
            _("Game points difference among the tied"),
            lambda tied: {e: record.difference(e, tied) for e in tied},
        ),
    ]
    for prior in range(number - 1, 0, -1):
        steps += [
            prior_head_to_head_step(ctx, prior),
            win_loss_step(ctx, prior),
            points_step(ctx, prior),
        ]
    steps.append(tiebreaker_step(ctx, number, group))
    return steps


def prior_head_to_head_step(ctx: Context, prior: int) -> Step:
    record = ctx.record(prior)

    def values(tied: Sequence[str]) -> Mapping[str, Number]:
        everyone_met = all(record.met(x, y) for x in tied for y in tied if x < y)
        if not everyone_met:
            return {e: 0 for e in tied}
        return {e: record.wins(e, tied) for e in tied}

    return Step(f"round_{prior}_head_to_head", PRIOR_HEAD_TO_HEAD.format(n=prior), values)


def _per_game(
    record: RoundRecord, tied: Sequence[str], total: Callable[[str], Fraction]
) -> dict[str, Number]:
    # Footnote (1): "In case groups are not of equal sizes, normalized win-loss percentages,
    # or per-game points differences are used in lieu of totals."
    played = {e: record.played(e) for e in tied}
    if len(set(played.values())) <= 1:
        return {e: total(e) for e in tied}
    return {e: total(e) / played[e] if played[e] else Fraction(0) for e in tied}


def win_loss_step(ctx: Context, prior: int) -> Step:
    record = ctx.record(prior)
    return Step(
        f"round_{prior}_win_loss",
        PRIOR_WINS.format(n=prior),
        lambda tied: _per_game(record, tied, record.wins),
        show=_show_ratio,
    )


def points_step(ctx: Context, prior: int) -> Step:
    record = ctx.record(prior)
    return Step(
        f"round_{prior}_points",
        PRIOR_POINTS.format(n=prior),
        lambda tied: _per_game(record, tied, record.difference),
        show=_show_ratio,
    )


def _show_ratio(value: Number) -> str:
    if isinstance(value, Fraction) and value.denominator not in (1, 2):
        return f"{float(value):.3f}"
    return show(value)


def tiebreaker_step(ctx: Context, number: int, group: str) -> Step:
    """Step 9: "Finally, if need be, there is a tie-breaker game."

    The director records the result as a draw under :func:`tiebreaker_key`: the winner's id
    (the others stay tied and are ranked again), or a list of all the tied in order.
    """

    def values(tied: Sequence[str]) -> Mapping[str, Number]:
        record = ctx.state.draw(tiebreaker_key(number, group, tied))
        if record is None:
            return {e: 0 for e in tied}
        value: Any = record.value
        if isinstance(value, str) and value in tied:
            return {e: 1 if e == value else 0 for e in tied}
        if isinstance(value, list | tuple) and sorted(map(str, value)) == sorted(tied):
            order = [str(v) for v in value]
            return {e: len(order) - order.index(e) for e in tied}
        return {e: 0 for e in tied}

    return Step("tiebreaker_game", _("Tiebreaker game"), values)


def advancing(ctx: Context, result: GroupRanking) -> list[str | None]:
    """The places that go on to the next round, #1 first; None where nobody is left.

    A player who withdrew between rounds keeps his place in the table but does not go on,
    and "everyone who finished below him in the previous round moves up one place".
    """
    count = ADVANCE[result.round]
    going = [e for e in result.order if ctx.in_round(e, result.round + 1)]
    places: list[str | None] = list(going[:count])
    return places + [None] * (count - len(places))


def pending(ctx: Context, result: GroupRanking, mode: str) -> list[NeedsDecision]:
    """Tiebreaker games still to play in a finished group.

    ``mode`` "all": every tie that survives the steps; "where_needed": only ties that decide
    who advances or in which place (the places that go on to the next round).
    """
    if not result.complete:
        return []
    going = [e for e in result.order if ctx.in_round(e, result.round + 1)]
    count = ADVANCE[result.round]
    found = []
    for tier in result.ranking.tiers:
        if len(tier) < 2:
            continue
        if mode == "where_needed":
            staying = [e for e in tier if e in going]
            if len(staying) < 2 or min(going.index(e) for e in staying) >= count:
                continue
        label = result.group.label or result.group.key
        key = tiebreaker_key(result.round, result.group.key, tier)
        place = result.ranks()[tier[0]]
        found.append(
            NeedsDecision(
                code="freestyle.tiebreaker_game",
                key=key,
                options=tuple(tier),
                params={
                    "round": result.round,
                    "group": result.group.key,
                    "place": place,
                    "names": ctx.names(list(tier)),
                    "label": label,
                },
            )
        )
    return found


# --- seeding comparisons -------------------------------------------------------------------


def place_step(ctx: Context, number: int, groups: Sequence[GroupState]) -> Step:
    places: dict[str, int] = {}
    for group in groups:
        places.update(group_ranking(ctx, number, group).ranks())
    return Step(
        f"round_{number}_place",
        PLACE_IN_ROUND.format(n=number),
        lambda tied: {e: -places.get(e, 99) for e in tied},
        show=lambda v: f"#{-int(v)}",
    )


def margin_step(ctx: Context, semi_final_round: int) -> Step:
    """ "Won by more in the Semi-finals": the points margin of the game that decided it
    (earlier tie games add nothing). For two losers: lost by less (question 20)."""
    record = ctx.record(semi_final_round)
    return Step(
        "semi_final_margin",
        _("Semi-final margin"),
        lambda tied: {e: record.difference(e) for e in tied},
    )


def latest_head_to_head_step(ctx: Context, rounds: Sequence[int]) -> Step:
    """ "Won the most recent head-to-head game (repeated as necessary and available)": the
    latest game between them that was not a tie (question 21)."""

    def values(tied: Sequence[str]) -> Mapping[str, Number]:
        if len(tied) != 2:
            return {e: 0 for e in tied}
        first, second = tied
        games = [g for n in rounds for g in ctx.record(n).between(first, second)]
        for game in sorted(games, key=lambda g: (g.round, g.order), reverse=True):
            if game.points[0] != game.points[1]:
                return {e: game.win(e) for e in tied}
        return {e: 0 for e in tied}

    return Step("latest_head_to_head", _("Most recent head-to-head game won"), values)


def random_call_step(
    draw: Callable[[], int], caller: str, key: str, label: str = RANDOM_CALL
) -> Step:
    """ "the /random function is used, with one of the players calling odd or even. If the
    call matches the result, that player is seeded higher." The caller calls even; 0 is
    even (question 18)."""

    def values(tied: Sequence[str]) -> Mapping[str, Number]:
        digit = draw()
        caller_wins = digit % 2 == 0
        return {e: 1 if (e == caller) == caller_wins else 0 for e in tied}

    return Step(key, label, values, show=lambda v: WON_CALL if v else LOST_CALL)


def seed_pair(pair: Sequence[str], steps: Sequence[Step]) -> Ranking:
    return rank(list(pair), steps)
