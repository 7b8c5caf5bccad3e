"""The live stream at scale (issue 30's goal: "SSE: 2,000 open streams on one machine with
the workers documented in docs/operations.md, an event reaches every stream within 1 s of
the commit").

    python -m bench.sse [STREAMS] [CHANGES]      (2000 and 5 by default; make bench-sse)

Serves the app as docs/operations.md says production serves the streams (uvicorn on
config.asgi, SSE_WORKERS processes, 2 by default), opens STREAMS streams on one event from
one asyncio client in this process, then saves CHANGES results one after another, each a
real save through the results service (its own commit), and times from the commit (an
on_commit hook registered first, so it runs right after COMMIT) to the moment each stream
has read the "result_saved" message with the new token. Prints the connection time, the
latency (median, p99, max) per change, how many streams missed the 1-second goal, and the
servers' memory and threads. PostgreSQL in BENCH_DATABASE_URL (created when missing) and
Redis in REDIS_URL; a benchmark never fails a build.
"""

from __future__ import annotations

import asyncio
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from unittest import mock

from bench.__main__ import ROOT, _redis_url
from bench.load import _database
from bench.stack import free_port

GOAL_SECONDS = 1.0


def _tree(pid: int) -> list[int]:
    """The process and its children (uvicorn's supervisor and its workers)."""
    found = [pid]
    for child in Path("/proc").glob("[0-9]*"):
        try:
            if int((child / "stat").read_text().split(") ")[1].split()[1]) == pid:
                found.append(int(child.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _cpu(pids: list[int]) -> float:
    """User and system CPU seconds of these processes so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return total / ticks


def _status(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _wait_until_served(port: int, workers: int) -> None:
    """Until the health check answers, then a few seconds more for the other workers."""
    import http.client

    for _ in range(300):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.2)
    time.sleep(2 * workers)


class Client:
    """STREAMS raw HTTP/1.1 streams; each notes when it has read the marker it waits for."""

    def __init__(self, port: int, path: str) -> None:
        self.port, self.path = port, path
        self.marker = b""
        self.seen: dict[int, float] = {}
        self.opened = 0
        self.failed: list[str] = []

    async def one(self, index: int) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
        except OSError as error:
            self.failed.append(f"connect: {error}")
            return
        ask = f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        writer.write(ask.encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            self.failed.append(head.split(b"\r\n")[0].decode())
            writer.close()
            return
        text = b""
        while b"event: version" not in text:
            text += await reader.read(65536)
        self.opened += 1
        text = b""
        while True:
            data = await reader.read(65536)
            if not data:
                self.failed.append("closed")
                return
            text = (text + data)[-4096:]
            if self.marker and self.marker in text and index not in self.seen:
                self.seen[index] = time.time()


def _next_token(match_id: int) -> str:
    """The token after one more result: the results version moves by one (the token is
    tournaments.services.live's own, so the bench follows its form)."""
    from tournaments.models import Match
    from tournaments.services import live

    match = Match.objects.select_related("round__event").get(pk=match_id)
    event = match.round.event
    event.results_version += 1  # in memory only: what the save will make it
    return str(live.public_state(event)["token"])


def _save(match_id: int, committed: list[float]) -> str:
    from django.db import transaction

    from tournaments.models import Event, Match
    from tournaments.services import live, results

    match = Match.objects.select_related("round").get(pk=match_id)
    with transaction.atomic():
        transaction.on_commit(lambda: committed.append(time.time()))  # first: right at COMMIT
        results.record(match, [{"scores": [3, 1]}], expected_version=match.version, by=None)
    return str(live.public_state(Event.objects.get(pk=match.round.event_id))["token"])


async def run(
    streams: int, changes: int, port: int, slug: str, matches: list[int], server: int
) -> dict:
    client = Client(port, f"/api/v1/events/{slug}/stream")
    started = time.monotonic()
    tasks = []
    for i in range(streams):
        tasks.append(asyncio.create_task(client.one(i)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # a crowd arriving, not one SYN flood
    while client.opened + len(client.failed) < streams and time.monotonic() - started < 180:
        await asyncio.sleep(0.2)
    connect = time.monotonic() - started
    cpu = _cpu(_tree(server))
    rows = []
    for match_id in matches[:changes]:
        await asyncio.sleep(2)
        client.seen = {}
        committed: list[float] = []
        expected = await asyncio.to_thread(_next_token, match_id)
        client.marker = f"id: {expected}\nevent: result_saved".encode()
        token = await asyncio.to_thread(_save, match_id, committed)
        assert token == expected, (token, expected)
        deadline = time.monotonic() + 10
        while len(client.seen) < client.opened and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        latencies = sorted(t - committed[0] for t in client.seen.values())
        rows.append((token, latencies))
    cpu = _cpu(_tree(server)) - cpu
    for task in tasks:
        task.cancel()
    return {
        "connect": connect,
        "opened": client.opened,
        "failed": client.failed,
        "rows": rows,
        "cpu": cpu,
    }


def _build(slug: str) -> tuple[str, list[int]]:
    import django

    django.setup()
    from bench.event import event_file
    from tournaments.models import Match
    from tournaments.services import eventfile, standings

    with mock.patch("tournaments.services.standings.schedule_recompute"):
        event = eventfile.import_event(event_file(slug, 100, played=2), by=None)
    standings.refresh(event.pk, event.results_version)
    matches = Match.objects.filter(round__event=event, round__number=3, result__isnull=True)
    return slug, list(matches.order_by("pk").values_list("pk", flat=True))


def main() -> None:
    streams = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    changes = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    workers = int(os.environ.get("SSE_WORKERS", "2"))
    database = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arbiter_sse_bench"
    )
    redis_url = _redis_url()
    if not database.startswith("postgres") or not redis_url:
        print("sse bench skipped: it needs PostgreSQL (BENCH_DATABASE_URL) and Redis")
        return
    tag = uuid.uuid4().hex[:8]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "ARBITER_VAR_DIR": tempfile.mkdtemp(prefix="arbiter-sse-"),
        "DATABASE_URL": database,
        "REDIS_URL": redis_url,
        "ARBITER_CACHE_PREFIX": f"sse-{tag}",
        "CELERY_QUEUE": f"sse-{tag}",
        # one client address opens every stream here: the API's limit is for the public
        "ARBITER_RATE_API": "1000000/m",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    os.environ.update(env)
    _database(database)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    slug, matches = _build(f"sse-{tag}")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers), "--no-access-log", "--lifespan", "off",
         "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        _wait_until_served(port, workers)
        load_before = os.getloadavg()
        cpu_before = time.process_time()
        with mock.patch("tournaments.services.standings.schedule_recompute"):
            result = asyncio.run(run(streams, changes, port, slug, matches, server.pid))
        pids = _tree(server.pid)
        rss = sum(_status(pid, "VmRSS") for pid in pids) / 1024
        threads = sum(_status(pid, "Threads") for pid in pids)
    finally:
        server.terminate()
        server.wait(20)
    load = os.getloadavg()
    print(f"\nSSE: {streams} streams, uvicorn --workers {workers}, one asyncio client")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, shared")
    after = " ".join(f"{x:.2f}" for x in load)
    print(f"load average before {load_before[0]:.2f}, after {after}")
    print(f"opened {result['opened']} in {result['connect']:.1f} s; failed {len(result['failed'])}"
          + (f" (first: {result['failed'][0]})" if result["failed"] else ""))  # fmt: skip
    print(f"servers: {rss:.0f} MiB resident, {threads} threads; client CPU "
          f"{time.process_time() - cpu_before:.1f} s")  # fmt: skip
    each = result["cpu"] / max(1, changes) * 1000
    print(f"servers' CPU while the changes went out: {result['cpu']:.2f} s for {changes}"
          f" changes ({each:.0f} ms each, heartbeats included)")  # fmt: skip
    print("change  token        reached   median    p99      max     over 1 s")
    for n, (token, latencies) in enumerate(result["rows"], 1):
        if not latencies:
            print(f"{n:>6}  {token:<11}  0")
            continue
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        over = sum(1 for t in latencies if t > GOAL_SECONDS) + result["opened"] - len(latencies)
        median = statistics.median(latencies) * 1000
        print(f"{n:>6}  {token:<11}  {len(latencies):>7}  {median:6.0f} ms"
              f"  {p99 * 1000:5.0f} ms  {latencies[-1] * 1000:5.0f} ms  {over:>7}")  # fmt: skip


if __name__ == "__main__":
    main()
