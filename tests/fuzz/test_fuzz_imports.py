"""Hostile files into the three imports: the CSV entrant import, the JSON event import and
the WOF file import (and the WOF parser alone). For every input: no uncaught exception;
a refused file leaves the database exactly as it was and every problem names its line
(CSV, WOF) or its place in the file (JSON); an accepted file saved all of it."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.db import transaction
from hypothesis import example, given
from hypothesis import strategies as st

from bench.event import event_file
from rules.formats.woc import wof as wof_parser
from tests.factories import round_robin_event
from tests.fuzz.conftest import TALLY, digest, fuzz_settings
from tests.fuzz.strategies import (
    deeply_nested,
    form_values,
    json_values,
    mutated_json,
    nested_json_texts,
    numbers_as_text,
    texts,
)
from tournaments.models import Entrant, Event
from tournaments.services import entrants, event_import, eventfile, limits, wof
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db

COLUMNS = (*entrants.COLUMNS, "junk", " Name ", "")


@st.composite
def csv_texts(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=200))
    header = draw(st.lists(st.sampled_from(COLUMNS), max_size=6, unique=True))
    if draw(st.integers(0, 9)) > 0 and "name" not in header:
        header.insert(draw(st.integers(0, len(header))), "name")
    rows = []
    for _ in range(draw(st.integers(0, 5))):
        width = max(0, len(header) + draw(st.integers(-1, 1)))
        row = []
        for column in header[:width] + ["extra"] * (width - len(header)):
            if column.strip().lower() == "name":
                cell = draw(st.one_of(st.sampled_from(["Ann", "Bob", "Player 1"]), texts()))
            elif column in ("rating", "seed"):
                cell = draw(numbers_as_text())
            else:
                cell = draw(form_values())
            row.append(cell)
        rows.append(row)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n", "\r"])))
    writer.writerow(header)
    writer.writerows(rows)
    return draw(st.sampled_from(["", "\ufeff"])) + out.getvalue()


def _names_line_or_file(problem) -> bool:
    if problem.field == "file":
        return True
    found = re.fullmatch(r"line (\d+)(, \w+)?", problem.field)
    return bool(found) and problem.text.startswith(f"Line {found.group(1)}")


@pytest.fixture
def csv_event(director):
    event = round_robin_event(director, players=2, slug="csv-fuzz")
    Entrant.objects.filter(event=event, number=1).update(seed=1)
    return event


@fuzz_settings()
@given(text=csv_texts())
# crashes the fuzzing found (each was a server error before its fix)
@example(text="name\rAnn\r")  # old Mac line ends: csv.Error
@example(text="name,rating\nAnn,2147483648\n")  # beyond the integer column
@example(text="name,seed\nAnn,99999999999\n")
@example(text="name\nA\x00nn\n")  # NUL: PostgreSQL refuses it
@example(text="name\nA\udcffnn\n")  # a lone surrogate: not UTF-8
@example(text="name,team\nAnn," + "t" * 121 + "\n")  # longer than the team column
@example(text="name,external_id\nAnn,7\nBob,7\n")  # the unique external id, twice
@example(text="family_name,given_name\n,Ann\n" + "F" * 100 + "," + "G" * 60 + "\n")
def test_csv_entrant_import(csv_event, director, text):
    with transaction.atomic():
        before = digest()
        count = csv_event.entrants.count()
        try:
            created = entrants.import_csv(csv_event, text, by=director)
        except ServiceError as refused:
            TALLY.add("csv entrant import", "refused")
            assert refused.problems
            assert all(_names_line_or_file(p) for p in refused.problems), refused.problems
            assert digest() == before, "a refused CSV file changed the database"
        else:
            TALLY.add("csv entrant import", "accepted")
            assert csv_event.entrants.count() == count + len(created) > count
        transaction.set_rollback(True)


SEED_EVENT = event_file("fuzz-seed", entrants=4, played=1)


def _names_place(problem) -> bool:
    """A problem of an event file starts with its place: 'entrants[2].name: ...'."""
    return problem.text.startswith(f"{problem.field or 'file'}: ") or (
        bool(problem.field) and problem.field in problem.text
    )


def _seed_with(path: tuple, value) -> dict:
    doc = json.loads(json.dumps(SEED_EVENT))
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return doc


MATCH = ("rounds", 0, "matches", 0)


@fuzz_settings()
@given(doc=st.one_of(mutated_json(SEED_EVENT), json_values()))
# crashes the fuzzing found (each was a server error before its fix)
@example(doc=_seed_with((*MATCH, "participants", 0, "entrant"), [1]))  # unhashable
@example(doc=_seed_with((*MATCH, "group"), ["a"]))
@example(doc=_seed_with(("rounds", 0, "stage"), {"k": 1}))
@example(doc=_seed_with(("rounds", 0, "groups"), [{"key": "g", "entrants": [[1]]}]))
@example(doc=_seed_with(("event", "settings"), {"tiebreaks": None}))
@example(doc=_seed_with(("event", "settings"), {"tiebreaks": [["wins"]]}))
@example(doc=_seed_with(("entrants", 0, "status"), ["active"]))
@example(doc=_seed_with(("entrants", 0, "name"), "A\x00"))
@example(doc=_seed_with(("entrants", 0, "name"), "A\udcff"))
@example(doc=_seed_with(("entrants", 0, "rating"), 2**40))
@example(doc=_seed_with((*MATCH, "games", 0, "scores"), [float("nan"), 0]))
@example(doc=_seed_with((*MATCH, "details"), {"x": "\x00"}))
def test_json_event_import(director, doc):
    with transaction.atomic():
        before = digest()
        try:
            event = eventfile.import_event(doc, by=director)
        except ServiceError as refused:
            TALLY.add("json event import", "refused")
            assert refused.problems
            assert all(_names_place(p) for p in refused.problems), refused.problems
            assert digest() == before, "a refused event file changed the database"
        else:
            TALLY.add("json event import", "accepted")
            assert Event.objects.filter(pk=event.pk).exists()
            assert event.entrants.count() == len(doc["entrants"])
        transaction.set_rollback(True)


@st.composite
def event_file_texts(draw: st.DrawFn) -> str:
    """What the import page is given as text: nesting thousands deep (as text, or an event
    file with one value nested deep), a mutated event file, or anything."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(nested_json_texts())
    if kind == 1:
        doc = json.loads(json.dumps(SEED_EVENT))
        place = draw(st.sampled_from([("entrants", 0, "flags"), ("event", "settings"), MATCH]))
        parent = doc
        for step in place[:-1]:
            parent = parent[step]
        parent[place[-1]] = "DEEP"
        return json.dumps(doc).replace('"DEEP"', draw(nested_json_texts()))
    if kind == 2:
        return json.dumps(draw(mutated_json(SEED_EVENT)), default=str)[:200_000]
    return draw(st.text(max_size=300))


