"""Reports: built by the task, stored, downloadable by directors; each PDF opens and names
the right people; each CSV parses; one page is rendered to PNG and looked at."""

import csv
import io
import re

import pytest
from pypdf import PdfReader

from tests.factories import play_round, round_robin_event
from tournaments.models import Report
from tournaments.services import reports

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=6, slug="rep")
    play_round(event, director, scores=lambda m: [1, 0])
    play_round(event, director, scores=lambda m: [0.5, 0.5], complete=False)
    return event


def pdf_text(report: Report) -> str:
    report.refresh_from_db()
    assert report.status == Report.Status.DONE, report.message
    with report.file.open("rb") as handle:
        reader = PdfReader(io.BytesIO(handle.read()))
    return "\n".join(page.extract_text() for page in reader.pages)


def build(event, kind, director, **kwargs) -> Report:
    report = reports.request(event, kind, by=director, **kwargs)
    report.refresh_from_db()  # eager in tests: built after the commit
    return report


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        (Report.Kind.PAIRINGS_BY_TABLE, ["Round 2", "pairings by table", "Player 1", "Player 6"]),
        (Report.Kind.PAIRINGS_BY_NAME, ["alphabetical", "Player 1", "Player 6"]),
        (Report.Kind.RESULT_SLIPS, ["result slips", "Signature", "Player 1", "Player 6"]),
        (
            Report.Kind.STANDINGS_PDF,
            ["Standings", "After round 1, with the results of Round 2 so far", "Player 1"],
        ),
        (Report.Kind.CROSSTABLE_PDF, ["Crosstable", "Player 1", "Player 6"]),
    ],
)
def test_each_pdf_opens_and_names_the_entrants(event, director, kind, words):
    text = pdf_text(build(event, kind, director))
    assert "RR rep" in text
    for word in words:
        assert word in text, f"{word!r} missing from the {kind} PDF"


def test_pairings_by_name_are_in_alphabetical_order(director):
    event = round_robin_event(director, players=4, slug="abc")
    for name, entrant in zip(
        ["Zoe", "Adam", "Mia", "Bea"], event.entrants.order_by("number"), strict=True
    ):
        entrant.name = name
        entrant.save()
    play_round(event, director, complete=False)
    text = pdf_text(build(event, Report.Kind.PAIRINGS_BY_NAME, director))
    body = text[text.index("Opponent") :].splitlines()[1:]
    firsts = [line.split()[0] for line in body if line.split()]
    names = [word for word in firsts if word in {"Adam", "Bea", "Mia", "Zoe"}]
    assert names == ["Adam", "Bea", "Mia", "Zoe"]


def test_crosstable_rows_give_each_round_result_and_opponent(event, director):
    from tournaments.services.report_files import crosstable_rows

    rounds, rows = crosstable_rows(event)
    assert [r.number for r in rounds] == [1, 2]
    cells = [cell for row in rows for cell in row["cells"]]
    assert all(cell[0] in "+-=" for cell in cells)
    assert sum(cell.startswith("+") for cell in cells) == sum(c.startswith("-") for c in cells)
    assert sum(cell.startswith("=") for cell in cells) == 6  # round 2: every game drawn


def test_csv_exports_parse_with_the_expected_rows(event, director):
    def rows(kind):
        report = build(event, kind, director)
        assert report.status == Report.Status.DONE
        with report.file.open("rb") as handle:
            return list(csv.DictReader(io.StringIO(handle.read().decode("utf-8-sig"))))

    entrants = rows(Report.Kind.ENTRANTS_CSV)
    assert [r["name"] for r in entrants] == [f"Player {i}" for i in range(1, 7)]
    results = rows(Report.Kind.RESULTS_CSV)
    assert len(results) == 12 and {r["round"] for r in results} == {"1", "2"}
    assert {r["points"] for r in results if r["round"] == "2"} == {"0.5"}
    standings = rows(Report.Kind.STANDINGS_CSV)
    assert len(standings) == 6 and standings[0]["rank"] == "1"
    assert {r["name"] for r in standings} == {f"Player {i}" for i in range(1, 7)}


