"""A database or Redis that drops or stalls mid-request gives a clear 503, not a traceback.

A service saves all or nothing, so the action either rolled back when its connection broke
or (a COMMIT that reached the server, its answer lost) completed; the user may send it
again either way: a retried result save carries the version it was read at, so it never
records the result twice (if the first did go in, the retry shows it as a conflict).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.views.defaults import page_not_found

from tournaments.services.mirror.outbox import ReadOnlyEvent

log = logging.getLogger(__name__)

MESSAGE = (
    "The server lost its connection to its database in the middle of your request, so it "
    "may not have been saved. Send it again in a few seconds: a result sent twice is "
    "recorded once."
)


def _unavailable(error: BaseException) -> bool:
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # pragma: no cover - redis is a dependency
        return isinstance(error, OperationalError | InterfaceError)
    transient = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError)
    return isinstance(error, transient)


class ServiceUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not _unavailable(exception):
            return None
        log.error("%s %s: %s", request.method, request.path, exception.__class__.__name__)
        # Rendered without the request: its context processors would ask the database again.
        body = render_to_string("503.html", {"message": MESSAGE})
        response = HttpResponse(body, status=503)
        response["Retry-After"] = "5"
        response["X-Arbiter-Message"] = MESSAGE
        return response


class EventTimeZoneMiddleware:
    """An event's pages read times in its zone (accounts.permissions activates it when it
    loads the event); the zone is dropped when the response is made, so the next request
    served by this thread starts from the server's zone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class ProjectNotFoundMiddleware:
    """Under DEBUG (`make run`) a wrong address shows the project's own 404 page, in the
    reader's language and at the phone's width, not Django's technical page (English,
    980 px wide): a newcomer should see what players will see. Without DEBUG Django
    already renders templates/404.html, so this does nothing there."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.DEBUG:
            try:
                resolve(request.path_info, getattr(request, "urlconf", None))
            except Resolver404 as error:
                return page_not_found(request, error)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if settings.DEBUG and isinstance(exception, Http404):
            return page_not_found(request, exception)
        return None


class ReadOnlyEventMiddleware:
    """A write to an event this machine does not write (venue mode's public copy, or a
    fenced venue: docs/venue.md) that a view did not catch: a 409 page that says where the
    event is run, never a server error. Views that show a service's refusal inline show
    this one the same way."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ReadOnlyEvent):
            return None
        body = render_to_string(
            "tournaments/manage/read_only.html",
            {"message": " ".join(exception.messages)},
            request=request,
        )
        return HttpResponse(body, status=409)
