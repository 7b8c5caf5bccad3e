"""Scoring the matches after the Swiss (woc II.3.2, II.5.2, III, IV.9).

A final-stage match names its kind in ``details["kind"]``; seat 0 is always the better
ranked player (IFRL or WFRL), who has the choices the rules give. Colours change from game
to game, so every game records in ``first`` the seat that played Black; its ``scores`` are
in seat order (seat 0 first), and a game's own details (defaulter, penalty) speak of colours
as in the qualifying rounds.

- one-game matches (playoffs, third place, women's playoffs and final): IV.9 - seat 0 takes
  ``details["choice"]`` = ``"colour"`` (he chose the colour: a draw goes to his opponent) or
  ``"draw_win"`` (his opponent chose the colour: a draw goes to him).
- best-of-three matches (semi-finals, final): III.1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules import absence
from rules.contract import GameState, MatchScore, MatchState, Problem, Reason
from rules.formats.woc.scoring import score_game
from rules.words import gettext_noop as _
from rules.words import message

KIND_STAGE = {
    "playoff": "playoff",
    "semi_final": "semi_final",
    "women_playoff": "semi_final",
    "final": "final",
    "third_place": "final",
    "women_final": "final",
    "other": "other",
}
KIND_LABEL = {
    "playoff": "Playoff",
    "semi_final": "Semi-final",
    "women_playoff": "Women's playoff",
    "final": "Final",
    "third_place": "Third place",
    "women_final": "Women's final",
    "other": "Other game",
}
# IV.1: minutes per player for each kind of game.
MINUTES = {
    "playoff": 30,
    "women_playoff": 30,
    "semi_final": 35,
    "third_place": 35,
    "final": 40,
    "women_final": 40,
    "other": 30,
}
# a one-game match's kind as a part of a sentence ("a {kind} is one game")
KIND_NAMES = {
    "playoff": message("woc.kind.playoff"),
    "women_playoff": message("woc.kind.women_playoff"),
    "third_place": message("woc.kind.third_place"),
    "women_final": message("woc.kind.women_final"),
    "other": message("woc.kind.other"),
}
BEST_OF = {"semi_final": 3, "final": 3}
CHOICES = ("colour", "draw_win")


@dataclass(frozen=True)
class Played:
    """One game of a final-stage match, in seat terms."""

    number: int
    black: int  # the seat that played Black
    scores: tuple[int, int]  # seat order
    winner: int | None  # seat, None for a draw
    reasons: tuple[Reason, ...]


def kind_of(match: MatchState) -> str:
    return str(match.details.get("kind", ""))


def score_final_match(match: MatchState) -> MatchScore:
    kind = kind_of(match)
    if kind not in KIND_STAGE:
        return _refused(
            Problem(
                "woc.final.kind",
                "details.kind",
                params={"match": match.code, "kind": repr(kind)},
            )
        )
    if len(match.participants) != 2 or any(p.entrant is None for p in match.participants):
        return _refused(Problem("woc.match.players", "participants"))
    if absence.unplayed(match):
        return _walkover(match, kind)
    played, problems = _games(match, numbered=BEST_OF.get(kind, 1) == 3)
    if problems:
        return MatchScore(points=(0, 0), complete=False, problems=tuple(problems))
    if BEST_OF.get(kind, 1) == 3:
        return _best_of_three(match, played)
    return _one_game(match, played, kind)


def _games(match: MatchState, *, numbered: bool) -> tuple[list[Played], list[Problem]]:
    """The games read; ``numbered``: the match has several, so a sentence says which."""
    played: list[Played] = []
    for index, game in enumerate(sorted(match.games, key=lambda g: g.number)):
        place = f"games[{index}]"
        if game.first not in (0, 1):
            return [], [Problem("woc.final.black", f"{place}.first", params={"game": game.number})]
        black = int(game.first)
        scores = tuple(game.scores)
        in_colour = scores if black == 0 else (scores[1], scores[0]) if len(scores) == 2 else scores
        result, problems = score_game(
            GameState(game.number, tuple(in_colour), ending=game.ending, details=game.details),
            place,
            numbered=numbered,
        )
        if result is None:
            return [], problems
        official = result.scores if black == 0 else (result.scores[1], result.scores[0])
        winner = (
            None if result.winner is None else (result.winner if black == 0 else 1 - result.winner)
        )
        played.append(Played(game.number, black, official, winner, result.reasons))
    return played, []


def _one_game(match: MatchState, played: list[Played], kind: str) -> MatchScore:
    name = KIND_NAMES[kind]
    if not played:
        return MatchScore(points=(0, 0), complete=False)
    if len(played) > 1:
        return _refused(
            Problem("woc.final.one_game", "games", params={"kind": name, "count": len(played)})
        )
    game = played[0]
    reasons = list(game.reasons)
    winner = game.winner
    choice = match.details.get("choice")
    if choice is not None and choice not in CHOICES:
        return _refused(
            Problem("woc.choice.value", "details.choice", params={"choice": repr(choice)})
        )
    if winner is None and kind == "other":
        return MatchScore(
            points=(Fraction(1, 2), Fraction(1, 2)),
            summary="32-32",
            reasons=tuple(reasons),
            game_scores=(game.scores,),
            details={"kind": kind, "black": [game.black]},
        )
    if winner is None:
        if choice is None:
            return _refused(Problem("woc.choice.missing", "details.choice", params={"kind": name}))
        winner = 1 if choice == "colour" else 0
        if choice == "colour":
            reasons.append(Reason("woc.choice.colour", rule="woc IV.9(a)"))
        else:
            reasons.append(Reason("woc.choice.draw_win", rule="woc IV.9(b)"))
    points = (1, 0) if winner == 0 else (0, 1)
    return MatchScore(
        points=points,
        winner=winner,
        summary=f"{game.scores[0]}-{game.scores[1]}",
        reasons=tuple(reasons),
        game_scores=(game.scores,),
        details={"kind": kind, "black": [game.black], "choice": choice},
    )


def _best_of_three(match: MatchState, played: list[Played]) -> MatchScore:
    kind = kind_of(match)
    if len(played) > 3:
        return _refused(Problem("woc.final.games", "games"))
    if len(played) >= 2 and played[1].black == played[0].black:
        return _refused(Problem("woc.final.colours", "games[1].first"))
    points = [Fraction(0), Fraction(0)]
    discs = [0, 0]
    reasons: list[Reason] = []
    for game in played:
        for seat in (0, 1):
            discs[seat] += game.scores[seat]
        if game.winner is None:
            points[0] += Fraction(1, 2)
            points[1] += Fraction(1, 2)
        else:
            points[game.winner] += 1
        reasons.extend(game.reasons)
    details: dict[str, Any] = {
        "kind": kind,
        "black": [g.black for g in played],
        "discs": list(discs),
        "game_points": [_plain(p) for p in points],
    }
    summary = f"{_show(points[0])}-{_show(points[1])}"
    game_scores = tuple(g.scores for g in played)
    two_wins = (
        len(played) >= 2 and played[0].winner is not None and (played[0].winner == played[1].winner)
    )
    if two_wins and len(played) == 3:
        return _refused(Problem("woc.final.no_third", "games[2]"))
    if len(played) < 2 or (len(played) == 2 and not two_wins):
        if len(played) == 2:
            chooser = 0 if discs[0] >= discs[1] else 1
            if discs[0] != discs[1]:
                why = message("woc.final.game3.discs")
            else:
                why = message("woc.final.game3.rank")
            details["game3_choice"] = chooser
            reasons.append(
                Reason(
                    "woc.final.game3_choice",
                    rule="woc III.1",
                    params={"seat": chooser, "seat_number": chooser + 1, "why": why},
                )
            )
        return MatchScore(
            points=(_plain(points[0]), _plain(points[1])),
            complete=False,
            summary=summary,
            reasons=tuple(reasons),
            game_scores=game_scores,
            details=details,
        )
    if two_wins:
        winner = played[0].winner
        reasons.append(Reason("woc.final.two_wins", rule="woc III.1"))
    elif points[0] != points[1]:
        winner = 0 if points[0] > points[1] else 1
        reasons.append(Reason("woc.final.points", rule="woc III.1", params={"score": summary}))
    elif discs[0] != discs[1]:
        winner = 0 if discs[0] > discs[1] else 1
        reasons.append(
            Reason(
                "woc.final.discs",
                rule="woc III.1",
                params={"discs": f"{discs[winner]}-{discs[1 - winner]}"},
            )
        )
    else:
        winner = 0
        reasons.append(Reason("woc.final.rank", rule="woc III.1"))
    return MatchScore(
        points=(_plain(points[0]), _plain(points[1])),
        winner=winner,
        summary=summary,
        reasons=tuple(reasons),
        game_scores=game_scores,
        details=details,
    )


def _walkover(match: MatchState, kind: str) -> MatchScore:
    """woc.md, Absence: the absent player loses the match without play; when both are
    absent nobody wins it, and the director enters its games or withdraws a player."""
    gone = absence.seats(match)
    if len(gone) == 2:
        return MatchScore(
            points=(0, 0),
            complete=False,
            reasons=(Reason("woc.final.both_absent"),),
            details={"kind": kind},
        )
    winner = 1 - gone[0]
    return MatchScore(
        points=(1, 0) if winner == 0 else (0, 1),
        winner=winner,
        summary=_("W/O"),
        reasons=(Reason("woc.final.walkover"),),
        details={"kind": kind, "walkover": True},
    )


def loser_of(score: MatchScore) -> int | None:
    return None if score.winner is None else 1 - score.winner


def _plain(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else float(value)


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _refused(problem: Problem) -> MatchScore:
    return MatchScore(points=(0, 0), complete=False, problems=(problem,))


def match_details(
    kind: str, ranks: tuple[int, int], extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    details: dict[str, Any] = {
        "kind": kind,
        "ranks": list(ranks),
        "minutes": MINUTES[kind],
        "best_of": BEST_OF.get(kind, 1),
    }
    if extra:
        details.update(extra)
    return details
