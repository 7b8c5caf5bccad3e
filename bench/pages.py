"""`python -m bench.pages`: the public pages of a 1,000-entrant event, built and served.

Prints, in one run on one gunicorn:
- the milliseconds to build the standings and pairings pages with the page cache off, both
  the first build of a standings snapshot / results version (its rows rendered) and a build
  once the rows' fragment is stored (each later build until the snapshot or the results
  change: a page cache miss, another address, a signed-in visitor), and the pairings' first
  build after one result of the round is saved (its other rows stored apart);
- the requests per second of the cached standings page (gzip, as browsers ask, and
  uncompressed), of a 304 answer to If-None-Match, of the API's cached standings
  (/api/v1/events/<slug>/standings/, gzip and uncompressed) and of a bare Django view (the
  ceiling), each as a share of the ceiling, measured in interleaved slices on the same
  gunicorn; then the API's rate as a share of the page's (issue 30's goal: within 90% of
  the cached page's requests/s in the same run, i.e. a ratio of 0.90 or more).

Bounded: each line gets BENCH_SECONDS (16) in slices of about 2 s. Settings:
BENCH_DATABASE_URL (default: a fresh SQLite file; a PostgreSQL database named is dropped
and made anew), REDIS_URL (default: database 14 of a local Redis), BENCH_WORKERS
(gunicorn sync workers, 2: the machine's cores), BENCH_ENTRANTS (1000), BENCH_ROUNDS
(played, 5). The API's per-address rate limit is raised for the run (every client here is
127.0.0.1; the limit's Redis count is still paid on each hit). It prints a table; it never
fails a build.
"""

from __future__ import annotations

import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from urllib.parse import urlsplit

from bench.__main__ import ROOT, SLUG, _redis_url, gunicorn, setup

# the temporary folders this run made (removed at exit; never another run's)
MADE: list[str] = []


def _build_ms(path: str, trials: int, cold: bool) -> float:
    """Median milliseconds of building ``path`` in this process with the page cache off;
    ``cold``: the rows' fragments are dropped first, as after a new snapshot."""
    from django.core.cache import cache
    from django.test import Client
    from django.test.utils import override_settings

    times = []
    with override_settings(ARBITER_PAGE_CACHE=False):
        client = Client()
        client.get(path)  # templates loaded and compiled, as in a warm worker
        for _ in range(trials):
            if cold:
                cache.clear()
            started = time.perf_counter()
            response = client.get(path)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code
    return statistics.median(times)


def _after_result_ms(path: str, round_number: int, trials: int) -> float:
    """Median milliseconds of the first build after one result of the round is saved (a
    new results version: the round's stored rows are reused but the saved match's)."""
    from unittest import mock

    from django.test import Client
    from django.test.utils import override_settings

    from tournaments.models import Match
    from tournaments.services import results

    pending = Match.objects.filter(
        round__event__slug=SLUG, round__number=round_number, result__isnull=True
    ).order_by("pk")[:trials]
    times = []
    with (
        override_settings(ARBITER_PAGE_CACHE=False),
        mock.patch("tournaments.services.standings.schedule_recompute"),
    ):
        client = Client()
        client.get(path)
        for match in pending:
            results.record(match, [{"scores": [40, 24]}], expected_version=match.version, by=None)
            started = time.perf_counter()
            response = client.get(path)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code
    return statistics.median(times) if times else float("nan")


