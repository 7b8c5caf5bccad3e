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
from rules.words import message

BOARD = 64
SEAT_NAMES = ("Black", "White")
# a player named by colour, as a part of a sentence ("64-0 for {winner}")
SEATS = (message("woc.seat.black"), message("woc.seat.white"))
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


def score_game(
    game: GameState, place: str, *, numbered: bool = True
) -> tuple[GameResult | None, list[Problem]]:
    """The official score of ``game``, or the problems that keep it from having one.
    ``numbered`` False: the game is its match's only one, and sentences do not name it."""
    problems: list[Problem] = []
    # sentences name the game ("Game 3: ...") when its match has others (rules/words.say)
    number = game.number if numbered else None
    if len(game.scores) != 2:
        return None, [Problem("woc.score.seats", f"{place}.scores", params={"game": number})]
    ending = game.ending
    if ending is GameEnding.BYE:
        return None, [Problem("woc.score.bye_ending", f"{place}.ending", params={"game": number})]
    if ending is GameEnding.NORMAL and game.details.get("decided") is not None:
        result, problems = _decided(game, place, number)
    elif ending is GameEnding.NORMAL:
        result, problems = _normal(game, place, number)
    elif ending is GameEnding.TIME_DEFAULT:
        result, problems = _time_default(game, place, number)
    else:
        result, problems = _resigned(game, place, number)
    if result is None or problems:
        return None, problems
    return _penalty(result, game.details, place, number)


def _discs(
    game: GameState, place: str, number: int | None
) -> tuple[tuple[int, int] | None, list[Problem]]:
    values: list[int] = []
    for index, value in enumerate(game.scores):
        where = f"{place}.scores[{index}]"
        if value is None:
            said: dict[str, Any] = {"game": number}
            if index == 0:
                return None, [Problem("woc.score.missing.black", where, params=said)]
            return None, [Problem("woc.score.missing.white", where, params=said)]
        whole = _whole(value)
        if whole is None or whole < 0:
            said = {"game": number, "value": str(value)}
            if index == 0:
                return None, [Problem("woc.score.not_count.black", where, params=said)]
            return None, [Problem("woc.score.not_count.white", where, params=said)]
        values.append(whole)
    black, white = values
    if black + white > BOARD:
        return None, [
            Problem(
                "woc.score.over_64",
                f"{place}.scores",
                params={"game": number, "total": black + white},
            )
        ]
    return (black, white), []


def _normal(
    game: GameState, place: str, number: int | None
) -> tuple[GameResult | None, list[Problem]]:
    discs, problems = _discs(game, place, number)
    if discs is None:
        return None, problems
    black, white = discs
    if black + white < 4:
        return None, [
            Problem(
                "woc.score.under_4",
                f"{place}.scores",
                params={"game": number, "total": black + white},
            )
        ]
    empties = BOARD - black - white
    if black == white:
        # IV.8: "In the event of a draw, the score will always be 32-32."
        result = GameResult(
            (32, 32),
            None,
            (Reason("woc.score.draw", rule="woc IV.8"),),
        )
    else:
        winner = 0 if black > white else 1
        scores = [black, white]
        scores[winner] += empties
        reasons: tuple[Reason, ...] = ()
        if empties:
            said = {"empties": empties, "seat": SEATS[winner]}
            if empties == 1:
                empty = Reason("woc.score.empties.one", rule="woc IV.8", params=said)
            else:
                empty = Reason("woc.score.empties.many", rule="woc IV.8", params=said)
            reasons = (empty,)
        result = GameResult((scores[0], scores[1]), winner, reasons)
    declared = game.details.get("declared")
    if declared is not None:
        expected = "draw" if result.winner is None else SEAT_NAMES[result.winner].lower()
        if str(declared).lower() != expected:
            said = {
                "declared": str(declared),
                "scores": [black, white],
                "game": number,
                "shown": f"{black}-{white}",
            }
            where = f"{place}.details.declared"
            if result.winner is None:
                return None, [Problem("woc.score.declared_mismatch.draw", where, params=said)]
            said["seat"] = SEATS[result.winner]
            return None, [Problem("woc.score.declared_mismatch.win", where, params=said)]
    return result, []


