"""Public series pages (docs/series.md): the list, a series' standings with every total
explained, its CSV, and a player's page. Thin: permission, read, render. The standings
read costs a fixed number of queries (tests/tournaments/test_series_pages.py pins it)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.permissions import can_view, is_series_director, series_for_viewer
from rules.series import show
from tournaments.csv_cells import csv_bytes
from tournaments.models import Entrant, Series, SeriesStage
from tournaments.services import series_standings

OTHER_SERIES = 10  # a player's page shows their totals in this many other series at most


def visible_series(user: Any) -> Any:
    found = Series.objects.all()
    if getattr(user, "is_staff", False):
        return found
    if getattr(user, "is_authenticated", False):
        return found.filter(Q(public=True) | Q(directors=user)).distinct()
    return found.filter(public=True)


@require_safe
def series_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/series_list.html",
        {"series_list": list(visible_series(request.user).order_by("name")[:200])},
    )


def _cells(row: series_standings.SeriesStanding) -> list[dict[str, Any]]:
    return [
        {
            "status": line.status,
            "value": show(line.value) if line.value is not None else "",
            "stage": line.stage_name,
        }
        for line in row.lines
    ]


@require_safe
def series_page(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = series_for_viewer(request.user, series_slug)
    table = series_standings.table(series)
    rows = [{"row": row, "cells": _cells(row)} for row in table.rows]
    context = {
        "series": series,
        "table": table,
        "rows": rows,
        "directing": is_series_director(request.user, series),
    }
    return render(request, "tournaments/series.html", context)


@require_safe
def series_csv(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = series_for_viewer(request.user, series_slug)
    table = series_standings.table(series)
    header = [_("Rank"), _("Player"), _("WOF id"), _("Total")]
    header += [stage.name for stage in table.stages] + [_("Explanation")]
    body = []
    for row in table.rows:
        values = [
            (show(line.value) if line.value is not None else "")
            + (" " + _("(dropped)") if line.status == "dropped" else "")
            for line in row.lines
        ]
        body.append(
            [
                row.rank,
                row.player.name,
                row.player.wof_id,
                row.total_text,
                *values,
                " ".join(row.explanation),
            ]
        )
    response = HttpResponse(csv_bytes(header, body), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-standings.csv"'
    return response


def _same(one: series_standings.SeriesStanding, other: series_standings.SeriesStanding) -> bool:
    """The same person in two series: the same account, a shared entrant or the same WOF
    id. Two rows that carry only the same name in two series may be two people."""
    a, b = one.player, other.player
    return (
        (a.key == b.key and not a.key.startswith("name:"))
        or bool(set(a.entrant_ids) & set(b.entrant_ids))
        or bool(a.wof_id and a.wof_id == b.wof_id)
    )


@require_safe
def series_player(request: HttpRequest, series_slug: str, key: str) -> HttpResponse:
    """One person in a series: each stage (their event's page linked), their total and why,
    their events, and their totals in the other series they play in."""
    series = series_for_viewer(request.user, series_slug)
    table = series_standings.table(series)
    row = next((r for r in table.rows if r.player.public_key == key), None)
    if row is None:
        raise Http404("No such player in this series.")
    entrants = [
        e
        for e in Entrant.objects.filter(pk__in=row.player.entrant_ids).select_related("event")
        if can_view(request.user, e.event)
    ]
    others: list[dict[str, Any]] = []
    wanted = Q(event_id__in=[e.event_id for e in entrants])
    if row.player.wof_id:
        wanted |= Q(scores__wof_id=row.player.wof_id)
    if row.player.user_id is not None:
        wanted |= Q(event__entrants__user_id=row.player.user_id)
    other_ids = (
        SeriesStage.objects.filter(wanted)
        .exclude(series=series)
        .values_list("series_id", flat=True)
        .distinct()
    )
    for other in (
        visible_series(request.user).filter(pk__in=other_ids).order_by("name")[:OTHER_SERIES]
    ):
        found = next((r for r in series_standings.standings(other) if _same(r, row)), None)
        if found is not None:
            others.append({"series": other, "row": found})
    context = {
        "series": series,
        "row": row,
        "lines": [
            {"line": line, "value": show(line.value) if line.value is not None else "\u2013"}
            for line in row.lines
        ],
        "entrants": entrants,
        "others": others,
    }
    return render(request, "tournaments/series_player.html", context)
