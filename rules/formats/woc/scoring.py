"""Game scores (woc IV.6, IV.8, V.2): from what the table judge enters to the official score.

Seat 0 is Black and seat 1 is White. The official score of a finished game always adds up
to 64: empty squares go to the winner, a draw is 32-32, a resignation 64-0, and a time
default follows IV.6. A director's penalty (game details ``penalty``) may then change the
score or award the game (V.2 b, c).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.contract import GameEnding, GameState, Number, Problem, Reason

BOARD = 64
SEAT_NAMES = ("Black", "White")
_SEAT_WORDS = {"black": 0, "white": 1, 0: 0, 1: 1}


@dataclass(frozen=True)
class GameResult:
    """The official score of one game: ``scores`` in seat order, ``winner`` None for a draw."""

    scores: tuple[int, int]
    winner: int | None
    reasons: tuple[Reason, ...]

    @property
    def points(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)


def seat(value: Any) -> int | None:
    """A seat given as 0/1 or "black"/"white"; None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip().lower()
    return _SEAT_WORDS.get(value)


def score_game(game: GameState, place: str) -> tuple[GameResult | None, list[Problem]]:
    """The official score of ``game``, or the problems that keep it from having one."""
    problems: list[Problem] = []
    label = f"Game {game.number}"
    if len(game.scores) != 2:
        return None, [
            Problem(
                "woc.score.seats",
                f"{place}.scores",
                f"{label}: an Othello game has two players, Black and White.",
            )
        ]
    ending = game.ending
    if ending is GameEnding.BYE:
        return None, [
            Problem(
                "woc.score.bye_ending",
                f"{place}.ending",
                f"{label}: a game between two players cannot end as a bye.",
            )
        ]
    if ending is GameEnding.NORMAL and game.details.get("decided") is not None:
        result, problems = _decided(game, place, label)
    elif ending is GameEnding.NORMAL:
        result, problems = _normal(game, place, label)
    elif ending is GameEnding.TIME_DEFAULT:
        result, problems = _time_default(game, place, label)
    else:
        result, problems = _resigned(game, place, label)
    if result is None or problems:
        return None, problems
    return _penalty(result, game.details, place, label)


def _discs(game: GameState, place: str, label: str) -> tuple[tuple[int, int] | None, list[Problem]]:
    values: list[int] = []
    for index, value in enumerate(game.scores):
        name = SEAT_NAMES[index]
        if value is None:
            return None, [
                Problem(
                    "woc.score.missing",
                    f"{place}.scores[{index}]",
                    f"{label}: enter the number of {name.lower()} discs on the board.",
                )
            ]
        whole = _whole(value)
        if whole is None or whole < 0:
            return None, [
                Problem(
                    "woc.score.not_count",
                    f"{place}.scores[{index}]",
                    f"{label}: {name} discs must be a whole number from 0 to 64; got {value}.",
                    {"value": str(value)},
                )
            ]
        values.append(whole)
    black, white = values
    if black + white > BOARD:
        return None, [
            Problem(
                "woc.score.over_64",
                f"{place}.scores",
                f"{label}: Black and white discs add up to {black + white}; "
                "the board has 64 squares.",
                {"total": black + white},
            )
        ]
    return (black, white), []


def _normal(game: GameState, place: str, label: str) -> tuple[GameResult | None, list[Problem]]:
    discs, problems = _discs(game, place, label)
    if discs is None:
        return None, problems
    black, white = discs
    if black + white < 4:
        return None, [
            Problem(
                "woc.score.under_4",
                f"{place}.scores",
                f"{label}: Black and white discs add up to {black + white}; a finished "
                "game has at least the 4 starting discs on the board.",
                {"total": black + white},
            )
        ]
    empties = BOARD - black - white
    if black == white:
        # IV.8: "In the event of a draw, the score will always be 32-32."
        result = GameResult(
            (32, 32),
            None,
            (Reason("woc.score.draw", "A draw is always scored 32-32.", "woc IV.8"),),
        )
    else:
        winner = 0 if black > white else 1
        scores = [black, white]
        scores[winner] += empties
        reasons: tuple[Reason, ...] = ()
        if empties:
            reasons = (
                Reason(
                    "woc.score.empties",
                    f"{empties} empty square{'s' if empties != 1 else ''} counted for "
                    f"the winner ({SEAT_NAMES[winner]}).",
                    "woc IV.8",
                    {"empties": empties},
                ),
            )
        result = GameResult((scores[0], scores[1]), winner, reasons)
    declared = game.details.get("declared")
    if declared is not None:
        expected = "draw" if result.winner is None else SEAT_NAMES[result.winner].lower()
        if str(declared).lower() != expected:
            shown = f"{black}-{white}"
            return None, [
                Problem(
                    "woc.score.declared_mismatch",
                    f"{place}.details.declared",
                    f"{label}: the result was entered as '{declared}' but {shown} on the board "
                    f"is {'a draw' if expected == 'draw' else 'a win for ' + expected.title()}"
                    + (" (a draw is 32-32 after empty squares)." if expected != "draw" else "."),
                    {"declared": declared, "scores": [black, white]},
                )
            ]
    return result, []


