"""Issue 30, step 2: "a Server-Sent Events stream per event (/api/v1/events/<slug>/stream)
that says 'round published', 'result saved', 'standings changed' with the new version, fed
from Redis pub/sub after commit (works with several web workers; falls back to the version
poll without Redis)".

The bus (tournaments/services/live.py) publishes after the commit only; the stream is read
from a real server: the ASGI application under uvicorn (as production serves it, in a thread
of this process) and, for ``make run``, Django's threaded WSGI live server; Redis is the real
one (REDIS_URL; the tests that need it say so when it is missing, and CI sets it)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from tests.factories import round_robin_event
from tournaments.api import stream
from tournaments.models import Event, Match
from tournaments.services import live, results, rounds, standings

REDIS_URL = os.environ.get("REDIS_URL")
needs_redis = pytest.mark.skipif(
    not REDIS_URL and os.environ.get("CI") != "true", reason="needs REDIS_URL (CI sets it)"
)


@pytest.fixture
def sent(monkeypatch) -> list[tuple[int, str]]:
    """What the bus publishes, instead of sending it."""
    told: list[tuple[int, str]] = []
    monkeypatch.setattr(live, "publish", lambda event_id, kind: told.append((event_id, kind)))
    return told


@pytest.fixture(autouse=True)
def _bus_fresh():
    live._down_until = 0.0
    yield
    live._down_until = 0.0


def _first_match(event: Event) -> Match:
    return Match.objects.filter(round__event=event).order_by("order").first()


def _save_a_result(event: Event, director) -> None:
    match = _first_match(event)
    results.record(match, [{"scores": [3, 1]}], expected_version=match.version, by=director)


@pytest.mark.django_db
def test_a_change_is_published_after_the_commit_and_not_when_rolled_back(
    director, sent, django_capture_on_commit_callbacks
):
    event = round_robin_event(director, players=4)
    draft = rounds.draft_next_round(event, by=director).round
    with django_capture_on_commit_callbacks(execute=True):
        rounds.publish_round(draft, by=director)
    # the byes' results, the round, then the standings (tasks run eagerly in tests)
    assert sent == [
        (event.pk, live.RESULT_SAVED),
        (event.pk, live.ROUND_PUBLISHED),
        (event.pk, live.STANDINGS_CHANGED),
    ]

    sent.clear()
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        contextlib.suppress(RuntimeError),
        transaction.atomic(),
    ):
        standings.results_changed(event)
        assert sent == []  # not before the commit
        raise RuntimeError("rolled back")
    assert sent == [] and callbacks == []

    with django_capture_on_commit_callbacks(execute=True):
        _save_a_result(event, director)
    assert sent == [(event.pk, live.RESULT_SAVED), (event.pk, live.STANDINGS_CHANGED)]
    sent.clear()
    event.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        assert not standings.refresh(event.pk, event.results_version)  # already published
    assert sent == []


@pytest.mark.django_db
def test_a_save_stands_when_redis_is_down(director, settings, django_capture_on_commit_callbacks):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    event = round_robin_event(director, players=4)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    with django_capture_on_commit_callbacks(execute=True):
        _save_a_result(event, director)
    assert _first_match(event).result is not None
    assert live.publish(event.pk, live.RESULT_SAVED) is False  # and it says so, quietly


@needs_redis
@pytest.mark.django_db
def test_the_message_on_redis_holds_the_public_state(director):
    import redis

    event = round_robin_event(director, players=4)
    listener = redis.Redis.from_url(REDIS_URL).pubsub()
    listener.subscribe(live.channel())
    assert listener.get_message(timeout=2)["type"] == "subscribe"
    assert live.publish(event.pk, live.RESULT_SAVED)
    message = listener.get_message(timeout=2)
    listener.close()
    body = json.loads(message["data"])
    event.refresh_from_db()
    assert body == {
        "event": event.pk,
        "kind": "result_saved",
        "token": f"{event.results_version}.{event.standings_version}.0",
        "results_version": event.results_version,
        "standings_version": event.standings_version,
        "rounds": 0,
        "public": True,
        "finished": False,
    }


# --- the stream, read from a real server ---------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def asgi_server() -> Iterator[str]:
    """The ASGI application under uvicorn, in a thread of this process (its settings and
    test database)."""
    import uvicorn

    from config.asgi import application

    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            application,
            host="127.0.0.1",
            port=port,
            lifespan="off",
            log_level="error",
            timeout_graceful_shutdown=1,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


class Stream:
    """A raw HTTP/1.1 reader of one stream: status, headers, then its messages."""

    def __init__(self, base: str, path: str, headers: dict[str, str] | None = None) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n").decode()
        self.status = int(head.split()[1])
        self.headers = {
            k.strip().lower(): v.strip()
            for k, _, v in (line.partition(":") for line in head.split("\r\n")[1:])
        }
        self.chunked = self.headers.get("transfer-encoding") == "chunked"
        self.text = ""

    def _until(self, mark: bytes) -> bytes:
        while mark not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError(self.buffer)
            self.buffer += data
        found, _, self.buffer = self.buffer.partition(mark)
        return found

    def _more(self) -> bool:
        if not self.chunked:
            data = self.sock.recv(65536)
            self.text += data.decode()
            return bool(data)
        size = int(self._until(b"\r\n"), 16)
        if size == 0:
            return False
        while len(self.buffer) < size + 2:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError
            self.buffer += data
        self.text += self.buffer[:size].decode()
        self.buffer = self.buffer[size + 2 :]
        return True

    def messages(self, until: str | None = None, seconds: float = 10) -> list[dict[str, Any]]:
        """Every message so far, read until one of kind ``until`` (or the end)."""
        deadline = time.monotonic() + seconds
        while True:
            parsed = parse(self.text)
            if until is not None and any(m.get("event") == until for m in parsed):
                return parsed
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no {until!r} within {seconds} s: {self.text!r}")
            self.sock.settimeout(remaining)
            try:
                if not self._more():
                    return parse(self.text)
            except (EOFError, TimeoutError):
                return parse(self.text)

    def close(self) -> None:
        self.sock.close()


def parse(text: str) -> list[dict[str, Any]]:
    found = []
    for block in text.split("\n\n")[:-1]:
        fields: dict[str, Any] = {}
        for line in block.split("\n"):
            key, _, value = line.partition(": ")
            fields[key] = value
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
        found.append(fields)
    return found


@pytest.fixture
def running(director) -> Event:
    event = round_robin_event(director, players=4, slug="live")
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return Event.objects.get(pk=event.pk)


def _token(event: Event) -> str:
    event.refresh_from_db()
    return f"{event.results_version}.{event.standings_version}.1"


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_stream_tells_of_a_saved_result_and_the_new_standings(
    running, director, asgi_server, settings
):
    settings.REDIS_URL = REDIS_URL
    settings.ARBITER_LIVE_HEARTBEAT_SECONDS = 0.5
    watching = Stream(asgi_server, "/api/v1/events/live/stream")
    assert watching.status == 200
    assert watching.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert watching.headers["cache-control"] == "no-cache"
    opening = watching.messages(until="version")
    assert opening[0] == {"retry": "5000"}
    assert opening[1]["id"] == _token(running)
    assert opening[1]["data"]["results_version"] == running.results_version

    _save_a_result(running, director)  # tasks run eagerly: the standings follow at once
    told = watching.messages(until="standings_changed")
    watching.close()
    kinds = [m["event"] for m in told if "event" in m]
    assert kinds[-2:] == ["result_saved", "standings_changed"]
    assert told[-1]["data"] == {
        "kind": "standings_changed",
        "token": _token(running),
        "results_version": running.results_version,
        "standings_version": running.standings_version,
        "rounds": 1,
    }
    assert running.standings_version == running.results_version
    assert ": keep-alive" in watching.text or len(told) >= 4


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_several_streams_and_last_event_id(director, asgi_server, settings):
    settings.REDIS_URL = REDIS_URL
    event = round_robin_event(director, players=4, slug="live")
    draft = rounds.draft_next_round(event, by=director).round
    streams = [Stream(asgi_server, "/api/v1/events/live/stream") for _ in range(5)]
    try:
        for watching in streams:
            watching.messages(until="version")
        rounds.publish_round(draft, by=director)
        for watching in streams:
            told = watching.messages("round_published")
            assert "round_published" in [m.get("event") for m in told]
    finally:
        for watching in streams:
            watching.close()
    running = event
    # a client back with the token it had: nothing missed, no opening state
    again = Stream(asgi_server, "/api/v1/events/live/stream", {"Last-Event-ID": _token(running)})
    assert again.messages(seconds=1.5) == [{"retry": "5000"}]
    again.close()
    old = Stream(asgi_server, "/api/v1/events/live/stream", {"Last-Event-ID": "0.0.0"})
    assert old.messages(until="version")[1]["id"] == _token(running)
    old.close()


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_the_wsgi_stream_of_make_run(running, director, live_server, settings):
    settings.REDIS_URL = REDIS_URL
    settings.ARBITER_LIVE_WSGI = True
    settings.ARBITER_LIVE_HEARTBEAT_SECONDS = 0.5  # its thread notices the client left
    watching = Stream(live_server.url, "/api/v1/events/live/stream")
    assert watching.status == 200
    watching.messages(until="version")
    _save_a_result(running, director)
    told = watching.messages(until="standings_changed")
    watching.close()
    assert "result_saved" in [m.get("event") for m in told]


@pytest.mark.django_db(transaction=True)
def test_without_redis_the_stream_is_refused_and_the_version_poll_answers(
    running, live_server, settings, client
):
    settings.REDIS_URL = None
    refused = Stream(live_server.url, "/api/v1/events/live/stream")
    assert refused.status == 503
    body = json.loads(refused._until(b"}") + b"}")
    refused.close()
    assert body["code"] == "live_unavailable"
    assert refused.headers["retry-after"] == "60"
    version = client.get("/e/live/version")
    assert version.status_code == 200 and version.json()["token"] == _token(running)


@pytest.mark.django_db(transaction=True)
def test_a_wsgi_worker_is_never_held_by_a_stream(running, live_server, settings):
    settings.REDIS_URL = REDIS_URL or "redis://127.0.0.1:6379/0"
    settings.ARBITER_LIVE_WSGI = False  # production's gunicorn: pages poll
    refused = Stream(live_server.url, "/api/v1/events/live/stream")
    refused.close()
    assert refused.status == 503


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_asgi_refuses_while_redis_is_down(running, asgi_server, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    first = Stream(asgi_server, "/api/v1/events/live/stream")
    first.messages(until="version", seconds=3)  # it had not failed yet: the state is read
    first.close()
    deadline = time.monotonic() + 10
    while True:
        again = Stream(asgi_server, "/api/v1/events/live/stream")
        again.close()
        if again.status == 503:
            break
        assert time.monotonic() < deadline, "a down Redis was not noticed"
        time.sleep(0.3)


@pytest.mark.django_db(transaction=True)
def test_private_ended_and_head(running, director, asgi_server, settings):
    settings.REDIS_URL = REDIS_URL or "redis://127.0.0.1:6379/0"
    Event.objects.filter(pk=running.pk).update(public=False)
    private = Stream(asgi_server, "/api/v1/events/live/stream")
    private.close()
    missing = Stream(asgi_server, "/api/v1/events/nowhere/stream")
    missing.close()
    assert private.status == missing.status == 404
    Event.objects.filter(pk=running.pk).update(public=True, status=Event.Status.FINISHED)
    ended = Stream(asgi_server, "/api/v1/events/live/stream")
    ended.close()
    assert ended.status == 204  # an EventSource stops reconnecting


def test_a_follower_closes_when_the_event_ends_or_turns_private():
    state = {"token": "3.3.1", "results_version": 3, "standings_version": 3, "rounds": 1}
    public = stream._Follower(by_role=False)
    assert len(public.opening({**state, "public": True, "finished": False}, None)) == 2
    assert public.follow({"kind": "version", **state, "public": True}) == []  # said already
    frames = public.follow({"kind": "version", **state, "public": False})
    assert public.done and b"event: end" in frames[-1] and b"private" in frames[-1]
    director = stream._Follower(by_role=True)
    director.opening({**state, "public": False, "finished": False}, "3.3.1")
    assert director.follow({"kind": "result_saved", **state, "public": False})
    assert not director.done
    frames = director.follow({"kind": "standings_changed", **state, "finished": True})
    assert director.done and b"finished" in frames[-1]
