"""Bot contest games typed in bulk (a CSV) or posted by a referee program, read and checked.

A game row names its round, board, the entry that played X (moved first), the entry that
played O, the referee's result (X, O or tie; empty: from the points) and the points each
scored. This module finds each row's match and game, merges the rows with the games
already stored, and asks the engine to check every match whose games change: the answer
is either a list of changes to save or a list of errors, each naming its line and column.
Nothing here writes; tournaments/formats/bot_contest/services.py saves the changes.

The game a row fills: the match's game in which the row's X moved first. By the engine's
default (docs/formats/bot_contest.md), seat 0 moves first in game 1 and seat 1 in game 2, so
an X in seat 0 fills game 1 and an X in seat 1 fills game 2.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Prefetch

from rules.contract import Problem
from tournaments import selectors
from tournaments.models import Entrant, Event, Game, Match, Round
from tournaments.services.errors import InvalidResult
from tournaments.services.results import parse_games
from tournaments.services.state import load_event_state, match_state
from tournaments.words import sentence

COLUMNS = ("round", "board", "x", "o", "result", "x_points", "o_points")
OPTIONAL = ("game_id", "ending")
# Header spellings accepted for each column.
ALIASES = {
    "round": "round",
    "board": "board",
    "x": "x",
    "o": "o",
    "result": "result",
    "x points": "x_points",
    "x_points": "x_points",
    "o points": "o_points",
    "o_points": "o_points",
    "game id": "game_id",
    "game_id": "game_id",
    "game": "game_id",
    "ending": "ending",
}
RESULTS = {"x": "X", "o": "O", "tie": "tie", "draw": "tie", "": ""}
ENDINGS = ("normal", "forfeit", "default", "time_default")
MAX_ROWS = 10000


@dataclass(frozen=True)
class RowError:
    line: int  # the CSV line (the header is line 1); 0 for a posted game
    column: str
    text: str


@dataclass
class MatchChange:
    match: Match
    games: list[dict[str, Any]]  # every game of the match after the change, for record()
    lines: list[int]
    game_ids: dict[int, str] = field(default_factory=dict)  # game number -> referee's game id
    origin: dict[int, int] = field(default_factory=dict)  # game number -> line


@dataclass
class Checked:
    changes: list[MatchChange]
    errors: list[RowError]
    rows: int
    same: list[Match] = field(default_factory=list)  # matches the rows leave as they are

    @property
    def unchanged(self) -> int:
        return len(self.same)

    @property
    def valid(self) -> bool:
        return not self.errors and self.rows > 0


# a row's error reported: (line, column, text)
_Fail = Callable[[int, str, str], None]


def row_error(line: int, column: str, text: str) -> RowError:
    """An error worded with its place: "Line 5, x_points: ..." (no line: a posted game)."""
    if line and column:
        return RowError(line, column, f"Line {line}, {column}: {text}")
    return RowError(line, column, f"Line {line}: {text}" if line else text)


def read_csv(text: str) -> tuple[list[tuple[int, dict[str, str]]], list[RowError]]:
    """(line, row) pairs keyed by column name, or the file's own errors."""
    text = text.lstrip("\ufeff")
    if not text.strip():
        return [], [RowError(0, "", "The file is empty.")]
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    header = [ALIASES.get(h.strip().lower().replace("-", " "), h.strip()) for h in next(reader)]
    missing = [c for c in COLUMNS if c not in header]
    unknown = [h for h in header if h not in COLUMNS + OPTIONAL]
    errors = []
    if missing:
        errors.append(
            RowError(1, ", ".join(missing), f"Line 1: the header lacks {', '.join(missing)}.")
        )
    if unknown:
        errors.append(
            RowError(1, ", ".join(unknown), f"Line 1: unknown column(s) {', '.join(unknown)}.")
        )
    if errors:
        return [], errors
    rows = []
    for line, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            errors.append(
                RowError(
                    line, "", f"Line {line}: {len(cells)} cells; the header has {len(header)}."
                )
            )
            continue
        rows.append((line, {h: c.strip() for h, c in zip(header, cells, strict=True)}))
        if len(rows) > MAX_ROWS:
            return [], [RowError(line, "", f"The file has more than {MAX_ROWS} games.")]
    if not rows and not errors:
        errors.append(RowError(0, "", "The file has a header but no games."))
    return rows, errors