@fuzz_settings()
@given(text=event_file_texts(), kind=st.sampled_from(["auto", "event", "ftd", "wof"]))
@example(text='{"a":' * 20_000 + "1" + "}" * 20_000, kind="auto")  # a RecursionError once
@example(text="[" * 999 + "]" * 999, kind="event")
def test_import_page_check_of_any_text(director, text, kind):
    """The import page's check: a preview or a refusal naming a place or a limit, never an
    uncaught exception, and nothing written either way."""
    with transaction.atomic():
        before = digest()
        try:
            event_import.check(text, kind=kind)
        except ServiceError as refused:
            TALLY.add("import page check", "refused")
            assert refused.problems and all(p.text for p in refused.problems)
        else:
            TALLY.add("import page check", "accepted")
        assert digest() == before, "checking a file changed the database"
        transaction.set_rollback(True)


@fuzz_settings()
@given(value=deeply_nested())
def test_deep_values_are_measured_without_recursion(value):
    depth = limits.depth(value)
    assert depth >= 0
    if depth > limits.import_limits().json_depth:
        with pytest.raises(ServiceError, match="nested deeper than"):
            limits.check_depth(value)


SEED_WOF = """%%Tournament: Fuzz Open
%%Country: Nowhere
%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating
%_%    101, ALPHA, Ann, FRA, 2, 100, 2100
%_%    102, BRAVO, Bob, GBR, 1, 70, 2000
%_%    103, CHARLIE, Cy, USA, 1, 64, 1900
%_%    104, DELTA, Di, JPN, 0, 50, 1800
%Round: 1
   101 (40)>(24)    104 B
   102 (33)>(31)    103 B
%Round: 2
   101 (36)>(28)    102 B
   103 (32)=(32)    104 B
""".splitlines()

