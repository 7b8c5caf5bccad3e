"""GokoDom results: the eight result codes, the match structure of games, and unplayed matches.

Rule document sections II.B-D (results and match points) and IV.A (games: A-B-B-A-A-B seats,
3 to 6 games, 3 game points after game 3 or 4, 3.5 after game 5 or 6).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as _field
from fractions import Fraction
from typing import Any

from rules.contract import GameEnding, MatchState, Problem, RoundState


class Result(enum.StrEnum):
    """II.B: the one result each player receives at the end of each round."""

    W = "W"  # won a played match
    L = "L"  # lost a played match
    D = "D"  # drew a played match (3-3 on game points)
    WD = "WD"  # win by default: sent the PM, the opponent did not
    DD = "DD"  # draw by default ("handshake"): both sent the PM
    LD = "LD"  # loss by default: did not send the PM; removed from the tournament
    WB = "WB"  # win by bye (assigned)
    BR = "BR"  # bye by request


# II.C: W, WD and WB are worth 2 match points; D, DD and BR 1; L (and LD) 0.
MATCH_POINTS: Mapping[Result, int] = {
    Result.W: 2,
    Result.L: 0,
    Result.D: 1,
    Result.WD: 2,
    Result.DD: 1,
    Result.LD: 0,
    Result.WB: 2,
    Result.BR: 1,
}

# The reason a scored Swiss match gives for each result: its name and match points
# (words.py says "Win (W): 2 match points.").
RESULT_REASONS: Mapping[Result, str] = {
    Result.W: "gokodom.result.w",
    Result.L: "gokodom.result.l",
    Result.D: "gokodom.result.d",
    Result.WD: "gokodom.result.wd",
    Result.DD: "gokodom.result.dd",
    Result.LD: "gokodom.result.ld",
    Result.WB: "gokodom.result.wb",
    Result.BR: "gokodom.result.br",
}

# The results two players of one match may receive together.
LEGAL_PAIRS: frozenset[tuple[Result, Result]] = frozenset(
    {
        (Result.W, Result.L),
        (Result.L, Result.W),
        (Result.D, Result.D),
        (Result.DD, Result.DD),
        (Result.WD, Result.LD),
        (Result.LD, Result.WD),
        (Result.LD, Result.LD),
    }
)

# IV.A.1: seats of games 1-6, relative to the player who had the first seat in game 1.
SEAT_PATTERN = "ABBAAB"
HALF = Fraction(1, 2)
GAME_SCORES = (Fraction(0), HALF, Fraction(1))


@dataclass(frozen=True)
class GameTally:
    """The games of a match added up under IV.A.

    ``winner`` is a seat index; ``tied`` is the 3-3 tie after six games; ``complete`` is
    True once the match is over (won or tied). A tally with problems is not complete.
    """

    points: tuple[Fraction, Fraction]
    games: int
    winner: int | None
    tied: bool
    complete: bool
    problems: tuple[Problem, ...] = ()
    scores: tuple[tuple[Fraction, Fraction], ...] = _field(default_factory=tuple)


def decided_after(games: int, points: tuple[Fraction, Fraction]) -> int | None:
    """IV.A.4: the seat that has won the match after ``games`` games, if any."""
    need = Fraction(3) if games in (3, 4) else Fraction(7, 2) if games in (5, 6) else None
    if need is None:
        return None
    for seat in (0, 1):
        if points[seat] >= need:
            return seat
    return None


def first_seat(match: MatchState) -> int | None:
    """The seat that sat first in game 1: drawn when planning, or entered on game 1."""
    drawn = match.details.get("first_seat")
    if drawn in (0, 1):
        return int(drawn)
    for game in match.games:
        if game.number == 1 and game.first in (0, 1):
            return game.first
    return None


def tally_games(match: MatchState) -> GameTally:
    """Check and add up the games of a two-player match."""
    problems: list[Problem] = []
    points = [Fraction(0), Fraction(0)]
    scores: list[tuple[Fraction, Fraction]] = []
    first = first_seat(match)
    winner: int | None = None
    for index, game in enumerate(match.games):
        place = f"games[{index}]"
        if game.number != index + 1:
            problems.append(
                Problem(
                    "gokodom.game_number",
                    f"{place}.number",
                    params={"index": index + 1, "number": game.number},
                )
            )
            continue
        if index >= 6:
            problems.append(
                Problem("gokodom.too_many_games", "games", params={"count": len(match.games)})
            )
            break
        if winner is not None:
            problems.append(
                Problem(
                    "gokodom.match_already_decided",
                    place,
                    params={
                        "after": index,
                        "score": f"{_show(points[0])}-{_show(points[1])}",
                        "number": game.number,
                    },
                )
            )
            break
        if game.ending is GameEnding.BYE:
            problems.append(
                Problem("gokodom.game_ending", f"{place}.ending", params={"number": game.number})
            )
            continue
        game_scores = _game_scores(game.scores)
        if game_scores is None:
            problems.append(
                Problem("gokodom.game_score", f"{place}.scores", params={"number": game.number})
            )
            continue
        if first is not None and game.first is not None:
            expected = first if SEAT_PATTERN[index] == "A" else 1 - first
            if game.first != expected:
                problems.append(
                    Problem(
                        "gokodom.seat_order",
                        f"{place}.first",
                        params={"expected": expected, "number": game.number, "seat": expected + 1},
                    )
                )
        points[0] += game_scores[0]
        points[1] += game_scores[1]
        scores.append(game_scores)
        winner = decided_after(index + 1, (points[0], points[1]))
    played = len(scores)
    tied = winner is None and played == 6
    complete = not problems and (winner is not None or tied)
    return GameTally(
        points=(points[0], points[1]),
        games=played,
        winner=winner,
        tied=tied,
        complete=complete,
        problems=tuple(problems),
        scores=tuple(scores),
    )


def _game_scores(scores: Sequence[Any]) -> tuple[Fraction, Fraction] | None:
    if len(scores) != 2:
        return None
    halves = []
    for score in scores:
        if not isinstance(score, int | float | Fraction) or isinstance(score, bool):
            return None
        doubled = score * 2
        if doubled not in (0, 1, 2):
            return None
        halves.append(int(doubled))
    if halves[0] + halves[1] != 2:
        return None
    return (_HALVES[halves[0]], _HALVES[halves[1]])


_HALVES = (Fraction(0), HALF, Fraction(1))


def resolve_unplayed(
    players: Sequence[str], messaged: Collection[str], *, handshake_allowed: bool
) -> dict[str, Result] | None:
    """II.B.4-6 and I.D: an unplayed match, from who sent the TO a PM by the round's end.

    Both sent one: a Draw by Default each (None where DD is not available: the last Swiss
    round, where the director decides). One sent it: WD to that player, LD to the other.
    Neither: LD to both.
    """
    sent = [p in messaged for p in players]
    if all(sent):
        return {p: Result.DD for p in players} if handshake_allowed else None
    return {p: Result.WD if s else Result.LD for p, s in zip(players, sent, strict=True)}


def messages_of(match: MatchState) -> list[str]:
    """The entrants recorded (match details "messages") as having sent the TO a PM."""
    value = match.details.get("messages", [])
    if not isinstance(value, list | tuple):
        return []
    return [str(v) for v in value]


@dataclass(frozen=True)
class DeadlineResolution:
    """Results of a round's unplayed matches at its deadline.

    ``results``: match code -> entrant -> result. ``for_director``: codes of matches the
    rules leave to the director (both players sent a PM in the last Swiss round).
    """

    results: Mapping[str, Mapping[str, Result]]
    for_director: tuple[str, ...] = ()


def resolve_deadline(rnd: RoundState, *, last_swiss_round: bool) -> DeadlineResolution:
    """Resolve every unplayed two-player match of a Swiss round at the round's end.

    A match is unplayed when it has no games and no recorded ``results``. The answer is
    what the service layer stores in each match's ``results`` detail.
    """
    results: dict[str, dict[str, Result]] = {}
    for_director: list[str] = []
    for match in rnd.matches:
        if match.is_bye or match.games or "results" in match.details:
            continue
        players = [p.entrant for p in match.participants if p.entrant is not None]
        if len(players) != 2:
            continue
        outcome = resolve_unplayed(
            players, messages_of(match), handshake_allowed=not last_swiss_round
        )
        if outcome is None:
            for_director.append(match.code)
        else:
            results[match.code] = outcome
    return DeadlineResolution(results, tuple(for_director))


def parse_results(
    match: MatchState, *, handshake_allowed: bool
) -> tuple[dict[str, Result] | None, list[Problem]]:
    """The director-recorded ``results`` detail of a two-player Swiss match, checked."""
    raw = match.details.get("results")
    if not isinstance(raw, Mapping):
        return None, [Problem("gokodom.results_shape", "details.results")]
    players = [p.entrant for p in match.participants]
    if set(map(str, raw)) != {p for p in players if p is not None}:
        return None, [Problem("gokodom.results_players", "details.results")]
    try:
        codes = tuple(Result(str(raw[p])) for p in players if p is not None)
    except ValueError:
        return None, [Problem("gokodom.results_code", "details.results")]
    if (codes[0], codes[1]) not in LEGAL_PAIRS:
        return None, [
            Problem(
                "gokodom.results_pair",
                "details.results",
                params={
                    "results": [str(c) for c in codes],
                    "first": str(codes[0]),
                    "second": str(codes[1]),
                },
            )
        ]
    if Result.DD in codes and not handshake_allowed:
        return None, [Problem("gokodom.no_handshake_last_round", "details.results")]
    return {p: c for p, c in zip([p for p in players if p], codes, strict=True)}, []


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
