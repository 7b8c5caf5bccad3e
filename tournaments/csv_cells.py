"""The one way this project writes CSV: every cell a spreadsheet could run as a formula is
neutralised (OWASP's CSV injection rule). Entrant and team names are typed by whoever signs
up or fills an import; a director who opens the file in a spreadsheet must never run them.

The rule: a text cell that starts with = + - @ tab or carriage return gets a leading single
quote, so the program shows it as text. Numbers are left as they are: a value the code holds
as a number (a negative rating, a disc margin) and a text that is nothing but a plain decimal
number ("-3", "+0.5"), which a spreadsheet reads as that number and cannot run. "-2+3" is
not a plain number: it is quoted. (docs/operations.md, "CSV files".)

A spreadsheet may also split the line on another delimiter than ours: French and German
Excel split on ";", others on tab, and they ignore our quotes when a field does not start
with one. So the same rule holds for every piece of a text that follows a comma, a
semicolon, a tab or a line break: "x;=1+1;y" is written "x;'=1+1;y".
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
# A delimiter some spreadsheet splits on, then what it skips before a cell's first character
# (an opening quote, spaces), then a character that starts a formula, then the rest of that
# piece up to the next delimiter.
PIECE_AFTER_DELIMITER = re.compile(r"(?<=[,;\t\r\n])([\" ]*)([=+\-@][^,;\t\r\n]*)")


def _neutralise_piece(match: re.Match[str]) -> str:
    skipped, piece = match.group(1), match.group(2)
    if PLAIN_NUMBER.fullmatch(piece.rstrip('" ')):
        return match.group(0)
    return f"{skipped}'{piece}"


def cell(value: Any) -> Any:
    """The value as it may go into a CSV cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return value
    text = PIECE_AFTER_DELIMITER.sub(_neutralise_piece, str(value))
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_bytes(header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> bytes:
    """A whole CSV file, header first, every cell through ``cell``; UTF-8 with a byte order
    mark, which lets spreadsheet programs read the accents."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([cell(value) for value in header])
    writer.writerows([cell(value) for value in row] for row in rows)
    return out.getvalue().encode("utf-8-sig")
