"""The elimination rounds: seeding the top eight (III.A) and the three-round bracket
(III.B), with matches under IV.A and the director's answer to what the rules leave open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules import absence
from rules.contract import MatchState, Number, Problem
from rules.tiebreaks import Ranking, Step, rank
from rules.words import gettext_noop as _

from .record import SwissRecord
from .results import GameTally, Result, messages_of, tally_games

# III.B: seeds 1-8, 4-5, 2-7, 3-6 so that seeds 1 and 2 can only meet in the final.
QUARTER_FINALS: tuple[tuple[str, int, int], ...] = (
    ("QF1", 1, 8),
    ("QF2", 4, 5),
    ("QF3", 2, 7),
    ("QF4", 3, 6),
)
# Each later match: its code and the two matches whose winners meet in it.
LATER_ROUNDS: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    (_("Semi-finals"), (("SF1", "QF1", "QF2"), ("SF2", "QF3", "QF4"))),
    (_("Final"), (("F", "SF1", "SF2"),)),
)
ROUND_LABELS = (_("Quarter-finals"), _("Semi-finals"), _("Final"))
QUALIFIERS = 8


def seeding_steps(record: SwissRecord) -> list[Step]:
    """III.A.1-6, in order; the coin flip (7) is a recorded draw applied after."""

    def head_to_head(tied: Sequence[str]) -> dict[str, Number]:
        # III.A.6 speaks of two players who met; among three or more it applies only when
        # every pair of them met, as match points scored against the others.
        everyone_met = all(record.met(a, b) for a in tied for b in tied if a != b)
        return {
            e: sum(record.head_to_head(e, o) for o in tied if o != e) if everyone_met else 0
            for e in tied
        }

    return [
        Step("match_points", _("Match points"), lambda t: {e: record.match_points(e) for e in t}),
        Step(
            "defaults",
            _("Defaults"),
            lambda t: {e: -record.defaults(e) for e in t},
            show=lambda v: str(-v),
        ),
        Step("solkoff", _("Solkoff"), lambda t: {e: record.solkoff(e) for e in t}),
        Step("cumulative", _("Cumulative"), lambda t: {e: record.cumulative(e) for e in t}),
        Step(
            "cumulative_opponents",
            _("Cumulative opponents' scores"),
            lambda t: {e: record.cumulative_opponents(e) for e in t},
        ),
        Step("head_to_head", _("Result between them"), head_to_head),
    ]


def lot_key(tier: Sequence[str]) -> str:
    return "knockout/seeding-lot/" + ",".join(sorted(tier))


@dataclass(frozen=True)
class Seeding:
    ranking: Ranking  # before any coin flip
    order: tuple[str, ...]  # after the recorded coin flips
    undrawn: tuple[tuple[str, ...], ...]  # tiers whose coin flip is not recorded yet
    lots: tuple[tuple[str, ...], ...]  # tiers ordered by a coin flip

    def border_tier(self) -> tuple[str, ...] | None:
        """III.A: the tie, if any, that a coin flip would settle across ranks 8 and 9."""
        place = 0
        for tier in self.ranking.tiers:
            if place < QUALIFIERS < place + len(tier):
                return tier
            place += len(tier)
        return None


def seed(
    record: SwissRecord,
    eligible: Sequence[str],
    lot: Callable[[Sequence[str]], list[str] | None],
    *,
    fixed: Sequence[tuple[str, ...]] = (),
) -> Seeding:
    """Rank ``eligible`` by III.A; ``lot`` orders a tie (a coin flip) or returns None when
    it is not drawn yet; ``fixed`` holds tiers already ordered (by a playoff match)."""
    ranking = rank(eligible, seeding_steps(record))
    order: list[str] = []
    undrawn: list[tuple[str, ...]] = []
    lots: list[tuple[str, ...]] = []
    for tier in ranking.tiers:
        if len(tier) == 1:
            order.extend(tier)
            continue
        settled = next((f for f in fixed if set(f) == set(tier)), None)
        if settled is not None:
            order.extend(settled)
            continue
        drawn = lot(sorted(tier))
        if drawn is None:
            undrawn.append(tier)
            order.extend(tier)
        else:
            lots.append(tuple(drawn))
            order.extend(drawn)
    return Seeding(ranking, tuple(order), tuple(undrawn), tuple(lots))


@dataclass(frozen=True)
class KnockoutOutcome:
    """Who goes through from one elimination match (or the 8th-place playoff)."""

    decided: bool
    winner: str | None = None  # None with decided: both lost by default
    results: dict[str, Result] | None = None
    tally: GameTally | None = None
    problems: tuple[Problem, ...] = ()
    for_director: str = ""  # "tied" or "both_messaged": the rules leave it open


def knockout_outcome(match: MatchState, *, round_over: bool) -> KnockoutOutcome:
    players = [p.entrant for p in match.participants if p.entrant is not None]
    if len(players) == 1:
        return KnockoutOutcome(True, players[0], {players[0]: Result.WB})
    if not players:
        return KnockoutOutcome(True)
    decision = match.details.get("advances")
    if absence.unplayed(match) and decision is None:
        # gokodom.md, Absence: the absent player loses by default, the other goes through
        present = [p for p in players if p not in absence.in_match(match)]
        if len(present) == 1:
            return KnockoutOutcome(True, present[0], _won(players, present[0], Result.WD))
        return KnockoutOutcome(True, None, {p: Result.LD for p in players})
    if decision is not None and decision not in players:
        problem = Problem("gokodom.advances", "details.advances")
        return KnockoutOutcome(False, problems=(problem,))
    if match.games:
        tally = tally_games(match)
        if tally.problems:
            return KnockoutOutcome(False, tally=tally, problems=tally.problems)
        if not tally.complete:
            if round_over:
                problem = Problem(
                    "gokodom.match_unfinished.knockout",
                    "games",
                    params={"match": match.code, "games": tally.games},
                )
                return KnockoutOutcome(False, tally=tally, problems=(problem,))
            return KnockoutOutcome(False, tally=tally)
        if tally.winner is not None:
            winner = players[tally.winner]
            return KnockoutOutcome(True, winner, _won(players, winner, Result.W), tally)
        if decision is None:
            return KnockoutOutcome(False, tally=tally, for_director="tied")
        return KnockoutOutcome(True, str(decision), _won(players, str(decision), Result.W), tally)
    if not (match.details.get("unplayed") or round_over):
        return KnockoutOutcome(False)
    messaged = messages_of(match)
    sent = [p for p in players if p in messaged]
    if len(sent) == 1:
        return KnockoutOutcome(True, sent[0], _won(players, sent[0], Result.WD))
    if not sent:
        return KnockoutOutcome(True, None, {p: Result.LD for p in players})
    if decision is None:
        return KnockoutOutcome(False, for_director="both_messaged")
    return KnockoutOutcome(True, str(decision), _won(players, str(decision), Result.W))


def _won(players: Sequence[str], winner: str, how: Result) -> dict[str, Result]:
    loss = Result.L if how is Result.W else Result.LD
    return {p: how if p == winner else loss for p in players}
