"""Qualification (issue 32, item 2): an event's places come from a ranked list (a CSV, the
final standings of another event such as the previous season, or a series' totals), and
the line of entries is built from it in rank order, each with the reason for its place.
The first N are invited (an offer with a deadline, mailed with confirm/decline links); a
decline or a missed deadline passes the place on in order: the same machine as the
waiting list (tournaments/services/places.py), as the WPF rules ask ("If any of the top
16 ... decline, the next eligible players are invited")."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import Problem
from tournaments.models import Entry, Event, Registration, StandingsSnapshot
from tournaments.services import audit, locking, places
from tournaments.services.errors import ServiceError
from tournaments.services.standings_rows import rows_of

MAX_CANDIDATES = 5000


@dataclass(frozen=True)
class Candidate:
    name: str
    email: str = ""
    score: str = ""  # as the source shows it ("4210", "6½")
    external_id: str = ""
    user_id: int | None = None
    rank: int | None = None  # the source's own rank (a series shares it between equals)
    value: float | None = None  # the score as a number, when it is one


def ranks(candidates: Sequence[Candidate]) -> list[int]:
    """Shared ranks: a candidate whose score equals the one above shares its rank (a list
    without scores ranks by position)."""
    shown: list[int] = []
    for i, candidate in enumerate(candidates):
        if candidate.rank is not None:
            shown.append(candidate.rank)
        elif i and candidate.score and candidate.score == candidates[i - 1].score:
            shown.append(shown[-1])
        else:
            shown.append(i + 1)
    return shown


def parse_csv(text: str) -> tuple[list[Candidate], list[Problem]]:
    """A ranked list, best first: columns name (required), email, score, id."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    if "name" not in header:
        return [], [
            Problem(
                "qualify.header", "file", _("Ranked list: the first line must name a name column.")
            )
        ]
    reader.fieldnames = header
    found: list[Candidate] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for line, raw in enumerate(reader, start=2):
        if len(found) >= MAX_CANDIDATES:
            problems.append(
                Problem(
                    "qualify.rows",
                    "file",
                    _("Ranked list: more than %(n)s rows.") % {"n": MAX_CANDIDATES},
                )
            )
            break
        name = (raw.get("name") or "").strip()
        email = (raw.get("email") or "").strip().lower()
        if not name:
            problems.append(
                Problem("qualify.name", "file", _("Line %(l)s: no name.") % {"l": line})
            )
            continue
        if email and ("@" not in email or " " in email):
            problems.append(
                Problem(
                    "qualify.email",
                    "file",
                    _("Line %(l)s, email: %(v)s is not an e-mail address.")
                    % {"l": line, "v": email},
                )
            )
            continue
        if email and email in seen:
            problems.append(
                Problem(
                    "qualify.twice",
                    "file",
                    _("Line %(l)s: %(v)s is on the list twice.") % {"l": line, "v": email},
                )
            )
            continue
        seen.add(email)
        found.append(
            Candidate(
                name=name[:150],
                email=email[:254],
                score=(raw.get("score") or "").strip()[:30],
                external_id=(raw.get("id") or "").strip()[:40],
                value=_number((raw.get("score") or "").strip()),
            )
        )
    if not found and not problems:
        problems.append(Problem("qualify.empty", "file", _("Ranked list: no player in the file.")))
    return found, problems


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ".")) if text else None
    except ValueError:
        return None


def from_series(series: Any) -> list[Candidate]:
    """A series' ranked totals (docs/series.md, "Interface for qualification"), best first,
    equal totals sharing their rank. A player's address is their account's."""
    from django.contrib.auth import get_user_model

    from tournaments.services import series_standings

    rows = series_standings.standings(series)[:MAX_CANDIDATES]
    ids = [r.player.user_id for r in rows if r.player.user_id is not None]
    emails: dict[int | None, str] = dict(
        get_user_model().objects.filter(pk__in=ids).values_list("pk", "email")
    )
    return [
        Candidate(
            name=row.player.name,
            email=(emails.get(row.player.user_id) or "").lower(),
            score=row.total_text,
            external_id=row.player.wof_id,
            user_id=row.player.user_id,
            rank=row.rank,
            value=float(row.total),
        )
        for row in rows
    ]