def _decided(
    game: GameState, place: str, number: int | None
) -> tuple[GameResult | None, list[Problem]]:
    """A result the record gives where the discs do not decide it (a WOF file's '11770 >
    11755', or '(32)>(32)' in a file written winner first): the winner as recorded, the discs
    as written (none: 0-0); nothing is added for empty squares."""
    decided = str(game.details.get("decided")).lower()
    if decided not in ("black", "white", "draw"):
        return None, [
            Problem(
                "woc.score.decided.value",
                f"{place}.details.decided",
                params={"game": number, "value": repr(game.details.get("decided"))},
            )
        ]
    if all(value is None for value in game.scores) and len(game.scores) == 2:
        discs: tuple[int, int] = (0, 0)
        how = message("woc.decided.bare")
    else:
        found, problems = _discs(game, place, number)
        if found is None:
            return None, problems
        discs = found
        how = message("woc.decided.discs", discs=f"{found[0]}-{found[1]}")
    winner = {"black": 0, "white": 1, "draw": None}[decided]
    if winner is None:
        who = message("woc.decided.draw")
    else:
        who = message("woc.decided.won", seat=SEATS[winner])
    reason = Reason(
        "woc.score.decided",
        rule="WOF rating file (docs/formats/wof-file.md)",
        params={"decided": decided, "who": who, "how": how},
    )
    return GameResult(discs, winner, (reason,)), []


def _defaulter(
    game: GameState, place: str, number: int | None, code: str
) -> tuple[int | None, Problem]:
    """The seat ``details["defaulter"]`` names, and the problem when it names none (``code``
    asks for the player who resigned, forfeited...)."""
    found = seat(game.details.get("defaulter"))
    problem = Problem(code, f"{place}.details.defaulter", params={"game": number})
    return found, problem


# how a game was left unplayed: the problem asking who, and the reason for its score
_UNPLAYED = {
    GameEnding.RESIGNATION: ("woc.score.defaulter.resigned", "woc.score.resigned"),
    GameEnding.FORFEIT: ("woc.score.defaulter.forfeited", "woc.score.forfeited"),
    GameEnding.DEFAULT: ("woc.score.defaulter.defaulted", "woc.score.defaulted"),
}
_LOST = ("woc.score.defaulter.lost", "woc.score.lost")


def _resigned(
    game: GameState, place: str, number: int | None
) -> tuple[GameResult | None, list[Problem]]:
    asked, code = _UNPLAYED.get(game.ending, _LOST)
    loser, problem = _defaulter(game, place, number, asked)
    if loser is None and tuple(game.scores) in ((64, 0), (0, 64)):
        loser = 1 if game.scores[0] == 64 else 0
    if loser is None:
        return None, [problem]
    winner = 1 - loser
    scores = [0, 0]
    scores[winner] = BOARD
    if game.ending in (GameEnding.FORFEIT, GameEnding.DEFAULT) and any(
        value is not None and _whole(value) != scores[index]
        for index, value in enumerate(game.scores)
    ):
        # an unplayed game has no discs: typed ones would be kept in the record beside a
        # score they contradict (issue 28, item 2)
        said = {"game": number, "score": f"{scores[0]}-{scores[1]}", "winner": SEATS[winner]}
        return None, [Problem("woc.score.unplayed_discs", f"{place}.scores", params=said)]
    if game.ending is GameEnding.RESIGNATION:
        rule = "woc IV.8"
    else:
        # The document does not score an unplayed game; it is scored as a resignation.
        rule = "woc IV.8 (by analogy; see docs/formats/woc.md)"
    reason = Reason(code, rule=rule, params={"loser": SEATS[loser], "winner": SEATS[winner]})
    return GameResult((scores[0], scores[1]), winner, (reason,)), []


