"""Scoring: a game's result, the contest points it gives, and the result of a match.

A game is two scores in the match's seat order (the points each program scored) and the
seat that moved first (``GameState.first``; by default seat 0 in the first game and seat 1
in the second). The result comes from the points or from the referee's ``result`` detail
("X", "O" or "tie"), as the ``result_from`` setting says (OPEN-QUESTION 26).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.contract import (
    EventState,
    GameEnding,
    GameState,
    MatchScore,
    MatchState,
    Number,
    Problem,
    Reason,
)
from rules.words import gettext_noop as _
from rules.words import message

GAUNTLET = "gauntlet"
WINNERS = "winners"
LOSERS = "losers"
FINAL = "final"
RESULTS = ("X", "O", "tie")
RULE_SCORING = "Stage one, step 4"


@dataclass(frozen=True)
class Game:
    number: int
    first: int  # the seat that played X (moved first)
    winner: int | None  # a seat, or None for a tie
    scores: tuple[Number, Number]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Fraction) and not isinstance(value, bool)


def _seat_of_result(result: str, first: int) -> int | None:
    if result == "tie":
        return None
    return first if result == "X" else 1 - first


def _result_word(winner: int | None, first: int) -> str:
    if winner is None:
        return "tie"
    return "X" if winner == first else "O"


def read_game(
    game: GameState,
    place: str,
    expected_first: int,
    settings: Mapping[str, Any],
    board: str | None,
) -> tuple[Game | None, list[Problem]]:
    """One game checked and read, or the problems that stop it from counting."""
    number = game.number
    problems: list[Problem] = []
    if game.ending is GameEnding.BYE:
        problems.append(Problem("bot_contest.ending", f"{place}.ending", params={"game": number}))
    if len(game.scores) != 2 or any(s is None for s in game.scores):
        problems.append(
            Problem("bot_contest.score_missing", f"{place}.scores", params={"game": number})
        )
        return None, problems
    a, b = game.scores
    if not _is_number(a) or not _is_number(b):
        problems.append(
            Problem("bot_contest.score_type", f"{place}.scores", params={"game": number})
        )
        return None, problems
    assert a is not None and b is not None
    if a < 0 or b < 0:
        problems.append(
            Problem("bot_contest.score_negative", f"{place}.scores", params={"game": number})
        )
    first = expected_first if game.first is None else game.first
    if first not in (0, 1):
        problems.append(Problem("bot_contest.first", f"{place}.first", params={"game": number}))
        return None, problems
    result = game.details.get("result")
    if result is not None and result not in RESULTS:
        problems.append(
            Problem(
                "bot_contest.result",
                f"{place}.details.result",
                params={"game": number, "result": result},
            )
        )
        return None, problems
    by_points: int | None = None if a == b else (0 if a > b else 1)
    if settings["result_from"] == "referee" or game.ending is not GameEnding.NORMAL:
        if result is None:
            problems.append(
                Problem(
                    "bot_contest.result_missing",
                    f"{place}.details.result",
                    params={"game": number, "why": _why_referee(game.ending)},
                )
            )
            return None, problems
        winner = _seat_of_result(result, first)
    else:
        winner = by_points
        if result is not None and _seat_of_result(result, first) != winner:
            problems.append(
                Problem(
                    "bot_contest.result_points",
                    f"{place}.details.result",
                    # the points as the sentence shows them (a Fraction as written, not a float)
                    params={"game": number, "result": result, "points": f"{a}-{b}"},
                )
            )
    game_board = game.details.get("board")
    if board and game_board is not None and game_board != board:
        problems.append(
            Problem(
                "bot_contest.board",
                f"{place}.details.board",
                params={"game": number, "played": game_board, "board": board},
            )
        )
    if problems:
        return None, problems
    return Game(game.number, first, winner, (a, b)), []


def _why_referee(ending: GameEnding) -> dict[str, Any]:
    """Why a game needs the referee's result: how it ended, or (a game that ended
    normally) because the event takes its results from the referee."""
    if ending is GameEnding.RESIGNATION:
        return message("bot_contest.result_missing.resignation")
    if ending is GameEnding.TIME_DEFAULT:
        return message("bot_contest.result_missing.time_default")
    if ending is GameEnding.FORFEIT:
        return message("bot_contest.result_missing.forfeit")
    if ending is GameEnding.DEFAULT:
        return message("bot_contest.result_missing.default")
    if ending is GameEnding.BYE:
        return message("bot_contest.result_missing.bye")
    return message("bot_contest.result_missing.referee")


def bonus(game: Game, seat: int, settings: Mapping[str, Any]) -> int:
    """1000/1200 for a win as X/O, 500/600 for a tie as X/O, nothing for a loss."""
    role = "first" if seat == game.first else "second"
    if game.winner is None:
        return int(settings[f"tie_{role}_bonus"])
    if game.winner == seat:
        return int(settings[f"win_{role}_bonus"])
    return 0


def contest_points(game: Game, seat: int, settings: Mapping[str, Any]) -> Number:
    """Stage-one scoring: the bonus plus the points the entry scored (not the difference)."""
    return bonus(game, seat, settings) + game.scores[seat]


@dataclass(frozen=True)
class MatchResult:
    winner: int | None
    wins: tuple[Fraction, Fraction]
    points: tuple[Number, Number]
    reason: Reason


def match_result(games: Sequence[Game], settings: Mapping[str, Any]) -> MatchResult:
    """THE rule for a two-game match (OPEN-QUESTION 27): game wins, a tied game counting half
    to each; equal game wins make a tied match, unless ``match_decider`` is
    ``games_then_points``, when the greater total of points scored decides."""
    wins = [Fraction(0), Fraction(0)]
    points: list[Number] = [0, 0]
    for game in games:
        for seat in (0, 1):
            points[seat] += game.scores[seat]
            if game.winner is None:
                wins[seat] += Fraction(1, 2)
            elif game.winner == seat:
                wins[seat] += 1
    shown = f"{_show(wins[0])}-{_show(wins[1])}"
    if wins[0] != wins[1]:
        winner = 0 if wins[0] > wins[1] else 1
        reason = Reason(
            "bot_contest.match_games",
            rule="OPEN-QUESTION 27",
            params={"wins": [_plain(w) for w in wins], "seat": winner + 1, "games": shown},
        )
    elif settings["match_decider"] == "games_then_points" and points[0] != points[1]:
        winner = 0 if points[0] > points[1] else 1
        reason = Reason(
            "bot_contest.match_points",
            rule="OPEN-QUESTION 27",
            params={
                "games": shown,
                "seat": winner + 1,
                "points": f"{_show(points[0])}-{_show(points[1])}",
            },
        )
    else:
        winner = None
        reason = Reason("bot_contest.match_tied", rule="Stage two, step 3", params={"games": shown})
    return MatchResult(winner, (wins[0], wins[1]), (points[0], points[1]), reason)


def round_board(state: EventState, round_number: int) -> str | None:
    for rnd in state.rounds:
        if rnd.number == round_number:
            board = rnd.details.get("board")
            return None if board is None else str(board)
    return None


def match_games(
    state: EventState, match: MatchState, settings: Mapping[str, Any]
) -> tuple[list[Game], list[Problem]]:
    """The match's games read and checked (at most two, each entry moving first once)."""
    problems: list[Problem] = []
    if len(match.participants) != 2 or any(p.entrant is None for p in match.participants):
        return [], [Problem("bot_contest.seats", "participants")]
    if len(match.games) > 2:
        problems.append(
            Problem("bot_contest.game_count", "games", params={"given": len(match.games)})
        )
        return [], problems
    board = round_board(state, match.round_number)
    games: list[Game] = []
    for index, game in enumerate(match.games):
        read, found = read_game(game, f"games[{index}]", index % 2, settings, board)
        problems.extend(found)
        if read is not None:
            games.append(read)
    if len(games) == 2 and games[0].first == games[1].first:
        problems.append(Problem("bot_contest.first_twice", "games[1].first"))
    return games, problems