def test_asking_twice_for_one_version_builds_once(event, director):
    first = build(event, Report.Kind.STANDINGS_PDF, director)
    second = build(event, Report.Kind.STANDINGS_PDF, director)
    assert first.pk == second.pk
    assert reports.build(first.pk) is False  # the task run again: nothing to do


def csv_rows(report: Report) -> list[dict[str, str]]:
    report.refresh_from_db()
    assert report.status == Report.Status.DONE, report.message
    with report.file.open("rb") as handle:
        return list(csv.DictReader(io.StringIO(handle.read().decode("utf-8-sig"))))


def test_a_report_is_rebuilt_when_what_it_shows_changed_with_the_results_unchanged(event, director):
    """Issue 29 finding 4: an entrants CSV built, three entrants added, asked again: the
    old file came back (a report was reused while results_version was unchanged)."""
    first = build(event, Report.Kind.ENTRANTS_CSV, director)
    assert len(csv_rows(first)) == 6
    event.refresh_from_db()
    version = event.results_version
    for number in (7, 8, 9):
        event.entrants.create(number=number, name=f"Late {number}")
    event.refresh_from_db()
    assert event.results_version == version  # the results did not move
    second = build(event, Report.Kind.ENTRANTS_CSV, director)
    assert second.pk != first.pk
    assert len(csv_rows(second)) == 9
    # a rename, a team, a new round's pairings: each is shown, each is a new build
    event.entrants.filter(number=7).update(name="Renamed Late")
    third = build(event, Report.Kind.ENTRANTS_CSV, director)
    assert third.pk != second.pk
    assert "Renamed Late" in {row["name"] for row in csv_rows(third)}
    # nothing changed since: the same report again
    assert build(event, Report.Kind.ENTRANTS_CSV, director).pk == third.pk


def test_a_round_report_is_rebuilt_when_its_pairings_change(event, director):
    first = build(event, Report.Kind.RESULTS_CSV, director)
    match = event.rounds.get(number=2).matches.order_by("pk").first()
    a, b = list(match.participants.order_by("seat"))
    # the colours swapped (seat 0 plays black): a round's pairing table shows it
    type(a).objects.filter(pk=a.pk).update(seat=9)
    type(b).objects.filter(pk=b.pk).update(seat=a.seat)
    type(a).objects.filter(pk=a.pk).update(seat=b.seat)
    assert build(event, Report.Kind.RESULTS_CSV, director).pk != first.pk


def test_a_report_that_cannot_be_built_says_why(director):
    event = round_robin_event(director, players=4, slug="empty")
    with pytest.raises(reports.ServiceError, match="no round"):
        reports.request(event, Report.Kind.RESULT_SLIPS, by=director)
    with pytest.raises(reports.ServiceError, match="not a kind"):
        reports.request(event, "poster", by=director)


def test_an_unexpected_error_marks_the_report_failed_instead_of_leaving_it_building(
    event, director, monkeypatch
):
    from tournaments.services import report_files

    def broken(event, number, progress):
        raise ValueError("a template bug")

    monkeypatch.setitem(report_files.BUILDERS, Report.Kind.ENTRANTS_CSV, broken)
    monkeypatch.setattr(reports, "BUILDERS", report_files.BUILDERS)
    report = build(event, Report.Kind.ENTRANTS_CSV, director)
    assert report.status == Report.Status.FAILED and "unexpected" in report.message
    assert report.finished_at is not None


HOSTILE = {
    1: '=HYPERLINK("http://x","y")',
    2: "+cmd|' /C calc'!A0",
    3: "@SUM(1+1)",
    4: "-2+3",
    5: "\tTabbed",
    6: "-3",  # a name that is a plain number: a spreadsheet reads a number, nothing runs
}
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")


