"""Series (docs/series.md): the public pages and the director's screens."""

from django.urls import path

from tournaments.views import manage_series, series

urlpatterns = [
    path("series/", series.series_list, name="series_list"),
    path("series/<slug:series_slug>/", series.series_page, name="series"),
    path("series/<slug:series_slug>/standings.csv", series.series_csv, name="series_csv"),
    path(
        "series/<slug:series_slug>/players/<path:key>/",
        series.series_player,
        name="series_player",
    ),
    path("manage/series/new/", manage_series.create_series, name="manage_series_create"),
    path("series/<slug:series_slug>/manage/", manage_series.manage_series, name="manage_series"),
]
