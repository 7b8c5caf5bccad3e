"""Write a WOF rating file as PAPP lays it out (elo.c, v1.36), keeping what a file read in
another dialect said: the header, NAME and Firstname as read, '??????' ids, a score's '+2',
results without discs, byes as '% bye: <id>' lines (PAPP leaves them out).

Creator and CreationDate name the program that wrote this file and when; the ones of the file
first made are kept in '% Original Creator:' and '% Original CreationDate:' comments, which
the reader takes back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rules.formats.woc.wof import HEADER_KEYS, WofFile, WofGame, WofPlayer


def _score(value: Fraction | None, bonus: Fraction | None = None) -> str:
    if value is None:
        return ""
    whole = int(value)
    text = f"{whole:2d}.5" if value.denominator == 2 else f"{whole:2d}"
    if bonus:
        text += "+" + (str(bonus.numerator) if bonus.denominator == 1 else f"{float(bonus):g}")
    return text


def _id(ident: int, width: int = 6) -> str:
    return "??????" if ident < 0 else f"{ident:{width}d}"


def game_line(game: WofGame) -> str:
    if game.black_discs is None or game.white_discs is None:
        return f"{_id(game.black)} {game.result} {_id(game.white)}"
    return (
        f"{_id(game.black)} ({game.black_discs:02d}){game.result}({game.white_discs:02d}) "
        f"{_id(game.white)} B"
    )


def player_line(p: WofPlayer) -> str:
    rest = [_score(p.score, p.bonus), "" if p.discs is None else str(p.discs)]
    rest.append("" if p.rating is None else str(p.rating))
    while rest and rest[-1] == "":
        rest.pop()
    tail = "".join(f", {v}" for v in rest)
    mark = "+" if p.new else " "
    return f"%_% {mark}{_id(p.id)}, {p.surname}, {p.first_name}, {p.country}{tail}"


FORMED = "% Rounds formed from the order of the games: the file first read had no round headers."


def write_file(
    data: WofFile,
    *,
    creator: str = "",
    created: str = "",
    comments: Mapping[int, Sequence[str]] | None = None,
) -> str:
    """``comments``: round number (0: the added results) -> comment lines written there."""
    comments = comments or {}
    lines = []
    header = dict(data.header)
    for key in HEADER_KEYS[:4]:
        lines.append(f"%%{key}: {header.pop(key, '')}")
    lines.append("")
    made = {k: header.pop(k) for k in HEADER_KEYS[4:] if k in header}
    if creator:
        made = {"Creator": creator, "CreationDate": created}
    for key, value in made.items():
        lines.append(f"%%{key}: {value}")
    for key, value in header.items():
        lines.append(f"%%{key}: {value}")
    for key in HEADER_KEYS[4:]:
        if data.original.get(key):
            lines.append(f"% Original {key}: {data.original[key]}")
    lines.append("")
    listed = [p for p in data.players if p.listed]
    if listed:
        lines.append("%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating")
        lines.extend(player_line(p) for p in listed)
    lines.append("")
    if data.rounds_formed or not data.rounds_known:
        lines.append(FORMED)
    for number, games in enumerate(data.rounds, start=1):
        lines.append("")
        lines.append(f"%Round: {number}")
        lines.append("")
        lines.extend(game_line(g) for g in games)
        lines.extend(f"% bye: {_id(ident, 0)}" for ident in data.byes.get(number, []))
        lines.extend(
            f"% {ident} left"
            for ident, last in sorted(data.left.items())
            if last == number and ident > 0
        )
        lines.extend(comments.get(number, ()))
    lines.append("")
    lines.append("")
    lines.append("%%Added results")
    lines.extend(game_line(g) for g in data.added)
    lines.extend(comments.get(0, ()))
    return "\n".join(lines) + "\n"