def _load(url: str, seconds: float, headers: dict[str, str], connections: int = 16) -> float:
    """Requests per second of keep-alive clients sending ``headers``; 200 or 304 only."""
    parts = urlsplit(url)
    deadline = time.monotonic() + seconds
    counts = [0] * connections
    failures: list[str] = []

    def run(i: int) -> None:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        while time.monotonic() < deadline:
            conn.request("GET", parts.path, headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status not in (200, 304):
                failures.append(str(response.status))
                return
            counts[i] += 1
        conn.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(connections)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise RuntimeError(f"{url}: HTTP {failures[0]}")
    return sum(counts) / (time.monotonic() - started)


def _wrk(url: str, seconds: float, headers: dict[str, str]) -> float:
    import re

    args = ["wrk", "-t2", "-c16", f"-d{int(seconds)}s"]
    for name, value in headers.items():
        args += ["-H", f"{name}: {value}"]
    out = subprocess.run([*args, url], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def _rate(url: str, seconds: float, headers: dict[str, str]) -> float:
    import shutil

    if shutil.which("wrk"):
        return _wrk(url, seconds, headers)
    return _load(url, seconds, headers)


def _headers_of(url: str, headers: dict[str, str]) -> tuple[dict[str, str], int, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    conn.request("GET", parts.path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    found = {k.lower(): v for k, v in response.getheaders()}
    conn.close()
    return found, response.status, body


def _cpu_per_hit(page: str, api: str, hits: int = 2000) -> list[tuple[str, float]]:
    """Microseconds of CPU per cached hit in this process (django.test.Client: no socket,
    no client threads; the same for every line), interleaved in slices of 100: the cached
    page, the API's stored answer from the edge, and the same answer through django-ninja's
    routing (the edge off: how the API answered before), gzip and uncompressed. On a
    shared machine this is the figure to compare: it leaves out the queue."""
    from unittest import mock

    from django.test import Client

    from tournaments.api import middleware

    def routed(request: object) -> None:
        return None

    client = Client()
    gzip = {"Accept-Encoding": "gzip"}
    lines = [
        ("standings page, gzip", page, gzip, False),
        ("standings page, uncompressed", page, {}, False),
        ("API standings, gzip, from the edge", api, gzip, False),
        ("API standings, uncompressed, from the edge", api, {}, False),
        ("API standings, gzip, routed", api, gzip, True),
        ("API standings, uncompressed, routed", api, {}, True),
    ]
    spent = {name: 0.0 for name, *_ in lines}
    for _name, path, headers, route in lines:  # warm: stored, noted, templates loaded
        with mock.patch.object(middleware, "edge_answer", routed) if route else _nothing():
            assert client.get(path, headers=headers).status_code == 200
    for _ in range(hits // 100):
        for name, path, headers, route in lines:
            with mock.patch.object(middleware, "edge_answer", routed) if route else _nothing():
                started = time.process_time()
                for _ in range(100):
                    client.get(path, headers=headers)
                spent[name] += time.process_time() - started
    return [(name, spent[name] / hits * 1e6) for name, *_ in lines]


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def _fresh_database(url: str) -> None:
    """The PostgreSQL database named, dropped and made anew: the event's slug is fixed."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def main() -> None:
    seconds = float(os.environ.get("BENCH_SECONDS", "16"))
    workers = int(os.environ.get("BENCH_WORKERS", "2"))
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
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        # one client address for the whole load: the per-address limit would answer 429
        "ARBITER_RATE_API": os.environ.get("ARBITER_RATE_API", "100000000/m"),
    }
    os.environ.update(env)
    if env["DATABASE_URL"].startswith("postgres"):
        _fresh_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    print(f"Building a {entrants}-entrant event with {played} rounds played ...", flush=True)
    setup(entrants, played)
    standings, pairings = f"/e/{SLUG}/standings/", f"/e/{SLUG}/rounds/{played + 1}/"
    builds = [
        (name, _build_ms(path, 5, cold=True), _build_ms(path, 9, cold=False))
        for name, path in (("standings", standings), ("pairings", pairings))
    ]
    after_result = _after_result_ms(pairings, played + 1, 7)
    with gunicorn(env, workers) as base:
        bare = base + "/bench/bare"
        page = base + standings
        gzip = {"Accept-Encoding": "gzip"}
        _, _, plain = _headers_of(page, {})  # builds and stores the page
        first, _, packed = _headers_of(page, gzip)
        cookie = first.get("set-cookie", "").split(";")[0]
        again, _, _ = _headers_of(page, {**gzip, "Cookie": cookie})
        revalidate = {**gzip, "Cookie": cookie, "If-None-Match": again["etag"]}
        _, status, _ = _headers_of(page, revalidate)
        assert status == 304, status
        api = f"{base}/api/v1/events/{SLUG}/standings/"
        _headers_of(api, {})  # builds and stores the answer
        found, status, _ = _headers_of(api, gzip)
        assert status == 200 and found.get("x-page-cache") == "hit", (status, found)
        targets = [
            ("bare Django view (ceiling)", bare, {}),
            ("standings, cached, gzip", page, {**gzip, "Cookie": cookie}),
            ("standings, cached, uncompressed", page, {"Cookie": cookie}),
            ("standings, 304 (If-None-Match)", page, revalidate),
            ("API standings, cached, gzip", api, gzip),
            ("API standings, cached, uncompressed", api, {}),
        ]
        # Interleaved in short slices, so a neighbour's load on the shared machine falls on
        # every line alike rather than on whichever ran in that minute.
        slices = max(1, int(seconds // 2))
        done = {name: 0.0 for name, _, _ in targets}
        for _ in range(slices):
            for name, url, headers in targets:
                done[name] += _rate(url, seconds / slices, headers)
        rates = [(name, done[name] / slices) for name, _, _ in targets]
    load_before = os.getloadavg()[0]
    cpu = _cpu_per_hit(standings, f"/api/v1/events/{SLUG}/standings/")
    ceiling = rates[0][1]
    print()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, "
          f"gunicorn {workers} sync workers, database {env['DATABASE_URL'].split(':')[0]}, "
          f"Redis {'yes' if redis_url else 'no (local memory)'}")  # fmt: skip
    print(f"event: {entrants} entrants, {played} rounds played; standings page "
          f"{len(plain) // 1024} KiB, {len(packed) // 1024} KiB gzipped")  # fmt: skip
    print()
    print("| page      | first build of a version (ms) | later builds (ms) |")
    print("| --------- | ----------------------------: | ----------------: |")
    for name, cold, warm in builds:
        print(f"| {name:<9} | {cold:>29.0f} | {warm:>17.0f} |")
    print(f"pairings, first build after one result of the round: {after_result:.0f} ms "
          "(the round's other rows stored)")  # fmt: skip
    print()
    print("| what                                 | requests/s | share of bare view |")
    print("| ------------------------------------ | ---------: | -----------------: |")
    for name, rate in rates:
        print(f"| {name:<36} | {rate:>10.0f} | {rate / ceiling:>17.0%} |")
    print(f"(each line: {slices} slices of {seconds / slices:.0f} s, interleaved, averaged)")
    print()
    print()
    print(f"CPU per cached hit in this process (django.test.Client, load average "
          f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after):")  # fmt: skip
    for name, micros in cpu:
        print(f"  {name:<44} {micros:>6.0f} µs")
    print()
    done = dict(rates)
    for how in ("gzip", "uncompressed"):
        ratio = done[f"API standings, cached, {how}"] / done[f"standings, cached, {how}"]
        verdict = "met" if ratio >= 0.90 else f"missed by {0.90 - ratio:.2f}"
        print(f"API standings / standings page, cached, {how}: {ratio:.2f} "
              f"(goal >= 0.90: {verdict})")  # fmt: skip


if __name__ == "__main__":
    import shutil

    try:
        main()
    finally:
        # this run's own folder only: another bench may be running beside it
        for leftover in MADE:
            shutil.rmtree(leftover, ignore_errors=True)
