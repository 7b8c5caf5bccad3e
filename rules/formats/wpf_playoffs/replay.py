"""Replays an event's record: the seeds, then every decided match, into the current ranks."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.contract import EventState, MatchScore, Problem, RoundStatus

from . import scoring
from .ladder import Ladder
from .schedule import MATCHES, SESSIONS, Stage

REVEAL_SETTING = "online_results_revealed"


def revealed(state: EventState) -> bool:
    """Online results are public once the director reveals them "At the beginning of the
    live stage": by the setting, or by publishing the first live heat (its pairings show
    the online ranks anyway)."""
    if state.settings.get(REVEAL_SETTING, False):
        return True
    return any(
        r.stage == Stage.LIVE.value and r.status is not RoundStatus.DRAFT for r in state.rounds
    )


@dataclass
class Replay:
    seeds: tuple[str | None, ...]
    ladder: Ladder
    scores: dict[str, MatchScore] = field(default_factory=dict)
    complete_sessions: int = 0  # how many sessions, in order, have every match decided
    problems: list[Problem] = field(default_factory=list)

    def entrant(self, seed: int) -> str | None:
        return self.seeds[seed - 1]


def replay(state: EventState, upto: int | None = None) -> Replay:
    """Play the record's rounds (all but drafts; only the first ``upto`` when given)."""
    seeds = scoring.seeds_of(state)
    result = Replay(seeds, Ladder(len(seeds) or 16))
    show = revealed(state)
    counting = True
    for rnd in state.rounds:
        if rnd.status is RoundStatus.DRAFT or (upto is not None and rnd.number > upto):
            continue
        decided: set[str] = set()
        for match in rnd.matches:
            spec = MATCHES.get(match.code)
            score = scoring.score(state, match, show)
            result.scores[match.code] = score
            if spec is None or not score.valid or score.winner is None or not score.complete:
                result.problems.extend(score.problems)
                continue
            seats = scoring.seat_seeds(state, match)
            assert seats is not None
            winner = seats[score.winner]
            if set(seats) != set(result.ladder.pair(spec)):
                result.problems.append(
                    Problem(
                        "wpf.wrong_players",
                        f"matches[{match.code}]",
                        params={"match": spec.code, "better": spec.better, "worse": spec.worse},
                    )
                )
                continue
            result.ladder.play(spec, winner, rnd.number)
            decided.add(spec.code)
        expected = {m.code for m in SESSIONS[rnd.number - 1].matches} if rnd.number <= 12 else set()
        if counting and expected and expected <= decided:
            result.complete_sessions = rnd.number
        else:
            counting = False
    return result
