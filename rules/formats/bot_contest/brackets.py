"""Stage two: the winners' and losers' brackets, byes, fold pairings that avoid repeats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import rustworkx

from rules.contract import EventState, Reason, RoundStatus
from rules.formats.bot_contest import scoring
from rules.formats.bot_contest.seeding import BRACKET_STAGE

WINNERS = scoring.WINNERS
LOSERS = scoring.LOSERS
ELIMINATED = "eliminated"
WITHDRAWN = "withdrawn"


@dataclass
class BracketState:
    seeds: list[str]
    where: dict[str, str]  # winners / losers / eliminated / withdrawn
    byes: dict[str, int] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)
    met: set[frozenset[str]] = field(default_factory=set)
    out_round: dict[str, int] = field(default_factory=dict)  # round of elimination/withdrawal
    rounds: int = 0  # stage-two rounds played

    def members(self, bracket: str) -> list[str]:
        """The bracket's entries in seed order (the original seeds, always)."""
        return [e for e in self.seeds if self.where[e] == bracket]

    def seed(self, entrant: str) -> int:
        return self.seeds.index(entrant) + 1


def _withdraw(state: EventState, brackets: BracketState, round_number: int) -> None:
    for entrant in brackets.seeds:
        if brackets.where[entrant] in (WINNERS, LOSERS) and not state.entrant(
            entrant
        ).active_in_round(round_number):
            brackets.where[entrant] = WITHDRAWN
            brackets.out_round[entrant] = round_number - 1


def replay(
    state: EventState, seeds: Sequence[str], settings: Mapping[str, Any], upto: int | None = None
) -> BracketState:
    """The brackets after the stage-two rounds recorded so far (all start in the winners')."""
    brackets = BracketState(list(seeds), dict.fromkeys(seeds, WINNERS))
    for rnd in state.rounds:
        if rnd.stage != BRACKET_STAGE or rnd.status is RoundStatus.DRAFT:
            continue
        _withdraw(state, brackets, rnd.number)
        brackets.rounds += 1
        for match in rnd.matches:
            ids = [p.entrant for p in match.participants if p.entrant is not None]
            if match.is_bye:
                brackets.byes[ids[0]] = brackets.byes.get(ids[0], 0) + 1
                continue
            if len(ids) != 2:
                continue
            brackets.met.add(frozenset(ids))
            score = scoring.score_match(state, match, settings)
            if not score.valid or not score.complete or score.winner is None:
                continue  # a tie (or a match not yet played) leaves both where they are
            loser = ids[1 - score.winner]
            brackets.losses[loser] = brackets.losses.get(loser, 0) + 1
            if brackets.where.get(loser) == WINNERS:
                brackets.where[loser] = LOSERS  # plays in the losers' bracket next round
            elif brackets.where.get(loser) == LOSERS:
                brackets.where[loser] = ELIMINATED
                brackets.out_round[loser] = rnd.number
    _withdraw(state, brackets, upto if upto is not None else len(state.rounds) + 1)
    return brackets


@dataclass(frozen=True)
class BracketPairing:
    bye: str | None
    pairs: list[tuple[str, str]]  # (higher seed, lower seed)
    reasons: list[Reason]
    repeats: int


def choose_bye(members: Sequence[str], byes: Mapping[str, int]) -> tuple[str, Reason]:
    """Stage two, step 1: the highest seed without a bye; if every entry has had one
    (OPEN-QUESTION 32), the highest seed among those with the fewest byes."""
    fewest = min(byes.get(e, 0) for e in members)
    chosen = next(e for e in members if byes.get(e, 0) == fewest)
    if fewest == 0:
        reason = Reason("bot_contest.bye", rule="Stage two, step 1", params={"entrant": chosen})
    else:
        reason = Reason(
            "bot_contest.second_bye",
            rule="OPEN-QUESTION 32",
            params={"entrant": chosen, "byes_before": fewest},
        )
    return chosen, reason


def _fold(players: Sequence[str]) -> list[tuple[str, str]]:
    n = len(players)
    return [(players[i], players[n - 1 - i]) for i in range(n // 2)]


def _repeats(pairs: Sequence[tuple[str, str]], met: set[frozenset[str]]) -> int:
    return sum(1 for a, b in pairs if frozenset((a, b)) in met)


def fewest_repeats(players: Sequence[str], met: set[frozenset[str]]) -> int:
    """The fewest repeat matches any pairing of ``players`` must have."""
    if len(players) < 2 or _repeats(_fold(players), met) == 0:
        return 0
    graph: rustworkx.PyGraph = rustworkx.PyGraph()
    graph.add_nodes_from(list(players))
    for i in range(len(players)):
        for j in range(i + 1, len(players)):
            fresh = frozenset((players[i], players[j])) not in met
            graph.add_edge(i, j, 1 if fresh else 0)
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    fresh_pairs = sum(1 for a, b in matching if frozenset((players[a], players[b])) not in met)
    return len(players) // 2 - fresh_pairs


def pair_bracket(
    members: Sequence[str], byes: Mapping[str, int], met: set[frozenset[str]]
) -> BracketPairing:
    """Highest remaining seed against the lowest it may meet (Stage two, step 2), moving to
    the next lowest only when the lowest would be a repeat that another pairing of the
    rest avoids (OPEN-QUESTION 31). A bye is taken out first (OPEN-QUESTION 29)."""
    reasons: list[Reason] = []
    players = list(members)
    bye: str | None = None
    if len(players) % 2 == 1:
        bye, reason = choose_bye(players, byes)
        reasons.append(reason)
        players.remove(bye)
    fold = _fold(players)
    if _repeats(fold, met) == 0:
        return BracketPairing(bye, fold, reasons, 0)
    budget = fewest_repeats(players, met)
    best = budget
    rest = players
    pairs: list[tuple[str, str]] = []
    while rest:
        high = rest[0]
        for low in reversed(rest[1:]):
            cost = 1 if frozenset((high, low)) in met else 0
            remaining = [p for p in rest if p not in (high, low)]
            if cost <= budget and cost + fewest_repeats(remaining, met) <= budget:
                pairs.append((high, low))
                budget -= cost
                rest = remaining
                break
    rule = "Stage two, AND THEN (repeat matches)"
    reasons.append(
        Reason("bot_contest.repeat_kept", rule=rule, params={"repeats": best})
        if best
        else Reason("bot_contest.repeat_avoided", rule=rule, params={"repeats": best})
    )
    return BracketPairing(bye, pairs, reasons, best)
