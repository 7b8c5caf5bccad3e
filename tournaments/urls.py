from django.urls import include, path

from tournaments.views import projector, public

app_name = "tournaments"

urlpatterns = [
    path("", public.event_list, name="event_list"),
    path("healthz", public.health, name="health"),
    path("e/<slug:slug>/", public.event_home, name="event"),
    path("e/<slug:slug>/rounds/<int:number>/", public.round_pairings, name="round"),
    path("e/<slug:slug>/standings/", public.standings, name="standings"),
    path("e/<slug:slug>/entrants/<int:number>/", public.entrant, name="entrant"),
    path("e/<slug:slug>/version", public.version, name="version"),
    path(
        "e/<slug:slug>/rounds/<int:number>/projector/",
        projector.round_projector,
        name="round_projector",
    ),
    path(
        "e/<slug:slug>/standings/projector/",
        projector.standings_projector,
        name="standings_projector",
    ),
    # the director's screens and the reports each keep their own URL module
    path("", include("tournaments.urls_director")),
    path("", include("tournaments.urls_reports")),
    path("", include("tournaments.urls_formats")),
    path("", include("tournaments.urls_player")),
]