class _Event:
    """The event's entrants and the published rounds the rows name, in five queries."""

    def __init__(self, event: Event, round_numbers: Iterable[int]):
        self.event = event
        entrants = list(Entrant.objects.filter(event=event))
        self.by_number = {e.number: e for e in entrants}
        self.by_name: dict[str, list[Entrant]] = {}
        for entrant in entrants:
            self.by_name.setdefault(entrant.name.casefold(), []).append(entrant)
        rounds = Round.objects.filter(event=event, number__in=set(round_numbers)).prefetch_related(
            Prefetch(
                "matches",
                queryset=selectors.with_seats_and_games(),
            )
        )
        self.rounds = {r.number: r for r in rounds}
        self.matches: dict[tuple[int, frozenset[int]], tuple[Match, list[int | None]]] = {}
        for rnd in self.rounds.values():
            for match in rnd.matches.all():
                seats = [p.entrant_id for p in match.participants.all()]
                seated = [s for s in seats if s is not None]
                if len(seated) == 2:  # a seat left empty is no pair a row can name
                    self.matches[(rnd.number, frozenset(seated))] = (match, seats)

    def entrant(self, text: str) -> Entrant | str:
        """An entrant by registration number or exact name, or the words of the error."""
        if text.lstrip("#").isdigit():
            found = self.by_number.get(int(text.lstrip("#")))
            return found or f"no entrant has number {text}"
        named = self.by_name.get(text.casefold(), [])
        if len(named) == 1:
            return named[0]
        if named:
            return f"{len(named)} entrants are called '{text}'; give the number"
        return f"no entrant is called '{text}'" if text else "the entrant is missing"


def _number(text: str) -> float | int | None:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


def _stored(game: Game) -> dict[str, Any]:
    return {
        "number": game.number,
        "scores": list(game.scores),
        "first": game.number - 1 if game.first_seat is None else game.first_seat,
        "ending": game.ending,
        "details": dict(game.details),
    }


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    keys = ("number", "scores", "first", "ending")
    return all(a[k] == b[k] for k in keys) and all(
        a["details"].get(k) == b["details"].get(k) for k in ("board", "result")
    )


def _column_of(problem_field: str) -> str:
    for part, column in (
        (".details.result", "result"),
        (".details.board", "board"),
        (".scores", "x_points"),
        (".first", "x"),
        (".ending", "ending"),
    ):
        if part in problem_field:
            return column
    return ""


def check(
    event: Event,
    rows: Sequence[tuple[int, Mapping[str, Any]]],
    *,
    allow_replace: bool = True,
    engine_check: bool = True,
) -> Checked:
    """Every row read, placed and checked by the engine; nothing saved.

    ``allow_replace``: a row may overwrite a stored game with other values (a CSV corrects
    earlier results); a referee post may not (``False``): its game must be new.
    ``engine_check``: score every changed match now, so that a file gets all its errors at
    once; a single game leaves it to ``results.record``, which scores it anyway (the
    event's state is loaded once instead of twice).
    """
    errors: list[RowError] = []

    def fail(line: int, column: str, text: str) -> None:
        errors.append(row_error(line, column, text))

    numbers: dict[int, int] = {}
    for line, row in rows:
        raw = str(row.get("round", "")).strip()
        if raw.isdigit() and int(raw) >= 1:
            numbers[line] = int(raw)
        else:
            fail(line, "round", f"'{raw}' is not a round number.")
    lookup = _Event(event, set(numbers.values()))
    pending: dict[int, dict[int, dict[str, Any]]] = {}  # match pk -> game number -> game
    origin: dict[tuple[int, int], int] = {}  # (match pk, game number) -> line
    matches: dict[int, Match] = {}
    game_ids: dict[int, dict[int, str]] = {}
    seen_ids: dict[str, int] = {}
    for line, row in rows:
        if line not in numbers:
            continue
        rnd = lookup.rounds.get(numbers[line])
        if rnd is None or rnd.status == Round.Status.DRAFT:
            fail(line, "round", f"round {numbers[line]} is not published.")
            continue
        x = lookup.entrant(str(row.get("x", "")).strip())
        o = lookup.entrant(str(row.get("o", "")).strip())
        if isinstance(x, str):
            fail(line, "x", x + ".")
        if isinstance(o, str):
            fail(line, "o", o + ".")
        board = str(row.get("board", "")).strip()
        round_board = str(rnd.details.get("board", ""))
        if board and round_board and board != round_board:
            fail(line, "board", f"{rnd.label} is played on '{round_board}', not '{board}'.")
        result = RESULTS.get(str(row.get("result", "")).strip().lower())
        if result is None:
            fail(line, "result", f"'{row.get('result')}' is not a result: use X, O or tie.")
        points = []
        for column in ("x_points", "o_points"):
            value = _number(str(row.get(column, "")).strip())
            if value is None:
                fail(line, column, f"'{row.get(column, '')}' is not a number of points.")
            elif value < 0:
                fail(line, column, "points cannot be negative.")
            points.append(value)
        ending = str(row.get("ending", "") or "normal").strip().lower().replace(" ", "_")
        if ending not in ENDINGS:
            fail(line, "ending", f"'{ending}' is not a way a game can end ({', '.join(ENDINGS)}).")
        game_id = str(row.get("game_id", "") or "").strip()[:100]
        if game_id and game_id in seen_ids:
            fail(line, "game_id", f"game id '{game_id}' is also on line {seen_ids[game_id]}.")
        if game_id:
            seen_ids.setdefault(game_id, line)
        if isinstance(x, str) or isinstance(o, str):
            continue
        found = lookup.matches.get((rnd.number, frozenset((x.pk, o.pk))))
        if x.pk == o.pk or found is None:
            fail(line, "o", f"{x.name} and {o.name} do not play each other in {rnd.label}.")
            continue
        match, seats = found
        x_seat = seats.index(x.pk)
        number = x_seat + 1
        slot = (match.pk, number)
        if slot in origin:
            fail(
                line,
                "x",
                f"line {origin[slot]} already gives the game of {match.code} in which "
                f"{x.name} plays X.",
            )
            continue
        origin[slot] = line
        if None in points or result is None or ending not in ENDINGS:
            continue
        scores = [points[0], points[1]] if x_seat == 0 else [points[1], points[0]]
        details = {"board": board or round_board} if (board or round_board) else {}
        if result:
            details["result"] = result
        matches[match.pk] = match
        pending.setdefault(match.pk, {})[number] = {
            "number": number,
            "scores": scores,
            "first": x_seat,
            "ending": ending,
            "details": details,
        }
        if game_id:
            game_ids.setdefault(match.pk, {})[number] = game_id
    if errors:
        return Checked([], errors, len(rows))
    changes, same = _merge(matches, pending, origin, game_ids, allow_replace, fail)
    if not errors and engine_check:
        _engine_check(event, changes, origin, fail)
    return Checked([] if errors else changes, errors, len(rows), same)


