"""Reading a stage's imported scores: a CSV of ``player, score [, WOF id]``, one player a
line, an optional header line. Every bad line is reported by its number and nothing is
saved while any line is bad (convention 9: the director reads what to fix)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from rules.contract import Problem
from rules.series import normal_name

MAX_BYTES = 1_000_000
MAX_ROWS = 5_000
MAX_NAME = 150
MAX_WOF_ID = 40
# the score column: 14 digits, 4 after the point (SeriesScore.score)
MAX_SCORE = Decimal("9999999999.9999")
HEADER_WORDS = {"player", "name", "joueur", "nom"}


@dataclass(frozen=True)
class ScoreRow:
    row: int
    name: str
    score: Decimal
    wof_id: str


def _problem(line: int, text: str) -> Problem:
    return Problem(
        "series.csv",
        f"file.line[{line}]",
        _("Line %(line)s: %(text)s") % {"line": line, "text": text},
    )


def parse(text: str) -> tuple[list[ScoreRow], list[Problem]]:
    """The rows of the file, or the problems of its bad lines (then no rows)."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        return [], [
            Problem(
                "series.csv_bytes",
                "file",
                _("The file is larger than %(limit)s bytes.") % {"limit": f"{MAX_BYTES:,}"},
            )
        ]
    text = text.lstrip("\ufeff")
    try:
        lines = list(csv.reader(io.StringIO(text)))
    except csv.Error as error:
        return [], [
            Problem("series.csv", "file", _("The file is not CSV: %(error)s.") % {"error": error})
        ]
    rows: list[ScoreRow] = []
    problems: list[Problem] = []
    seen_names: dict[str, int] = {}
    seen_ids: dict[str, int] = {}
    counted = 0
    for number, cells in enumerate(lines, start=1):
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if counted == 0 and cells[0].casefold() in HEADER_WORDS:
            continue  # the header line
        counted += 1
        if counted > MAX_ROWS:
            problems.append(
                Problem(
                    "series.csv_rows",
                    "file",
                    _("The file has more than %(limit)s players.") % {"limit": MAX_ROWS},
                )
            )
            break
        if len(cells) < 2 or len(cells) > 3:
            problems.append(
                _problem(
                    number,
                    _("expected player, score and an optional WOF id; found %(count)s cells.")
                    % {"count": len(cells)},
                )
            )
            continue
        name, raw = cells[0], cells[1]
        wof_id = cells[2] if len(cells) == 3 else ""
        if not name:
            problems.append(_problem(number, _("the player's name is empty.")))
            continue
        if len(name) > MAX_NAME:
            problems.append(
                _problem(
                    number,
                    _("the player's name is longer than %(limit)s characters.")
                    % {"limit": MAX_NAME},
                )
            )
            continue
        if len(wof_id) > MAX_WOF_ID:
            problems.append(
                _problem(
                    number,
                    _("the WOF id is longer than %(limit)s characters.") % {"limit": MAX_WOF_ID},
                )
            )
            continue
        try:
            score = Decimal(raw.replace(",", "."))
        except InvalidOperation:
            score = None
        if score is None or not score.is_finite():
            problems.append(
                _problem(
                    number,
                    _("the score '%(score)s' of %(name)s is not a number.")
                    % {"score": raw, "name": name},
                )
            )
            continue
        if abs(score) > MAX_SCORE or score != score.quantize(Decimal("0.0001")):
            problems.append(
                _problem(
                    number,
                    _(
                        "the score %(score)s of %(name)s has more than 10 digits before "
                        "the point or 4 after it."
                    )
                    % {"score": raw, "name": name},
                )
            )
            continue
        folded = normal_name(name)
        if folded in seen_names:
            problems.append(
                _problem(
                    number,
                    _("%(name)s is already on line %(first)s.")
                    % {"name": name, "first": seen_names[folded]},
                )
            )
            continue
        if wof_id and wof_id in seen_ids:
            problems.append(
                _problem(
                    number,
                    _("the WOF id %(id)s is already on line %(first)s.")
                    % {"id": wof_id, "first": seen_ids[wof_id]},
                )
            )
            continue
        seen_names[folded] = number
        if wof_id:
            seen_ids[wof_id] = number
        rows.append(ScoreRow(number, name, score, wof_id))
    if not rows and not problems:
        problems.append(Problem("series.csv_empty", "file", _("The file has no player.")))
    return ([] if problems else rows), problems
