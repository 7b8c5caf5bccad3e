"""`make bench`: requests per second of the public standings page of a 1,000-entrant event,
uncached and cached, beside a bare Django view (the ceiling), all on gunicorn on loopback;
then the seconds from a saved result to updated public standings (real worker and Redis).

Bounded: each load lasts BENCH_SECONDS (8); the whole run takes a few minutes. Settings:
BENCH_DATABASE_URL (default: a fresh SQLite file), REDIS_URL (default: database 14 of a
local Redis if one answers), BENCH_WORKERS (gunicorn workers, 4), BENCH_ENTRANTS (1000),
BENCH_ROUNDS (played rounds, 5). It prints a table; it never fails a build.
"""

from __future__ import annotations

import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
SLUG = "bench-open"

# the temporary folders this run made (removed at exit; never another run's)
MADE: list[str] = []


def _redis_url() -> str:
    if os.environ.get("REDIS_URL"):
        return os.environ["REDIS_URL"]
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            if s.recv(16).startswith(b"+PONG"):
                return "redis://127.0.0.1:6379/14"
    except OSError:
        pass
    return ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


@contextmanager
def gunicorn(env: dict[str, str], workers: int, **extra: str):
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "bench.wsgi:application", "-b", f"127.0.0.1:{port}",
         "-w", str(workers), "--log-level", "warning"],
        cwd=ROOT, env={**env, **extra}, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                _get(base + "/healthz")
                break
            except OSError:
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(20)


@contextmanager
def celery_worker(env: dict[str, str]):
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--without-gossip", "--without-mingle",
         f"--loglevel={os.environ.get('BENCH_WORKER_LOG', 'WARNING')}"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        time.sleep(3)
        yield
    finally:
        proc.terminate()
        proc.wait(30)


def setup(entrants: int, played: int) -> tuple[object, float]:
    import django

    django.setup()
    from bench.event import event_file
    from tournaments.services import eventfile, standings

    with mock.patch("tournaments.services.standings.schedule_recompute"):
        event = eventfile.import_event(event_file(SLUG, entrants, played), by=None)
    started = time.monotonic()
    standings.refresh(event.pk, event.results_version)
    return event, time.monotonic() - started


def latency(event, base: str, trials: int = 3) -> list[float]:
    """Seconds from a committed result to a public standings page that shows it."""
    import json

    from tournaments.models import Match
    from tournaments.services import results

    matches = list(
        Match.objects.filter(round__event=event, result__isnull=True).order_by("pk")[:trials]
    )
    found = []
    for match in matches:
        saved = results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=None)
        started = time.monotonic()
        version = saved.match.round.event.results_version
        while time.monotonic() - started < 300:
            info = json.loads(_get(f"{base}/e/{SLUG}/version"))
            if info["standings_version"] >= version:
                _get(f"{base}/e/{SLUG}/standings/")
                found.append(time.monotonic() - started)
                break
            time.sleep(0.05)
    return found


def main() -> None:
    from bench.load import requests_per_second

    seconds = float(os.environ.get("BENCH_SECONDS", "8"))
    workers = int(os.environ.get("BENCH_WORKERS", "4"))
    entrants = int(os.environ.get("BENCH_ENTRANTS", "1000"))
    played = int(os.environ.get("BENCH_ROUNDS", "5"))
    var = tempfile.mkdtemp(prefix="arbiter-bench-")
    MADE.append(var)
    redis_url = _redis_url()
    tag = uuid.uuid4().hex[:8]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "ARBITER_VAR_DIR": var,
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{var}/bench.sqlite3"),
        "REDIS_URL": redis_url,
        "ARBITER_CACHE_PREFIX": f"bench-{tag}",
        "CELERY_QUEUE": f"bench-{tag}",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    print(f"Building a {entrants}-entrant event with {played} rounds played ...", flush=True)
    event, recompute = setup(entrants, played)
    page = f"/e/{SLUG}/standings/"
    rows = []
    with gunicorn(env, workers, ARBITER_PAGE_CACHE="0") as base:
        _get(base + page)
        rows.append(
            ("bare Django view (ceiling)", *requests_per_second(base + "/bench/bare", seconds))
        )
        rows.append(("standings page, uncached", *requests_per_second(base + page, seconds)))
    with gunicorn(env, workers, ARBITER_PAGE_CACHE="1") as base:
        _get(base + page)
        rows.append(("standings page, cached", *requests_per_second(base + page, seconds)))
        rows.append(("version endpoint", *requests_per_second(f"{base}/e/{SLUG}/version", seconds)))
        if redis_url:
            with celery_worker(env):
                delays = latency(event, base)
        else:
            delays = []
    size = len(_get_page_size(env, workers, page))
    print()
    print(f"machine: {os.cpu_count()} cores, {_memory()}, Python {platform.python_version()}, "
          f"gunicorn {workers} sync workers, database {env['DATABASE_URL'].split(':')[0]}, "
          f"Redis {'yes' if redis_url else 'no (local-memory cache, eager tasks)'}")  # fmt: skip
    print(f"event: {entrants} entrants, {played} rounds played; standings page {size // 1024} KiB")
    print()
    print(f"| {'what':<32} | {'requests/s':>10} | client |")
    print(f"| {'-' * 32} | {'-' * 10} | ------ |")
    for name, rate, how in rows:
        print(f"| {name:<32} | {rate:>10.1f} | {how} |")
    print()
    print(f"standings recompute of the event (engine + store): {recompute:.1f} s")
    if delays:
        print(
            "saved result -> updated public standings: "
            + ", ".join(f"{d:.1f}" for d in delays)
            + f" s (median {statistics.median(delays):.1f} s; a lone save waits for no "
            "coalescing delay; per format: python -m bench.latency)"
        )
    else:
        print("saved result -> updated public standings: not measured (no Redis)")


def _get_page_size(env: dict[str, str], workers: int, page: str) -> bytes:
    with gunicorn(env, 1) as base:
        return _get(base + page)


def _memory() -> str:
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        return f"{kib / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        return "? GiB"


if __name__ == "__main__":
    try:
        main()
    finally:
        # this run's own folder only: another bench may be running beside it
        for leftover in MADE:
            shutil.rmtree(leftover, ignore_errors=True)
