"""The venue harness itself: two instances on two databases, and a link that passes, fails
fast when cut, swallows when black-holed, and passes again when restored."""

from __future__ import annotations

import os
import socket
import time

import pytest

from tests.venue.conftest import need_postgres
from tests.venue.harness import Client, Pair, admin_connection, postgres_settings
from tests.venue.proxy import LinkProxy

FAST = 2.0  # s: a cut link fails well before any client's timeout (10 s here)


def _fails(client: Client, path: str = "/healthz") -> tuple[type[BaseException], float]:
    started = time.monotonic()
    with pytest.raises(OSError) as failure:
        client.get(path)
    return failure.type, time.monotonic() - started


def test_two_instances_two_databases_each_with_the_director(pair: Pair, link: LinkProxy) -> None:
    assert pair.venue.database != pair.public.database
    assert pair.venue.port != pair.public.port
    for instance in (pair.venue, pair.public):
        desk = instance.director()
        assert desk.get("/manage/new/").status == 200, instance.name
    # an event made at the venue is not on the public instance: two databases, not one
    desk = pair.venue.director()
    made = desk.post(
        "/manage/new/",
        {"slug": "harness-only-here", "name": "Harness", "format": "round_robin",
         "time_zone": "UTC", "save": "1", "public": "on", "venue": "Hall"},
    )  # fmt: skip
    assert made.status in (200, 302), made
    slugs = pair.venue.manage(
        "shell",
        "-c",
        "from tournaments.models import Event; "
        "print(sorted(Event.objects.values_list('slug', flat=True)))",
    )
    assert "harness-only-here" in slugs, (slugs, made)
    assert pair.public.client().get("/e/harness-only-here/").status == 404
    assert pair.venue.client().get("/e/harness-only-here/").status == 200


def test_the_link_passes_fails_fast_when_cut_and_passes_again(pair: Pair, link: LinkProxy) -> None:
    through = Client(link.url, timeout=10)
    assert through.get("/healthz").status == 200
    assert link.forwarded >= 1 and link.bytes_down > 0

    link.cut()  # refused: nothing listens on the port
    kind, took = _fails(through)
    assert issubclass(kind, ConnectionRefusedError) and took < FAST, (kind, took)

    link.cut("reset")  # accepted, then reset
    kind, took = _fails(through)
    assert took < FAST, (kind, took)

    link.restore()
    assert through.get("/healthz").status == 200
    # the public instance itself never went away
    assert pair.public.client().get("/healthz").status == 200


def test_a_black_hole_accepts_and_never_answers(pair: Pair, link: LinkProxy) -> None:
    link.blackhole()
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        Client(link.url, timeout=1).get("/healthz")
    assert time.monotonic() - started >= 0.9  # it waited: the connection was accepted
    link.restore()
    assert Client(link.url, timeout=10).get("/healthz").status == 200


def _half_request(port: int) -> socket.socket:
    """A connection through the link with a request the server still waits the end of."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    time.sleep(0.2)
    return sock


def _reset_or_closed(sock: socket.socket) -> bool:
    """The connection is gone: reset, or closed before any answer."""
    try:
        sock.sendall(b"\r\n")
        return sock.recv(100) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True


def test_a_cut_resets_the_connections_open_through_it(pair: Pair, link: LinkProxy) -> None:
    sock = _half_request(link.port)
    link.cut()
    try:
        assert _reset_or_closed(sock)
    finally:
        sock.close()
    link.restore()
    assert Client(link.url, timeout=10).get("/healthz").status == 200


def test_a_black_hole_swallows_an_open_connection_and_restore_resets_it(
    pair: Pair, link: LinkProxy
) -> None:
    sock = _half_request(link.port)
    link.blackhole()
    sock.settimeout(1)
    sock.sendall(b"\r\n")  # the end of the request: it goes nowhere
    with pytest.raises(TimeoutError):
        sock.recv(100)
    link.restore()
    sock.settimeout(5)
    try:
        assert _reset_or_closed(sock)  # never a late answer
    finally:
        sock.close()


def test_a_pair_leaves_no_process_and_no_database(tmp_path) -> None:
    need_postgres()
    with Pair.start(tmp_path / "pair") as pair:
        names = [pair.venue.database, pair.public.database]
        pids = [p.popen.pid for p in (*pair.venue.processes, *pair.public.processes)]
        assert len(pids) == 2
        port = pair.link.port
    with admin_connection(postgres_settings()) as conn:
        left = conn.execute(
            "SELECT datname FROM pg_database WHERE datname = ANY(%s)", (names,)
        ).fetchall()
    assert left == []
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2)
    assert not (tmp_path / "pair").exists()
