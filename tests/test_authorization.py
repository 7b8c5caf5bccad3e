"""Every URL in the URL conf, asked by every persona: the answer must be the one in TABLE.

The test walks django.urls.get_resolver(); a named URL pattern that is not in TABLE fails
the suite, so a new view cannot ship without someone deciding who may use it. Only the
admin site's own patterns are left out (Django tests them; they need is_staff).

Personas, in the order of each row's answers:
  anonymous       not signed in
  player          a user who claimed an entrant of the event (entrant 1)
  other_director  the director of ANOTHER event, a stranger to this one
  director        a director of this event (its creator)
  admin           a staff superuser

An answer is an HTTP status, or "login" for a redirect to the sign-in page. A 302 means a
redirect anywhere else. Private events are a 404 to strangers, so their existence does
not leak.

Every request goes as a browser sends it: CSRF checks on, with the token the first page
gave (the hx-headers of its body, as htmx sends it; the cookie is HttpOnly). Besides the
rows, every URL is also asked with every method (GET, POST, PUT, PATCH, DELETE, HEAD,
OPTIONS): a method without a row must be refused (405, or the refusal that persona gets
anyway), so a view cannot accept a method nobody decided on; HEAD is answered where GET is,
with the GET's answer. And every unsafe request
without the token is refused (403) for everyone, except the views in CSRF_EXEMPT.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.timezone import now

from accounts.models import User
from accounts.services import claim_entrant
from rules.contract import EngineError
from tests.factories import play_round, round_robin_event
from tournaments.models import ImportJob, Match
from tournaments.services import events, reports, rounds, series
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "player", "other_director", "director", "admin")
SKIPPED_NAMESPACES = {"admin"}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
REFUSALS = {"login", "403", "404"}  # a persona refused before the method is even looked at

# The API's own copy of each format's public page (tournaments/api/formats.py), its format
API_FORMAT_PAGES = {
    "gokodom_bracket": "gokodom",
    "freestyle_bracket": "freestyle",
    "bot_contest_gauntlet": "bot_contest",
    "bot_contest_brackets": "bot_contest",
    "bot_contest_final": "bot_contest",
    "bot_contest_boards": "bot_contest",
    "wpf_playoffs_ladder": "wpf_playoffs",
}

# The only views a request without the CSRF token may reach, and why.
CSRF_EXEMPT = {
    # The referee program posts JSON with "Authorization: Bearer <token>" and no cookie; a
    # session is never accepted there (a signed-in director without the token gets 403,
    # see its row), so a forged cross-site request carries nothing that would let it in.
    "tournaments:bot_contest_api_game": "authenticated by its bearer token, not a session",
    # A mail client's one-click unsubscribe (RFC 8058) posts with no session and no token;
    # the signed token in the address is the authority, and it only turns mail off.
    "tournaments:unsubscribe_one_click": "authorised by the signed token in its address",
    # The language switch on every page: a token there would make every shared public page
    # per-visitor and uncacheable; a forged request only changes the visitor's language.
    "set_language": "only sets the visitor's language cookie",
    # Venue mode's push and pull (docs/venue.md): JSON with "Authorization: Bearer <token>"
    # of the event (scope mirror:push), never a session.
    "mirror_push": "authenticated by its bearer token, not a session",
    "mirror_pull": "authenticated by its bearer token, not a session",
    # The public API only reads: tournaments/api/middleware.py refuses every method but
    # GET and HEAD (and a CORS preflight) with a JSON 405 before any view or session.
    **{
        name: "read-only: every other method is refused by the API's middleware"
        for name in (
            "api_docs",
            "api_not_found",
            "api-v1:api-root",
            "api-v1:openapi-json",
            "api-v1:events",
            "api-v1:event",
            "api-v1:entrants",
            "api-v1:entries",
            "api-v1:rounds",
            "api-v1:round",
            "api-v1:standings",
            "api-v1:series_list",
            "api-v1:series",
            "api-v1:outlook",
            "api-v1:draws",
            "api-v1:export",
            *(f"api-v1:{page}" for page in API_FORMAT_PAGES),
            "api_event_stream",
            "api_event_calendar",
            "api_entrant_calendar",
        )
    },
}


@dataclass(frozen=True)
class Case:
    """One request to a URL: on which event, how, and what each persona must get."""

    event: str | None  # "private", "public", or None when the URL names no event
    expect: str  # one answer per persona, in PERSONAS order
    method: str = "GET"
    kwargs: Mapping[str, Any] = field(default_factory=dict)  # overrides of the defaults
    data: Mapping[str, Any] = field(default_factory=dict)  # the POST body
    htmx: bool = False
    format: str = "round_robin"  # a format's own screens are asked on an event of it


# Shorthands for the common rows.
EVERYONE = "200 200 200 200 200"
PRIVATE_PAGE = "404 200 404 200 200"  # players and directors of the event only
DIRECTOR_ONLY = "login 404 404 200 200"  # a director's screen, of a private or public event
SIGNED_IN = "login 200 200 200 200"
SERIES_PRIVATE = "404 404 404 200 200"  # a private series: its director and admins only

TABLE: dict[str, list[Case]] = {
    # --- accounts ------------------------------------------------------------------
    "accounts:login": [
        Case(None, EVERYONE),
        # an empty sign-in form is shown again with its errors
        Case(None, EVERYONE, method="POST"),
    ],
    "accounts:logout": [
        Case(None, "405 405 405 405 405"),
        Case(None, "302 302 302 302 302", method="POST"),
    ],
    "accounts:signup": [
        Case(None, "200 302 302 302 302"),
        Case(None, "422 302 302 302 302", method="POST"),
    ],
    "accounts:claim": [
        Case(None, SIGNED_IN),
        Case(None, "login 422 422 422 422", method="POST"),
    ],
    # an unclaimed entrant's invite link: anyone signed in who has it may claim it
    "accounts:claim_code": [
        Case("private", SIGNED_IN),
        # the player already plays entrant 1 of this event: one entrant per user per event
        Case("private", "login 422 302 302 302", method="POST"),
        # entrant 1 is the player's: others are told it is taken, and a POST is refused
        Case("public", SIGNED_IN, kwargs={"code": "player"}),
        Case("public", "login 302 422 422 422", method="POST", kwargs={"code": "player"}),
    ],
    "accounts:password_change": [
        Case(None, SIGNED_IN),
        Case(None, SIGNED_IN, method="POST"),  # an empty form: its errors, nothing changed
    ],
    "accounts:password_change_done": [Case(None, SIGNED_IN)],
    "accounts:password_reset": [Case(None, EVERYONE), Case(None, EVERYONE, method="POST")],
    "accounts:password_reset_done": [Case(None, EVERYONE)],
    # a link with a bad token says so, whatever is posted to it
    "accounts:password_reset_confirm": [
        Case(None, EVERYONE),
        Case(None, EVERYONE, method="POST"),
    ],
    "accounts:password_reset_complete": [Case(None, EVERYONE)],
    # --- the language switch (Django's set_language, POST only) -----------------------
    "set_language": [
        Case(None, "405 405 405 405 405"),
        Case(None, "302 302 302 302 302", method="POST", data={"language": "fr", "next": "/"}),
    ],
    # --- public pages ----------------------------------------------------------------
    "tournaments:event_list": [Case(None, EVERYONE)],
    # --- series (docs/series.md): a private series is its directors' and admins' only ---
    "tournaments:series_list": [Case(None, EVERYONE)],
    "tournaments:series": [Case("private", SERIES_PRIVATE), Case("public", EVERYONE)],
    "tournaments:series_csv": [Case("private", SERIES_PRIVATE), Case("public", EVERYONE)],
    "tournaments:series_player": [
        Case("private", SERIES_PRIVATE),
        Case("public", EVERYONE),
        Case("public", "404 404 404 404 404", kwargs={"key": "wof:nobody"}),
    ],
    "tournaments:manage_series_create": [
        Case(None, SIGNED_IN),
        Case(None, "login 422 422 422 422", method="POST"),  # an empty form, its errors
    ],
    "tournaments:manage_series": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
        # no action named: the screen again with the refusal, nothing changed
        Case("public", "login 404 404 422 422", method="POST"),
        # a stage that is not the series': refused with the reason
        Case("public", "login 404 404 422 422", method="POST", data={"action": "up", "stage": 0}),
    ],
    "tournaments:health": [Case(None, EVERYONE)],
    "tournaments:event": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "tournaments:round": [
        Case("private", PRIVATE_PAGE),
        Case("public", EVERYONE),
        Case("public", EVERYONE, htmx=True),
        # a draft round is nobody's public page, not even its director's
        Case("public", "404 404 404 404 404", kwargs={"number": 2}),
    ],
    "tournaments:standings": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "tournaments:entrant": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "tournaments:version": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    # --- the public API (/api/v1/, issue 30): the pages' permissions, as JSON ------------
    "api_docs": [Case(None, EVERYONE)],
    "api_not_found": [Case(None, "404 404 404 404 404", kwargs={"rest": "v1/nothing/"})],
    "api-v1:api-root": [Case(None, "404 404 404 404 404")],
    "api-v1:openapi-json": [Case(None, EVERYONE)],
    "api-v1:events": [Case(None, EVERYONE)],
    "api-v1:series_list": [Case(None, EVERYONE)],
    "api-v1:series": [
        Case("private", SERIES_PRIVATE, kwargs={"slug": "series-private"}),
        Case("public", EVERYONE, kwargs={"slug": "series-public"}),
    ],
    "api-v1:event": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "api-v1:entrants": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "api-v1:entries": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "api-v1:rounds": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "api-v1:round": [
        Case("private", PRIVATE_PAGE),
        Case("public", EVERYONE),
        # a draft round is nobody's, as on the pages
        Case("public", "404 404 404 404 404", kwargs={"number": 2}),
    ],
    "api-v1:standings": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "api-v1:outlook": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    "api-v1:draws": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    # the whole-event export needs the event's API token, never a session: 401 for everyone
    # here (tests/api/test_api_export.py asks with tokens)
    "api-v1:export": [
        Case("private", "401 401 401 401 401"),
        Case("public", "401 401 401 401 401"),
    ],
    **{
        f"api-v1:{page}": [
            Case("private", PRIVATE_PAGE, format=key),
            Case("public", EVERYONE, format=key),
            # another format's page is missing, as the page is
            Case("public", "404 404 404 404 404"),
        ]
        for page, key in API_FORMAT_PAGES.items()
    },
    "api_event_calendar": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    # The stream is served by the live process (config.asgi); a WSGI worker never holds one
    # and answers 503 (the page polls). What this row checks is who learns the event exists.
    "api_event_stream": [
        Case("private", "404 503 404 503 503"),
        Case("public", "503 503 503 503 503"),
    ],
    "api_entrant_calendar": [Case("private", PRIVATE_PAGE), Case("public", EVERYONE)],
    # --- a player's own things, and the mails' links ------------------------------------
    # an unsubscribe link needs no sign-in; a link that was not made here is refused
    "tournaments:unsubscribe": [
        Case(None, "400 400 400 400 400"),
        Case(None, "400 400 400 400 400", method="HEAD"),
        Case(None, "400 400 400 400 400", method="POST"),
    ],
    "tournaments:unsubscribe_one_click": [
        Case(None, "405 405 405 405 405"),
        Case(None, "400 400 400 400 400", method="POST"),
    ],
    # a player's e-mail switches: the player of that entrant only (a director is not)
    "tournaments:entrant_emails": [
        Case("private", "login 405 405 405 405"),
        Case("private", "login 302 404 403 403", method="POST"),
        Case("public", "login 302 403 403 403", method="POST"),
    ],
    # a player's own match's result (under double entry; here it is off: the page says
    # so, and a POST is refused beside the form)
    "tournaments:player_result": [
        Case("private", "login 200 404 403 403"),
        Case("private", "login 200 404 403 403", method="HEAD"),
        Case("private", "login 422 404 403 403", method="POST"),
        Case("public", "login 200 403 403 403"),
    ],
    # the hall's screen: seen exactly when the round page or the standings page is
    "tournaments:round_projector": [
        Case("private", PRIVATE_PAGE),
        Case("public", EVERYONE),
        Case("public", EVERYONE, htmx=True),
        Case("public", EVERYONE, method="HEAD"),
        Case("public", "404 404 404 404 404", kwargs={"number": 2}),  # a draft
    ],
    "tournaments:standings_projector": [
        Case("private", PRIVATE_PAGE),
        Case("public", EVERYONE),
        Case("public", EVERYONE, method="HEAD"),
    ],
    # embeds for other sites and the stream overlay: seen exactly when the standings are
    "tournaments:embed_standings": [
        Case("private", PRIVATE_PAGE),
        Case("public", EVERYONE),
        Case("public", EVERYONE, htmx=True),
        Case("public", EVERYONE, method="HEAD"),
    ],
    "tournaments:embed_snippet": [
        Case("private", PRIVATE_PAGE),
        Case("public", EVERYONE),
        Case("public", EVERYONE, method="HEAD"),
    ],
    "tournaments:overlay": [
        Case("private", PRIVATE_PAGE),
        Case("public", EVERYONE),
        Case("public", EVERYONE, htmx=True),
        Case("public", EVERYONE, method="HEAD"),
    ],
    # the codes to paste: a private event has none to give (they would answer 404)
    "tournaments:embed": [
        Case("private", "404 404 404 404 404"),
        Case("public", EVERYONE),
        Case("public", EVERYONE, method="HEAD"),
    ],
    # --- director screens -------------------------------------------------------------
    "tournaments:manage_create": [
        Case(None, SIGNED_IN),
        # an empty form is the form again (the htmx settings step shares this answer)
        Case(None, "login 200 200 200 200", method="POST"),
    ],
    # importing a whole event: anyone who may create one (an empty or forged form is refused)
    "tournaments:manage_import_event": [
        Case(None, SIGNED_IN),
        Case(None, "login 422 422 422 422", method="POST", data={"step": "check"}),
        Case(
            None,
            "login 400 400 400 400",
            method="POST",
            data={"step": "confirm", "sealed": "forged", "slug": "x", "name": "X"},
        ),
    ],
    # a confirmed import's progress: its director's (and the admins') only
    "tournaments:manage_import_job": [
        Case(None, DIRECTOR_ONLY),
        Case(None, DIRECTOR_ONLY, htmx=True),
    ],
    "tournaments:manage_export_event": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
    ],
    # a WOF rating file holds a WOC event only: another format is a 404 even to its director
    "tournaments:manage_export_wof": [
        Case("private", DIRECTOR_ONLY, format="woc"),
        Case("public", DIRECTOR_ONLY, format="woc"),
        Case("public", "login 404 404 404 404"),
    ],
    "tournaments:manage": [Case("private", DIRECTOR_ONLY), Case("public", DIRECTOR_ONLY)],
    # the event's API tokens (issue 30 step 7); an empty form is refused naming its fields,
    # and a token that is not the event's cannot be revoked (a message, back to the list)
    "tournaments:manage_tokens": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY, htmx=True),
        Case("public", "login 404 404 422 422", method="POST"),
        Case("private", "login 404 404 422 422", method="POST", htmx=True),
    ],
    # venue mode's link screen (docs/venue.md); a post without an action is refused
    "tournaments:manage_venue": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
        Case("public", "login 404 404 409 409", method="POST"),
    ],
    # a venue's push and pull need the event's mirror token, never a session: 401 for all
    "mirror_push": [
        Case("public", "405 405 405 405 405"),
        Case("public", "401 401 401 401 401", method="POST"),
        Case("private", "401 401 401 401 401", method="POST"),
    ],
    "mirror_pull": [
        Case("public", "405 405 405 405 405"),
        Case("public", "401 401 401 401 401", method="POST"),
    ],
    "tournaments:manage_token_revoke": [
        Case("private", "login 405 405 405 405", kwargs={"token_id": 10**9}),
        Case("private", "login 404 404 302 302", method="POST", kwargs={"token_id": 10**9}),
        Case("public", "login 404 404 302 302", method="POST", kwargs={"token_id": 10**9}),
    ],
    "tournaments:manage_standings": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
    ],
    "tournaments:manage_standings_publish": [
        Case("private", "login 405 405 405 405"),
        Case("private", "login 404 404 302 302", method="POST"),
        Case("public", "login 404 404 302 302", method="POST"),
    ],
    "tournaments:manage_check": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY, htmx=True),
    ],
    # double entry of results on or off: the head director's (here the creator) and admins'
    "tournaments:manage_double_entry": [
        Case("private", "login 405 405 405 405"),
        Case("private", "login 404 404 302 302", method="POST"),
        Case("public", "login 404 404 302 302", method="POST"),
    ],
    "tournaments:manage_directors": [
        Case("private", "login 405 405 405 405"),
        # an empty username is refused with a message and a redirect to the dashboard
        Case("private", "login 404 404 302 302", method="POST"),
        Case("public", "login 404 404 302 302", method="POST"),
    ],
    "tournaments:manage_entrants": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
        Case("public", "login 404 404 200 200", method="POST"),
    ],
    "tournaments:manage_import": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
        # an empty file is refused beside the form
        Case("public", "login 404 404 422 422", method="POST"),
    ],
    "tournaments:manage_entrant": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
        Case("public", "login 404 404 422 422", method="POST"),
    ],
    "tournaments:manage_withdraw": [
        Case("private", "login 405 405 405 405"),
        # rounds are paired: a director first gets the preview of what the withdrawal changes
        Case("private", "login 404 404 200 200", method="POST"),
        Case("public", "login 404 404 200 200", method="POST"),
    ],
    # a new invite link: the old one dies, so only a POST, and only the event's directors
    "tournaments:manage_invite": [
        Case("private", "login 405 405 405 405"),
        Case("private", "login 404 404 302 302", method="POST"),
        Case("public", "login 404 404 200 200", method="POST", htmx=True),
    ],
    # webhooks (issue 30, step 4): the event's directors only; no endpoint is in this world,
    # so a change or a resend finds none (tests/webhooks/ test them on a real one)
    "tournaments:manage_webhooks": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
        Case("public", "login 404 404 422 422", method="POST", data={"url": "ftp://x"}, htmx=True),
    ],
    "tournaments:manage_webhook": [
        Case("private", "login 405 405 405 405"),
        Case("public", "login 404 404 404 404", method="POST", kwargs={"pk": 10**9}),
    ],
    "tournaments:manage_webhook_log": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
    ],
    "tournaments:manage_webhook_resend": [
        Case("private", "login 405 405 405 405"),
        Case("public", "login 404 404 404 404", method="POST", kwargs={"pk": 10**9}),
    ],
    # registration (issue 32): the public entry form and an entry's own page, whose
    # address is its secret (an unknown token is a 404 to everyone)
    "tournaments:enter": [
        Case("private", PRIVATE_PAGE),
        Case("public", EVERYONE),
        # an empty form: its field errors, nothing saved
        Case("public", "422 422 422 422 422", method="POST"),
    ],
    "tournaments:entry": [
        Case("private", "404 404 404 404 404"),
        Case("public", "404 404 404 404 404"),
        Case("public", "404 404 404 404 404", method="POST", data={"action": "withdraw"}),
    ],
    "tournaments:manage_entries_list": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
    ],
    # an empty settings form: its errors, nothing saved
    "tournaments:manage_entries_settings": [
        Case("private", "login 405 405 405 405"),
        Case("public", "login 404 404 422 422", method="POST"),
    ],
    "tournaments:manage_entries_rating_list": [
        Case("private", "login 405 405 405 405"),
        Case("public", "login 404 404 422 422", method="POST"),
    ],
    "tournaments:manage_entries_qualify": [
        Case("private", "login 405 405 405 405"),
        Case("public", "login 404 404 422 422", method="POST"),
    ],
    # no accepted entry: nothing to make, back to the screen
    "tournaments:manage_entries_make": [
        Case("private", "login 405 405 405 405"),
        Case("public", "login 404 404 302 302", method="POST"),
    ],
    "tournaments:manage_entry_action": [
        Case("private", "login 405 405 405 405", kwargs={"pk": 10**9, "action": "accept"}),
        Case(
            "public",
            "login 404 404 404 404",
            method="POST",
            kwargs={"pk": 10**9, "action": "accept"},
        ),
    ],
    # check-in for the next round: the event's directors mark who plays it
    "tournaments:manage_checkin": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
    ],
    # the public event's round 2 is drafted: its check-in is for round 3, not the 2 asked
    "tournaments:manage_checkin_toggle": [
        Case("private", "login 405 405 405 405"),
        Case("private", "login 404 404 302 302", method="POST", data={"present": "0"}),
        Case(
            "public",
            "login 404 404 422 422",
            method="POST",
            data={"present": "0", "round": "2"},
            htmx=True,
        ),
    ],
    "tournaments:manage_draft": [
        Case("private", "login 405 405 405 405"),
        Case("private", "login 404 404 302 302", method="POST"),
    ],
    "tournaments:manage_round": [
        Case("private", DIRECTOR_ONLY),
        # the public event's round 2 is a draft: its directors review it here
        Case("public", DIRECTOR_ONLY, kwargs={"number": 2}),
    ],
    "tournaments:manage_swap": [
        Case("public", "login 405 405 405 405", kwargs={"number": 2}),
        Case("public", "login 404 404 422 422", method="POST", kwargs={"number": 2}),
    ],
    "tournaments:manage_round_start": [
        Case("public", "login 405 405 405 405", kwargs={"number": 2}),
        # an empty start time takes the time off: a director's POST is saved
        Case("public", "login 404 404 302 302", method="POST", kwargs={"number": 2}),
    ],
    "tournaments:manage_round_action": [
        Case("public", "login 405 405 405 405", kwargs={"number": 2}),
        Case("public", "login 404 404 302 302", method="POST", kwargs={"number": 2}),
        Case(
            "public",
            "login 404 404 404 404",
            method="POST",
            kwargs={"number": 2, "action": "no-such-action"},
        ),
    ],
    "tournaments:manage_result": [
        Case("private", "login 405 405 405 405"),
        # an empty POST names no version: the director sees a conflict, never an overwrite
        Case("private", "login 404 404 409 409", method="POST"),
    ],
    "tournaments:manage_draws": [
        Case("private", DIRECTOR_ONLY),
        Case("public", DIRECTOR_ONLY),
        Case("public", "login 404 404 422 422", method="POST"),
    ],
    # --- reports ------------------------------------------------------------------------
    # the reports screens answer strangers, signed in or not, with a 404
    "tournaments:reports_index": [
        Case("private", "404 404 404 200 200"),
        Case("public", "404 404 404 200 200"),
    ],
    "tournaments:reports_create": [
        Case("private", "405 405 405 405 405"),
        Case("private", "404 404 404 302 302", method="POST", data={"kind": "entrants_csv"}),
    ],
    # the rating officer's page: a director's; a send without the page's token is refused
    "tournaments:reports_rating": [
        Case("private", "404 404 404 200 200"),
        Case("private", "404 404 404 409 409", method="POST", data={"country": "F"}),
    ],
    # a public event's standings PDF is for anyone; a private event's for its directors
    "tournaments:reports_public_standings": [
        Case("private", "404 404 404 202 202"),
        Case("public", "202 202 202 202 202"),
        # a link checker's HEAD gets the GET's answer without the file
        Case("private", "404 404 404 202 202", method="HEAD"),
        Case("public", "202 202 202 202 202", method="HEAD"),
    ],
    "tournaments:reports_status": [
        Case("private", "404 404 404 200 200"),
        Case("public", "404 404 404 200 200"),
    ],
    "tournaments:reports_download": [
        Case("private", "404 404 404 200 200"),
        Case("public", "404 404 404 200 200"),
    ],
    # --- each format's own screens (SCREENS of its ui.py), on events of that format.
    # A player's screens refuse everyone else: a director is not the player (403), and a
    # private event stays a 404 to a stranger. bot_contest's API takes a token, not a session.
    "tournaments:freestyle_draws": [
        Case("private", PRIVATE_PAGE, format="freestyle"),
        Case("public", EVERYONE, format="freestyle"),
    ],
    "tournaments:freestyle_bracket": [
        Case("private", PRIVATE_PAGE, format="freestyle"),
        Case("public", EVERYONE, format="freestyle"),
    ],
    "tournaments:freestyle_manage_draws": [
        Case("private", DIRECTOR_ONLY, format="freestyle"),
        Case("public", DIRECTOR_ONLY, format="freestyle"),
        Case("private", "login 404 404 422 422", method="POST", format="freestyle"),
    ],
    "tournaments:freestyle_tiebreakers": [
        Case("private", DIRECTOR_ONLY, format="freestyle"),
        Case("public", DIRECTOR_ONLY, format="freestyle"),
        Case("private", "login 404 404 422 422", method="POST", format="freestyle"),
    ],
    "tournaments:freestyle_withdraw": [
        Case("private", DIRECTOR_ONLY, format="freestyle"),
        Case("public", DIRECTOR_ONLY, format="freestyle"),
        Case("private", "login 404 404 422 422", method="POST", format="freestyle"),
    ],
    "tournaments:gokodom_player": [
        Case("private", "login 200 404 403 403", format="gokodom"),
        Case("public", "login 200 403 403 403", format="gokodom"),
        Case("private", "login 405 405 405 405", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_report": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 302 404 403 403", method="POST", format="gokodom"),
        Case("public", "login 302 403 403 403", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_confirm": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 302 404 403 403", method="POST", format="gokodom"),
        Case("public", "login 302 403 403 403", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_dispute": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 302 404 403 403", method="POST", format="gokodom"),
        Case("public", "login 302 403 403 403", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_message": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 302 404 403 403", method="POST", format="gokodom"),
        Case("public", "login 302 403 403 403", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_bye": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 422 404 403 403", method="POST", format="gokodom"),
        Case("public", "login 422 403 403 403", method="POST", format="gokodom"),
    ],
    # "I can't play next round": the player's own check-in (an empty form names no round)
    "tournaments:gokodom_absence": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 422 404 403 403", method="POST", format="gokodom"),
        Case("public", "login 422 403 403 403", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_bracket": [
        Case("private", PRIVATE_PAGE, format="gokodom"),
        Case("public", EVERYONE, format="gokodom"),
    ],
    "tournaments:gokodom_manage": [
        Case("private", DIRECTOR_ONLY, format="gokodom"),
        Case("public", DIRECTOR_ONLY, format="gokodom"),
        Case("private", "login 405 405 405 405", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_schedule": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 404 404 302 302", method="POST", format="gokodom"),
        Case("public", "login 404 404 302 302", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_times": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 404 404 302 302", method="POST", format="gokodom"),
        Case("public", "login 404 404 302 302", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_close": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 404 404 302 302", method="POST", format="gokodom"),
        Case("public", "login 404 404 302 302", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_eighth": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 404 404 302 302", method="POST", format="gokodom"),
        Case("public", "login 404 404 302 302", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_codes": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 404 404 302 302", method="POST", format="gokodom"),
        Case("public", "login 404 404 302 302", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_advances": [
        Case("private", "login 405 405 405 405", format="gokodom"),
        Case("private", "login 404 404 302 302", method="POST", format="gokodom"),
        Case("public", "login 404 404 302 302", method="POST", format="gokodom"),
    ],
    "tournaments:gokodom_settle": [
        Case("private", DIRECTOR_ONLY, format="gokodom"),
        Case("public", DIRECTOR_ONLY, format="gokodom"),
        # a form without the match's version: refused as stale (409) with the page
        Case("private", "login 404 404 409 409", method="POST", format="gokodom"),
        Case("public", "login 404 404 409 409", method="POST", format="gokodom"),
    ],
    "tournaments:bot_contest_manage": [
        Case("private", DIRECTOR_ONLY, format="bot_contest"),
        Case("public", DIRECTOR_ONLY, format="bot_contest"),
        Case("private", "login 405 405 405 405", method="POST", format="bot_contest"),
    ],
    "tournaments:bot_contest_import": [
        Case("private", DIRECTOR_ONLY, format="bot_contest"),
        Case("public", DIRECTOR_ONLY, format="bot_contest"),
        Case("private", DIRECTOR_ONLY, method="POST", format="bot_contest"),
    ],
    "tournaments:bot_contest_referee": [
        Case("private", DIRECTOR_ONLY, format="bot_contest"),
        Case("public", DIRECTOR_ONLY, format="bot_contest"),
        Case("private", "login 404 404 404 404", method="POST", format="bot_contest"),
    ],
    "tournaments:bot_contest_board": [
        Case("private", DIRECTOR_ONLY, format="bot_contest"),
        Case("public", DIRECTOR_ONLY, format="bot_contest"),
        Case("private", "login 404 404 422 422", method="POST", format="bot_contest"),
    ],
    "tournaments:bot_contest_final_tie": [
        Case("private", DIRECTOR_ONLY, format="bot_contest"),
        Case("public", DIRECTOR_ONLY, format="bot_contest"),
        Case("private", "login 404 404 422 422", method="POST", format="bot_contest"),
    ],
    "tournaments:bot_contest_api_game": [
        Case("private", "405 405 405 405 405", format="bot_contest"),
        Case("private", "403 403 403 403 403", method="POST", format="bot_contest"),
        Case("public", "403 403 403 403 403", method="POST", format="bot_contest"),
    ],
    "tournaments:bot_contest_boards": [
        Case("private", PRIVATE_PAGE, format="bot_contest"),
        Case("public", EVERYONE, format="bot_contest"),
    ],
    "tournaments:bot_contest_gauntlet": [
        Case("private", PRIVATE_PAGE, format="bot_contest"),
        Case("public", EVERYONE, format="bot_contest"),
    ],
    "tournaments:bot_contest_brackets": [
        Case("private", PRIVATE_PAGE, format="bot_contest"),
        Case("public", EVERYONE, format="bot_contest"),
    ],
    "tournaments:bot_contest_final": [
        Case("private", PRIVATE_PAGE, format="bot_contest"),
        Case("public", EVERYONE, format="bot_contest"),
    ],
    "tournaments:wpf_playoffs_manage": [
        Case("private", DIRECTOR_ONLY, format="wpf_playoffs"),
        Case("public", DIRECTOR_ONLY, format="wpf_playoffs"),
        Case("private", "login 405 405 405 405", method="POST", format="wpf_playoffs"),
    ],
    "tournaments:wpf_playoffs_reveal": [
        Case("private", "login 405 405 405 405", format="wpf_playoffs"),
        Case("private", "login 404 404 302 302", method="POST", format="wpf_playoffs"),
        Case("public", "login 404 404 302 302", method="POST", format="wpf_playoffs"),
    ],
    "tournaments:wpf_playoffs_eligibility": [
        Case("private", DIRECTOR_ONLY, format="wpf_playoffs"),
        Case("public", DIRECTOR_ONLY, format="wpf_playoffs"),
        Case("private", "login 404 404 302 302", method="POST", format="wpf_playoffs"),
    ],
    "tournaments:wpf_playoffs_puzzles": [
        Case("private", DIRECTOR_ONLY, format="wpf_playoffs"),
        Case("public", DIRECTOR_ONLY, format="wpf_playoffs"),
        Case("private", "login 404 404 422 422", method="POST", format="wpf_playoffs"),
    ],
    "tournaments:wpf_playoffs_live_puzzle": [
        Case("private", "login 405 405 405 405", format="wpf_playoffs"),
        Case("private", "login 404 404 404 404", method="POST", format="wpf_playoffs"),
        Case("public", "login 404 404 404 404", method="POST", format="wpf_playoffs"),
    ],
    "tournaments:wpf_playoffs_preferences_for": [
        Case("private", DIRECTOR_ONLY, format="wpf_playoffs"),
        Case("public", DIRECTOR_ONLY, format="wpf_playoffs"),
        Case("private", "login 404 404 422 422", method="POST", format="wpf_playoffs"),
    ],
    "tournaments:wpf_playoffs_preferences": [
        Case("private", "login 200 404 403 403", format="wpf_playoffs"),
        Case("public", "login 200 403 403 403", format="wpf_playoffs"),
        Case("private", "login 422 404 403 403", method="POST", format="wpf_playoffs"),
    ],
    "tournaments:wpf_playoffs_ladder": [
        Case("private", PRIVATE_PAGE, format="wpf_playoffs"),
        Case("public", EVERYONE, format="wpf_playoffs"),
    ],
}


# --- walking the URL conf ---------------------------------------------------------------


def url_patterns() -> Iterator[tuple[str, list[str]]]:
    """(namespaced name, its URL arguments) for every pattern outside the skipped ones."""

    def walk(patterns, namespace: str, params: list[str]):
        for pattern in patterns:
            own = list(pattern.pattern.regex.groupindex)
            if isinstance(pattern, URLResolver):
                if pattern.namespace in SKIPPED_NAMESPACES:
                    continue
                inner = namespace
                if pattern.namespace:
                    inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
                yield from walk(pattern.url_patterns, inner, params + own)
            elif isinstance(pattern, URLPattern):
                if pattern.lookup_str.startswith(("django.views.static", "django.contrib.static")):
                    continue
                if not pattern.name:
                    yield f"<unnamed: {pattern.pattern} -> {pattern.lookup_str}>", params + own
                    continue
                name = f"{namespace}:{pattern.name}" if namespace else pattern.name
                yield name, params + own

    yield from walk(get_resolver().url_patterns, "", [])


def test_every_url_pattern_has_a_row_in_the_authorization_table():
    found = dict(url_patterns())
    missing = sorted(name for name in found if name not in TABLE)
    assert not missing, (
        "These URL patterns have no row in TABLE in tests/test_authorization.py: "
        + ", ".join(missing)
        + ". Add one (unnamed patterns need a name first) saying what anonymous, player, "
        "director of another event, director and admin get, e.g. "
        '"tournaments:manage_x": [Case("private", DIRECTOR_ONLY), Case("public", DIRECTOR_ONLY)].'
    )
    stale = sorted(set(TABLE) - set(found))
    assert not stale, f"TABLE has rows for URLs that no longer exist: {', '.join(stale)}."


def test_every_row_has_one_answer_per_persona():
    for name, cases in TABLE.items():
        assert cases, name
        for case in cases:
            assert len(case.expect.split()) == len(PERSONAS), (name, case.expect)
            assert case.event in (None, "private", "public"), (name, case.event)


# --- the world every row is asked in ----------------------------------------------------


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(director, admin_user, settings, tmp_path, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    """A private event (round 1 closed, round 2 published), a public one (round 1 closed,
    round 2 drafted), each with a claimed player and a built report; a third event whose
    director is a stranger to both."""
    settings.MEDIA_ROOT = tmp_path
    cache.clear()
    with capture(execute=True):
        closed = round_robin_event(director, players=4, slug="closed")
        closed.public = False
        closed.save(update_fields=["public"])
        play_round(closed, director)
        play_round(closed, director, complete=False)
        opened = round_robin_event(director, players=4, slug="opened")
        play_round(opened, director)
        rounds.draft_next_round(opened, by=director)
        other = User.objects.create_user("other", password="pw-other-1")
        elsewhere = round_robin_event(other, players=2, slug="elsewhere")
        elsewhere.public = False
        elsewhere.save(update_fields=["public"])
        player = User.objects.create_user("player", password="pw-player-1")
        report_ids = {}
        for key, event in (("private", closed), ("public", opened)):
            claim_entrant(player, event.entrants.get(number=1).claim_code)
            report_ids[key] = reports.request(event, "entrants_csv", by=director).pk
    for key in ("private", "public"):
        made = series.create_series(
            slug=f"series-{key}", name=f"Series {key}", by=director, public=key == "public"
        )
        series.import_scores(made, name="Round 1", text="Ann,10,1\nBob,7\n", by=director)
    # an import the director confirmed, waiting for the worker
    job = ImportJob.objects.create(user=director, kind="event", slug="waiting", created_at=now())
    users = {"player": player, "other_director": other, "director": director, "admin": admin_user}
    by_key = {"private": closed, "public": opened}
    return {
        "users": users,
        "events": by_key,
        "reports": report_ids,
        "capture": capture,
        "job": job.pk,
    }


def _format_events(world, fmt: str) -> dict[str, Any]:
    """A private and a public event of this format with 8 entrants (Freestyle: 16), entrant 1
    claimed by the player, and round 1 published when the engine can draft it."""
    cache_key = f"format:{fmt}"
    if cache_key in world:
        return world[cache_key]
    director, player = world["users"]["director"], world["users"]["player"]
    built = {}
    with world["capture"](execute=True):
        for key in ("private", "public"):
            event = events.create_event(
                slug=f"{fmt.replace('_', '-')}-{key}",
                name=f"{fmt} {key}",
                format=fmt,
                by=director,
                public=key == "public",
            )
            for i in range(16 if fmt == "freestyle" else 8):
                colour = {"colour": "red" if i % 2 == 0 else "blue"}
                events.add_entrant(
                    event,
                    name=f"Player {i + 1}",
                    rating=2000 - 10 * i,
                    by=director,
                    flags=colour if fmt == "gokodom" else {},
                )
            claim_entrant(player, event.entrants.get(number=1).claim_code)
            try:
                outcome = rounds.draft_next_round(event, by=director)
                if outcome.round is not None:
                    rounds.publish_round(outcome.round, by=director)
            except (ServiceError, EngineError):
                pass  # the format waits for something (a draw, settings): pages still answer
            built[key] = event
    world[cache_key] = built
    return built


def _event(world, case: Case):
    key = case.event or "public"
    if case.format == "round_robin":
        return world["events"][key]
    return _format_events(world, case.format)[key]


def _defaults(world, case: Case) -> dict[str, Any]:
    """The URL arguments a row gets unless it names its own."""
    key = case.event or "public"
    event = _event(world, case)
    entrant = event.entrants.get(number=1)
    last = event.rounds.exclude(status="draft").order_by("-number").first()
    match = Match.objects.filter(round=last, participants__entrant=entrant).first()
    return {
        "slug": event.slug,
        "number": 1,
        "match_id": match.pk if match else 10**9,
        "pk": world["reports"][key],
        "job": world["job"],
        "action": "publish",
        "code": event.entrants.get(number=2).claim_code,
        "uidb64": "MQ",
        "token": "not-a-valid-token",
        "series_slug": f"series-{key}",
        "key": "wof:1",
    }


def _url(name: str, params: list[str], world, case: Case) -> str:
    values = {**_defaults(world, case), **case.kwargs}
    if values.get("code") == "player":  # the claim code the player has used
        values["code"] = _event(world, case).entrants.get(number=1).claim_code
    unknown = [p for p in params if p not in values]
    assert not unknown, (
        f"{name}: no default for URL argument(s) {unknown}; give them in the row's kwargs "
        "or teach _defaults() in tests/test_authorization.py"
    )
    return reverse(name, kwargs={p: values[p] for p in params})


def _answer(response) -> str:
    if response.status_code in (301, 302):
        login = resolve_url(settings.LOGIN_URL)
        return "login" if response.url.startswith(login) else "302"
    return str(response.status_code)


TOKEN_IN_PAGE = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')


def _clients(world) -> dict[str, Client]:
    """One browser per persona, signed in once (outside the rolled-back requests), with CSRF
    checks on. It takes its token where a browser's htmx does, from the hx-headers of the
    first page's body (the cookie is HttpOnly), and sends it with every request."""
    clients = {}
    for persona in PERSONAS:
        client = Client(enforce_csrf_checks=True)
        if persona in world["users"]:
            client.force_login(world["users"][persona])
        page = client.get(reverse("tournaments:event_list"))
        found = TOKEN_IN_PAGE.search(page.content.decode())
        assert found, f"{persona}: the event list carries no CSRF token in its hx-headers"
        client.defaults["HTTP_X_CSRFTOKEN"] = found.group(1)
        clients[persona] = client
    return clients


