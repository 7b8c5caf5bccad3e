"""/api/v1/: the operations, the schema (/api/v1/schema/) and its page (/api/v1/docs/);
any other address under /api/ answers the API's JSON 404, never the HTML page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path, re_path
from django.views.decorators.csrf import csrf_exempt

from tournaments.api import calendar_views
from tournaments.api import entries as _entries  # noqa: F401 - registers its operation
from tournaments.api import export as _export  # noqa: F401 - registers its operation
from tournaments.api import formats as _formats  # noqa: F401 - registers its operations
from tournaments.api import series as _series  # noqa: F401 - registers its operations
from tournaments.api.docs import api_docs
from tournaments.api.errors import not_found_response
from tournaments.api.main import api
from tournaments.api.stream import event_stream


# Like ninja's own views, csrf_exempt: nothing under /api/ writes (ApiEdgeMiddleware refuses
# every method but GET, HEAD and OPTIONS with a JSON 405 before the CSRF check would).
@csrf_exempt
def _nowhere(request: HttpRequest, rest: str = "") -> HttpResponse:
    return not_found_response()


def _read_only(urls: tuple[list[Any], str, str]) -> tuple[list[Any], str, str]:
    """ninja's patterns, every one csrf_exempt as its operations already are (the schema
    view and the root too): one rule for the whole tree."""
    patterns, app_name, namespace = urls
    for pattern in patterns:
        if isinstance(pattern, URLPattern):
            pattern.callback = csrf_exempt(pattern.callback)
    return patterns, app_name, namespace


urlpatterns = [
    path("v1/docs/", csrf_exempt(api_docs), name="api_docs"),
    *calendar_views.urlpatterns,  # text/calendar, beside the JSON (docs/api.md)
    # Server-Sent Events, outside the schema: it never ends (tournaments/api/stream.py)
    path("v1/events/<slug:slug>/stream", event_stream, name="api_event_stream"),
    path("v1/", _read_only(api.urls)),
    re_path(r"^(?P<rest>.*)$", _nowhere, name="api_not_found"),
]
