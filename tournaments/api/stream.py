"""/api/v1/events/<slug>/stream: an event's live updates as Server-Sent Events (issue 30,
step 2; docs/api.md says what a client sees, docs/operations.md how it is served).

Served by the ASGI application (config/asgi.py under uvicorn): each stream is a coroutine
waiting on a queue, so one process holds thousands. Each process keeps ONE Redis
subscription (``_Hub``) to the channel tournaments.services.live publishes on after each
commit, and hands every message to the queues of that event's streams. A stream joins
its hub before it reads the event's state, so nothing committed in between is missed;
after Redis comes back, the hub reads each watched event's state again and the streams
pass on what changed meanwhile.

Under WSGI (``make run``'s runserver, the tests' live server) a stream holds a thread and a
Redis connection of its own: for development, so it is served only with
ARBITER_LIVE_WSGI (on with DEBUG). A gunicorn sync worker must never hold a stream; there
the answer is 503 and the pages go on polling /e/<slug>/version.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts.permissions import event_for_viewer
from tournaments.api.errors import error_response
from tournaments.models import Event
from tournaments.services import live

log = logging.getLogger(__name__)

RETRY_MS = 5000  # EventSource's wait before it reconnects
HEARTBEAT_SECONDS = 15.0  # a comment line this often keeps proxies and clients from timing out
QUEUE_SIZE = 8  # per stream; each message is a whole state, so a full queue drops the oldest
VERSION = "version"  # the state on (re)connection and after a Redis outage
END = "end"


def _heartbeat() -> float:
    return float(getattr(settings, "ARBITER_LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))


def _frame(kind: str, state: dict[str, Any]) -> bytes:
    return _framed(
        kind, state["token"], state["results_version"], state["standings_version"], state["rounds"]
    )


@functools.lru_cache(maxsize=256)
def _framed(
    kind: str, token: str, results: int | None, standings: int | None, rounds: int
) -> bytes:
    """Encoded once per message, not once per stream (2,000 streams share it)."""
    data = {
        "kind": kind,
        "token": token,
        "results_version": results,
        "standings_version": standings,
        "rounds": rounds,
    }
    body = json.dumps(data, separators=(",", ":"))
    return f"id: {token}\nevent: {kind}\ndata: {body}\n\n".encode()


def _end(reason: str) -> bytes:
    return f"event: {END}\ndata: {json.dumps({'kind': END, 'reason': reason})}\n\n".encode()


class _Follower:
    """What one stream has said, and what it says next for each message."""

    def __init__(self, by_role: bool) -> None:
        self.by_role = by_role  # sees the event as its director or player, not as the public
        self.token: str | None = None
        self.done = False

    def opening(self, state: dict[str, Any] | None, last_id: str | None) -> list[bytes]:
        frames = [f"retry: {RETRY_MS}\n\n".encode()]
        if state is None:
            return [*frames, *self._close("deleted")]
        self.token = last_id
        return frames + self.follow({"kind": VERSION, **state})

    def follow(self, message: dict[str, Any]) -> list[bytes]:
        frames = []
        kind = message.get("kind")
        # a resync whose state was already said is nothing new; a change always goes out
        if kind in live.KINDS or message["token"] != self.token:
            frames.append(_frame(kind if kind in live.KINDS else VERSION, message))
            self.token = message["token"]
        if message.get("finished"):
            frames += self._close("finished")
        elif not message.get("public") and not self.by_role:
            frames += self._close("private")
        return frames

    def _close(self, reason: str) -> list[bytes]:
        self.done = True
        return [_end(reason)]


def _state_of(event_id: int) -> dict[str, Any] | None:
    event = Event.objects.filter(pk=event_id).first()
    return None if event is None else live.public_state(event)


# Under ASGI each request has a thread of its own for its synchronous parts, alive as long
# as its stream: a database connection kept in each would hold one per open stream, and a
# crowd arriving at once would open hundreds. So a stream reads through a few slots per
# process and closes its connection after each read.
DATABASE_SLOTS = threading.BoundedSemaphore(4)


def _state_and_let_go(event_id: int) -> dict[str, Any] | None:
    with DATABASE_SLOTS:
        try:
            return _state_of(event_id)
        finally:
            connection.close()


class _Hub:
    """One per process (its event loop): one Redis subscription, fanned out to the queues
    of the streams by event."""

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.queues: dict[int, set[asyncio.Queue[dict[str, Any]]]] = {}
        self.subscribed = False
        self.failed_at = 0.0
        self.loop = asyncio.get_running_loop()
        self.task = self.loop.create_task(self._listen())

    def join(self, event_id: int) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)
        self.queues.setdefault(event_id, set()).add(queue)
        return queue

    def leave(self, event_id: int, queue: asyncio.Queue[dict[str, Any]]) -> None:
        watching = self.queues.get(event_id)
        if watching is not None:
            watching.discard(queue)
            if not watching:
                del self.queues[event_id]

    def dispatch(self, message: dict[str, Any]) -> None:
        for queue in tuple(self.queues.get(message.get("event", -1), ())):
            if queue.full():  # a slow reader: only the newest state matters
                queue.get_nowait()
            queue.put_nowait(message)

    async def _resync(self) -> None:
        for event_id in tuple(self.queues):
            state = await sync_to_async(_state_and_let_go)(event_id)
            if state is not None:
                self.dispatch({"event": event_id, "kind": VERSION, **state})

    async def _listen(self) -> None:
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(self.url, socket_connect_timeout=5)
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(self.name)
                while (await pubsub.get_message(timeout=1.0) or {}).get("type") != "subscribe":
                    pass  # confirmed: every later message reaches this process
                self.subscribed = True
                log.info("live: subscribed to %s", self.name)
                await self._resync()  # what changed while nobody listened
                idle = time.monotonic()
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5)
                    if message is not None and message["type"] == "message":
                        self.dispatch(json.loads(message["data"]))
                        idle = time.monotonic()
                    elif time.monotonic() - idle > 5:
                        await pubsub.ping()  # a dead connection raises here
                        idle = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self.subscribed or not self.failed_at:
                    log.warning("live: Redis subscription lost (%s)", error.__class__.__name__)
                self.subscribed = False
                self.failed_at = time.monotonic()
                await asyncio.sleep(1.0)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()


_hub: _Hub | None = None


def _current_hub() -> _Hub:
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop or _hub.task.done():
        _hub = _Hub(settings.REDIS_URL, live.channel())
    return _hub


def _hub_down() -> bool:
    """Known down (it failed lately and is not subscribed again): streams are refused, so
    pages poll instead. A hub not started yet is not known down."""
    hub = _hub
    return hub is not None and not hub.subscribed and time.monotonic() - hub.failed_at < 30


async def _async_stream(
    event_id: int, follower: _Follower, last_id: str | None
) -> AsyncIterator[bytes]:
    hub = _current_hub()
    queue = hub.join(event_id)  # before the state is read: a change in between is queued
    try:
        state = await sync_to_async(_state_and_let_go)(event_id)
        for frame in follower.opening(state, last_id):
            yield frame
        heartbeat = _heartbeat()
        while not follower.done:
            try:
                message = await asyncio.wait_for(queue.get(), heartbeat)
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            for frame in follower.follow(message):
                yield frame
    finally:
        hub.leave(event_id, queue)


def _sync_subscribe() -> Any:
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=5)
    pubsub = client.pubsub()  # type: ignore[no-untyped-call]  # redis-py leaves it bare
    pubsub.subscribe(live.channel())
    deadline = time.monotonic() + 2
    while (pubsub.get_message(timeout=0.5) or {}).get("type") != "subscribe":
        if time.monotonic() > deadline:
            raise TimeoutError("no subscription")
    return pubsub


def _sync_stream(
    pubsub: Any, event_id: int, follower: _Follower, last_id: str | None
) -> Iterator[bytes]:
    try:
        yield from follower.opening(_state_and_let_go(event_id), last_id)
        heartbeat = _heartbeat()
        idle = time.monotonic()
        while not follower.done:
            message = pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if message is not None and message["type"] == "message":
                data = json.loads(message["data"])
                if data.get("event") == event_id:
                    yield from follower.follow(data)
                    idle = time.monotonic()
            elif time.monotonic() - idle > heartbeat:
                yield b": keep-alive\n\n"
                idle = time.monotonic()
    finally:
        with contextlib.suppress(Exception):
            pubsub.close()


def _unavailable() -> HttpResponse:
    response = error_response(
        503,
        "live_unavailable",
        _("Live updates are not available now: poll the event's versions instead."),
        retry_after=60,
    )
    response["Retry-After"] = "60"
    return response


@csrf_exempt  # reads only: ApiEdgeMiddleware refuses every other method
def event_stream(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The event's changes as they are committed (text/event-stream). A private event is
    the API's 404; an event that has ended answers 204 (an EventSource stops reconnecting);
    without Redis, 503."""
    asgi = isinstance(request, ASGIRequest)
    with DATABASE_SLOTS if asgi else contextlib.nullcontext():
        try:
            event = event_for_viewer(request.user, slug)
        finally:
            if asgi:
                connection.close()  # see DATABASE_SLOTS
    if event.status == Event.Status.FINISHED:
        return HttpResponse(status=204)
    if not getattr(settings, "REDIS_URL", None):
        return _unavailable()
    follower = _Follower(by_role=not event.public)
    last_id = request.headers.get("Last-Event-ID") or None
    content: AsyncIterator[bytes] | Iterator[bytes]
    if request.META.get("REQUEST_METHOD") == "HEAD":  # the API's HEAD: headers alone
        content = iter(())
    elif asgi:
        if _hub_down():
            return _unavailable()
        content = _async_stream(event.pk, follower, last_id)
    elif getattr(settings, "ARBITER_LIVE_WSGI", settings.DEBUG):
        try:
            pubsub = _sync_subscribe()
        except Exception as error:
            log.warning("live: no Redis subscription (%s)", error.__class__.__name__)
            return _unavailable()
        content = _sync_stream(pubsub, event.pk, follower, last_id)
    else:
        return _unavailable()  # a WSGI worker is never held by a stream
    response = StreamingHttpResponse(content, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response
