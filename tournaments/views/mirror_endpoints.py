"""The public copy's mirror endpoints (docs/venue.md, "Push" and "Pull"): POST only, a
bearer token of the event with the ``mirror:push`` scope, JSON in and out. Outside /api/
(which only reads); csrf_exempt because the token, never a session, is the authority.
"""

from __future__ import annotations

import gzip
import json
import logging
import time
import zlib
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tournaments import ratelimit
from tournaments.models import Event
from tournaments.services import api_tokens
from tournaments.services.mirror import receive

log = logging.getLogger(__name__)

SCOPE = "mirror:push"
MAX_BODY = 8_000_000  # bytes on the wire (gzip'd)
MAX_JSON = 16_000_000  # bytes once unpacked: an event file at its 5 MB limit and its changes


def _error(status: int, code: str, message: str, **more: Any) -> JsonResponse:
    response = JsonResponse({"code": code, "message": message, **more}, status=status)
    if status == 401:
        response["WWW-Authenticate"] = f'Bearer realm="arbiter", error="{code}"'
    return response


def _token_event(request: HttpRequest, slug: str) -> Event | JsonResponse:
    header = request.headers.get("Authorization", "")
    secret = header[7:].strip() if header.lower().startswith("bearer ") else ""
    checked = api_tokens.check(secret)
    if checked.token is None:
        if checked.refusal == "missing":
            return _error(401, "unauthorized", _("This operation needs a mirror token."))
        wait = ratelimit.hit("api_bad_token", ratelimit.ip_key(request))
        if wait is not None:
            response = _error(
                429,
                "rate_limited",
                _("Too many requests with a wrong token from this address."),
                retry_after=wait,
            )
            response["Retry-After"] = str(wait)
            return response
        words = {
            "unknown": _("Wrong token: no such API token."),
            "revoked": _("This API token was revoked."),
            "expired": _("This API token has expired."),
        }
        return _error(401, "invalid_token", words.get(checked.refusal, checked.refusal))
    event = checked.token.event
    if event.slug != slug:
        return _error(404, "not_found", _("Nothing here: no such public resource."))
    if SCOPE not in (checked.token.scopes or []):
        return _error(
            403, "insufficient_scope", _("This token lacks the %(scope)s scope.") % {"scope": SCOPE}
        )
    return event


def _body(request: HttpRequest) -> Any:
    """The request's JSON (gzip'd or not); ValueError naming what is wrong."""
    length = int(request.headers.get("Content-Length") or 0)
    if length > MAX_BODY:
        raise ValueError(_("The push is larger than %(n)s bytes.") % {"n": MAX_BODY})
    raw = request.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise ValueError(_("The push is larger than %(n)s bytes.") % {"n": MAX_BODY})
    if request.headers.get("Content-Encoding", "").lower() == "gzip":
        try:
            unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
            raw = unpacker.decompress(raw, MAX_JSON + 1)
        except (zlib.error, gzip.BadGzipFile) as error:
            raise ValueError(_("The gzip body cannot be read.")) from error
        if len(raw) > MAX_JSON:
            raise ValueError(_("The push is larger than %(n)s bytes.") % {"n": MAX_JSON})
    try:
        return json.loads(raw.decode() or "null")
    except (UnicodeDecodeError, ValueError) as error:
        raise ValueError(_("The body is not JSON.")) from error


def _endpoint(
    request: HttpRequest, slug: str, act: Callable[[int, Any], receive.Outcome]
) -> HttpResponse:
    found = _token_event(request, slug)
    if isinstance(found, JsonResponse):
        return found
    try:
        payload = _body(request)
    except ValueError as error:
        return _error(422, "invalid_push", str(error))
    started = time.monotonic()
    outcome = act(found.pk, payload)
    log.info(
        "mirror %s of %s: %s %s in %.2f s",
        request.path.rsplit("/", 1)[-1], slug, outcome.status,
        outcome.body.get("status") or outcome.body.get("code", ""), time.monotonic() - started,
    )  # fmt: skip
    response = JsonResponse(outcome.body, status=outcome.status)
    response["Cache-Control"] = "no-store"
    return response


@csrf_exempt  # a bearer token is the authority, never a session
@require_POST
def push(request: HttpRequest, slug: str) -> HttpResponse:
    """A venue's push: applied once, in order, from the current writer only."""
    return _endpoint(request, slug, lambda event_id, data: receive.apply_push(event_id, data))


@csrf_exempt  # a bearer token is the authority, never a session
@require_POST
def pull(request: HttpRequest, slug: str) -> HttpResponse:
    """A venue machine pulls the event and becomes its writer (one epoch more)."""
    return _endpoint(request, slug, lambda event_id, data: receive.pull(event_id, data))
