"""Entrants in bulk: a CSV import checked whole, with a preview, saved all or nothing."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from rules.contract import Problem
from tournaments import entrant_names
from tournaments.entrant_names import GIVEN_FAMILY
from tournaments.models import Entrant, Event, Team
from tournaments.services import audit, locking
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile import storable_text

COLUMNS = (
    "name",
    "family_name",
    "given_name",
    "rating",
    "seed",
    "country",
    "gender",
    "team",
    "flags",
    "external_id",
)
# The names a file must give: a display name, or the family name (the given name may be
# empty, as a WOF file's Firstname may).
NAME_COLUMNS = ("name", "family_name")
NAMED_IN_AUDIT = 3  # the audit line of an import names its first few entrants
GENDERS = {"": "", "f": "F", "m": "M", "x": "X", "female": "F", "male": "M", "other": "X"}
# An import's limits, stated on the import page; a file past either is refused whole.
MAX_ROWS = 5000
MAX_BYTES = 5_000_000
MAX_INTEGER = 2**31 - 1  # rating and seed are 32-bit integer columns


@dataclass
class PreviewRow:
    line: int
    values: dict[str, Any]
    problems: list[str] = field(default_factory=list)


@dataclass
class Preview:
    rows: list[PreviewRow]
    problems: list[Problem]  # file-level and row-level, each naming line and column
    # the columns the file gave, in COLUMNS order; the preview shows them all, and the name
    # and its two parts whether or not the file gave them (they are what will be saved)
    read: list[str] = field(default_factory=list)
    order: str = GIVEN_FAMILY  # how a single name column is split

    @property
    def columns(self) -> list[str]:
        shown = ["name", "family_name", "given_name"]
        return shown + [c for c in COLUMNS if c in self.read and c not in shown]

    @property
    def names_split(self) -> bool:
        """Whether the family and given names come from the name column, split in ``order``."""
        return "family_name" not in self.read

    @property
    def valid(self) -> bool:
        return not self.problems and bool(self.rows)


def parse_flags(text: str) -> dict[str, Any]:
    """'group_a; colour=red' -> {"group_a": True, "colour": "red"}."""
    flags: dict[str, Any] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        key, _, value = part.partition("=")
        flags[key.strip()] = value.strip() if value else True
    return flags


def preview_csv(event: Event, text: str, order: str = GIVEN_FAMILY) -> Preview:
    """Every row of the file as it would be saved, and every problem; a single ``name``
    column is split into family and given names in ``order`` (entrant_names.ORDERS)."""
    if order not in entrant_names.ORDERS:
        raise ValueError(f"unknown name order {order!r}")
    problems: list[Problem] = []
    rows: list[PreviewRow] = []
    if not text.strip():
        return Preview([], [Problem("csv.empty", "file", "The file is empty.")])
    # newline="": the csv module reads "\r", "\n" and "\r\n" line ends itself (old Mac
    # exports end lines with "\r" alone).
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    try:
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as error:
        return Preview([], [_unreadable(reader.line_num or 1, error)])
    reader.fieldnames = header
    if not any(column in header for column in NAME_COLUMNS):
        text = "Line 1: the header needs a 'name' or a 'family_name' column."
        return Preview([], [Problem("csv.header", "line 1", text)], header, order)
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        problems.append(
            Problem(
                "csv.header",
                "line 1",
                f"Line 1: unknown column{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(unknown)}; the columns are {', '.join(COLUMNS)}.",
            )
        )
    existing_names = {n.casefold() for n in event.entrants.values_list("name", flat=True)}
    existing_seeds = set(event.entrants.exclude(seed=None).values_list("seed", flat=True))
    existing_ids = set(event.entrants.exclude(external_id="").values_list("external_id", flat=True))
    seen_ids: dict[str, int] = {}
    seen_names: dict[str, int] = {}
    seen_seeds: dict[int, int] = {}
    for index, raw in enumerate(_rows(reader, problems)):
        line = index + 2
        if index >= MAX_ROWS:
            problems.append(
                Problem(
                    "csv.too_long",
                    f"line {line}",
                    f"Line {line}: the file has more than {MAX_ROWS:,} rows; "
                    f"an import takes at most {MAX_ROWS:,}: split it.",
                )
            )
            break
        row = PreviewRow(line, {})
        values = {k: (v or "").strip() for k, v in raw.items() if k}
        if None in raw:
            row.problems.append("has more cells than the header has columns")
        for column, cell in values.items():
            if not storable_text(cell):  # PostgreSQL text cannot hold it
                row.problems.append(f"{column}: contains a NUL character or a lone surrogate")
        name = _names(row, values, header, order)
        if not name:
            pass  # _names said why
        elif len(name) > 150:
            row.problems.append("name: is longer than 150 characters")
        elif name.casefold() in existing_names:
            row.problems.append(f"name: '{name}' is already registered")
        elif name.casefold() in seen_names:
            row.problems.append(f"name: '{name}' is also on line {seen_names[name.casefold()]}")
        seen_names.setdefault(name.casefold(), line)
        row.values["name"] = name
        for column in ("rating", "seed"):
            text_value = values.get(column, "")
            if text_value == "":
                row.values[column] = None
                continue
            try:
                number = int(text_value)
            except ValueError:
                row.problems.append(f"{column}: '{text_value}' is not a whole number")
                row.values[column] = None
                continue
            if column == "seed" and number < 1:
                row.problems.append("seed: must be 1 or more")
            elif abs(number) > MAX_INTEGER:  # the database column's range
                row.problems.append(f"{column}: {number} is too large")
                row.values[column] = None
                continue
            row.values[column] = number
        seed = row.values.get("seed")
        if seed is not None:
            if seed in existing_seeds:
                row.problems.append(f"seed: {seed} is already taken")
            elif seed in seen_seeds:
                row.problems.append(f"seed: {seed} is also on line {seen_seeds[seed]}")
            seen_seeds.setdefault(seed, line)
        country = values.get("country", "").upper()
        if len(country) > 3:
            row.problems.append(f"country: '{country}' is longer than 3 letters")
        row.values["country"] = country
        gender = values.get("gender", "").lower()
        if gender not in GENDERS:
            row.problems.append(f"gender: '{values.get('gender')}' is not F, M, X or empty")
        row.values["gender"] = GENDERS.get(gender, "")
        row.values["team"] = values.get("team", "")
        if len(row.values["team"]) > 120:
            row.problems.append("team: is longer than 120 characters")
        external_id = values.get("external_id", "")
        if len(external_id) > 40:
            row.problems.append("external_id: is longer than 40 characters")
        elif external_id and external_id in existing_ids:
            row.problems.append(f"external_id: '{external_id}' is already registered")
        elif external_id in seen_ids:
            row.problems.append(
                f"external_id: '{external_id}' is also on line {seen_ids[external_id]}"
            )
        if external_id:
            seen_ids.setdefault(external_id, line)
        row.values["external_id"] = external_id
        row.values["flags"] = parse_flags(values.get("flags", ""))
        for problem in row.problems:
            column = problem.split(":")[0] if ":" in problem else ""
            problems.append(
                Problem(
                    "csv.row",
                    f"line {line}" + (f", {column}" if column else ""),
                    f"Line {line}: {problem}.",
                )
            )
        rows.append(row)
    if not rows and not problems:
        problems.append(Problem("csv.no_rows", "file", "The file has a header but no entrants."))
    return Preview(rows, problems, header, order)


def _names(row: PreviewRow, values: dict[str, str], header: list[str], order: str) -> str:
    """The family and given names of a row into ``row.values``, and its display name ("" when
    it has none: the reason is in ``row.problems``)."""
    name = values.get("name", "")
    if "family_name" in header:
        family, given = values.get("family_name", ""), values.get("given_name", "")
        fits = True
        for column, part in (("family_name", family), ("given_name", given)):
            if len(part) > 150:
                row.problems.append(f"{column}: is longer than 150 characters")
                fits = False
        if not family:
            row.problems.append("family_name: is empty")
        elif not name and fits:
            name = entrant_names.display(family, given)
            if len(name) > 150:
                row.problems.append(
                    "given_name: with the family name it makes a name longer than 150 "
                    "characters; add a shorter name column"
                )
                name = ""
    else:
        if not name:
            row.problems.append("name: is empty")
        family, given = entrant_names.split(name, order) if name else ("", "")
    row.values["family_name"], row.values["given_name"] = family, given
    return name


def _unreadable(line: int, error: csv.Error) -> Problem:
    text = f"Line {line}: cannot be read as CSV ({error})."
    return Problem("csv.unreadable", f"line {line}", text)


def _rows(reader: csv.DictReader[str], problems: list[Problem]) -> Iterator[dict[str, Any]]:
    """The reader's rows until one cannot be read; that one becomes a problem of its line."""
    try:
        yield from reader
    except csv.Error as error:
        problems.append(_unreadable(reader.line_num, error))


