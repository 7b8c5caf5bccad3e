"""The API's edge: a rate limit per client address (tournaments/ratelimit.py, scope
"api") before anything else is read, and CORS open to any origin for reading, on /api/
only; every other method but a CORS preflight refused with a JSON 405 (the API reads, and
reads no cookie's authority: its views skip the CSRF check, which guards only writes).
Placed before the session and the user: a refused request costs no query. A stored
answer about a public event that this worker served before is sent from here, past the
limit's count, without the routing (tournaments/api/caching.py, ``edge_answer``)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from tournaments import ratelimit
from tournaments.api import ratecount
from tournaments.api.caching import edge_answer
from tournaments.api.errors import error_response, not_found_response

PREFIX = "/api/"
READING = "GET, HEAD, OPTIONS"


def _cors(response: HttpResponse) -> HttpResponse:
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = "ETag, Retry-After"
    return response


# One Redis client per connection pool: Django's cache makes a new one for each call (its
# set-up is a fifth of a cached answer's cost); the pool is shared and thread-safe, and a
# client held here keeps its pool alive, so an id is never reused while listed.
_clients: dict[int, Any] = {}


def _client(backend: RedisCache) -> Any:
    inner = backend._cache  # type: ignore[attr-defined]
    pool = inner._get_connection_pool(True)
    client = _clients.get(id(pool))
    if client is None:
        client = _clients[id(pool)] = inner._client(connection_pool=pool)
    return client


def _hit(key: str) -> int | None:
    """ratelimit.hit("api", key), counted in this worker and added to Redis in small
    batches (tournaments/api/ratecount.py: the tolerance, and why): most answers pay no
    round trip for the count. The same key and the same fixed window from the address's
    first request; the Retry-After is the window's time left. Any other cache, or a
    failing Redis, goes through ratelimit.hit (which lets the request through)."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return ratelimit.hit("api", key)
    rate = ratelimit.rate_for("api")
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    counter = backend.make_and_validate_key(f"{ratelimit.KEY_PREFIX}:api:{digest}")
    try:
        return ratecount.counts.hit(counter, rate, functools.partial(_add, backend))
    except Exception:  # a cache that is down lets the request through (ratelimit.py)
        return None


def _add(backend: RedisCache, counter: str, adding: int, seconds: int) -> tuple[int, float]:
    """Add to the shared count in one round trip: the total and the window's seconds left.
    MULTI: the window cannot end between the SET and the INCRBY (an INCRBY on an expired
    key would make a counter that never expires)."""
    pipe = _client(backend).pipeline(transaction=True)
    pipe.set(counter, 0, ex=seconds, nx=True)
    pipe.incrby(counter, adding)
    pipe.pttl(counter)
    _, total, left_ms = pipe.execute()
    return int(total), max(0, int(left_ms)) / 1000


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
        wait = _hit(ratelimit.ip_key(request))
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
        # a stored answer about an event, found without routing (caching.edge_answer)
        response = edge_answer(request)
        if response is None:
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
