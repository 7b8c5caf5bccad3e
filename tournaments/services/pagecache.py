"""Public pages cached in Redis, keyed by the event's published version.

A page is rebuilt once per change of the event (a result, a publication, new standings, an
edit of the event), not once per visitor: the key holds the event's results and standings
versions and the time it was last saved, so a change makes a new key and the old entry
simply expires. Only anonymous visitors share cached pages (a signed-in director or player
may see links others do not).

The one per-visitor thing in a public page is the CSRF token of the page's HTMX headers:
it is taken out before the page is stored and a fresh one for each visitor is put back
when it is served, so a visitor never receives another visitor's token.

The cache is an optimisation, never a dependency: if Redis is down, pages are built as if
nothing were cached, and the cache is left alone for a few seconds before it is tried
again (so a dead Redis costs one failed connection per few seconds, not one per request).
"""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import _unmask_cipher_token, get_token
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from tournaments.models import Event

log = logging.getLogger(__name__)

PLACEHOLDER = "__ARBITER_CSRF_TOKEN__"
TOKEN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])")
RETRY_AFTER_FAILURE = 5.0  # seconds the cache is left alone after an error
BUILD_LOCK_SECONDS = 30  # the longest a build may hold the page (a crashed one: expiry)
_down_until = 0.0

View = Callable[..., HttpResponse]


def _cache_call(method: str, *args: Any, **kwargs: Any) -> Any:
    global _down_until
    if time.monotonic() < _down_until:
        return None
    try:
        return getattr(cache, method)(*args, **kwargs)
    except Exception as error:  # any failure of the cache: serve uncached
        _down_until = time.monotonic() + RETRY_AFTER_FAILURE
        log.warning("page cache unavailable (%s): serving uncached", error.__class__.__name__)
        return None


def page_key(request: HttpRequest, view: str, event: dict[str, Any]) -> str:
    htmx = "h" if request.headers.get("HX-Request") == "true" else "p"
    return ":".join(
        [
            "page",
            view,
            str(event["pk"]),
            str(int(event["created_at"].timestamp() * 1e6)),
            str(int(event["updated_at"].timestamp() * 1e6)),
            str(event["results_version"]),
            str(event["standings_version"]),
            get_language() or "",
            htmx,
            request.get_full_path()[:300],
        ]
    )


def _latest_key(key: str) -> str:
    """The key without the event's versions: the newest page built for this address."""
    parts = key.split(":")
    return ":".join(["latest", *parts[1:4], *parts[7:]])


def _strip_tokens(request: HttpRequest, content: str) -> str:
    secret = request.META.get("CSRF_COOKIE")
    if not secret:
        return content

    def swap(match: re.Match[str]) -> str:
        token = match.group(0)
        return PLACEHOLDER if _unmask_cipher_token(token) == secret else token

    return TOKEN.sub(swap, content)


def cached_public_page(view: View) -> View:
    """Decorate a public view taking ``slug``: anonymous GETs of a public event are served
    from the cache when the event has not changed since the page was built."""

    name = view.__name__

    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if (
            not settings.ARBITER_PAGE_CACHE
            or request.method not in ("GET", "HEAD")
            or request.user.is_authenticated
        ):
            return view(request, slug, *args, **kwargs)
        event = (
            Event.objects.filter(slug=slug, public=True)
            .values("pk", "created_at", "updated_at", "results_version", "standings_version")
            .first()
        )
        if event is None:  # private or missing: the view answers (a 404)
            return view(request, slug, *args, **kwargs)
        key = page_key(request, name, event)
        hit, state = _cache_call("get", key), "hit"
        building = None
        min_age = settings.ARBITER_PAGE_MIN_AGE
        if hit is None:
            # One visitor builds a new version of the page, at most once every min_age
            # seconds; the others meanwhile get the previous version (a page polls, so it
            # catches up), rather than every worker rendering the same large page after
            # each of a stream of results.
            lock = "building:" + _latest_key(key)
            building = _cache_call("add", lock, 1, timeout=min_age or BUILD_LOCK_SECONDS)
            if building is False:
                hit, state = _cache_call("get", _latest_key(key)), "stale"
        if hit is not None:
            content_type, body = hit
            response = HttpResponse(body.replace(PLACEHOLDER, get_token(request)))
            response["Content-Type"] = content_type
            response["X-Page-Cache"] = state
        else:
            done = False
            try:
                response = view(request, slug, *args, **kwargs)
                if response.status_code == 200 and not response.streaming:
                    charset = response.charset or "utf-8"
                    page = (
                        response["Content-Type"],
                        _strip_tokens(request, response.content.decode(charset)),
                    )
                    timeout = settings.ARBITER_PAGE_CACHE_SECONDS
                    _cache_call("set_many", {key: page, _latest_key(key): page}, timeout=timeout)
                    response["X-Page-Cache"] = "miss"
                done = True
            finally:
                if building and (not done or not min_age):  # a failed build: retry now
                    _cache_call("delete", "building:" + _latest_key(key))
        patch_vary_headers(response, ["HX-Request"])
        return response

    return wrapper
