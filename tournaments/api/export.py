"""The whole-event export over the API (issue 30 step 7): the lossless event file, the very
bytes of the director's download, for a request carrying an event's API token with the
``export:read`` scope (``Authorization: Bearer arb_...``). Tokens are made and revoked on
the director's screen (tournaments/views/manage_tokens.py; tournaments/services/api_tokens.py).

Refusals, JSON as every API error: 401 without a usable token (missing, unknown, revoked,
expired: ``WWW-Authenticate: Bearer``), 429 after too many of those from one address, 404
when the token belongs to another event (the same body as no such event: a token says
nothing about other events, public or private), 403 when the event's token lacks the scope.
A signed-in session is not enough: the file holds what only directors see.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer

from accounts.permissions import activate_zone
from tournaments import ratelimit
from tournaments.api import schemas
from tournaments.api.caching import _tag
from tournaments.api.errors import ApiError, error_response, not_found_response
from tournaments.api.main import ERRORS, Slug, api
from tournaments.models import ApiToken
from tournaments.services import api_tokens, eventfile

SCOPE = "export:read"

REFUSED = {  # marked here, said in the request's language below
    "unknown": gettext_noop("Wrong token: no such API token."),
    "revoked": gettext_noop("This API token was revoked."),
    "expired": gettext_noop("This API token has expired."),
}


class EventToken(HttpBearer):
    """An event's API token (tournaments/models.py ApiToken), as ``Bearer arb_...``."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        checked = api_tokens.check(token.strip())
        if checked.token is not None:
            return checked.token
        # guessing tokens from one address is slowed down; the right token never is
        wait = ratelimit.hit("api_bad_token", ratelimit.ip_key(request))
        if wait is not None:
            raise ApiError(
                429,
                "rate_limited",
                _(
                    "Too many requests with a wrong token from this address. "
                    "Wait %(seconds)s seconds."
                )
                % {"seconds": wait},
                retry_after=wait,
            )
        if checked.refusal == "missing":
            return None  # "Bearer " and nothing: as no header at all
        raise ApiError(401, "invalid_token", _(REFUSED[checked.refusal]))


def _unauthorized(message: str, code: str) -> HttpResponse:
    response = error_response(401, code, message)
    response["WWW-Authenticate"] = f'Bearer realm="arbiter", error="{code}"'
    return response


@api.exception_handler(AuthenticationError)
def _no_token(request: HttpRequest, exc: Exception) -> HttpResponse:
    return _unauthorized(
        _("This operation needs an API token: Authorization: Bearer <token>."), "unauthorized"
    )


@api.exception_handler(ApiError)
def _refused(request: HttpRequest, exc: ApiError) -> HttpResponse:
    if exc.status == 401:
        return _unauthorized(exc.message, exc.code)
    response = error_response(exc.status, exc.code, exc.message, **exc.extra)
    if exc.status == 429:
        response["Retry-After"] = str(exc.extra.get("retry_after", 60))
    return response


@api.get(
    "/events/{slug}/export/",
    response={
        200: dict[str, Any],
        401: schemas.Error,
        403: schemas.Error,
        **ERRORS,
    },
    auth=EventToken(),
    url_name="export",
    summary="The whole event as its lossless event file (needs the event's API token)",
    description=(
        "The event file the director downloads (docs/event-file.md), byte for byte: it "
        "imports back into an equal event. Needs an API token of this event with the "
        "export:read scope, made on the event's director screen (Tokens). 401 without a "
        "usable token, 403 when the token lacks the scope, 404 for a token of another "
        "event, whether this one exists or not. ETag and If-None-Match as every operation."
    ),
    openapi_extra={"responses": {200: {"description": "The event file (JSON)"}}},
)
def export(request: HttpRequest, slug: str = Slug) -> HttpResponse:
    token: ApiToken = request.auth  # type: ignore[attr-defined]
    event = token.event
    if event.slug != slug:
        return not_found_response()
    if SCOPE not in token.scopes:
        return error_response(
            403,
            "insufficient_scope",
            _("This API token may not read the export: it needs the %(scope)s scope.")
            % {"scope": SCOPE},
        )
    activate_zone(event)
    body = eventfile.export_text(event).encode()
    etag = _tag(body)
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
    response["ETag"] = etag
    # for the token's holder only: no shared cache keeps it
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Authorization"])
    return response