def _decided(game: GameState, place: str, label: str) -> tuple[GameResult | None, list[Problem]]:
    """A result the record gives where the discs do not decide it (a WOF file's '11770 >
    11755', or '(32)>(32)' in a file written winner first): the winner as recorded, the discs
    as written (none: 0-0); nothing is added for empty squares."""
    decided = str(game.details.get("decided")).lower()
    if decided not in ("black", "white", "draw"):
        return None, [
            Problem(
                "woc.score.decided",
                f"{place}.details.decided",
                f"{label}: the recorded result must be 'black', 'white' or 'draw'; "
                f"got {game.details.get('decided')!r}.",
            )
        ]
    if all(value is None for value in game.scores) and len(game.scores) == 2:
        discs: tuple[int, int] = (0, 0)
        how = "without the discs"
    else:
        found, problems = _discs(game, place, label)
        if found is None:
            return None, problems
        discs, how = found, f"on the discs as written, {found[0]}-{found[1]}"
    winner = {"black": 0, "white": 1, "draw": None}[decided]
    who = "a draw" if winner is None else f"{SEAT_NAMES[winner]} won"
    reason = Reason(
        "woc.score.decided",
        f"The record gives the result ({who}) {how}.",
        "WOF rating file (docs/formats/wof-file.md)",
        {"decided": decided},
    )
    return GameResult(discs, winner, (reason,)), []


def _defaulter(game: GameState, place: str, label: str, what: str) -> tuple[int | None, Problem]:
    found = seat(game.details.get("defaulter"))
    problem = Problem(
        "woc.score.defaulter",
        f"{place}.details.defaulter",
        f"{label}: say which player {what} (Black or White).",
    )
    return found, problem


def _resigned(game: GameState, place: str, label: str) -> tuple[GameResult | None, list[Problem]]:
    what = {
        GameEnding.RESIGNATION: "resigned",
        GameEnding.FORFEIT: "forfeited",
        GameEnding.DEFAULT: "defaulted",
    }.get(game.ending, "lost")
    loser, problem = _defaulter(game, place, label, what)
    if loser is None and tuple(game.scores) in ((64, 0), (0, 64)):
        loser = 1 if game.scores[0] == 64 else 0
    if loser is None:
        return None, [problem]
    winner = 1 - loser
    scores = [0, 0]
    scores[winner] = BOARD
    if game.ending is GameEnding.RESIGNATION:
        text, rule = (
            f"{SEAT_NAMES[loser]} resigned: the official score is 64-0 for {SEAT_NAMES[winner]}.",
            "woc IV.8",
        )
    else:
        # The document does not score an unplayed game; it is scored as a resignation.
        text, rule = (
            f"{SEAT_NAMES[loser]} {what}: the game is scored 64-0 for {SEAT_NAMES[winner]}, "
            "as a resignation.",
            "woc IV.8 (by analogy; see docs/formats/woc.md)",
        )
    reason = Reason(f"woc.score.{what}", text, rule)
    return GameResult((scores[0], scores[1]), winner, (reason,)), []


