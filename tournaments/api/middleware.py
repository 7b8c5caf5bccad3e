"""The API's edge: a rate limit per client address (tournaments/ratelimit.py, scope
"api") before anything else is read, and CORS open to any origin for reading, on /api/
only. Placed before the session and the user: a refused request costs no query."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from tournaments import ratelimit
from tournaments.api.errors import error_response

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
        response = self.get_response(request)
        if request.method in ("GET", "HEAD"):
            _cors(response)
        return response
