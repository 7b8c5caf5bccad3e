"""Whether a WOF file is ready for the rating officer (issue 30, step 6): the file as it
will be sent, read back by the reader the imports use, and checked line by line.

- the header's fields: Tournament, Country, Date (dd/mm/yyyy, or a first and last day) and
  Sender are filled in;
- names in their places: each listed player has a NAME (the family name) and a Firstname,
  neither holding digits; a name split by a guess (the entrant was typed with one name
  field) is a warning to look at, not a refusal;
- every game has discs: a line with a result and no disc count, or with fewer discs than
  any finished game of Othello leaves on the board, must be given its discs or be marked a
  forfeit (a forfeit is written as a comment, never as a rated game);
- the list agrees with the games (points and discs, wof_check.cross_check), and no line
  contradicts itself.

Each finding names its line (0: the file as a whole) and field, with a code and its
parameters (words at the edge).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

from rules import words
from rules.formats.woc import wof
from rules.formats.woc.wof_check import cross_check

ERROR, WARNING = "error", "warning"
REQUIRED_HEADER = ("Tournament", "Country", "Date", "Sender")
_DAY = r"\d{1,2}/\d{1,2}/\d{4}"
DATE = re.compile(rf"^{_DAY}(\s*-\s*{_DAY})?$")
# The fewest discs a finished game leaves: the shortest game of Othello is 9 moves (4 + 9).
FEWEST_DISCS = 13
_HEADER_LINE = re.compile(r"^%%\s*([A-Za-z]+)\s*:")
_PLAYER_LINE = re.compile(r"^%_%")


@dataclass(frozen=True)
class Finding:
    line: int  # 0: the whole file
    field: str  # "Country", "NAME", "Firstname", "discs", "score", ...
    code: str
    params: dict[str, Any] = _field(default_factory=dict)
    severity: str = ERROR

    @property
    def text(self) -> str:
        """The English sentence (the web side says it in the reader's language)."""
        return words.render(self.code, self.params)


def _header_lines(text: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        match = _HEADER_LINE.match(raw.strip())
        if match:
            found.setdefault(match.group(1), number)
    return found


def _player_lines(text: str) -> list[int]:
    return [n for n, raw in enumerate(text.splitlines(), start=1) if _PLAYER_LINE.match(raw)]


def _header(data: wof.WofFile, lines: dict[str, int]) -> list[Finding]:
    out = []
    for key in REQUIRED_HEADER:
        value = data.header.get(key, "").strip()
        line = lines.get(key, 1)
        if not value:
            out.append(Finding(line, key, "wof.check.header_empty", {"field": key}))
        elif key == "Date" and not DATE.match(value):
            out.append(Finding(line, key, "wof.check.header_date", {"value": value}))
    return out


def _names(data: wof.WofFile, lines: list[int], guessed: Collection[int]) -> list[Finding]:
    out = []
    listed = [p for p in data.players if p.listed]
    for player, line in zip(listed, lines, strict=False):
        for place, value in (("NAME", player.surname), ("Firstname", player.first_name)):
            params = {"id": player.id, "field": place, "value": value}
            if not value.strip():
                out.append(Finding(line, place, "wof.check.name_empty", params))
            elif any(c.isdigit() for c in value):
                out.append(Finding(line, place, "wof.check.name_digits", params))
        if player.id in guessed:
            params = {"id": player.id, "name": player.surname, "first": player.first_name}
            out.append(Finding(line, "NAME", "wof.check.name_guessed", params, WARNING))
    return out


def _games(data: wof.WofFile) -> list[Finding]:
    out = []
    for game in [g for r in data.rounds for g in r] + list(data.added):
        params: dict[str, Any] = {"black": game.black, "white": game.white}
        if game.black_discs is None or game.white_discs is None:
            out.append(Finding(game.line, "discs", "wof.check.no_discs", params))
        elif game.black_discs + game.white_discs < FEWEST_DISCS:
            params |= {"discs": f"{game.black_discs}-{game.white_discs}", "fewest": FEWEST_DISCS}
            out.append(Finding(game.line, "discs", "wof.check.few_discs", params))
    for contradiction in data.contradictions:
        for problem in contradiction.problems:
            params = {"what": wof.said(problem)}
            out.append(Finding(contradiction.line, "game", "wof.check.contradiction", params))
    return out


def _list(data: wof.WofFile, lines: list[int]) -> list[Finding]:
    listed = [p for p in data.players if p.listed]
    line_of = dict(zip((p.id for p in listed), lines, strict=False))
    out = []
    for difference in cross_check(data).differences:
        place = "score" if difference.what == "points" else "disc-count"
        params = {
            "id": difference.player,
            "field": place,
            "listed": str(difference.listed),
            "games": str(difference.games),
        }
        out.append(Finding(line_of.get(difference.player, 0), place, "wof.check.list", params))
    return out


def validate(text: str, *, guessed: Collection[int] = ()) -> list[Finding]:
    """The findings about ``text`` in the order of its lines; ``guessed``: the WOF ids whose
    NAME and Firstname were split from one name by a guess."""
    try:
        data = wof.parse(text)
    except wof.WofError as error:
        return [
            Finding(n, "line", "wof.check.unreadable", {"what": wof.said(p)})
            for n, p in error.messages
        ]
    players = _player_lines(text)
    found = [
        *_header(data, _header_lines(text)),
        *_names(data, players, guessed),
        *_games(data),
        *_list(data, players),
    ]
    return sorted(found, key=lambda f: (f.line, f.field))


def errors(findings: Collection[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == ERROR]
