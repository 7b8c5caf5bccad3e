"""Rate limits on the endpoints people or programs may hammer: a player's own result
actions, the bot contest referee API, sign-up (per client address) and creating or
importing an event (per account) (settings.ARBITER_RATE_LIMITS, "20/m" style).

Each limit is a fixed window counted in the Django cache: Redis in production, so every
web worker shares one count; local memory with ``make run``. A cache that is down lets
the request through: a lost counter must never stop a result from being saved.

(django-ratelimit was the first choice; its system checks refuse Django's own Redis cache
and the local-memory cache this project runs on, so the counter lives here.)
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

KEY_PREFIX = "ratelimit"  # the counters' cache keys (tests give each test its own)
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def parse_rate(text: str) -> Rate:
    """ "20/m" is 20 a minute, "5/10s" 5 in ten seconds, "0/m" none at all."""
    match = RATE.match(text or "")
    if not match:
        raise ImproperlyConfigured(
            f"A rate limit must look like 20/m, 5/10s or 100/h (s, m, h, d); got {text!r}."
        )
    count, many, unit = match.groups()
    return Rate(int(count), int(many or 1) * UNITS[unit])


def rate_for(scope: str) -> Rate:
    limits = getattr(settings, "ARBITER_RATE_LIMITS", {})
    if scope not in limits:
        raise ImproperlyConfigured(f"ARBITER_RATE_LIMITS has no '{scope}' limit.")
    return parse_rate(limits[scope])


def hit(scope: str, key: str, *, now: float | None = None) -> int | None:
    """Count one request of ``key`` in ``scope``: None while within the limit, else the
    seconds until its window ends (the Retry-After). A window starts at the key's first
    request, so a burst is never split across two clock-aligned windows."""
    rate = rate_for(scope)
    now = time.time() if now is None else now
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]  # keys never hold a token or name
    counter = f"{KEY_PREFIX}:{scope}:{digest}"
    try:
        if cache.add(counter, 1, timeout=rate.seconds):
            cache.set(counter + ":start", now, timeout=rate.seconds)
            count = 1
        else:
            count = cache.incr(counter)
        if count <= rate.count:
            return None
        started = float(cache.get(counter + ":start", now))
    except Exception:  # a cache that is down never stops a result (module docstring);
        return None  # incr's ValueError: the window ended between add and incr
    return max(1, math.ceil(started + rate.seconds - now))


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind a proxy the last address it appended to
    ARBITER_CLIENT_IP_HEADER (the one hop we trust; earlier ones the client could forge).
    The one rule for the rate limits and the sign-in lock (AXES_CLIENT_IP_CALLABLE).

    Only a well-formed address is returned ("" when there is none): axes stores it in an
    address column, and a header the proxy did not write must not name a bucket of its own.
    """
    header = getattr(settings, "ARBITER_CLIENT_IP_HEADER", "")
    if header:
        forwarded = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        hops = [part.strip() for part in forwarded.split(",") if part.strip()]
        if hops and (address := _address(hops[-1])):
            return address
    return _address(request.META.get("REMOTE_ADDR", ""))


def _address(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return ""


def ip_key(request: HttpRequest) -> str:
    return f"ip:{client_ip(request) or 'unknown'}"


def user_or_ip(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return ip_key(request)


def too_many(request: HttpRequest, retry_after: int, *, json: bool = False) -> HttpResponse:
    """429 with a message that says how long to wait: JSON for programs, the message alone
    before the target for htmx (the page stays), else a page."""
    if json:
        response: HttpResponse = JsonResponse(
            {
                "error": f"Too many requests; nothing was saved. Wait {retry_after} seconds.",
                "retry_after": retry_after,
            },
            status=429,
        )
    else:
        context = {
            "retry_after": retry_after,
            # past two minutes, minutes read better (an hour's limit: "Wait 58 minutes")
            "retry_minutes": math.ceil(retry_after / 60) if retry_after >= 120 else 0,
            "back": request.headers.get("Referer") or "/",
        }
        htmx = bool(getattr(request, "htmx", False))
        template = "rate_limited.html#message" if htmx else "rate_limited.html"
        response = render(request, template, context, status=429)
        if htmx:
            response["HX-Reswap"] = "beforebegin"  # the message goes above what was there
    response["Retry-After"] = str(retry_after)
    return response


def limit(
    scope: str,
    key: Callable[[HttpRequest], str] = user_or_ip,
    *,
    when: Callable[[HttpRequest], bool] | None = None,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """View decorator: count each request under ``scope`` (only those ``when`` accepts, if
    given: e.g. the POST that creates, not the GET that shows the form) and answer 429 past
    the limit. Put it under @login_required so that a signed-in user is counted as themself."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if when is None or when(request):
                wait = hit(scope, key(request))
                if wait is not None:
                    return too_many(request, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def posted(request: HttpRequest) -> bool:
    return request.method == "POST"
