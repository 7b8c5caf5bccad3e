"""Scoring Freestyle games and matches, and the record of every counted game of a round.

A game is two game point scores in seat order (open question 6): the higher score wins and
equal scores are a tie, which counts half a win to each player in the group rounds. In the
semi-finals and the final round a tie is replayed with A and B switched until someone wins
(the replays are further games of the same match).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules import absence
from rules.contract import (
    EntrantState,
    EventState,
    GameEnding,
    GameState,
    MatchScore,
    MatchState,
    Number,
    Problem,
    Reason,
    RoundState,
    RoundStatus,
)
from rules.formats.freestyle.tables import SEMI_FINALS
from rules.words import gettext_noop as _
from rules.words import message

HALF = Fraction(1, 2)
B_COLOURS = ("blue/red", "yellow/green")
CHOICES = ("A", "B")


def fraction(value: Number) -> Fraction:
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    return Fraction(value)


def plain(value: Any) -> Any:
    """A Fraction as an int or float, for values the service layer stores."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def show(value: Number) -> str:
    value = plain(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class GameResult:
    """One counted game: who played, their game points, and where it stands in time."""

    round: int
    order: int  # playing order within the round (higher is later)
    players: tuple[str, str]
    points: tuple[Fraction, Fraction]

    def side(self, entrant: str) -> int:
        return self.players.index(entrant)

    def opponent(self, entrant: str) -> str:
        return self.players[1 - self.side(entrant)]

    def win(self, entrant: str) -> Fraction:
        """1 for a win, 1/2 for a tie ("half-wins/half-losses"), 0 for a loss."""
        mine = self.points[self.side(entrant)]
        theirs = self.points[1 - self.side(entrant)]
        return Fraction(1) if mine > theirs else HALF if mine == theirs else Fraction(0)

    def difference(self, entrant: str) -> Fraction:
        side = self.side(entrant)
        return self.points[side] - self.points[1 - side]


class RoundRecord:
    """The counted games of one round, with the sums the ranking steps need."""

    def __init__(self, games: Sequence[GameResult]):
        self.games = tuple(games)
        self._by_entrant: dict[str, list[GameResult]] = {}
        for game in self.games:
            for entrant in game.players:
                self._by_entrant.setdefault(entrant, []).append(game)

    def of(self, entrant: str, among: Sequence[str] | None = None) -> list[GameResult]:
        games = self._by_entrant.get(entrant, [])
        if among is None:
            return list(games)
        return [g for g in games if g.opponent(entrant) in among]

    def played(self, entrant: str, among: Sequence[str] | None = None) -> int:
        return len(self.of(entrant, among))

    def wins(self, entrant: str, among: Sequence[str] | None = None) -> Fraction:
        return sum((g.win(entrant) for g in self.of(entrant, among)), Fraction(0))

    def difference(self, entrant: str, among: Sequence[str] | None = None) -> Fraction:
        return sum((g.difference(entrant) for g in self.of(entrant, among)), Fraction(0))

    def points_for(self, entrant: str) -> Fraction:
        return sum((g.points[g.side(entrant)] for g in self.of(entrant)), Fraction(0))

    def met(self, first: str, second: str) -> bool:
        return any(g.opponent(first) == second for g in self.of(first))

    def between(self, first: str, second: str) -> list[GameResult]:
        return [g for g in self.of(first) if g.opponent(first) == second]


class Context:
    """An event state with the lookups and caches every engine call needs."""

    def __init__(self, state: EventState):
        self.state = state
        self.entrants: dict[str, EntrantState] = state.entrants_by_id
        self.rounds: dict[int, RoundState] = {r.number: r for r in state.rounds}
        self._scores: dict[tuple[int, str], MatchScore] = {}
        self._records: dict[int, RoundRecord] = {}
        self.cache: dict[Any, Any] = {}  # for the ranking module
        self._completed = sum(1 for r in state.rounds if r.status is RoundStatus.COMPLETED)

    def name(self, entrant: str | None) -> str:
        if entrant is None:
            return "nobody"
        found = self.entrants.get(entrant)
        return found.name if found else entrant

    def who(self, entrant: str | None) -> str | dict[str, Any]:
        """An entrant's name as a parameter of a message: "nobody" is said in the reader's
        language."""
        return message("freestyle.nobody") if entrant is None else self.name(entrant)

    def names(self, entrants: Sequence[str]) -> str:
        names = [self.name(e) for e in entrants]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def out_after(self, entrant: str) -> int | None:
        """The last round whose games count for a withdrawn entrant (None: still playing).

        A withdrawal during round r is recorded as ``withdrawn_after_round = r - 1`` (his
        round r games are void); between rounds r and r + 1 as ``r``. A withdrawn entrant
        without that number is taken to have left after the last completed round.
        """
        found = self.entrants.get(entrant)
        if found is None:
            return 0
        if found.withdrawn_after_round is not None:
            return found.withdrawn_after_round
        if not found.active:
            return self._completed
        return None

    def in_round(self, entrant: str, number: int) -> bool:
        last = self.out_after(entrant)
        return last is None or number <= last

    def score(self, match: MatchState) -> MatchScore:
        key = (match.round_number, match.code)
        if key not in self._scores:
            self._scores[key] = score_match(self, match)
        return self._scores[key]

    def matches(self, number: int) -> tuple[MatchState, ...]:
        found = self.rounds.get(number)
        if found is None or found.status is RoundStatus.DRAFT:
            return ()
        return found.matches

    def record(self, number: int) -> RoundRecord:
        if number not in self._records:
            games: list[GameResult] = []
            for index, match in enumerate(self.matches(number)):
                score = self.score(match)
                if not score.valid or score.details.get("void") or len(match.participants) != 2:
                    continue
                players = (str(match.participants[0].entrant), str(match.participants[1].entrant))
                for number_in_match, scores in enumerate(score.game_scores):
                    a, b = scores
                    assert a is not None and b is not None
                    games.append(
                        GameResult(
                            number,
                            index * 100 + number_in_match,
                            players,
                            (fraction(a), fraction(b)),
                        )
                    )
            self._records[number] = RoundRecord(games)
        return self._records[number]


def score_match(ctx: Context, match: MatchState) -> MatchScore:
    number = match.round_number
    knockout = number >= SEMI_FINALS
    if match.is_bye:
        if knockout:
            return MatchScore(
                points=(1,),
                winner=0,
                summary=_("bye"),
                reasons=(Reason("freestyle.bye"),),
            )
        return MatchScore(points=(0,), summary=_("bye"))
    if len(match.participants) != 2:
        return _refused(Problem("freestyle.players", "participants"))
    if knockout and absence.unplayed(match):
        return _absent_walkover(ctx, match)
    present = [
        seat
        for seat, p in enumerate(match.participants)
        if p.entrant is not None and ctx.in_round(p.entrant, number)
    ]
    if len(present) < 2:
        return _without_play(ctx, match, present, knockout)
    problems = _check_choice(match)
    if len(match.games) > 1 and not knockout:
        problems.append(Problem("freestyle.one_game", "games", params={"given": len(match.games)}))
    scores: list[tuple[Fraction, Fraction]] = []
    for index, game in enumerate(match.games):
        checked = _check_game(index, game, problems)
        if checked is not None:
            scores.append(checked)
    if problems:
        return MatchScore(points=(0, 0), complete=False, problems=tuple(problems))
    if not scores:
        return MatchScore(points=(0, 0), complete=False, summary="")
    a_seats = _a_seats(match, len(scores))
    details: dict[str, Any] = {"a_seats": a_seats}
    summary = ", ".join(f"{show(a)}-{show(b)}" for a, b in scores)
    game_scores = tuple((plain(a), plain(b)) for a, b in scores)
    if not knockout:
        a, b = scores[0]
        points = (Fraction(1), Fraction(0)) if a > b else (Fraction(0), Fraction(1))
        if a == b:
            points = (HALF, HALF)
        winner = None if a == b else (0 if a > b else 1)
        return MatchScore(
            points=points,
            winner=winner,
            summary=summary,
            game_scores=game_scores,
            details=details,
        )
    return _knockout(scores, summary, game_scores, details)


def _knockout(
    scores: list[tuple[Fraction, Fraction]],
    summary: str,
    game_scores: tuple[tuple[Number | None, ...], ...],
    details: dict[str, Any],
) -> MatchScore:
    # "If a semi-final or final game is a tie game, it is replayed, with the players
    # switching A and B roles": every game but the last must be a tie.
    for index, (a, b) in enumerate(scores[:-1]):
        if a != b:
            return MatchScore(
                points=(0, 0),
                complete=False,
                problems=(
                    Problem(
                        "freestyle.after_decision",
                        f"games[{index + 1}]",
                        params={"game": index + 1},
                    ),
                ),
            )
    a, b = scores[-1]
    if a == b:
        return MatchScore(
            points=(0, 0),
            complete=False,
            summary=summary,
            game_scores=game_scores,
            details=details,
            reasons=(
                Reason(
                    "freestyle.replay",
                    rule="Semi-finals: If a semi-final or final game is a tie game, it is replayed",
                ),
            ),
        )
    winner = 0 if a > b else 1
    details["margin"] = plain(abs(a - b))
    points: tuple[Number, Number] = (1, 0) if winner == 0 else (0, 1)
    return MatchScore(
        points=points,
        winner=winner,
        summary=summary,
        game_scores=game_scores,
        details=details,
    )


def _without_play(
    ctx: Context, match: MatchState, present: list[int], knockout: bool
) -> MatchScore:
    gone = [p.entrant for p in match.participants if p.entrant is not None]
    gone = [e for e in gone if not ctx.in_round(e, match.round_number)]
    if knockout and len(present) == 1:
        seat = present[0]
        points: tuple[Number, Number] = (1, 0) if seat == 0 else (0, 1)
        return MatchScore(
            points=points,
            winner=seat,
            summary=_("W/O"),
            details={"walkover": True},
            reasons=(
                Reason(
                    "freestyle.walkover",
                    rule="Player withdrawals",
                    params={"names": ctx.names([str(e) for e in gone])},
                ),
            ),
        )
    return MatchScore(
        points=(0, 0),
        summary=_("void"),
        details={"void": True},
        reasons=(
            Reason(
                "freestyle.void",
                rule="Player withdrawals: his games (even if he played all of them) do not count",
                params={"names": ctx.names([str(e) for e in gone])},
            ),
        ),
    )


def _absent_walkover(ctx: Context, match: MatchState) -> MatchScore:
    """freestyle.md, Absence: the absent player loses the knockout match without play and
    stays in the event (a semi-final loser still plays for third place). Both absent,
    nobody wins: the director enters the game or withdraws one of them."""
    gone = absence.seats(match)
    names = ctx.names([str(match.participants[s].entrant) for s in gone])
    if len(gone) == 2:
        return MatchScore(
            points=(0, 0),
            complete=False,
            reasons=(
                Reason(
                    "freestyle.both_absent", rule="freestyle.md, Absence", params={"names": names}
                ),
            ),
        )
    winner = 1 - gone[0]
    points: tuple[Number, Number] = (1, 0) if winner == 0 else (0, 1)
    return MatchScore(
        points=points,
        winner=winner,
        summary=_("W/O"),
        details={"absent": [match.participants[gone[0]].entrant]},
        reasons=(
            Reason(
                "freestyle.absent_walkover", rule="freestyle.md, Absence", params={"names": names}
            ),
        ),
    )


def _refused(problem: Problem) -> MatchScore:
    return MatchScore(points=(0, 0), complete=False, problems=(problem,))


def higher_seed_choice(match: MatchState) -> tuple[Any, str]:
    """The higher seed's choice of A or B and the field it was read from.

    Recorded as match detail ``higher_seed_chose``, or with the result as a detail of the
    first game (the director's result form saves games, so the web side records it there).
    """
    if match.details.get("higher_seed_chose") is not None:
        return match.details["higher_seed_chose"], "details.higher_seed_chose"
    if match.games and match.games[0].details.get("higher_seed_chose") is not None:
        return match.games[0].details["higher_seed_chose"], "games[0].details.higher_seed_chose"
    return None, ""


def _check_choice(match: MatchState) -> list[Problem]:
    choice, field = higher_seed_choice(match)
    if choice is None:
        return []
    if match.round_number == 1:
        return [Problem("freestyle.round1_choice", field)]
    if choice not in CHOICES:
        return [Problem("freestyle.choice", field, params={"value": choice})]
    return []


def _check_game(
    index: int, game: GameState, problems: list[Problem]
) -> tuple[Fraction, Fraction] | None:
    place = f"games[{index}]"
    if len(game.scores) != 2 or any(s is None for s in game.scores):
        problems.append(
            Problem("freestyle.score_missing", f"{place}.scores", params={"game": game.number})
        )
        return None
    a, b = (fraction(s) for s in game.scores if s is not None)
    if a < 0 or b < 0:
        problems.append(
            Problem("freestyle.score_negative", f"{place}.scores", params={"game": game.number})
        )
        return None
    if game.ending is GameEnding.BYE:
        problems.append(
            Problem("freestyle.ending", f"{place}.ending", params={"game": game.number})
        )
        return None
    _check_game_details(place, game, problems)
    return a, b


def _check_game_details(place: str, game: GameState, problems: list[Problem]) -> None:
    details: Mapping[str, Any] = game.details
    colours = details.get("b_colours")
    if colours is not None and colours not in B_COLOURS:
        problems.append(
            Problem(
                "freestyle.b_colours",
                f"{place}.details.b_colours",
                params={"game": game.number, "value": colours},
            )
        )
    for key in ("first_blue_piece", "first_red_piece"):
        value = details.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            problems.append(
                Problem("freestyle.piece", f"{place}.details.{key}", params={"game": game.number})
            )


def _a_seats(match: MatchState, games: int) -> list[int | None]:
    """The seat of A in each game: replays switch A and B."""
    first: int | None = None
    if match.round_number == 1:
        roles = [p.role for p in match.participants]
        first = roles.index("A") if "A" in roles else 0
    else:
        # Seat 0 is the higher seed, who "has the choice of being A or B".
        choice, _ = higher_seed_choice(match)
        first = 0 if choice == "A" else 1 if choice == "B" else None
    if first is None:
        return [None] * games
    return [first if n % 2 == 0 else 1 - first for n in range(games)]