def import_csv(
    event: Event,
    text: str,
    *,
    by: Any,
    order: str = GIVEN_FAMILY,
    now: datetime | None = None,
) -> list[Entrant]:
    """Register every row of a valid file; refuse the whole file if any row is wrong."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event.pk)
        preview = preview_csv(event, text, order)  # checked again under the lock
        if not preview.valid:
            raise ServiceError(preview.problems or "The file has no entrants.")
        number = (event.entrants.aggregate(n=Max("number"))["n"] or 0) + 1
        teams = {t.name: t for t in event.teams.all()}
        created = []
        for offset, row in enumerate(preview.rows):
            team_name = row.values["team"]
            if team_name and team_name not in teams:
                teams[team_name] = Team.objects.create(event=event, name=team_name)
            created.append(
                Entrant(
                    event=event,
                    number=number + offset,
                    name=row.values["name"],
                    family_name=row.values["family_name"],
                    given_name=row.values["given_name"],
                    rating=row.values["rating"],
                    seed=row.values["seed"],
                    country=row.values["country"],
                    gender=row.values["gender"],
                    team=teams.get(team_name) if team_name else None,
                    external_id=row.values["external_id"],
                    flags=row.values["flags"],
                )
            )
        Entrant.objects.bulk_create(created)
        # the log line says how many and names the first few (it said nothing: issue 28)
        names = [e.name for e in created[:NAMED_IN_AUDIT]]
        audit.log(
            event,
            "entrant.imported",
            actor=by,
            at=now,
            subject=", ".join(names),
            after={"count": len(created), "names": names},
        )
    return created


def update(
    entrant: Entrant,
    data: dict[str, Any],
    *,
    flags: dict[str, Any],
    team: str,
    by: Any,
    now: datetime | None = None,
) -> Entrant:
    """Edit an entrant's registration (name and its parts, rating, seed, country, gender,
    team, flags)."""
    now = now or timezone.now()
    fields = ("name", "family_name", "given_name", "rating", "seed", "country", "gender")
    with transaction.atomic():
        locked = (
            Entrant.objects.select_for_update(of=("self",))
            .select_related("team")
            .get(pk=entrant.pk)
        )
        before = {f: getattr(locked, f) for f in fields} | {
            "team": locked.team.name if locked.team else "",
            "flags": locked.flags,
        }
        for name in fields:
            if name in data:  # a caller may leave a field as it is
                setattr(locked, name, data[name])
        locked.flags = flags
        locked.team = (
            Team.objects.get_or_create(event_id=locked.event_id, name=team)[0] if team else None
        )
        seed_taken = (
            locked.seed is not None
            and Entrant.objects.filter(event_id=locked.event_id, seed=locked.seed)
            .exclude(pk=locked.pk)
            .exists()
        )
        if seed_taken:
            raise ServiceError(
                [Problem("entrant.seed_taken", "seed", f"Seed {locked.seed} is taken.")]
            )
        locked.save()
        after = {f: getattr(locked, f) for f in fields} | {"team": team, "flags": flags}
        if after != before:
            audit.log(
                locked.event,
                "entrant.changed",
                actor=by,
                at=now,
                subject=locked.name,
                before=before,
                after=after,
            )
    return locked
