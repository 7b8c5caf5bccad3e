"""The series operations (docs/series.md, docs/api.md "Series"): the public series and one
series' standings with every total explained. Registered on main.py's instance (imported
by urls.py), answered the same way: permission (a private series is a 404), the read
(tournaments/services/series_standings.py, as the pages), the shape, ETag/304. Not kept
in the page cache: a series' stages are other events and imported files, whose versions
do not name it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Schema
from ninja.params.functions import Path

from accounts.permissions import series_for_viewer
from tournaments.api.caching import respond_fresh
from tournaments.api.main import ERRORS, api
from tournaments.models import Series
from tournaments.services import series_standings
from tournaments.views.series import visible_series

SeriesSlug: Any = Path(
    ...,
    pattern=r"^[-a-zA-Z0-9_]+$",
    max_length=80,
    description="The series' slug.",
    example="demo-puzzle-gp",  # the demo Grand Prix (manage.py load_demo)
)
MAX_LISTED = 200


class SeriesSummary(Schema):
    slug: str
    name: str
    kind: str
    description: str
    value: str
    best: int | None
    ties: str
    url: str


class SeriesStageOut(Schema):
    id: int
    name: str
    kind: str
    event: str | None
    final: bool | None
    players: int


class SeriesPlayerOut(Schema):
    key: str
    name: str
    wof_id: str


class SeriesLineOut(Schema):
    stage: int
    name: str
    status: str
    value: str | None
    place: int | None
    score: str | None
    explanation: str


class SeriesRowOut(Schema):
    rank: int
    player: SeriesPlayerOut
    total: str
    stages: list[SeriesLineOut]
    explanation: list[str]


class SeriesOut(SeriesSummary):
    points: list[str]
    stages: list[SeriesStageOut]
    problems: list[str]
    standings: list[SeriesRowOut]


def _summary(series: Series) -> dict[str, Any]:
    return {
        "slug": series.slug,
        "name": series.name,
        "kind": series.kind,
        "description": series.description,
        "value": series.value,
        "best": series.best,
        "ties": series.ties,
        "url": reverse("tournaments:series", args=[series.slug]),
    }


class _SeriesList(Schema):
    results: list[SeriesSummary]


@api.get(
    "/series/",
    response={200: _SeriesList, **ERRORS},
    url_name="series_list",
    summary="Public series (seasons, circuits, Grand Prix), by name",
)
def series_list(request: HttpRequest) -> HttpResponse:
    return respond_fresh(
        request,
        _SeriesList,
        lambda: {
            "results": [
                _summary(s) for s in visible_series(request.user).order_by("name")[:MAX_LISTED]
            ]
        },
    )


def _series(series: Series) -> dict[str, Any]:
    table = series_standings.table(series)
    return {
        **_summary(series),
        "points": [str(p) for p in series.points or []],
        "stages": [
            {
                "id": stage.id,
                "name": stage.name,
                "kind": stage.kind,
                "event": stage.event_slug,
                "final": stage.final,
                "players": stage.players,
            }
            for stage in table.stages
        ],
        "problems": list(table.problems),
        "standings": [series_standings.as_data(row) for row in table.rows],
    }


@api.get(
    "/series/{slug}/",
    response={200: SeriesOut, **ERRORS},
    url_name="series",
    summary="One series: its stages and standings, every total explained",
)
def one_series(request: HttpRequest, slug: str = SeriesSlug) -> HttpResponse:
    return respond_fresh(request, SeriesOut, lambda: _series(series_for_viewer(request.user, slug)))