def _without_token(client: Client) -> Client:
    """The same browser (session and CSRF cookies) sending a request without the token, as a
    form posted from another site would."""
    bare = Client(enforce_csrf_checks=True)
    bare.cookies = copy.deepcopy(client.cookies)
    return bare


def _send(client: Client, method: str, url: str, data, headers):
    if method == "POST":
        return client.post(url, data, headers=headers)
    if method == "GET":
        return client.get(url, headers=headers)
    return getattr(client, method.lower())(url, headers=headers)


def _ask(client: Client, method: str, url: str, data, htmx: bool) -> str:
    """One request, rolled back after, so every persona finds the same world."""
    return _answer(_request(client, method, url, data, htmx))


def _request(client: Client, method: str, url: str, data, htmx: bool = False):
    headers = {"HX-Request": "true"} if htmx else {}
    cookies = copy.deepcopy(client.cookies)  # a sign-out or a new session must not stick
    with transaction.atomic():
        response = _send(client, method, url, data, headers)
        transaction.set_rollback(True)
    client.cookies = cookies
    # The cache is not cleared between personas: a page cached for a director must never
    # answer a stranger, and this test would see it.
    return response


PARAMS = dict(url_patterns())


def test_each_persona_gets_the_answer_in_the_table(world):
    """One world for the whole table (building it per URL cost minutes on PostgreSQL);
    every mismatch is listed, URL by URL."""
    clients = _clients(world)
    problems = []
    for name in sorted(TABLE):
        if name not in PARAMS:
            problems.append(f"{name} is in TABLE but not in the URL conf; remove its row.")
            continue
        for case in TABLE[name]:
            url = _url(name, PARAMS[name], world, case)
            wanted = case.expect.split()
            got = [
                _ask(clients[persona], case.method, url, case.data, case.htmx)
                for persona in PERSONAS
            ]
            if got != wanted:
                problems.append(
                    f"{name}: {case.method} {url} ({case.event or 'no'} event)\n"
                    f"    persona: {' '.join(f'{p:>14}' for p in PERSONAS)}\n"
                    f"    wanted:  {' '.join(f'{w:>14}' for w in wanted)}\n"
                    f"    got:     {' '.join(f'{g:>14}' for g in got)}"
                )
    assert not problems, "\n".join(problems)


