"""The calendar feeds' addresses, under /api/v1/ beside the JSON (docs/api.md):

- /api/v1/events/<slug>/calendar.ics: the event's rounds;
- /api/v1/events/<slug>/entrants/<number>/calendar.ics: one entrant's matches, addressed
  as their public page is (/e/<slug>/entrants/<number>/), never by e-mail or claim code.

Same permissions as the pages (a private event is the API's 404) and the same cache as the
JSON answers (tournaments/api/caching.py): an anonymous feed is stored under the event's
stamp, served again without a query, and its ETag answers If-None-Match with a 304.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import get_language
from django.views.decorators.csrf import csrf_exempt

from accounts.permissions import event_for_viewer
from tournaments.api import calendars
from tournaments.api.caching import _answer, _shareable, _tag
from tournaments.api.errors import not_found_response
from tournaments.views import pagecache

CONTENT_TYPE = "text/calendar; charset=utf-8"


def _serve(
    request: HttpRequest, name: str, slug: str, build: Callable[[], bytes | None], params: str = ""
) -> HttpResponse:
    key = None
    if _shareable(request):
        stamp = pagecache.event_stamp(slug)  # None: private or missing, build() says 404
        if stamp is not None:
            key = ":".join(["api", name, slug, stamp["version"], get_language() or "", params])
    if key is not None:
        etag = _tag(key)
        if request.headers.get("If-None-Match") == etag:
            return _calendar_answer(request, b"", etag, "not-modified", slug)
        body = pagecache.local_get(key)
        if body is None:
            body = pagecache.cache_call("get", key)
            if body is not None:
                pagecache.local_put(key, body, len(body))
        if body is not None:
            return _calendar_answer(request, body, etag, "hit", slug)
    built = build()
    if built is None:
        return not_found_response()
    if key is None:
        return _calendar_answer(request, built, _tag(built), "off", slug)
    pagecache.local_put(key, built, len(built))
    pagecache.cache_call("set", key, built, timeout=settings.ARBITER_PAGE_CACHE_SECONDS)
    return _calendar_answer(request, built, _tag(key), "miss", slug)


def _calendar_answer(
    request: HttpRequest, body: bytes, etag: str, state: str, slug: str
) -> HttpResponse:
    response = _answer(request, body, etag, state)
    if response.status_code == 200:
        response["Content-Type"] = CONTENT_TYPE
        response["Content-Disposition"] = f'inline; filename="{slug}.ics"'
    return response


@csrf_exempt  # reads only (ApiEdgeMiddleware refuses every other method)
def event_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    return _serve(
        request,
        "calendar",
        slug,
        lambda: calendars.event_calendar(event_for_viewer(request.user, slug)),
    )


@csrf_exempt
def entrant_calendar(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _serve(
        request,
        "entrant-calendar",
        slug,
        lambda: calendars.entrant_calendar(event_for_viewer(request.user, slug), number),
        params=str(number),
    )


urlpatterns = [
    path("v1/events/<slug:slug>/calendar.ics", event_calendar, name="api_event_calendar"),
    path(
        "v1/events/<slug:slug>/entrants/<int:number>/calendar.ics",
        entrant_calendar,
        name="api_entrant_calendar",
    ),
]
