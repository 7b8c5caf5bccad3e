"""The content of each report: the rows it shows (a few queries whatever the event's size)
and the file made from them (a PDF rendered by WeasyPrint from a template, or a CSV).

Every builder takes the event and the report's round number, and a ``progress(percent)``
callback, and returns (file name, bytes).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.csv_cells import csv_bytes as _csv
from tournaments.endings import ending_notes, unplayed
from tournaments.formats import ui_for
from tournaments.models import Entrant, Event, Match, MatchParticipant, Report, Round
from tournaments.services import invitations
from tournaments.services.errors import ServiceError

Progress = Callable[[int], None]
# Marks a crosstable cell whose game was not played (a forfeit, a default)
UNPLAYED = "F"
Built = tuple[str, bytes]


def _pdf(template: str, context: dict[str, Any], progress: Progress) -> bytes:
    from weasyprint import HTML  # heavy: imported by the worker only when a PDF is built

    # every time on the sheet in the event's zone, as its footer says (the date filter
    # reads the active zone, not the datetime's own)
    with timezone.override(_zone(context["event"])):
        html = render_to_string(f"tournaments/reports/pdf/{template}", context)
    progress(50)
    document = HTML(string=html).render()
    progress(80)
    pdf: bytes = document.write_pdf()
    return pdf


def _zone(event: Event) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(event.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _base(event: Event) -> dict[str, Any]:
    return {"event": event, "printed_at": timezone.now()}


def _round(event: Event, number: int | None) -> Round:
    if number is None:
        rnd = event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    else:
        rnd = selectors.round_with_matches(event, number, include_drafts=True)
    if rnd is None:
        raise ServiceError(_("There is no round to print yet: draft and publish a round first."))
    return selectors.round_with_matches(event, rnd.number, include_drafts=True) or rnd


def _seats(match: Match) -> list[MatchParticipant]:
    return list(match.participants.all())


def pairings(event: Event, number: int | None, progress: Progress, *, by_name: bool) -> Built:
    rnd = _round(event, number)
    matches = list(rnd.matches.all())
    progress(20)
    if by_name:
        lines: list[dict[str, Any]] = []
        for match in matches:
            seats = _seats(match)
            for part in seats:
                if part.entrant is None:
                    continue
                others = [p for p in seats if p is not part]
                lines.append(
                    {"entrant": part.entrant, "part": part, "match": match, "others": others}
                )
        lines.sort(key=_by_name)
        context = {**_base(event), "round": rnd, "lines": lines}
        content = _pdf("pairings_by_name.html", context, progress)
        return f"{event.slug}-round-{rnd.number}-pairings-by-name.pdf", content
    # a forfeit is printed as its format scored it, with the note that it was one
    rows = [{"match": m, "seats": _seats(m), "notes": ending_notes(m)} for m in matches]
    context = {**_base(event), "round": rnd, "rows": rows}
    content = _pdf("pairings_by_table.html", context, progress)
    return f"{event.slug}-round-{rnd.number}-pairings.pdf", content


def result_slips(event: Event, number: int | None, progress: Progress) -> Built:
    rnd = _round(event, number)
    slips = [
        {"match": m, "seats": seats}
        for m in rnd.matches.all()
        if len(seats := _seats(m)) > 1  # a bye needs no slip
    ]
    games = range(1, int(event.settings.get("games_per_match", 1) or 1) + 1)
    context = {**_base(event), "round": rnd, "slips": slips, "games": games}
    return f"{event.slug}-round-{rnd.number}-result-slips.pdf", _pdf(
        "result_slips.html", context, progress
    )


def standings_pdf(event: Event, number: int | None, progress: Progress) -> Built:
    snapshot, tables = selectors.published_standings(event)
    progress(20)
    public = selectors.public_rounds(event)
    context = {
        **_base(event),
        "snapshot": snapshot,
        "tables": tables,
        "results_hidden": ui_for(event).hides_results(event, public),
        "in_progress": next((r for r in reversed(public) if r.status == "published"), None),
    }
    return f"{event.slug}-standings.pdf", _pdf("standings.html", context, progress)


def crosstable_rows(event: Event) -> tuple[list[Round], list[dict[str, Any]]]:
    """One row per entrant in standings order: per round, the opponent's number, the
    result (+ win, = draw, - loss) and the score; a bye or an unplayed round is marked."""
    _, tables = selectors.published_standings(event)
    rounds = list(
        event.rounds.exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.prefetch_related(
                    Prefetch(
                        "participants",
                        queryset=MatchParticipant.objects.order_by("seat").select_related(
                            "entrant"
                        ),
                    )
                ),
            )
        )
    )
    cells: dict[int, dict[int, str]] = {}
    for rnd in rounds:
        for match in rnd.matches.all():
            seats = _seats(match)
            points = (match.result or {}).get("points") or []
            for part in seats:
                if part.entrant is None:
                    continue
                cell = _cell(part, seats, points)
                if unplayed(match):
                    # a letter, like the + and -: the PDF's key says what it stands for
                    cell = f"{cell} {UNPLAYED}"
                cells.setdefault(part.entrant.pk, {})[rnd.number] = cell
    if tables:
        order = [(item["row"].rank, item["row"].entrant) for item in tables[0]["rows"]]
        points = {item["row"].entrant_id: item["row"].points for item in tables[0]["rows"]}
    else:
        order = [(None, e) for e in Entrant.objects.filter(event=event).order_by("number")]
        points = {}
    rows = [
        {
            "rank": rank,
            "entrant": entrant,
            "cells": [cells.get(entrant.pk, {}).get(r.number, "") for r in rounds],
            "points": points.get(entrant.pk),
        }
        for rank, entrant in order
    ]
    return rounds, rows


def _cell(part: MatchParticipant, seats: list[MatchParticipant], points: list[Any]) -> str:
    others = [p for p in seats if p is not part]
    if not others or all(p.entrant is None for p in others):
        return "bye"
    opponent = " ".join(str(p.entrant.number) for p in others if p.entrant is not None)
    if len(points) != len(seats):
        return f"{opponent} ·"
    mine = points[part.seat] if part.seat < len(points) else None
    best_other = max((points[p.seat] for p in others if p.seat < len(points)), default=None)
    if mine is None or best_other is None:
        return f"{opponent} ·"
    sign = "+" if mine > best_other else "=" if mine == best_other else "-"
    return f"{sign}{opponent}"


def crosstable_pdf(event: Event, number: int | None, progress: Progress) -> Built:
    rounds, rows = crosstable_rows(event)
    progress(20)
    context = {**_base(event), "rounds": rounds, "rows": rows}
    return f"{event.slug}-crosstable.pdf", _pdf("crosstable.html", context, progress)


def invitation_slips(
    event: Event, number: int | None, progress: Progress, *, options: dict[str, Any]
) -> Built:
    """One slip per entrant (or per unclaimed entry): name, event, the invite link and a QR
    code of it, to hand out at the venue."""
    import segno

    unclaimed_only = bool(options.get("unclaimed_only"))
    slips = invitations.slips(
        event, base_url=str(options.get("base_url", "")), unclaimed_only=unclaimed_only
    )
    if not slips:
        raise ServiceError(
            "Every entry is claimed: there is no slip to print."
            if unclaimed_only
            else "The event has no entrants yet."
        )
    progress(20)
    rows = [
        # SVG keeps the code sharp at any print size; WeasyPrint draws it as vectors
        {"slip": slip, "qr": segno.make(slip.link, error="m").svg_data_uri(border=0)}
        for slip in slips
    ]
    context = {**_base(event), "rows": rows, "unclaimed_only": unclaimed_only}
    suffix = "-unclaimed" if unclaimed_only else ""
    return f"{event.slug}-invitations{suffix}.pdf", _pdf("invitations.html", context, progress)


def entrants_csv(event: Event, number: int | None, progress: Progress) -> Built:
    entrants = Entrant.objects.filter(event=event).select_related("team").order_by("number")
    rows = [
        [
            e.number,
            e.name,
            e.family_name,
            e.given_name,
            e.rating if e.rating is not None else "",
            e.seed or "",
            e.country,
            e.gender,
            e.team.name if e.team else "",
            e.status,
            e.withdrawn_after_round or "",
        ]
        for e in entrants
    ]
    # the import's own columns, family_name and given_name among them: the file reads back in
    header = ["number", "name", "family_name", "given_name", "rating", "seed", "country"]
    header += ["gender", "team", "status"]
    return f"{event.slug}-entrants.csv", _csv([*header, "withdrawn_after_round"], rows)


def results_csv(event: Event, number: int | None, progress: Progress) -> Built:
    matches = (
        Match.objects.filter(round__event=event)
        .select_related("round")
        .prefetch_related(
            Prefetch(
                "participants",
                queryset=MatchParticipant.objects.order_by("seat").select_related("entrant"),
            )
        )
        .order_by("round__number", "order", "code")
    )
    rows = []
    for match in matches:
        result = match.result or {}
        points = result.get("points") or []
        for part in match.participants.all():
            rows.append(
                [
                    match.round.number,
                    match.code,
                    match.table or "",
                    part.seat,
                    part.entrant.number if part.entrant else "",
                    part.entrant.name if part.entrant else "bye",
                    part.role,
                    points[part.seat] if part.seat < len(points) else "",
                    "" if result.get("winner") is None else int(result["winner"] == part.seat),
                    result.get("summary", ""),
                    "; ".join(ending_notes(match)),
                ]
            )
    header = ["round", "match", "table", "seat", "number", "name", "role", "points", "won"]
    return f"{event.slug}-results.csv", _csv([*header, "summary", "ending"], rows)


def standings_csv(event: Event, number: int | None, progress: Progress) -> Built:
    _, tables = selectors.published_standings(event)
    keys: list[str] = []
    for table in tables:
        keys += [c["key"] for c in table["columns"] if c["key"] not in keys]
    rows = []
    for table in tables:
        for item in table["rows"]:
            row = item["row"]
            values = [row.values.get(k, "") for k in keys]
            rows.append([table["key"], row.rank, row.entrant.number, row.entrant.name, *values])
    return f"{event.slug}-standings.csv", _csv(["table", "rank", "number", "name", *keys], rows)


BUILDERS: dict[str, Callable[..., Built]] = {
    Report.Kind.PAIRINGS_BY_TABLE: lambda e, n, p: pairings(e, n, p, by_name=False),
    Report.Kind.PAIRINGS_BY_NAME: lambda e, n, p: pairings(e, n, p, by_name=True),
    Report.Kind.RESULT_SLIPS: result_slips,
    Report.Kind.STANDINGS_PDF: standings_pdf,
    Report.Kind.CROSSTABLE_PDF: crosstable_pdf,
    Report.Kind.ENTRANTS_CSV: entrants_csv,
    Report.Kind.RESULTS_CSV: results_csv,
    Report.Kind.STANDINGS_CSV: standings_csv,
    Report.Kind.INVITATIONS: invitation_slips,
    Report.Kind.INVITATIONS_UNCLAIMED: invitation_slips,
}
# Kinds whose builder also takes the report's options (see Report.options).
OPTION_KINDS = {Report.Kind.INVITATIONS, Report.Kind.INVITATIONS_UNCLAIMED}
# Kinds printed for one round (the others cover the whole event).
ROUND_KINDS = {
    Report.Kind.PAIRINGS_BY_TABLE,
    Report.Kind.PAIRINGS_BY_NAME,
    Report.Kind.RESULT_SLIPS,
}
# Kinds that show the published standings (built once per standings version).
STANDINGS_KINDS = {Report.Kind.STANDINGS_PDF, Report.Kind.CROSSTABLE_PDF, Report.Kind.STANDINGS_CSV}


def safe_name(name: str) -> str:
    stem, _, ext = name.rpartition(".")
    return f"{slugify(stem) or 'report'}.{ext}"


def _by_name(line: dict[str, Any]) -> tuple[str, int]:
    entrant: Entrant = line["entrant"]
    return entrant.name.casefold(), entrant.number