def _contexts(name: str) -> dict[tuple, list[Case]]:
    """The rows of a URL grouped by the world they ask it in (event, format, URL arguments)."""
    grouped: dict[tuple, list[Case]] = {}
    for case in TABLE[name]:
        key = (case.event, case.format, tuple(sorted(case.kwargs.items())))
        grouped.setdefault(key, []).append(case)
    return grouped


def test_no_view_accepts_a_method_without_a_row(world):
    """Every URL is sent every method with a valid CSRF token, in the world of its first rows
    (the method check does not depend on the event). A method no row of the URL lists must
    be refused: 405, or (for a persona refused anyway) the same sign-in redirect, 403 or
    404 that persona gets in those rows."""
    clients = _clients(world)
    problems = []
    for name in sorted(TABLE):
        if name not in PARAMS:
            continue
        listed = {case.method for case in TABLE[name]}  # the view's methods, on any event
        for rows in list(_contexts(name).values())[:1]:
            url = _url(name, PARAMS[name], world, rows[0])
            for method in METHODS:
                if method in listed:
                    continue
                for index, persona in enumerate(PERSONAS):
                    refused = {case.expect.split()[index] for case in rows} & REFUSALS
                    got = _ask(clients[persona], method, url, {}, False)
                    if method == "HEAD" and "GET" in listed:
                        # HEAD is answered where GET is (a link checker, a monitor): the
                        # GET's answer without the body
                        wanted = _ask(clients[persona], "GET", url, {}, False)
                        if got != wanted:
                            problems.append(
                                f"{name}: HEAD {url} answers {got} to {persona}, GET {wanted}"
                            )
                        continue
                    if got != "405" and got not in refused:
                        problems.append(
                            f"{name}: {method} {url} answers {got} to {persona}; refuse it "
                            "(require_http_methods / http_method_names) or add a row for it"
                        )
    assert not problems, "\n".join(problems)


