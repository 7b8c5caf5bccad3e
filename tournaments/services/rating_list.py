"""The rating list an event's eligibility reads (issue 32): imported from a WOF rating file
or a CSV (name, rating, federation, id), replaced whole by each import."""

from __future__ import annotations

import csv
import io
import unicodedata
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import Problem
from tournaments.models import Event, RatingListRow
from tournaments.services import audit, locking
from tournaments.services.errors import ServiceError

MAX_ROWS = 20_000
MAX_BYTES = 5_000_000


def name_key(name: str) -> str:
    """A name folded for matching: no accents, case or punctuation, words in sorted order
    ("DUPRÉ Hélène" and "Hélène Dupré" match)."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    words = "".join(c if c.isalnum() else " " for c in plain).split()
    return " ".join(sorted(words))[:150]


def find(event: Event, *, name: str, external_id: str = "") -> RatingListRow | None:
    rows = RatingListRow.objects.filter(event=event)
    if external_id.strip():
        found = rows.filter(external_id=external_id.strip()).first()
        if found is not None:
            return found
    return rows.filter(name_key=name_key(name)).order_by("-rating").first()


def parse_csv(text: str) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Rows of a CSV rating list: columns name, rating, federation (optional), id
    (optional). Every problem names its line and column; nothing is kept when one is found."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    if "name" not in header or "rating" not in header:
        return [], [
            Problem(
                "rating_list.header",
                "file",
                _("File: the first line must name the columns name and rating."),
            )
        ]
    reader.fieldnames = header
    rows, problems = [], []
    for line, raw in enumerate(reader, start=2):
        if line - 1 > MAX_ROWS:
            problems.append(
                Problem(
                    "rating_list.rows",
                    "file",
                    _("File: more than %(n)s players.") % {"n": MAX_ROWS},
                )
            )
            break
        name = (raw.get("name") or "").strip()
        text_rating = (raw.get("rating") or "").strip()
        if not name:
            problems.append(
                Problem("rating_list.name", "name", _("Line %(l)s: no name.") % {"l": line})
            )
            continue
        try:
            rating = int(text_rating) if text_rating else None
        except ValueError:
            problems.append(
                Problem(
                    "rating_list.rating",
                    "rating",
                    _("Line %(l)s, rating: %(v)s is not a whole number.")
                    % {"l": line, "v": text_rating},
                )
            )
            continue
        rows.append(
            {
                "name": name[:150],
                "rating": rating,
                "federation": (raw.get("federation") or "").strip().upper()[:3],
                "external_id": (raw.get("id") or "").strip()[:40],
            }
        )
    return rows, problems


def parse_wof(text: str) -> tuple[list[dict[str, Any]], list[Problem]]:
    from tournaments.services import wof

    try:
        parsed = wof.read(text)
    except ServiceError as error:  # the WOF reader's own refusal, said as it says it
        return [], list(error.problems)
    rows = []
    for player in parsed.players:
        if not player.listed:
            continue
        rows.append(
            {
                "name": f"{player.first_name} {player.surname}".strip()[:150],
                "rating": player.rating,
                "federation": player.country.upper()[:3],
                "external_id": str(player.id) if player.id > 0 else "",
            }
        )
    return rows, []


def replace(
    event: Event, rows: list[dict[str, Any]], *, by: Any, source: str, now: datetime | None = None
) -> int:
    """The event's rating list becomes ``rows`` (the old one is gone)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event)
        RatingListRow.objects.filter(event=event).delete()
        RatingListRow.objects.bulk_create(
            RatingListRow(event=event, name_key=name_key(r["name"]), **r) for r in rows
        )
        audit.log(
            event,
            "registration.rating_list",
            actor=by,
            at=now,
            subject=source[:200],
            after={"players": len(rows)},
        )
    return len(rows)