def _time_default(
    game: GameState, place: str, label: str
) -> tuple[GameResult | None, list[Problem]]:
    loser, problem = _defaulter(game, place, label, "lost on time first")
    if loser is None:
        return None, [problem]
    winner = 1 - loser
    second = game.details.get("second_flag")
    names = (SEAT_NAMES[loser], SEAT_NAMES[winner])
    scores = [0, 0]
    if second == "defaulter":
        scores[winner] = BOARD
        text = f"{names[0]}'s flag fell a second time: the game is scored 64-0."
        return GameResult(
            (scores[0], scores[1]),
            winner,
            (Reason("woc.score.second_flag", text, "woc IV.6"),),
        ), []
    if second == "non_defaulter":
        scores[winner], scores[loser] = 33, 31
        text = (
            f"{names[1]}'s flag fell after the two extra minutes: {names[0]}, who defaulted "
            "first, loses 31-33."
        )
        return GameResult(
            (scores[0], scores[1]),
            winner,
            (Reason("woc.score.both_flags", text, "woc IV.6"),),
        ), []
    if second is not None:
        return None, [
            Problem(
                "woc.score.second_flag",
                f"{place}.details.second_flag",
                f"{label}: 'second_flag' must be 'defaulter' or 'non_defaulter'; got {second!r}.",
            )
        ]
    discs, problems = _discs(game, place, label)
    if discs is None:
        return None, problems
    # IV.6: the true final score stands (empties to the winner, who is the non-defaulter),
    # "save that the non-defaulting player is guaranteed at least a 33-31 win".
    winner_discs = max(BOARD - discs[loser], 33)
    scores[winner], scores[loser] = winner_discs, BOARD - winner_discs
    text = f"{names[0]} lost on time: {names[1]} wins {winner_discs}-{BOARD - winner_discs}" + (
        " (at least 33-31)." if BOARD - discs[loser] < 33 else " (the true final score)."
    )
    return GameResult(
        (scores[0], scores[1]), winner, (Reason("woc.score.time_default", text, "woc IV.6"),)
    ), []


def _penalty(
    result: GameResult, details: Mapping[str, Any], place: str, label: str
) -> tuple[GameResult | None, list[Problem]]:
    penalty = details.get("penalty")
    if penalty is None:
        return result, []
    field = f"{place}.details.penalty"
    if not isinstance(penalty, Mapping):
        return None, [Problem("woc.penalty.shape", field, f"{label}: the penalty is unreadable.")]
    kind = penalty.get("kind")
    note = str(penalty.get("note", "")).strip()
    suffix = f" ({note})" if note else ""
    if kind == "draw":
        reason = Reason(
            "woc.penalty.draw", f"The director declared the game a draw{suffix}.", "woc V.2(c)"
        )
        return GameResult((32, 32), None, (*result.reasons, reason)), []
    if kind == "award":
        to = seat(penalty.get("to"))
        if to is None:
            return None, [
                Problem(
                    "woc.penalty.award_to",
                    f"{field}.to",
                    f"{label}: say to whom the director awarded the game (Black or White).",
                )
            ]
        scores = list(result.scores)
        if result.winner != to:
            # Silent in the document: an awarded game gets IV.6's least win, 33-31.
            scores[to], scores[1 - to] = 33, 31
        reason = Reason(
            "woc.penalty.award",
            f"The director awarded the game to {SEAT_NAMES[to]}{suffix}: {scores[0]}-{scores[1]}.",
            "woc V.2(c)",
        )
        return GameResult((scores[0], scores[1]), to, (*result.reasons, reason)), []
    if kind == "score":
        return _penalty_score(result, penalty, field, label, suffix)
    return None, [
        Problem(
            "woc.penalty.kind",
            f"{field}.kind",
            f"{label}: a penalty is 'score', 'award' or 'draw'; got {kind!r}.",
        )
    ]


def _penalty_score(
    result: GameResult, penalty: Mapping[str, Any], field: str, label: str, suffix: str
) -> tuple[GameResult | None, list[Problem]]:
    raw = penalty.get("scores")
    values = [_whole(v) for v in raw] if isinstance(raw, list | tuple) and len(raw) == 2 else []
    if len(values) != 2 or any(v is None or v < 0 for v in values):
        return None, [
            Problem(
                "woc.penalty.scores",
                f"{field}.scores",
                f"{label}: the director's score needs two whole disc counts, Black then White.",
            )
        ]
    black, white = (v or 0 for v in values)
    if black + white != BOARD:
        return None, [
            Problem(
                "woc.penalty.total",
                f"{field}.scores",
                f"{label}: the director's score {black}-{white} adds up to {black + white}; "
                "an official score adds up to 64.",
            )
        ]
    offender = seat(penalty.get("offender"))
    if offender is not None:
        victim = 1 - offender
        if (black, white)[victim] < result.scores[victim]:
            return None, [
                Problem(
                    "woc.penalty.direction",
                    f"{field}.scores",
                    f"{label}: a penalty may only change the score to the benefit of the "
                    f"offender's opponent ({SEAT_NAMES[victim]}).",
                )
            ]
    winner = None if black == white else (0 if black > white else 1)
    reason = Reason(
        "woc.penalty.score",
        f"The director changed the score to {black}-{white}{suffix}.",
        "woc V.2(b)",
    )
    return GameResult((black, white), winner, (*result.reasons, reason)), []


def _whole(value: Number | Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if number.is_integer() else None