def from_event(other: Event) -> list[Candidate]:
    """The final (else the latest published) standings of another event, best first: its
    first table. A player's address is their account's, when they claimed their entry."""
    snapshot = (
        StandingsSnapshot.objects.filter(event=other, published=True)
        .order_by("-final", "-results_version")
        .first()
    )
    if snapshot is None:
        raise ServiceError(
            [
                Problem(
                    "qualify.no_standings",
                    "from_event",
                    _("Other event: %(name)s has no published standings.") % {"name": other.name},
                )
            ]
        )
    first = snapshot.tables[0]["key"] if snapshot.tables else "overall"
    rows = (
        rows_of(snapshot)
        .filter(table_key=first)
        .select_related("entrant__user")
        .order_by("position")[:MAX_CANDIDATES]
    )
    return [
        Candidate(
            name=row.entrant.name,
            email=(row.entrant.user.email if row.entrant.user else "").lower(),
            score=_shown(row.points),
            external_id=row.entrant.external_id,
            user_id=row.entrant.user_id,
            value=row.points,
        )
        for row in rows
    ]


def _shown(points: float | None) -> str:
    if points is None:
        return ""
    value = Fraction(points).limit_denominator(100)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def reason(rank: int, label: str, score: str) -> str:
    if score:
        return _("Rank %(rank)s in %(label)s (%(score)s)") % {
            "rank": rank,
            "label": label,
            "score": score,
        }
    return _("Rank %(rank)s in %(label)s") % {"rank": rank, "label": label}


def build(
    event: Event,
    candidates: Sequence[Candidate],
    *,
    places_count: int,
    label: str,
    confirm_hours: int,
    source: str = Registration.Source.RANKED_LIST,
    series_key: str = "",
    by: Any,
    now: datetime | None = None,
) -> int:
    """The event's line from ``candidates`` (best first), each with its reason; the first
    ``places_count`` are invited at once. Refused when the event already has entries (the
    line is built once: docs/registration.md). Returns how many were invited."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event)
        if Entry.objects.filter(event=event).exists():
            raise ServiceError(
                [
                    Problem(
                        "qualify.built",
                        "",
                        _("This event already has entries: its line is built once."),
                    )
                ]
            )
        registration = places.registration_of(event)
        registration.source = source
        registration.open = False
        registration.capacity = places_count
        registration.source_label = label[:120]
        registration.confirm_hours = confirm_hours
        registration.series_key = series_key[:120]
        registration.save()
        shown = ranks(candidates)
        Entry.objects.bulk_create(
            Entry(
                event=event,
                order=i + 1,
                source=Entry.Source.QUALIFIED,
                name=c.name,
                email=c.email,
                user_id=c.user_id,
                external_id=c.external_id,
                reason=reason(shown[i], label, c.score)[:200],
                score=c.value,
                status=Entry.Status.WAITING,
                created_at=now,
                joined_at=now,
            )
            for i, c in enumerate(candidates)
        )
        audit.log(
            event,
            "qualification.built",
            actor=by,
            at=now,
            subject=label[:200],
            after={"candidates": len(candidates), "places": places_count, "source": source},
        )
        offered = places.fill(event, now=now, by=by)
    return len(offered)


def build_from_form(event: Event, data: dict[str, Any], *, by: Any) -> int:
    """The director's qualification form: read the source, then ``build``."""
    source = Registration.Source.RANKED_LIST
    if data["source"] == "csv":
        candidates, problems = parse_csv(data["file"])
        if problems:
            raise ServiceError(problems[:20])
    elif data["source"] == "series":
        from tournaments.models import Series

        found = Series.objects.filter(slug=data["series"]).first()
        if found is None or not (found.public or _directs_series(by, found)):
            raise ServiceError(
                [
                    Problem(
                        "qualify.series",
                        "series",
                        _("Series: no series you may read is called %(slug)s.")
                        % {"slug": data["series"]},
                    )
                ]
            )
        candidates = from_series(found)
        source = Registration.Source.SERIES
    else:
        other = Event.objects.filter(slug=data["from_event"]).first()
        from accounts.permissions import is_director

        if other is None or other.pk == event.pk or not (other.public or is_director(by, other)):
            raise ServiceError(
                [
                    Problem(
                        "qualify.event",
                        "from_event",
                        _("Other event: no event you may read is called %(slug)s.")
                        % {"slug": data["from_event"]},
                    )
                ]
            )
        candidates = from_event(other)
    return build(
        event,
        candidates[: data["invite"]],
        places_count=data["places"],
        label=data["label"],
        confirm_hours=data["confirm_hours"],
        source=source,
        series_key=data.get("series", "") if source == Registration.Source.SERIES else "",
        by=by,
    )


def _directs_series(user: Any, series: Any) -> bool:
    if getattr(user, "is_staff", False):
        return True
    return bool(series.directors.filter(pk=getattr(user, "pk", None)).exists())
