from django.urls import include, path

from tournaments.views import embed, projector, public

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
    # embeds for other sites and the overlay for streaming software (framable: embed.py)
    path("e/<slug:slug>/embed/", embed.embed_panel, name="embed"),
    path("e/<slug:slug>/embed/standings", embed.standings_widget, name="embed_standings"),
    path("e/<slug:slug>/embed/standings.html", embed.standings_snippet, name="embed_snippet"),
    path("e/<slug:slug>/overlay", embed.overlay, name="overlay"),
    # the director's screens and the reports each keep their own URL module
    path("", include("tournaments.urls_director")),
    path("", include("tournaments.urls_reports")),
    path("", include("tournaments.urls_formats")),
    path("", include("tournaments.urls_player")),
    path("", include("tournaments.urls_series")),
]