def score_match(state: EventState, match: MatchState, settings: Mapping[str, Any]) -> MatchScore:
    if match.is_bye:
        return MatchScore(
            points=(0,),
            winner=0,
            summary=_("bye"),
            reasons=(
                # not "bot_contest.bye": that is the reason the bracket gave the bye
                Reason("bot_contest.bye_counts", rule="OPEN-QUESTION 28"),
            ),
        )
    games, problems = match_games(state, match, settings)
    if problems:
        return MatchScore(points=(0, 0), complete=False, problems=tuple(problems))
    result = match_result(games, settings)
    contest = [sum((contest_points(g, seat, settings) for g in games), 0) for seat in (0, 1)]
    complete = len(games) == 2
    staged = match.bracket in (GAUNTLET, FINAL)
    points: tuple[Number, ...] = tuple(contest) if staged else result.wins
    return MatchScore(
        points=points,
        winner=result.winner if complete else None,
        complete=complete,
        summary=(
            f"{_show(contest[0])}-{_show(contest[1])}"
            if staged
            else f"{_show(result.wins[0])}-{_show(result.wins[1])}"
        ),
        reasons=(result.reason,) if complete else (),
        game_scores=tuple(g.scores for g in games),
        details={
            "contest_points": [_plain(c) for c in contest],
            "game_points": [_plain(p) for p in result.points],
            "wins": [_plain(w) for w in result.wins],
            "results": [_result_word(g.winner, g.first) for g in games],
        },
    )


def _plain(value: Number) -> int | float:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def _show(value: Number) -> str:
    plain = _plain(value)
    return f"{plain:g}" if isinstance(plain, float) else str(plain)


plain = _plain
show = _show
