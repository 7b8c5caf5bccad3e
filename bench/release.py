"""A round release under a crowd (issue 30's goal: "a round release on a 1,000-entrant event
with 500 clients reading their own entrant page and the pairings through the API within
10 s: p95 < 200 ms, 0 errors").

    python -m bench.release                     (make bench-release)

Builds a 1,000-entrant Othello WOC event (tournaments/simulation.py: five rounds played
and closed), drafts the sixth round through the services (draft_next_round) and serves
the app on gunicorn (BENCH_WORKERS sync workers, 3: WEB_CONCURRENCY's default in
docs/operations.md) with a Celery worker, as production runs. The workers are warmed on
the fifth round's pages. Then it publishes the sixth round (publish_round: its commit, the
standings recompute and the live message as in production) and, from the moment the
publish has committed, BENCH_CLIENTS clients (500) each read their own entrant page
(/e/<slug>/entrants/<n>/) and the round's pairings through the API
(/api/v1/events/<slug>/rounds/6/), one after the other on new connections. Each client
starts at a random moment (seeded) within BENCH_SPREAD seconds (10) of the commit: the
players of a hall reloading after the announcement. Nothing of the new round is cached
when the first client asks (a fresh cache prefix per run; the round is new).

Prints p50, p95 and max per kind and overall, the errors, when the last answer came, the
gunicorn processes' CPU meanwhile (the work, apart from a shared machine's queue), the
Celery worker's (the release's standings, their outlook, the prerendered fragments: on the
same cores) and the clients' (this process's threads), the publish's own CPU, how the
page cache answered (miss, hit, stale), and the goal (p95 < 200 ms, 0 errors). The
clients are threads of this process on loopback (http.client), so they share the two
cores with the server: a real crowd's clients do not. The API's per-address limit is
raised for the run (every client is 127.0.0.1).

BENCH_DATABASE_URL (PostgreSQL; default arbiter_bench_release on the local server, made
anew each run), BENCH_KEEP=1 keeps and reuses the built event (the round a previous run
published is deleted and drafted again), REDIS_URL (default: database 14 of a local Redis),
BENCH_ENTRANTS (1000), BENCH_WORKER_LOG (the Celery worker's log level, WARNING: INFO shows
its standings, their outlook and the prerender, timed, on stderr). A benchmark never fails
a build.
"""

from __future__ import annotations

import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from unittest import mock

from bench.__main__ import ROOT, _redis_url, celery_worker, gunicorn
from bench.sse import _cpu

SLUG = "bench-release"
PLAYED = 5
GOAL_P95_MS = 200.0

# the temporary folders this run made (removed at exit; never another run's)
MADE: list[str] = []


def _prepare(entrants: int, keep: bool) -> tuple[object, object]:
    """The event with PLAYED rounds closed and the next one drafted (not published)."""
    import django

    django.setup()
    from tournaments import simulation
    from tournaments.models import Event, Round
    from tournaments.services import eventfile, rounds, standings

    with mock.patch("tournaments.services.standings.schedule_recompute"):
        event = Event.objects.filter(slug=SLUG).first() if keep else None
        if event is None:
            print(f"Building a {entrants}-entrant WOC event, {PLAYED} rounds played ...")
            played = simulation.simulate("woc", entrants, 30)
            state = simulation.cut(played, PLAYED, unfinished_share=1)
            data = simulation.to_event_file(state, slug=SLUG, name="Bench release (WOC)")
            event = eventfile.import_event(data, by=None)
            rounds.complete_round(event.rounds.get(number=PLAYED), by=None)
        else:
            print(f"Reusing '{SLUG}' (BENCH_KEEP) ...", flush=True)
            # bench only: the round a previous run released goes, so it can be released again
            Round.objects.filter(event=event, number__gt=PLAYED).delete()
        event.refresh_from_db()
        standings.refresh(event.pk, event.results_version)
        started = time.monotonic()
        drafted = rounds.draft_next_round(event, by=None)
        assert drafted.round is not None, drafted
        print(f"Round {drafted.round.number} drafted in {time.monotonic() - started:.1f} s.")
    event.refresh_from_db()
    return event, drafted.round


def _fetch(port: int, path: str) -> tuple[float, str, str]:
    """Milliseconds from the request to the whole body, on a new connection; the error;
    how the page cache answered (X-Page-Cache: miss, hit, stale)."""
    started = time.perf_counter()
    state = "?"
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = conn.getresponse()
        response.read()
        state = response.getheader("X-Page-Cache") or "?"
        conn.close()
        error = "" if response.status == 200 else f"HTTP {response.status}"
    except OSError as failure:
        error = f"{type(failure).__name__}: {failure}"
    return (time.perf_counter() - started) * 1000, error, state


