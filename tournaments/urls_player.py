"""A player's own things: their e-mail switches and their match's result under double
entry; and the unsubscribe links of every mail (no sign-in)."""

from django.urls import path

from tournaments.views import entries, mail, player_result

urlpatterns = [
    path("mail/unsubscribe/<str:token>/", mail.unsubscribe, name="unsubscribe"),
    path("e/<slug:slug>/enter/", entries.enter, name="enter"),
    path("e/<slug:slug>/entry/<str:token>/", entries.entry, name="entry"),
    path(
        "mail/unsubscribe/<str:token>/one-click",
        mail.unsubscribe_one_click,
        name="unsubscribe_one_click",
    ),
    path("e/<slug:slug>/entrants/<int:number>/emails", mail.entrant_emails, name="entrant_emails"),
    path(
        "e/<slug:slug>/matches/<int:match_id>/my-result",
        player_result.player_result,
        name="player_result",
    ),
]