IDS = st.one_of(st.sampled_from([101, 102, 103, 104, 105, 0]), st.integers(0, 10**12))
DISCS = st.one_of(st.integers(0, 64), st.integers(0, 10**6))


@st.composite
def wof_lines(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 7))
    if kind == 0:
        return draw(texts(60))
    if kind == 1:
        return (
            f"   {draw(IDS)} ({draw(DISCS):02d}){draw(st.sampled_from('<>=?'))}"
            f"({draw(DISCS):02d}) {draw(IDS)} {draw(st.sampled_from(['B', '', 'x', 'BB']))}"
        )
    if kind == 2:
        cells = draw(st.lists(form_values(), max_size=7))
        return f"%_% {draw(st.sampled_from(['', '+']))}{draw(IDS)}, " + ", ".join(cells)
    if kind == 3:
        return f"%Round: {draw(st.one_of(st.integers(-1, 4).map(str), texts(5)))}"
    if kind == 4:
        return "%%Added results"
    if kind == 5:
        return f"% bye: {draw(IDS)}"
    if kind == 6:
        return f"%%{draw(st.sampled_from(['Tournament', 'Date', 'X']))}: {draw(texts(30))}"
    return ""


@st.composite
def wof_texts(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=300))
    lines = list(SEED_WOF)
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(lines)))
        action = draw(st.sampled_from(["insert", "replace", "delete", "swap"]))
        if action == "insert" or not lines:
            lines.insert(where, draw(wof_lines()))
        elif action == "replace":
            lines[min(where, len(lines) - 1)] = draw(wof_lines())
        elif action == "delete":
            del lines[min(where, len(lines) - 1)]
        else:
            other = draw(st.integers(0, len(lines) - 1))
            here = min(where, len(lines) - 1)
            lines[here], lines[other] = lines[other], lines[here]
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


SEED_TEXT = "\n".join(SEED_WOF)


@fuzz_settings()
@given(text=wof_texts())
@example(text=SEED_TEXT.replace("%_%    101", "%_%    109"))  # + a bye to 101 below
@example(text=SEED_TEXT.replace("%Round: 1", "%Round: \u00b9"))  # '¹': isdigit, not int
def test_wof_parser_names_the_line(text):
    try:
        wof_parser.parse(text)
    except wof_parser.WofError as refused:
        TALLY.add("wof parser", "refused")
        count = len(text.splitlines())
        assert refused.problems
        assert all(1 <= line <= max(count, 1) and what for line, what in refused.problems)
    else:
        TALLY.add("wof parser", "accepted")


@fuzz_settings()
@given(text=wof_texts())
@example(text="%%Tournament: \x00\n" + SEED_TEXT)  # NUL in the event's name
@example(text=SEED_TEXT.replace("%Round: 1", "%Round: 1\n% bye: 101"))
def test_wof_import(director, text):
    with transaction.atomic():
        before = digest()
        try:
            event = wof.import_wof(text, by=director, slug="wof-fuzz")
        except ServiceError as refused:
            TALLY.add("wof import", "refused")
            assert refused.problems
            assert all(_names_line_or_file(p) or _names_place(p) for p in refused.problems), (
                refused.problems
            )
            assert digest() == before, "a refused WOF file changed the database"
        else:
            TALLY.add("wof import", "accepted")
            assert event.entrants.count() == len(wof_parser.parse(text).players)
        transaction.set_rollback(True)