def _served_by(port: int) -> list[int]:
    """The gunicorn processes (master and workers) listening on ``port``."""
    from pathlib import Path

    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if f"127.0.0.1:{port}".encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except (OSError, ValueError):
            continue
    return found


def _worker_of(queue: str) -> list[int]:
    """This run's Celery worker (its environment names this run's queue)."""
    from pathlib import Path

    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if b"celery" in (proc / "cmdline").read_bytes() and (
                f"CELERY_QUEUE={queue}".encode() in (proc / "environ").read_bytes()
            ):
                found.append(int(proc.name))
        except (OSError, ValueError):
            continue
    return found


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    from bench.load import _database
    from bench.pages import _fresh_database

    clients = int(os.environ.get("BENCH_CLIENTS", "500"))
    spread = float(os.environ.get("BENCH_SPREAD", "10"))
    workers = int(os.environ.get("BENCH_WORKERS", "3"))
    entrants = int(os.environ.get("BENCH_ENTRANTS", "1000"))
    keep = os.environ.get("BENCH_KEEP", "") not in ("", "0")
    var = tempfile.mkdtemp(prefix="arbiter-bench-")
    MADE.append(var)
    redis_url = _redis_url()
    tag = uuid.uuid4().hex[:8]
    database = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arbiter_bench_release"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "ARBITER_VAR_DIR": var,
        "DATABASE_URL": database,
        "REDIS_URL": redis_url,
        "ARBITER_CACHE_PREFIX": f"bench-{tag}",
        "CELERY_QUEUE": f"bench-{tag}",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        # every client here is 127.0.0.1; a hall's players have their own addresses
        "ARBITER_RATE_API": os.environ.get("ARBITER_RATE_API", "100000000/m"),
    }
    os.environ.update(env)
    if keep:
        _database(database)
    else:
        _fresh_database(database)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    event, drafted = _prepare(entrants, keep)
    from tournaments.models import Entrant
    from tournaments.services import rounds

    numbers = sorted(Entrant.objects.filter(event=event).values_list("number", flat=True))
    rng = random.Random(6)
    chosen = rng.sample(numbers, min(clients, len(numbers)))
    offsets = sorted(rng.uniform(0, spread) for _ in chosen)
    api_path = f"/api/v1/events/{SLUG}/rounds/{drafted.number}/"
    found: dict[str, list[float]] = {"entrant page": [], "API round": []}
    states: dict[str, dict[str, int]] = {kind: {} for kind in found}
    errors: list[str] = []
    finished: list[float] = []
    # (seconds after the commit the client started, milliseconds) of every request
    timed: list[tuple[float, float]] = []
    lock = threading.Lock()
    go = threading.Event()
    start: list[float] = []

    with gunicorn(env, workers) as base, celery_worker(env) if redis_url else _nothing():
        port = int(base.rsplit(":", 1)[1])
        # warm workers: templates compiled, connections open, as during the fifth round
        for n in numbers[: workers * 3]:
            _fetch(port, f"/e/{SLUG}/entrants/{n}/")
            _fetch(port, f"/api/v1/events/{SLUG}/rounds/{PLAYED}/")

        def client(number: int, offset: float) -> None:
            go.wait()
            time.sleep(max(0.0, start[0] + offset - time.monotonic()))
            for kind, path in (
                ("entrant page", f"/e/{SLUG}/entrants/{number}/"),
                ("API round", api_path),
            ):
                ms, error, state = _fetch(port, path)
                with lock:
                    found[kind].append(ms)
                    timed.append((offset, ms))
                    states[kind][state] = states[kind].get(state, 0) + 1
                    if error:
                        errors.append(f"{path}: {error}")
            with lock:
                finished.append(time.monotonic() - start[0])

        threads = [
            threading.Thread(target=client, args=(n, o), daemon=True)
            for n, o in zip(chosen, offsets, strict=True)
        ]
        for t in threads:
            t.start()
        load_before = os.getloadavg()
        servers = _served_by(port)
        tasks = _worker_of(env["CELERY_QUEUE"])
        cpu_before, worker_before = _cpu(servers), _cpu(tasks)
        published = time.monotonic()
        publish_cpu = time.process_time()
        rounds.publish_round(drafted, by=None)
        start.append(time.monotonic())  # the publish has committed (its on_commit hooks ran)
        clients_before = time.process_time()
        go.set()
        for t in threads:
            t.join(120)
        publish_s = start[0] - published
        publish_cpu = clients_before - publish_cpu
        load_after = os.getloadavg()
        cpu_used = _cpu(servers) - cpu_before
        worker_used = _cpu(tasks) - worker_before
        clients_used = time.process_time() - clients_before

    every = found["entrant page"] + found["API round"]
    print()
    print(f"machine: {os.cpu_count()} cores (shared), load average {load_before[0]:.2f} "
          f"before, {load_after[0]:.2f} after; gunicorn {workers} sync workers, PostgreSQL, "
          f"Redis {'yes, with a Celery worker' if redis_url else 'no'}")  # fmt: skip
    print(f"event: {entrants} entrants (WOC), round {drafted.number} released "
          f"(publish_round {publish_s * 1000:.0f} ms, {publish_cpu * 1000:.0f} ms of CPU); "
          f"{len(chosen)} clients starting within "
          f"{spread:.0f} s of the commit, each: its entrant page, then the API round")  # fmt: skip
    print()
    print("| what          | requests |   p50 ms |   p95 ms |   max ms |")
    print("| ------------- | -------: | -------: | -------: | -------: |")
    for kind, values in (*found.items(), ("all", every)):
        if values:
            print(f"| {kind:<13} | {len(values):>8} | {statistics.median(values):>8.0f} | "
                  f"{_percentile(values, 0.95):>8.0f} | {max(values):>8.0f} |")  # fmt: skip
    print()
    # the release's own cost shows in the first second: what was built, who waited for it
    for label, low, high in (("first second", 0.0, 1.0), ("the rest", 1.0, float("inf"))):
        window = [ms for started, ms in timed if low <= started < high]
        if window:
            print(f"clients starting in {label} after the commit: {len(window)} requests, "
                  f"p50 {statistics.median(window):.0f} ms, p95 "
                  f"{_percentile(window, 0.95):.0f} ms, max {max(window):.0f} ms")  # fmt: skip
    last = max(finished) if finished else float("nan")
    print(f"last client done {last:.1f} s after the commit; {len(finished)} of {len(chosen)} "
          f"clients done; errors: {len(errors)}")  # fmt: skip
    print(f"gunicorn CPU (user + system) from the publish to the last answer: {cpu_used:.1f} s "
          f"({cpu_used / max(1, len(every)) * 1000:.1f} ms a request); the Celery worker "
          f"{worker_used:.1f} s; the clients (this process) {clients_used:.1f} s")  # fmt: skip
    for kind, seen in states.items():
        print(f"{kind}, page cache answers: "
              + ", ".join(f"{n} {state}" for state, n in sorted(seen.items())))  # fmt: skip
    for line in errors[:5]:
        print(f"  {line}")
    _book_cost(event, drafted)
    p95 = _percentile(every, 0.95) if every else float("inf")
    met = p95 < GOAL_P95_MS and not errors and len(finished) == len(chosen)
    print(f"goal (p95 < {GOAL_P95_MS:.0f} ms, 0 errors): "
          + ("met" if met else f"missed (p95 {p95:.0f} ms, {len(errors)} errors)"))  # fmt: skip


def _book_cost(event: object, released: object) -> None:
    """CPU of the entrant book's matches part in this process (median of 3): built whole,
    as a visitor did after a release, and the released round alone, as the release's task
    adds it to the book of the version before (tournaments/views/release_warm.py)."""
    from tournaments import selectors
    from tournaments.views import entrant_book

    shown = selectors.public_rounds(event)  # type: ignore[arg-type]
    costs = []
    for rounds in (shown, [released]):
        times = []
        for _ in range(3):
            started = time.process_time()
            entrant_book.build_matches(event, rounds)  # type: ignore[arg-type]
            times.append((time.process_time() - started) * 1000)
        costs.append(statistics.median(times))
    print(f"entrant book's matches part, CPU in-process: whole ({len(shown)} rounds) "
          f"{costs[0]:.0f} ms; the released round alone {costs[1]:.0f} ms")  # fmt: skip


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


if __name__ == "__main__":
    import shutil

    try:
        main()
    finally:
        # this run's own folder only: another bench may be running beside it
        for leftover in MADE:
            shutil.rmtree(leftover, ignore_errors=True)
