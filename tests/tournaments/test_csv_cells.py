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
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
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
    }
    assert set(found) <= allowed, f"CSV written outside tournaments/csv_cells.py: {found}"