def _time_default(
    game: GameState, place: str, number: int | None
) -> tuple[GameResult | None, list[Problem]]:
    loser, problem = _defaulter(game, place, number, "woc.score.defaulter.time")
    if loser is None:
        return None, [problem]
    winner = 1 - loser
    second = game.details.get("second_flag")
    names = {"loser": SEATS[loser], "winner": SEATS[winner]}
    scores = [0, 0]
    if second == "defaulter":
        scores[winner] = BOARD
        return GameResult(
            (scores[0], scores[1]),
            winner,
            (Reason("woc.score.second_flag", rule="woc IV.6", params=names),),
        ), []
    if second == "non_defaulter":
        scores[winner], scores[loser] = 33, 31
        return GameResult(
            (scores[0], scores[1]),
            winner,
            (Reason("woc.score.both_flags", rule="woc IV.6", params=names),),
        ), []
    if second is not None:
        return None, [
            Problem(
                "woc.score.second_flag.value",
                f"{place}.details.second_flag",
                params={"game": number, "value": repr(second)},
            )
        ]
    discs, problems = _discs(game, place, number)
    if discs is None:
        return None, problems
    # IV.6: the true final score stands (empties to the winner, who is the non-defaulter),
    # "save that the non-defaulting player is guaranteed at least a 33-31 win".
    winner_discs = max(BOARD - discs[loser], 33)
    scores[winner], scores[loser] = winner_discs, BOARD - winner_discs
    said = {**names, "score": f"{winner_discs}-{BOARD - winner_discs}"}
    if BOARD - discs[loser] < 33:
        reason = Reason("woc.score.time_default.least", rule="woc IV.6", params=said)
    else:
        reason = Reason("woc.score.time_default", rule="woc IV.6", params=said)
    return GameResult((scores[0], scores[1]), winner, (reason,)), []


def _penalty(
    result: GameResult, details: Mapping[str, Any], place: str, number: int | None
) -> tuple[GameResult | None, list[Problem]]:
    penalty = details.get("penalty")
    if penalty is None:
        return result, []
    field = f"{place}.details.penalty"
    if not isinstance(penalty, Mapping):
        return None, [Problem("woc.penalty.shape", field, params={"game": number})]
    kind = penalty.get("kind")
    note = str(penalty.get("note", "")).strip()
    if kind == "draw":
        if note:
            reason = Reason("woc.penalty.draw.note", rule="woc V.2(c)", params={"note": note})
        else:
            reason = Reason("woc.penalty.draw", rule="woc V.2(c)")
        return GameResult((32, 32), None, (*result.reasons, reason)), []
    if kind == "award":
        to = seat(penalty.get("to"))
        if to is None:
            return None, [Problem("woc.penalty.award_to", f"{field}.to", params={"game": number})]
        scores = list(result.scores)
        if result.winner != to:
            # Silent in the document: an awarded game gets IV.6's least win, 33-31.
            scores[to], scores[1 - to] = 33, 31
        said = {"seat": SEATS[to], "score": f"{scores[0]}-{scores[1]}"}
        if note:
            said["note"] = note
            reason = Reason("woc.penalty.award.note", rule="woc V.2(c)", params=said)
        else:
            reason = Reason("woc.penalty.award", rule="woc V.2(c)", params=said)
        return GameResult((scores[0], scores[1]), to, (*result.reasons, reason)), []
    if kind == "score":
        return _penalty_score(result, penalty, field, number, note)
    return None, [
        Problem("woc.penalty.kind", f"{field}.kind", params={"game": number, "kind": repr(kind)})
    ]


def _penalty_score(
    result: GameResult, penalty: Mapping[str, Any], field: str, number: int | None, note: str
) -> tuple[GameResult | None, list[Problem]]:
    raw = penalty.get("scores")
    values = [_whole(v) for v in raw] if isinstance(raw, list | tuple) and len(raw) == 2 else []
    if len(values) != 2 or any(v is None or v < 0 for v in values):
        return None, [Problem("woc.penalty.scores", f"{field}.scores", params={"game": number})]
    black, white = (v or 0 for v in values)
    if black + white != BOARD:
        return None, [
            Problem(
                "woc.penalty.total",
                f"{field}.scores",
                params={"game": number, "score": f"{black}-{white}", "total": black + white},
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
                    params={"game": number, "seat": SEATS[victim]},
                )
            ]
    winner = None if black == white else (0 if black > white else 1)
    said = {"score": f"{black}-{white}"}
    if note:
        said["note"] = note
        reason = Reason("woc.penalty.score.note", rule="woc V.2(b)", params=said)
    else:
        reason = Reason("woc.penalty.score", rule="woc V.2(b)", params=said)
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
