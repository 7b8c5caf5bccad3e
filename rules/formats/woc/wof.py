"""WOF rating files (.ELO), as PAPP writes them: parse and write, pure text <-> data.

    %%Tournament: WOC 2015
    %%Country: World
    ...
    %        ID, NAME, Firstname, COUNTRY, score, disc-count, rating
    %_%    5537, TAKANASHI, Yusuke, JPN, 11, 519, 2499
    %Round: 1
      4043 (58)>(06) 100004 B
    %%Added results
      3024 (34)>(30)    839 B

A game line is Black's id, Black's discs, <, = or >, White's discs, White's id and a flag.
Other lines starting with % are comments, except ``% bye: <id>`` inside a round, which this
project writes for a bye (PAPP leaves byes out; a reader that does not know it skips it).
A file that cannot be read whole is refused with the line number and the problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

GAME = re.compile(
    r"^\s*(\d+)\s*\(\s*(\d+)\s*\)\s*([<>=])\s*\(\s*(\d+)\s*\)\s*(\d+)\s*([A-Za-z]?)\s*$"
)
PLAYER = re.compile(r"^%_%\s*(\+?)\s*(\d+)\s*,(.*)$")
ROUND = re.compile(r"^%Round:\s*(\S*)\s*$", re.IGNORECASE)
HEADER = re.compile(r"^%%([A-Za-z]+):\s?(.*)$")
BYE = re.compile(r"^%\s*bye:\s*(\d+)\s*$", re.IGNORECASE)
ADDED = "%%added results"
HEADER_KEYS = ("Tournament", "Country", "Date", "Sender", "Creator", "CreationDate")


class WofError(ValueError):
    def __init__(self, problems: list[tuple[int, str]]):
        self.problems = problems
        super().__init__("; ".join(f"line {n}: {text}" for n, text in problems))


@dataclass(frozen=True)
class WofPlayer:
    id: int
    surname: str
    first_name: str
    country: str
    score: Fraction | None = None
    discs: int | None = None
    rating: int | None = None
    new: bool = False


@dataclass(frozen=True)
class WofGame:
    black: int
    white: int
    black_discs: int
    white_discs: int
    line: int = 0


@dataclass
class WofFile:
    header: dict[str, str] = field(default_factory=dict)
    players: list[WofPlayer] = field(default_factory=list)
    rounds: list[list[WofGame]] = field(default_factory=list)
    byes: dict[int, list[int]] = field(default_factory=dict)  # round number -> ids
    added: list[WofGame] = field(default_factory=list)

    def player(self, ident: int) -> WofPlayer:
        return next(p for p in self.players if p.id == ident)


def parse(text: str) -> WofFile:
    """Read a whole file; raise WofError listing every problem (line number, what)."""
    out = WofFile()
    problems: list[tuple[int, str]] = []
    where: list[int] = []  # line of each player
    bye_lines: dict[tuple[int, int], int] = {}  # (round, id) -> line of its '% bye:'
    current: list[WofGame] | None = None
    in_added = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.strip().lower() == ADDED:
            in_added, current = True, out.added
            continue
        header = HEADER.match(line)
        if header:
            out.header[header.group(1)] = header.group(2).strip()
            continue
        player = PLAYER.match(line)
        if player:
            parsed = _player(player, number, problems)
            if parsed:
                out.players.append(parsed)
                where.append(number)
            continue
        rnd = ROUND.match(line)
        if rnd:
            expected = len(out.rounds) + 1
            if in_added:
                problems.append((number, "a '%Round:' header after '%%Added results'."))
            elif not rnd.group(1).isdecimal():  # isdigit() takes '¹', which int() refuses
                problems.append((number, f"'{line}' is not a round header like '%Round: 1'."))
            elif int(rnd.group(1)) != expected:
                problems.append(
                    (
                        number,
                        f"round {rnd.group(1)} where round {expected} was expected: a "
                        "'%Round:' header is missing or out of order.",
                    )
                )
            out.rounds.append([])
            current = out.rounds[-1]
            continue
        bye = BYE.match(line)
        if bye and current is not None and not in_added:
            out.byes.setdefault(len(out.rounds), []).append(int(bye.group(1)))
            bye_lines.setdefault((len(out.rounds), int(bye.group(1))), number)
            continue
        if line.startswith("%"):
            continue
        game = GAME.match(line)
        if not game:
            problems.append((number, f"cannot read '{line.strip()}' as a game."))
            continue
        if current is None:
            problems.append((number, "a game before the first '%Round: 1' header."))
            continue
        current.append(_game(game, number, problems))
    _check(out, problems, where, bye_lines)
    if problems:
        raise WofError(sorted(problems))
    return out


def _player(match: re.Match[str], number: int, problems: list[tuple[int, str]]) -> WofPlayer | None:
    parts = [p.strip() for p in match.group(3).split(",")]
    if len(parts) < 3:
        problems.append((number, "a player line needs id, NAME, Firstname, COUNTRY."))
        return None
    score = discs = rating = None
    try:
        if len(parts) > 3 and parts[3]:
            score = Fraction(parts[3])
        if len(parts) > 4 and parts[4]:
            discs = int(Fraction(parts[4]))
        if len(parts) > 5 and parts[5]:
            rating = int(parts[5])
    except (ValueError, ZeroDivisionError):
        problems.append(
            (number, f"cannot read the score, disc count or rating in '{match.group(0)}'.")
        )
    return WofPlayer(
        int(match.group(2)),
        parts[0],
        parts[1],
        parts[2],
        score,
        discs,
        rating,
        bool(match.group(1)),
    )


def _game(match: re.Match[str], number: int, problems: list[tuple[int, str]]) -> WofGame:
    black, bd, sign, wd, white = (match.group(i) for i in range(1, 6))
    game = WofGame(int(black), int(white), int(bd), int(wd), number)
    total = game.black_discs + game.white_discs
    if total > 64:
        problems.append(
            (
                number,
                f"a game with {total} discs ({bd} + {wd}); the board has 64 squares.",
            )
        )
    expected = "=" if bd == wd else (">" if int(bd) > int(wd) else "<")
    if sign != expected:
        problems.append((number, f"'{sign}' does not agree with the discs {bd}-{wd}."))
    if game.black == game.white:
        problems.append((number, f"player {black} plays against himself."))
    return game


def _check(
    out: WofFile,
    problems: list[tuple[int, str]],
    where: list[int],
    bye_lines: dict[tuple[int, int], int],
) -> None:
    ids: dict[int, int] = {}
    for player, line in zip(out.players, where, strict=True):
        if player.id in ids:
            problems.append(
                (line, f"player {player.id} is listed twice (also line {ids[player.id]}).")
            )
        ids[player.id] = line
    if not out.players:
        problems.append((1, "no player list ('%_% id, NAME, Firstname, COUNTRY, ...' lines)."))
    if not out.rounds:
        problems.append((1, "no '%Round: 1' header: the file has no rounds."))
    for number, games in enumerate(out.rounds, start=1):
        seen: dict[int, int] = {}
        for game in games:
            for ident in (game.black, game.white):
                if ident not in ids:
                    problems.append((game.line, f"player {ident} is not in the player list."))
                elif ident in seen:
                    problems.append(
                        (
                            game.line,
                            f"player {ident} plays twice in round {number} (also line "
                            f"{seen[ident]}): is a '%Round:' header missing?",
                        )
                    )
                seen[ident] = game.line
        for ident in out.byes.get(number, []):
            if ident not in ids:
                problems.append(
                    (
                        bye_lines.get((number, ident), 1),
                        f"round {number}: the bye goes to {ident}, not in the player list.",
                    )
                )
    for game in out.added:
        for ident in (game.black, game.white):
            if ident not in ids:
                problems.append((game.line, f"player {ident} is not in the player list."))


# -- writing -------------------------------------------------------------------------------


def _score(value: Fraction | None) -> str:
    if value is None:
        return ""
    whole = int(value)
    return f"{whole:2d}.5" if value.denominator == 2 else f"{whole:2d}"


def _game_line(game: WofGame) -> str:
    sign = (
        "="
        if game.black_discs == game.white_discs
        else (">" if game.black_discs > game.white_discs else "<")
    )
    return (
        f"{game.black:6d} ({game.black_discs:02d}){sign}({game.white_discs:02d}) {game.white:6d} B"
    )


def write(data: WofFile) -> str:
    """The file as PAPP lays it out (elo.c, v1.36)."""
    lines = []
    header = dict(data.header)
    for key in HEADER_KEYS[:4]:
        lines.append(f"%%{key}: {header.pop(key, '')}")
    lines.append("")
    for key in HEADER_KEYS[4:]:
        if key in header:
            lines.append(f"%%{key}: {header.pop(key)}")
    for key, value in header.items():
        lines.append(f"%%{key}: {value}")
    lines.append("")
    lines.append("%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating")
    for p in data.players:
        rest = [_score(p.score), "" if p.discs is None else str(p.discs)]
        rest.append("" if p.rating is None else str(p.rating))
        while rest and rest[-1] == "":
            rest.pop()
        tail = "".join(f", {v}" for v in rest)
        mark = "+" if p.new else " "
        lines.append(f"%_% {mark}{p.id:6d}, {p.surname}, {p.first_name}, {p.country}{tail}")
    lines.append("")
    for number, games in enumerate(data.rounds, start=1):
        lines.append("")
        lines.append(f"%Round: {number}")
        lines.append("")
        lines.extend(_game_line(g) for g in games)
        lines.extend(f"% bye: {ident}" for ident in data.byes.get(number, []))
    lines.append("")
    lines.append("")
    lines.append("%%Added results")
    lines.extend(_game_line(g) for g in data.added)
    return "\n".join(lines) + "\n"
