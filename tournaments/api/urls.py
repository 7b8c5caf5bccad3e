"""/api/v1/: the operations, the schema (/api/v1/schema/) and its page (/api/v1/docs/);
any other address under /api/ answers the API's JSON 404, never the HTML page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path, re_path

from tournaments.api.docs import api_docs
from tournaments.api.errors import not_found_response
from tournaments.api.main import api


def _nowhere(request: HttpRequest, rest: str = "") -> HttpResponse:
    return not_found_response()


urlpatterns = [
    path("v1/docs/", api_docs, name="api_docs"),
    path("v1/", api.urls),
    re_path(r"^(?P<rest>.*)$", _nowhere),
]