def test_csv_cells_that_could_start_a_formula_are_neutralised_in_every_csv(director):
    """OWASP's CSV injection rule: a text cell starting with = + - @ tab or CR gets a
    leading quote; a number (a negative rating, a name that is only a number) stays one."""
    event = round_robin_event(director, players=6, slug="inj")
    team = event.teams.create(name="=1+1")
    for number, name in HOSTILE.items():
        event.entrants.filter(number=number).update(name=name)
    event.entrants.filter(number=1).update(team=team, rating=-3)
    play_round(event, director, scores=lambda m: [1, 0])

    def rows(kind):
        report = build(event, kind, director)
        assert report.status == Report.Status.DONE, report.message
        with report.file.open("rb") as handle:
            return list(csv.reader(io.StringIO(handle.read().decode("utf-8-sig"))))

    quoted = {"'" + name if not PLAIN_NUMBER.fullmatch(name) else name for name in HOSTILE.values()}
    csv_kinds = (Report.Kind.ENTRANTS_CSV, Report.Kind.RESULTS_CSV, Report.Kind.STANDINGS_CSV)
    files = {kind: rows(kind) for kind in csv_kinds}
    entrants = files[Report.Kind.ENTRANTS_CSV]
    header = entrants[0]
    by_number = {row[0]: dict(zip(header, row, strict=True)) for row in entrants[1:]}
    assert {row["name"] for row in by_number.values()} == quoted
    assert by_number["1"]["name"] == "'" + HOSTILE[1]
    assert by_number["1"]["team"] == "'=1+1"
    assert by_number["1"]["rating"] == "-3"  # a number in a number column is data
    assert by_number["6"]["name"] == "-3"
    results = files[Report.Kind.RESULTS_CSV]
    assert {row[results[0].index("name")] for row in results[1:]} == quoted
    standings = files[Report.Kind.STANDINGS_CSV]
    assert {row[standings[0].index("name")] for row in standings[1:]} == quoted
    for kind, table in files.items():
        for row in table:
            for cell in row:
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    assert PLAIN_NUMBER.fullmatch(cell), f"{kind}: {cell!r} could run"


BEHIND_A_DELIMITER = {
    1: "x;=1+1;y",
    2: "Ana\t=cmd|' /C calc'!A0",
    3: "Bo; @SUM(1+1)",
    4: "Cy,-2+3",
}


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_no_csv_cell_starts_a_formula_whatever_the_delimiter(director, delimiter):
    """Issue 29 finding 1: an entrant named `x;=1+1;y` was written unquoted to the entrants,
    results and standings CSVs; French and German Excel split on `;`, others on tab, and
    read the cell `=1+1`. Each file is read with each delimiter, and a second time split on
    every delimiter as a spreadsheet that ignores quotes would."""
    event = round_robin_event(director, players=6, slug=f"delim{ord(delimiter)}")
    team = event.teams.create(name="Club;=1+1")
    for number, name in BEHIND_A_DELIMITER.items():
        event.entrants.filter(number=number).update(name=name)
    event.entrants.filter(number=1).update(team=team)
    play_round(event, director, scores=lambda m: [1, 0])
    for kind in (Report.Kind.ENTRANTS_CSV, Report.Kind.RESULTS_CSV, Report.Kind.STANDINGS_CSV):
        report = build(event, kind, director)
        assert report.status == Report.Status.DONE, report.message
        with report.file.open("rb") as handle:
            text = handle.read().decode("utf-8-sig")
        assert "x;'=1+1;y" in text  # the name is still there, readable
        cells = [c for row in csv.reader(io.StringIO(text), delimiter=delimiter) for c in row]
        cells += re.split(r"[,;\t\r\n]", text)
        for cell in cells:
            bare = cell.lstrip('" ')
            if bare[:1] in ("=", "+", "-", "@"):
                assert PLAIN_NUMBER.fullmatch(bare.rstrip('" ')), f"{kind}: {cell!r} could run"


def test_a_pdf_prints_times_in_the_events_zone_and_says_so(director):
    """Issue 21 finding 7: PDFs printed UTC labelled with the event's zone."""
    from datetime import datetime

    from django.utils import timezone

    event = round_robin_event(director, players=4, slug="tokyo")
    event.time_zone = "Asia/Tokyo"
    event.save(update_fields=["time_zone"])
    play_round(event, director)
    before = timezone.localtime(timezone.now(), timezone.get_fixed_timezone(9 * 60))
    text = pdf_text(build(event, Report.Kind.STANDINGS_PDF, director))
    printed = re.search(r"Printed (\d+ \w+ \d{4} \d{2}:\d{2})", text)
    assert printed, text
    when = datetime.strptime(printed.group(1), "%d %b %Y %H:%M")
    assert abs(when.hour * 60 + when.minute - (before.hour * 60 + before.minute)) <= 2
    assert "Asia/Tokyo" in text and "JST" in text