def test_an_unsafe_request_without_the_csrf_token_is_refused(world):
    """A POST from a page that is not ours carries the victim's cookies but not the token:
    403 for every persona on every URL, in every world its rows ask it in (and a PUT, PATCH
    or DELETE too, asked by the director). The views in CSRF_EXEMPT answer for themselves
    (the referee API's own refusal of a request without its bearer token)."""
    clients = _clients(world)
    bare = {persona: _without_token(client) for persona, client in clients.items()}
    problems = []
    for name in sorted(TABLE):
        if name not in PARAMS:
            continue
        for rows in _contexts(name).values():
            url = _url(name, PARAMS[name], world, rows[0])
            posted = next((case.data for case in rows if case.method == "POST"), {})
            asks = [("POST", p) for p in PERSONAS] + [(m, "director") for m in UNSAFE[1:]]
            for method, persona in asks:
                response = _request(bare[persona], method, url, posted)
                got = _answer(response)
                if name not in CSRF_EXEMPT:
                    if got != "403":
                        problems.append(
                            f"{name}: {method} {url} without a CSRF token answers {got} "
                            f"to {persona}, not 403"
                        )
                    continue
                # exempt: the view answers as it does with the token, by its own check
                wanted = _ask(clients[persona], method, url, posted, False)
                # the view's own answer: JSON for the APIs, the redirect to `next` it was
                # given for the language switch
                own = (
                    method != "POST"
                    or "json" in response.get("Content-Type", "")
                    or (posted.get("next") and response.get("Location") == posted["next"])
                )
                if got != wanted or not own:
                    problems.append(
                        f"{name}: {method} by {persona} without a CSRF token got {got}, "
                        f"not the view's own answer {wanted}"
                    )
    assert not problems, "\n".join(problems)


def test_only_the_views_in_csrf_exempt_skip_the_csrf_check():
    """csrf_exempt is a decision, taken on purpose for each view listed in CSRF_EXEMPT."""

    def exempt(patterns, namespace: str):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace in SKIPPED_NAMESPACES:
                    continue
                inner = namespace
                if pattern.namespace:
                    inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
                yield from exempt(pattern.url_patterns, inner)
            elif getattr(pattern.callback, "csrf_exempt", False):
                yield f"{namespace}:{pattern.name}" if namespace else str(pattern.name)

    assert sorted(exempt(get_resolver().url_patterns, "")) == sorted(CSRF_EXEMPT)
