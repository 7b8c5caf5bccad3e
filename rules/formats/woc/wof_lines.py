"""The lines of a WOF rating file (.ELO) in every dialect of the WOF archive, one at a time.

What each kind of line looks like is in docs/formats/wof-file.md, with a line from the archive
for each dialect. This module only recognises lines; rules/formats/woc/wof.py puts them
together into a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.words import message

UNKNOWN_ID = -1  # '??????': the player had no WOF id when the file was written
_ID = r"(\d+|\?{2,})"
# One game anywhere on a line (issue 28): with discs '4043 (58)>(06) 100004 B' or without
# '3752 < 1024 B', the flag optional; a line may hold two games, and a '%' comment after them.
ONE_GAME = re.compile(
    rf"{_ID}\s*(?:\(\s*(\d+)\s*\)\s*([<>=])\s*\(\s*(\d+)\s*\)|([<>=]))\s*{_ID}"
    r"(?:\s+[A-Za-z]{1,2}(?![\w?]))?"
)
PLAYER = re.compile(r"^%_%\s*(\+?)\s*(\d+|\?{2,})\s*,(.*)$")
# '%Round: 1', '%Round 1', '%Round1', '% Round 1', '%round1:', '%%Round: 1', '%Round SF1',
# '%rounds'; and the Portuguese '%1 rodada'.
# The label is cut from the rest in round_label, not by the pattern: '\s*(.*?)\s*:?$' tries
# every split of a run of spaces, quadratic on a long comment line (issue 28, item 14); the
# possessive '*+' and '++' below do not go back into a run they took, for the same reason.
ROUND = re.compile(r"^%+\s*+(?:round|ronde|runde|rodada|turno)s?(?![a-z])(.*)$", re.I)
ROUND_AFTER = re.compile(
    r"^%+\s*+(\d++)\s*+(?:st|nd|rd|th|a|e)?\.?\s*+(?:rodada|ronde|runde)$", re.I
)
ADDED = re.compile(r"^%%\s*added\s+results?\s*:?$", re.I)
HEADER = re.compile(r"^%%\s*([A-Za-z][A-Za-z ]{0,30}?)\s*:\s?(.*)$")
# '% bye: 12' (this program), '%12349 had a bye', '% 299 bye', '% 884 and 882 bye'
BYE = re.compile(
    r"^%\s*+(?:bye\s*+:\s*+(?P<ours>\d++)|(?P<ids>\d++(?:\s*+(?:,|&|and)\s*+\d++)*+)\s++"
    r"(?:(?:had|has|got|gets)\s++an?\s++)?byes?\b.*)$",
    re.I,
)
# '%12354 left the tournament', '% 6824 left'
LEFT = re.compile(r"^%\s*+(\d++)\s++(?:has\s++)?(?:left|withdrew|withdrawn|retired)\b.*$", re.I)
# the column names PAPP writes over the list: '%        ID, NAME, Firstname, COUNTRY, score,
# disc-count, rating' (a few files name their last column MBQ: a Brightwell value, not discs)
COLUMNS = re.compile(r"^%[_%\s]*id\s*,.*\bname\b", re.I)
FORMED = re.compile(r"^%\s*Rounds formed\b", re.I)  # written over rounds this program formed
ORIGINAL = re.compile(r"^%\s*Original\s+(Creator|CreationDate)\s*:\s?(.*)$", re.I)
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?(?:\+\d+(?:\.\d+)?)?$")


@dataclass(frozen=True)
class PlayerFields:
    new: bool
    id: int  # UNKNOWN_ID for '??????'
    surname: str
    first_name: str
    country: str
    score: Fraction | None
    bonus: Fraction | None  # the '2' of '5+2': points the list adds to the games'
    discs: int | None
    rating: int | None


@dataclass(frozen=True)
class GameFields:
    black: int
    white: int
    black_discs: int | None  # None: a result without discs
    white_discs: int | None
    sign: str


def games(text: str) -> tuple[list[GameFields], str] | None:
    """The games of a line that does not start with '%' and the comment after them ('' if
    none); None when the line is not only games (it is quoted in a refusal). One game a line
    is the rule; two, and a comment after them, are dialects of the archive (issue 28)."""
    found: list[GameFields] = []
    position, end = 0, len(text)
    while True:
        while position < end and text[position] in " \t":
            position += 1
        if position == end:
            return (found, "") if found else None
        if text[position] == "%" and found:
            return found, text[position:].strip("% \t")
        match = ONE_GAME.match(text, position)
        if match is None:
            return None
        black, bd, sign, wd, bare, white = match.groups()
        if bare:
            found.append(GameFields(ident(black), ident(white), None, None, bare))
        else:
            found.append(GameFields(ident(black), ident(white), int(bd), int(wd), sign))
        position = match.end()


def ident(text: str) -> int:
    return UNKNOWN_ID if text.startswith("?") else int(text)


def quote(line: str, width: int = 40) -> str:
    """A short, printable excerpt of a line for a message (never raw bytes)."""
    shown = "".join(c if c.isprintable() else "?" for c in line.strip())
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def _numeric(token: str) -> bool:
    return bool(_NUMBER.match(token))


def _tokens(rest: str) -> list[str]:
    """The fields after the id: split at commas, then at tabs; a run of numbers written
    with spaces ('SGP   4     360') is split too. A decimal comma ('2,5') is a point."""
    rest = re.sub(r"(?<=\d),(?=\d)", ".", rest)
    fields: list[str] = []
    for part in rest.split(","):
        pieces = [p.strip() for p in part.split("\t")]
        pieces = [p for p in pieces if p] or [""]
        for piece in pieces:
            words = piece.split()
            tail: list[str] = []
            while words and (_numeric(words[-1]) or (words[-1] == "-" and not tail)):
                tail.insert(0, words.pop())
            if tail and (words or len(tail) > 1):
                if words:
                    fields.append(" ".join(words))
                fields.extend(tail)
            else:
                fields.append(piece)
    return fields


def _fraction(text: str) -> tuple[Fraction, Fraction | None]:
    score, _, bonus = text.partition("+")
    return Fraction(score), (Fraction(bonus) if bonus else None)


def player(match: re.Match[str]) -> PlayerFields | dict[str, Any]:
    """The fields of a '%_%' line, or what is wrong with it (a message)."""
    fields = _tokens(match.group(3))
    numbers: list[str] = []
    while fields and len(numbers) < 3 and (_numeric(fields[-1]) or fields[-1] == "-"):
        numbers.insert(0, fields.pop())
    if not fields or not fields[0]:
        return message("wof.player.fields")
    surname, first, country = fields[0], "", ""
    if len(fields) == 2:
        first = fields[1]
    elif len(fields) > 2:
        first, country = ", ".join(fields[1:-1]), fields[-1]
    score = bonus = None
    discs = rating = None
    try:
        if numbers and numbers[0] != "-":
            score, bonus = _fraction(numbers[0])
        if len(numbers) > 1 and numbers[1] != "-":
            discs = int(Fraction(numbers[1]))
        if len(numbers) > 2 and numbers[2] != "-":
            rating = int(Fraction(numbers[2]))
    except (ValueError, ZeroDivisionError):
        return message("wof.player.numbers")
    return PlayerFields(
        bool(match.group(1)),
        ident(match.group(2)),
        surname,
        first,
        country,
        score,
        bonus,
        discs,
        rating,
    )


def bye_ids(match: re.Match[str]) -> list[int]:
    text = match.group("ours") or match.group("ids") or ""
    return [int(n) for n in re.findall(r"\d+", text)]


def round_label(line: str) -> str | None:
    """The label of a round header ('1', 'SF1', '' for a bare '%rounds'), or None."""
    found = ROUND.match(line)
    if found:
        # what the pattern once said: '\s*:?\s*(.*?)\s*:?$'
        label = found.group(1).lstrip()
        label = (label[1:] if label.startswith(":") else label).lstrip()
        label = label.rstrip()
        return (label[:-1] if label.endswith(":") else label).rstrip()
    found = ROUND_AFTER.match(line)
    return found.group(1) if found else None
