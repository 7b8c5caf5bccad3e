"""The CSV cell rule (tournaments/csv_cells.py): what a spreadsheet could run is quoted,
numbers stay numbers, and every CSV the project writes goes through it."""

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tournaments.csv_cells import cell, csv_bytes

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("-2+3", "'-2+3"),
        # the piece after the tab or CR is a cell too, for a spreadsheet splitting there
        ("\t=1+1", "'\t'=1+1"),
        ("\r=1+1", "'\r'=1+1"),
        ("-", "'-"),
        ("- withdrawn", "'- withdrawn"),
        ("-1e5", "'-1e5"),  # not a plain decimal: quoted, like any other text
        ("Ana =1", "Ana =1"),  # only the first character matters
        ("O'Neil", "O'Neil"),
        ("", ""),
        (None, ""),
    ],
)
def test_text_that_could_start_a_formula_gets_a_leading_quote(value, written):
    assert cell(value) == written


@pytest.mark.parametrize("value", [-3, -0.5, 2.5, 0, Decimal("-1.5"), "-3", "+2", "-0.5", ".5"])
def test_numbers_and_plain_decimal_text_stay_as_they_are(value):
    assert cell(value) == value


def test_a_file_round_trips_with_the_quotes_and_numbers():
    content = csv_bytes(["name", "rating"], [["=1+1", -3], ["Ana", 1500], ["-2", None]])
    assert content.startswith(b"\xef\xbb\xbf")  # the BOM spreadsheet programs look for
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    assert rows == [["name", "rating"], ["'=1+1", "-3"], ["Ana", "1500"], ["-2", ""]]


def test_the_header_goes_through_the_rule_too():
    # standings columns are named by the format's engine; the rule does not trust them
    assert csv_bytes(["=key"], []).decode("utf-8-sig").strip() == "'=key"


def test_every_csv_writer_of_the_project_is_the_one_helper():
    writers = re.compile(r"csv\.(writer|DictWriter)\(|text/csv")
    found = []
    for folder in ("tournaments", "accounts", "config"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            for match in writers.finditer(text):
                found.append((str(path.relative_to(ROOT)), match.group(0)))
    allowed = {
        ("tournaments/csv_cells.py", "csv.writer("),
        # the download view serves the files csv_bytes built (report_files.py)
        ("tournaments/views/reports.py", "text/csv"),
        # the series standings' download serves what csv_bytes built
        ("tournaments/views/series.py", "text/csv"),
    }
    assert set(found) <= allowed, f"CSV written outside tournaments/csv_cells.py: {found}"


HOSTILE_PIECES = [
    "x;=1+1;y",
    "x;=cmd|' /C calc'!A0",
    "Ana\t@SUM(1+1)",
    "Ana,+1+1",
    "Ana\n=1+1",
    "Ana\r\n-2+3",
    'Ana;"=1+1"',
    "Ana; =1+1",
    "=1;=2",
]
FORMULA_START = re.compile(r"^[\" ]*[=+\-@\t\r]")


def could_run(text: str) -> bool:
    """A cell a spreadsheet would run: its first character (past the quotes and spaces it
    skips) starts a formula, and the cell is not a plain number."""
    bare = text.strip('" \r\n')
    return bool(FORMULA_START.match(text)) and not PLAIN_NUMBER.fullmatch(bare)


PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_no_piece_starts_a_formula_whatever_delimiter_the_spreadsheet_splits_on(delimiter):
    """Issue 29 finding 1: `x;=1+1;y` was written unquoted, and a spreadsheet splitting on
    `;` (French and German Excel) or tab read the cell `=1+1`."""
    rows = [[n, name, -3] for n, name in enumerate(HOSTILE_PIECES, 1)]
    content = csv_bytes(["number", "name", "rating"], rows)
    text = content.decode("utf-8-sig")
    cells = [c for row in csv.reader(io.StringIO(text), delimiter=delimiter) for c in row]
    # a spreadsheet that knows no quoting at all splits on every delimiter and line break
    cells += re.split(r"[,;\t\r\n]", text)
    assert [c for c in cells if could_run(c)] == []


def test_pieces_are_neutralised_and_plain_numbers_kept():
    assert cell("x;=1+1;y") == "x;'=1+1;y"
    assert cell("Ana\t@SUM(1)") == "Ana\t'@SUM(1)"
    assert cell("=1;=2") == "'=1;'=2"
    assert cell("Team; -3") == "Team; -3"  # a plain number after the delimiter is data
    assert cell("Team,+0.5") == "Team,+0.5"
    assert cell("Ana Dupré; Oslo") == "Ana Dupré; Oslo"