def _merge(
    matches: dict[int, Match],
    pending: dict[int, dict[int, dict[str, Any]]],
    origin: dict[tuple[int, int], int],
    game_ids: dict[int, dict[int, str]],
    allow_replace: bool,
    fail: _Fail,
) -> tuple[list[MatchChange], list[Match]]:
    """The rows' games merged with the stored ones; matches left as they are dropped."""
    changes: list[MatchChange] = []
    same: list[Match] = []
    for pk, new in pending.items():
        match = matches[pk]
        stored = {g.number: _stored(g) for g in match.games.all()}
        if all(n in stored and _same(stored[n], g) for n, g in new.items()):
            same.append(match)
            continue
        if match.round.status == Round.Status.COMPLETED:
            for n in new:
                fail(
                    origin[(pk, n)],
                    "round",
                    f"{match.round.label} is closed: correct {match.code} by hand on the "
                    "round's screen.",
                )
            continue
        if not allow_replace:
            for n, game in new.items():
                if n in stored and not _same(stored[n], game):
                    fail(
                        origin[(pk, n)],
                        "x",
                        f"{match.code} already has this game with another result; the "
                        "director corrects it by hand.",
                    )
        games = {**stored, **new}
        changes.append(
            MatchChange(
                match=match,
                games=[games[n] for n in sorted(games)],
                lines=sorted(origin[(pk, n)] for n in new),
                game_ids=game_ids.get(pk, {}),
                origin={n: origin[(pk, n)] for n in new},
            )
        )
    return changes, same


def _engine_check(
    event: Event, changes: list[MatchChange], origin: dict[tuple[int, int], int], fail: _Fail
) -> None:
    """The engine scores each changed match as it would be saved; its refusals are errors
    on the lines that gave the games."""
    if not changes:
        return
    state = load_event_state(event)
    for change in changes:
        match = change.match
        try:
            games = parse_games(change.games)
        except InvalidResult as refused:
            _report(change, refused.problems, origin, fail)
            continue
        current = replace(match_state(match, match.round.number), games=games)
        score = event.engine.score_match(state, current)
        _report(change, score.problems, origin, fail)


def refusal(change: MatchChange, problems: Iterable[Problem]) -> list[RowError]:
    """The engine's refusal of a change, as errors on the lines that gave its games."""
    errors: list[RowError] = []

    def fail(line: int, column: str, text: str) -> None:
        errors.append(row_error(line, column, text))

    origin = {(change.match.pk, n): line for n, line in change.origin.items()}
    _report(change, problems, origin, fail)
    return errors


def _report(
    change: MatchChange,
    problems: Iterable[Problem],
    origin: Mapping[tuple[int, int], int],
    fail: _Fail,
) -> None:
    for problem in problems:
        number = None
        if problem.field.startswith("games[") and "]" in problem.field:
            index = int(problem.field[6 : problem.field.index("]")])
            if index < len(change.games):
                number = change.games[index]["number"]
        line = origin.get((change.match.pk, number)) if number else None
        text = f"{change.match.code}: {sentence(problem)}"
        fail(line or change.lines[0], _column_of(problem.field), text)
