"""The director's screens: /manage/new/ and /e/<slug>/manage/..."""

from django.urls import path

from tournaments.views import (
    manage_checkin,
    manage_entrants,
    manage_event,
    manage_import,
    manage_rounds,
    manage_tokens,
    manage_venue,
    manage_webhooks,
)

urlpatterns = [
    path("manage/new/", manage_event.create_event, name="manage_create"),
    path("manage/import/", manage_import.import_event, name="manage_import_event"),
    path("manage/import/jobs/<int:job>/", manage_import.import_job, name="manage_import_job"),
    path("e/<slug:slug>/manage/", manage_event.dashboard, name="manage"),
    path(
        "e/<slug:slug>/manage/standings/", manage_event.standings_preview, name="manage_standings"
    ),
    path(
        "e/<slug:slug>/manage/standings/publish",
        manage_event.publish_standings,
        name="manage_standings_publish",
    ),
    path(
        "e/<slug:slug>/manage/export/event.json",
        manage_import.export_event,
        name="manage_export_event",
    ),
    path("e/<slug:slug>/manage/export/wof.elo", manage_import.export_wof, name="manage_export_wof"),
    path("e/<slug:slug>/manage/tokens/", manage_tokens.tokens, name="manage_tokens"),
    path("e/<slug:slug>/manage/venue/", manage_venue.venue, name="manage_venue"),
    path(
        "e/<slug:slug>/manage/tokens/<int:token_id>/revoke",
        manage_tokens.revoke,
        name="manage_token_revoke",
    ),
    path("e/<slug:slug>/manage/check/", manage_event.conformance_verdict, name="manage_check"),
    path("e/<slug:slug>/manage/directors/add", manage_event.add_director, name="manage_directors"),
    path(
        "e/<slug:slug>/manage/double-entry",
        manage_event.set_double_entry,
        name="manage_double_entry",
    ),
    path("e/<slug:slug>/manage/entrants/", manage_entrants.entrant_list, name="manage_entrants"),
    path(
        "e/<slug:slug>/manage/entrants/import/",
        manage_entrants.entrant_import,
        name="manage_import",
    ),
    path(
        "e/<slug:slug>/manage/entrants/<int:number>/",
        manage_entrants.entrant_edit,
        name="manage_entrant",
    ),
    path(
        "e/<slug:slug>/manage/entrants/<int:number>/withdraw",
        manage_entrants.entrant_withdraw,
        name="manage_withdraw",
    ),
    path(
        "e/<slug:slug>/manage/entrants/<int:number>/invite",
        manage_entrants.entrant_invite,
        name="manage_invite",
    ),
    path("e/<slug:slug>/manage/checkin/", manage_checkin.checkin_sheet, name="manage_checkin"),
    path("e/<slug:slug>/manage/webhooks/", manage_webhooks.webhook_list, name="manage_webhooks"),
    path(
        "e/<slug:slug>/manage/webhooks/<int:pk>",
        manage_webhooks.webhook_change,
        name="manage_webhook",
    ),
    path(
        "e/<slug:slug>/manage/webhooks/log/",
        manage_webhooks.delivery_log,
        name="manage_webhook_log",
    ),
    path(
        "e/<slug:slug>/manage/webhooks/log/<int:pk>/send-again",
        manage_webhooks.delivery_resend,
        name="manage_webhook_resend",
    ),
    path(
        "e/<slug:slug>/manage/checkin/<int:number>",
        manage_checkin.checkin_toggle,
        name="manage_checkin_toggle",
    ),
    path("e/<slug:slug>/manage/rounds/next", manage_rounds.draft_next, name="manage_draft"),
    path(
        "e/<slug:slug>/manage/rounds/<int:number>/", manage_rounds.round_detail, name="manage_round"
    ),
    path(
        "e/<slug:slug>/manage/rounds/<int:number>/swap",
        manage_rounds.round_swap,
        name="manage_swap",
    ),
    path(
        "e/<slug:slug>/manage/rounds/<int:number>/start-time",
        manage_rounds.round_start,
        name="manage_round_start",
    ),
    path(
        "e/<slug:slug>/manage/rounds/<int:number>/<str:action>",
        manage_rounds.round_action,
        name="manage_round_action",
    ),
    path(
        "e/<slug:slug>/manage/matches/<int:match_id>/result",
        manage_rounds.save_result,
        name="manage_result",
    ),
    path("e/<slug:slug>/manage/draws/", manage_rounds.draw_entry, name="manage_draws"),
]
