"""The one way this project writes CSV: every cell a spreadsheet could run as a formula is
neutralised (OWASP's CSV injection rule). Entrant and team names are typed by whoever signs
up or fills an import; a director who opens the file in a spreadsheet must never run them.

The rule: a text cell that starts with = + - @ tab or carriage return gets a leading single
quote, so the program shows it as text. Numbers are left as they are: a value the code holds
as a number (a negative rating, a disc margin) and a text that is nothing but a plain decimal
number ("-3", "+0.5"), which a spreadsheet reads as that number and cannot run. "-2+3" is
not a plain number: it is quoted. (docs/operations.md, "CSV files".)
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


def cell(value: Any) -> Any:
    """The value as it may go into a CSV cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return value
    text = str(value)
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
