"""The API's edge: a rate limit per client address (tournaments/ratelimit.py, scope
"api") before anything else is read, and CORS open to any origin for reading, on /api/
only; every other method but a CORS preflight refused with a JSON 405 (the API reads, and
reads no cookie's authority: its views skip the CSRF check, which guards only writes).
Placed before the session and the user: a refused request costs no query."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from tournaments import ratelimit
from tournaments.api.errors import error_response, not_found_response

PREFIX = "/api/"
READING = "GET, HEAD, OPTIONS"


def _cors(response: HttpResponse) -> HttpResponse:
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = "ETag, Retry-After"
    return response


class ApiEdgeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(PREFIX):
            return self.get_response(request)
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            # a browser's preflight: reading is open to every origin, nothing else is offered
            preflight = HttpResponse(status=204)
            preflight["Access-Control-Allow-Methods"] = READING
            preflight["Access-Control-Allow-Headers"] = "If-None-Match, Accept, Accept-Language"
            preflight["Access-Control-Max-Age"] = "86400"
            return _cors(preflight)
        if request.method not in ("GET", "HEAD"):
            # read-only: any other method (an OPTIONS that is not a preflight too) is refused
            # here, before a session or a body is read
            refused = error_response(
                405,
                "method_not_allowed",
                _("The API only reads: use GET, HEAD or OPTIONS."),
            )
            refused["Allow"] = READING
            return _cors(refused)
        wait = ratelimit.hit("api", ratelimit.ip_key(request))
        if wait is not None:
            refused = error_response(
                429,
                "rate_limited",
                _("Too many requests from this address. Wait %(seconds)s seconds.")
                % {"seconds": wait},
                retry_after=wait,
            )
            refused["Retry-After"] = str(wait)
            return _cors(refused)
        head = request.method == "HEAD"
        if head:  # answered as GET, without the body (ninja's operations are GET only)
            request.method = "GET"
        response = _json_errors(request, self.get_response(request))
        if head:
            request.method = "HEAD"
            if not response.streaming:
                response.content = b""
        if request.method in ("GET", "HEAD"):
            _cors(response)
        return response


CODES = {404: "not_found", 405: "method_not_allowed", 503: "unavailable"}


def _json_errors(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """An error answered by Django rather than an operation (no such address, a method an
    operation does not take, the database down) in the API's own JSON shape."""
    if response.status_code < 400 or "json" in response.get("Content-Type", ""):
        return response
    if response.status_code == 404:
        return not_found_response()
    code = CODES.get(response.status_code, "error")
    replaced = error_response(
        response.status_code,
        code,
        _("The API could not answer this request (%(status)s).") % {"status": response.status_code},
    )
    for header in ("Allow", "Retry-After"):
        if response.has_header(header):
            replaced[header] = response[header]
    return replaced
