"""Stage three: the final round robin, each pair meeting once in a two-game match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.contract import EventState, Number, RoundStatus
from rules.formats.bot_contest import scoring
from rules.formats.bot_contest.seeding import FINAL_STAGE

WINNER_KEY = "final/winner"


@dataclass
class FinalTable:
    finalists: list[str]
    totals: dict[str, Number] = field(default_factory=dict)
    game_points: dict[str, Number] = field(default_factory=dict)
    # (entrant, opponent) -> contest points the entrant scored in their match
    against: dict[tuple[str, str], Number] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    complete: bool = False


def final_round(state: EventState) -> Any:
    for rnd in state.rounds:
        if rnd.stage == FINAL_STAGE:
            return rnd
    return None


def final_table(state: EventState, settings: Mapping[str, Any]) -> FinalTable | None:
    rnd = final_round(state)
    if rnd is None:
        return None
    finalists = [str(e) for e in rnd.details.get("finalists", [])]
    table = FinalTable(finalists)
    for entrant in finalists:
        table.totals[entrant] = 0
        table.game_points[entrant] = 0
        table.played[entrant] = 0
    complete = rnd.status is not RoundStatus.DRAFT
    for match in rnd.matches:
        ids = [p.entrant for p in match.participants]
        score = scoring.score_match(state, match, settings)
        if len(ids) != 2 or not score.valid or not score.complete:
            complete = False
            continue
        contest = score.details["contest_points"]
        points = score.details["game_points"]
        for seat, (me, other) in enumerate(((ids[0], ids[1]), (ids[1], ids[0]))):
            assert me is not None and other is not None
            table.totals[me] = table.totals.get(me, 0) + contest[seat]
            table.game_points[me] = table.game_points.get(me, 0) + points[seat]
            table.against[(me, other)] = contest[seat]
            table.played[me] = table.played.get(me, 0) + 2
    table.complete = complete
    return table


def leaders(table: FinalTable) -> list[str]:
    best = max(table.totals[e] for e in table.finalists)
    return [e for e in table.finalists if table.totals[e] == best]


def round_robin_pairs(finalists: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair once (OPEN-QUESTION 35), the higher seed listed first."""
    return [
        (finalists[i], finalists[j])
        for i in range(len(finalists))
        for j in range(i + 1, len(finalists))
    ]
