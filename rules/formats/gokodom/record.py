"""The Swiss record of every player: results by round, match points, defaults, and the
virtual opponents of II.I and V.A that Solkoff and the cumulative scores count.

Every player (real or virtual) has a *history*: match points per Swiss round 1..R, where R
is the number of Swiss rounds drafted past (published or completed). A virtual player draws
(1 point) every round after it was created. Results not in yet count 0 (standings in the
middle of a round are provisional).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules import absence
from rules.contract import EventState, MatchState, Problem, RoundState, RoundStatus

from .results import (
    MATCH_POINTS,
    Result,
    messages_of,
    parse_results,
    resolve_unplayed,
    tally_games,
)

SWISS = "swiss"
PLAYOFF = "playoff"
KNOCKOUT = "knockout"


def stage_of(rnd: RoundState) -> str:
    return rnd.stage or str(rnd.details.get("stage", SWISS))


def swiss_rounds_of(state: EventState) -> list[RoundState]:
    return [r for r in state.rounds if stage_of(r) == SWISS and r.status is not RoundStatus.DRAFT]


@dataclass(frozen=True)
class Outcome:
    """What a Swiss match gives its players so far."""

    results: dict[str, Result] | None  # None: not in yet
    problems: tuple[Problem, ...] = ()
    for_director: bool = False  # both sent a PM in the last Swiss round


def swiss_outcome(match: MatchState, *, round_over: bool, last_round: bool) -> Outcome:
    """Results of one Swiss match: recorded results, else games, else (once the match is
    marked unplayed or its round is over) the PMs sent to the TO."""
    if match.is_bye:
        entrant = match.participants[0].entrant
        if entrant is None:
            return Outcome({})
        code = str(match.details.get("result", Result.WB))
        # an absent player left unpaired gets an L or an LD (gokodom.md, Absence)
        allowed = (Result.WB, Result.BR, Result.L, Result.LD) if absence.in_match(match) else ()
        if code not in (Result.WB, Result.BR) and code not in allowed:
            problem = Problem("gokodom.bye_result", "details.result")
            return Outcome(None, (problem,))
        return Outcome({entrant: Result(code)})
    if "results" in match.details:
        results, problems = parse_results(match, handshake_allowed=not last_round)
        return Outcome(results, tuple(problems))
    players = [p.entrant for p in match.participants if p.entrant is not None]
    if match.games:
        tally = tally_games(match)
        if tally.problems:
            return Outcome(None, tally.problems)
        if not tally.complete:
            if round_over:
                problem = Problem(
                    "gokodom.match_unfinished",
                    "games",
                    params={"match": match.code, "games": tally.games},
                )
                return Outcome(None, (problem,))
            return Outcome(None)
        if tally.winner is None:
            return Outcome({p: Result.D for p in players})
        winner = players[tally.winner]
        return Outcome({p: Result.W if p == winner else Result.L for p in players})
    if match.details.get("unplayed") or round_over:
        resolved = resolve_unplayed(players, messages_of(match), handshake_allowed=not last_round)
        if resolved is None:
            return Outcome(None, for_director=True)
        return Outcome(resolved)
    return Outcome(None)


@dataclass(frozen=True)
class Line:
    """One player's result in one Swiss round."""

    round: int
    result: Result
    opponent: str | None
    match: str

    @property
    def points(self) -> int:
        return MATCH_POINTS[self.result]


class SwissRecord:
    """Results of the Swiss portion, read from the state."""

    def __init__(self, state: EventState, swiss_rounds: int, *, handshake_met: bool):
        self.state = state
        self.swiss_rounds = swiss_rounds
        self.handshake_met = handshake_met
        rounds = swiss_rounds_of(state)
        self.rounds_drafted = len(rounds)
        self.lines: dict[str, dict[int, Line]] = {e.id: {} for e in state.entrants}
        self.pending: list[str] = []
        self.for_director: list[str] = []
        self.problems: list[tuple[str, Problem]] = []
        self.ld_round: dict[str, int] = {}
        for rnd in rounds:
            for match in rnd.matches:
                outcome = swiss_outcome(
                    match,
                    round_over=rnd.status is RoundStatus.COMPLETED,
                    last_round=rnd.number == swiss_rounds,
                )
                self.problems.extend((match.code, p) for p in outcome.problems)
                if outcome.for_director:
                    self.for_director.append(match.code)
                if outcome.results is None:
                    self.pending.append(match.code)
                    continue
                ids = [p.entrant for p in match.participants if p.entrant is not None]
                for entrant, result in outcome.results.items():
                    others = [o for o in ids if o != entrant]
                    self.lines.setdefault(entrant, {})[rnd.number] = Line(
                        rnd.number, result, others[0] if others else None, match.code
                    )
                    if result is Result.LD:
                        self.ld_round.setdefault(entrant, rnd.number)
        self.withdrawn_after: dict[str, int] = {}
        for person in state.entrants:
            if person.id in self.ld_round:
                continue
            if person.withdrawn_after_round is not None:
                self.withdrawn_after[person.id] = person.withdrawn_after_round
            elif not person.active:
                self.withdrawn_after[person.id] = max(self.lines[person.id], default=0)

    # -- who is still in ---------------------------------------------------------------

    def removed_before(self, entrant: str, number: int) -> bool:
        """II.B.6: an LD removes the player; a withdrawal removes them too."""
        if self.ld_round.get(entrant, number) < number:
            return True
        return self.withdrawn_after.get(entrant, number) < number

    def removed(self, entrant: str) -> bool:
        return entrant in self.ld_round or entrant in self.withdrawn_after

    # -- the player's own figures --------------------------------------------------------

    def line(self, entrant: str, number: int) -> Line | None:
        return self.lines.get(entrant, {}).get(number)

    def real_history(self, entrant: str) -> list[int]:
        lines = self.lines.get(entrant, {})
        return [lines[k].points if k in lines else 0 for k in range(1, self.rounds_drafted + 1)]

    def match_points(self, entrant: str) -> int:
        return sum(self.real_history(entrant))

    def cumulative(self, entrant: str) -> int:
        return _cumulative(self.real_history(entrant))

    def defaults(self, entrant: str) -> int:
        """II.D: each DD adds one Default to the record."""
        return sum(1 for line in self.lines.get(entrant, {}).values() if line.result is Result.DD)

    def met(self, a: str, b: str) -> bool:
        """F.1: whether a and b have played (WD/LD counts as played, II.I.2)."""
        return any(line.opponent == b for line in self._opponent_lines(a))

    def opponents(self, entrant: str) -> set[str]:
        return {line.opponent for line in self._opponent_lines(entrant) if line.opponent}

    def head_to_head(self, a: str, b: str) -> int:
        return sum(line.points for line in self._opponent_lines(a) if line.opponent == b)

    def _opponent_lines(self, entrant: str) -> Iterable[Line]:
        for line in self.lines.get(entrant, {}).values():
            if line.opponent is None:
                continue
            if line.result is Result.DD and not self.handshake_met:
                continue
            yield line

    # -- virtual players -----------------------------------------------------------------

    def virtual_history(self, entrant: str) -> list[int]:
        """The history other players' Solkoff counts for this player.

        II.I.2: after an LD the player is a virtual player with the original score, who
        loses the unplayed match and draws every later round. A withdrawn player becomes a
        virtual player the same way (V.A.1), drawing every round after the withdrawal.
        """
        real = self.real_history(entrant)
        if entrant in self.ld_round:
            r = self.ld_round[entrant]
            return [real[k - 1] if k < r else 0 if k == r else 1 for k in range(1, len(real) + 1)]
        if entrant in self.withdrawn_after:
            w = self.withdrawn_after[entrant]
            return [real[k - 1] if k <= w else 1 for k in range(1, len(real) + 1)]
        return real

    def bye_history(self, entrant: str, number: int, result: Result) -> list[int]:
        """II.I.1 / V.A.2: the virtual opponent of a bye starts with the player's record,
        loses (WB) or draws (BR) this match, then draws every later round."""
        real = self.real_history(entrant)
        this = 0 if result is Result.WB else 1
        return [
            real[k - 1] if k < number else this if k == number else 1
            for k in range(1, len(real) + 1)
        ]

    def opponent_histories(self, entrant: str) -> list[list[int]]:
        histories = []
        for line in self.lines.get(entrant, {}).values():
            if line.result in (Result.WB, Result.BR):
                histories.append(self.bye_history(entrant, line.round, line.result))
            elif line.opponent is not None and (line.result is not Result.DD or self.handshake_met):
                histories.append(self.virtual_history(line.opponent))
        return histories

    def solkoff(self, entrant: str) -> int:
        """II.E.2: the sum of all opponents' total match points, virtual ones included."""
        return sum(sum(h) for h in self.opponent_histories(entrant))

    def cumulative_opponents(self, entrant: str) -> int:
        """III.A.5: the sum of the opponents' cumulative scores."""
        return sum(_cumulative(h) for h in self.opponent_histories(entrant))


def _cumulative(history: list[int]) -> int:
    """II.E.3: the sum of the running totals at the end of each round."""
    total = running = 0
    for points in history:
        running += points
        total += running
    return total
