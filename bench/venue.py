"""Venue mode's goals (issue 31): the publishing latency from a save at the venue to the
public standings (p95 < 3 s on a live link), and the pusher's memory and CPU over a
simulated 10-hour day (flat).

    python -m bench.venue                       (make bench-venue)

Two Arbiter instances as real processes (tests/venue/harness.py): the venue as `make run`
serves it (runserver, no Redis, eager tasks) and the public one on gunicorn (Redis when
REDIS_URL is set), each on a PostgreSQL database made for the run and dropped after it,
with the loopback proxy of tests/venue/proxy.py between them (open: a live link).

1. Latency. A round robin of BENCH_VENUE_PLAYERS entrants (46: 23 matches a round) is
   linked to its public copy, its pusher the thread of the venue's web process (the
   `make run` default). BENCH_VENUE_SAVES results (40) are saved at the desk over HTTP, one
   every BENCH_VENUE_EVERY seconds (1.5: a busy desk). Each is timed from the answer to
   the save (its commit is done) to the moment the public API's standings
   (/api/v1/events/<slug>/standings/: every table's rank and points) equal the venue's
   own, polled every 0.1 s.
2. Catch-up. On the same event, the link is cut (refused) for each of BENCH_VENUE_OUTAGES
   seconds (3,10,30) while the desk goes on saving one result every BENCH_VENUE_EVERY s;
   then restored, and timed until the public copy's event file equals the venue's (the
   issue's "within 5 s of the link's return").
3. The day. A second event with the pusher as its own process (ARBITER_MIRROR_PUSHER=
   command: `manage.py push_mirror`), so that its memory and CPU are the pusher's alone.
   A desk process (tests/venue/enter_results.py) saves BENCH_VENUE_DAY_RESULTS results
   (400) through the services, paced so that the day lasts 10 h / BENCH_VENUE_COMPRESSION
   (120: 5 minutes); the link is cut for a simulated 20 minutes three times. The pusher's
   RSS and CPU time are read from /proc every simulated 15 minutes; the slope of each
   against simulated hours is printed (least squares), with the first and last hour's CPU,
   and per hour the RSS split into anonymous (heaps, arenas) and file-backed (the
   program's and libraries' pages) from /proc/<pid>/smaps_rollup.
   The desk saves as fast as it can when its saves are slower than the pace: the day's
   real length and so its true compression are printed.

BENCH_VENUE_PARTS (1,2,3) runs some parts only (2 needs 1); BENCH_VENUE_PUSHER_DEBUG (1, as
under `make run`) is the day's pusher's DJANGO_DEBUG; BENCH_VENUE_PUSHER_PROBE=1 has the
pusher log its memory probe after each batch of pushes (ARBITER_PUSHER_PROBE: gc, pymalloc,
glibc's heap; it costs the pusher memory and time, so not for the figures);
BENCH_VENUE_SEED (31) seeds the results. PostgreSQL from BENCH_DATABASE_URL or DATABASE_URL
(its server: the databases are made there); Redis from REDIS_URL (optional, the public
instance's cache). A benchmark never fails a build.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GOAL_P95 = 3.0  # s
DAY_HOURS = 10.0
_TICKS = os.sysconf("SC_CLK_TCK")


def _setup_django() -> None:
    database = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if not database or not database.startswith("postgres"):
        sys.exit("bench.venue needs PostgreSQL: BENCH_DATABASE_URL or DATABASE_URL")
    os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def standings_of(client: Any, slug: str) -> list[Any]:
    """Each standings table's rows as (rank, entrant number, points): what a player reads."""
    answer = client.get(f"/api/v1/events/{slug}/standings/")
    if answer.status != 200:
        return []
    return [
        (table["key"], [(r["rank"], r["entrant"]["number"], r["points"]) for r in table["rows"]])
        for table in answer.json()["tables"]
    ]


def latency(mirrored: Any, pair: Any, saves: int, every: float, seed: int) -> list[float]:
    from tests.venue import desk

    rng = random.Random(seed)
    reader = pair.public.client()
    venue_reader = pair.venue.client()
    timings: list[float] = []
    # the first round published and pushed before the clock starts
    number = desk.draft_and_publish(mirrored.venue, mirrored.slug)
    desk.wait_until_equal(mirrored, 120)
    while len(timings) < saves:
        matches = desk.open_matches(mirrored.venue, mirrored.slug, number)
        if not matches:
            desk.close_round(mirrored.venue, mirrored.slug, number)
            number = desk.draft_and_publish(mirrored.venue, mirrored.slug)
            desk.wait_until_equal(mirrored, 120)
            continue
        match_id, version = matches[0]
        answer = desk.save_result(
            mirrored.venue, mirrored.slug, match_id, version, rng.choice(((1, 0), (0, 1)))
        )
        saved = time.monotonic()
        assert answer.status == 200, answer
        expected = standings_of(venue_reader, mirrored.slug)
        while standings_of(reader, mirrored.slug) != expected:
            if time.monotonic() - saved > 120:
                raise AssertionError("the public standings never showed the save")
            time.sleep(0.1)
        timings.append(time.monotonic() - saved)
        print(f"  save {len(timings):3d}: public standings after {timings[-1]:.2f} s", flush=True)
        time.sleep(max(0.0, every - (time.monotonic() - saved)))
    return timings


def catch_up(pair: Any, mirrored: Any, outages: list[float], every: float, seed: int) -> list[Any]:
    """For each outage: the link cut (refused) for that many seconds while the desk saves a
    result every ``every`` s, then restored; the seconds until the public copy's event file
    equals the venue's (issue 31: within 5 s of the link's return)."""
    from tests.venue import desk

    rng = random.Random(seed)
    found = []
    for seconds in outages:
        number = max(r["number"] for r in desk.event_file(mirrored.venue, mirrored.slug)["rounds"])
        if not desk.open_matches(mirrored.venue, mirrored.slug, number):
            desk.close_round(mirrored.venue, mirrored.slug, number)
            number = desk.draft_and_publish(mirrored.venue, mirrored.slug)
        desk.wait_until_equal(mirrored, 120)
        pair.link.cut()
        down = time.monotonic()
        saved = 0
        while time.monotonic() - down < seconds:
            open_now = desk.open_matches(mirrored.venue, mirrored.slug, number)
            if open_now:
                match_id, version = open_now[0]
                scores = rng.choice(((1, 0), (0, 1)))
                desk.save_result(mirrored.venue, mirrored.slug, match_id, version, scores)
                saved += 1
            time.sleep(max(0.0, min(every, seconds - (time.monotonic() - down))))
        pair.link.restore()
        venue_file = desk.event_file(mirrored.venue, mirrored.slug)
        took, _file = desk.wait_until_equal(mirrored, 300, venue_file)
        found.append((seconds, saved, took))
        print(f"  cut {seconds:.0f} s, {saved} saved meanwhile: equal {took:.2f} s after the "
              "return", flush=True)  # fmt: skip
    return found


def _proc(pid: int) -> tuple[float, float]:
    """(RSS in MiB, CPU seconds: user + system) of a process, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / _TICKS
    return rss / 1024, cpu


def _split(pid: int) -> tuple[float, float]:
    """(anonymous RSS, file-backed RSS) of a process in MiB, from /proc/<pid>/smaps_rollup:
    the heaps and arenas against the pages of the program, its libraries and mapped files."""
    found: dict[str, int] = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            name, _sep, rest = line.partition(":")
            if name in ("Rss", "Anonymous", "Shmem"):
                found[name] = int(rest.split()[0])
    anon = found.get("Anonymous", 0)
    return anon / 1024, (found.get("Rss", 0) - anon - found.get("Shmem", 0)) / 1024


def _probed(log: Path) -> str:
    """The pusher's last memory probe (ARBITER_PUSHER_PROBE=1: tournaments/services/mirror/
    memory.py) in short: glibc's heap in use / free, pymalloc's arenas, gc objects, modules."""
    last = b""
    with log.open("rb") as lines:
        for line in lines:
            if b"pusher memory: " in line:
                last = line
    if not last:
        return ""
    found = json.loads(last.split(b"pusher memory: ", 1)[1])
    heap, arenas, kept = found.get("malloc", {}), found.get("pymalloc", {}), found["caches"]
    used = arenas.get("allocated_kib", 0) / 1024
    spare = (arenas.get("available_kib", 0) + arenas.get("free_pools_kib", 0)) / 1024
    said = (
        f"heap {heap.get('arena', 0) // 1024}+{heap.get('hblkhd', 0) // 1024} MiB: "
        f"used {heap.get('uordblks', 0) / 1024:.1f} free {heap.get('fordblks', 0) / 1024:.1f}; "
        f"pymalloc {arenas.get('arenas', 0)} arenas (used {used:.1f} free {spare:.1f}); "
        f"{found['gc_objects']} objects, {found['blocks']} blocks, {kept['modules']} modules, "
        f"full collections {found['gc_runs'][2][0]}, psycopg SQL kept {kept.get('psycopg_sql')}"
    )
    if "traced_kib" in found:
        said += f", traced {found['traced_kib'] / 1024:.1f} MiB"
    return said


def slope(xs: list[float], ys: list[float]) -> float:
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread


def _slope_of(xs: list[float], ys: list[float], keep: list[int]) -> float:
    if len(keep) < 2:
        return float("nan")
    return slope([xs[i] for i in keep], [ys[i] for i in keep])


def _pushes(log: Path) -> tuple[int, int]:
    """Pushes the pusher made so far, and of them those of the whole file: the line it
    logs for each push sent."""
    made = whole = 0
    with log.open("rb") as lines:
        for line in lines:
            if b"mirror push of event" in line and b"versions" in line:
                made += 1
                whole += b"the whole file" in line
    return made, whole


def _per_hour(
    hours: list[float],
    sent: list[tuple[int, int, int]],
    rss: list[float],
    cpu: list[float],
    split: list[tuple[float, float, str]],
) -> list[tuple[int, int, int, int, float, float, float, float, str]]:
    """(simulated hour, pushes, of them whole files, KiB sent, RSS MiB at the hour's end,
    CPU s in the hour, anonymous and file-backed RSS MiB at the hour's end, the pusher's
    last memory probe) for each hour of the day, from the samples' running counts (bytes:
    all the venue sent to the public copy, probes included)."""
    rows = []
    for hour in range(int(DAY_HOURS)):
        inside = [i for i, h in enumerate(hours) if hour <= h < hour + 1]
        if not inside:
            continue
        first, last = inside[0], min(inside[-1] + 1, len(sent) - 1)
        end = min(last, len(rss) - 1)
        rows.append(
            (
                hour + 1,
                sent[last][0] - sent[first][0],
                sent[last][1] - sent[first][1],
                (sent[last][2] - sent[first][2]) // 1024,
                rss[end],
                cpu[end] - cpu[first],
                *split[end],
            )
        )
    return rows


def day(pair: Any, players: int, results: int, compression: float, seed: int) -> dict[str, Any]:
    from tests.venue import desk

    slug = "bench-day"
    # the venue's web process pushes no more (its thread would push every due event):
    # the pusher process alone does, so what it uses is the pushing's cost
    pair.venue.crash()
    pair.venue.env["ARBITER_MIRROR_PUSHER"] = "command"
    pair.venue.start()
    desk.make_event(pair.venue, slug, players)
    desk.make_event(pair.public, slug, 0)
    token = desk.mirror_token(pair.public.director(), slug)
    desk.link_venue(pair.venue, slug, pair.link.url, token)
    real_day = DAY_HOURS * 3600 / compression
    pause = real_day / results
    probe = os.environ.get("BENCH_VENUE_PUSHER_PROBE", "0")
    pusher = pair.venue.spawn(
        "pusher", [sys.executable, "manage.py", "push_mirror", slug],
        ARBITER_MIRROR_PUSHER="command",
        DJANGO_DEBUG=os.environ.get("BENCH_VENUE_PUSHER_DEBUG", "1"),
        ARBITER_PUSHER_PROBE=probe,
    )  # fmt: skip
    time.sleep(2)
    started = time.monotonic()
    entering = pair.venue.spawn(
        "desk-day",
        [sys.executable, "-m", "tests.venue.enter_results", slug, str(results), str(seed),
         str(pause)],
        ARBITER_MIRROR_PUSHER="command",
    )  # fmt: skip
    every = 0.25 * 3600 / compression  # a sample every simulated 15 minutes
    cut_for = (20 / 60) * 3600 / compression  # a simulated 20 minutes
    cuts_at = {round(real_day * share / every) for share in (0.2, 0.5, 0.8)}
    samples: list[tuple[float, float, float]] = []  # simulated hours, RSS MiB, CPU s
    split: list[tuple[float, float, str]] = []  # anonymous, file-backed RSS MiB, last probe
    # pushes made so far, of them the whole file, bytes the venue sent so far
    sent: list[tuple[int, int, int]] = []
    tick = 0
    while entering.alive:
        rss, cpu = _proc(pusher.popen.pid)
        samples.append(((time.monotonic() - started) * compression / 3600, rss, cpu))
        split.append((*_split(pusher.popen.pid), _probed(pusher.log)))
        if probe == "1" and split[-1][2]:  # its handler is set (a first probe logged):
            os.kill(pusher.popen.pid, signal.SIGUSR1)  # a probe now, read at the next sample
        sent.append((*_pushes(pusher.log), pair.link.bytes_up))
        if tick in cuts_at:
            pair.link.cut()
            time.sleep(cut_for)
            pair.link.restore()
        tick += 1
        time.sleep(max(0.0, started + tick * every - time.monotonic()))
    real = time.monotonic() - started
    sent.append((*_pushes(pusher.log), pair.link.bytes_up))
    mirrored = desk.Mirrored(slug, pair.venue.director(), pair.public.director(), token)
    caught_up, file = desk.wait_until_equal(mirrored, 120)
    hours = [s[0] * (real_day / real) for s in samples]  # rescaled to the day's 10 hours
    rss = [s[1] for s in samples]
    cpu = [s[2] for s in samples]
    # the first hour holds the warm-up (imports, the first exports): flat is judged after it
    settled = [i for i, h in enumerate(hours) if h >= 1.0]
    second = [c for h, c in zip(hours, cpu, strict=True) if 1.0 <= h <= 2.0]
    last = [c for h, c in zip(hours, cpu, strict=True) if h >= DAY_HOURS - 1.0]
    return {
        "results": desk.results_in(file),
        "real_seconds": real,
        "compression": DAY_HOURS * 3600 / real,
        "samples": len(samples),
        "rss_start": rss[0],
        "rss_end": rss[-1],
        "rss_max": max(rss),
        "rss_after_first_hour": rss[settled[0]] if settled else float("nan"),
        "rss_slope": _slope_of(hours, rss, settled),
        "rss_slope_late": _slope_of(hours, rss, settled[len(settled) // 2 :]),
        "cpu_total": cpu[-1] - cpu[0],
        "cpu_slope": _slope_of(hours, cpu, settled),
        "cpu_second_hour": (second[-1] - second[0]) if len(second) > 1 else float("nan"),
        "cpu_last_hour": (last[-1] - last[0]) if len(last) > 1 else float("nan"),
        "caught_up": caught_up,
        "per_hour": _per_hour(hours, sent, rss, cpu, split),
        "anon_start": split[0][0],
        "file_start": split[0][1],
        "file_kib": len(json.dumps(file)) / 1024,
    }


def main() -> None:
    _setup_django()
    from tests.venue.harness import Pair

    players = int(os.environ.get("BENCH_VENUE_PLAYERS", "46"))
    saves = int(os.environ.get("BENCH_VENUE_SAVES", "40"))
    every = float(os.environ.get("BENCH_VENUE_EVERY", "1.5"))
    day_results = int(os.environ.get("BENCH_VENUE_DAY_RESULTS", "400"))
    compression = float(os.environ.get("BENCH_VENUE_COMPRESSION", "120"))
    seed = int(os.environ.get("BENCH_VENUE_SEED", "31"))
    load = os.getloadavg()
    print(f"bench.venue: load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the start")
    workdir = Path(tempfile.mkdtemp(prefix="arbiter-bench-venue-"))
    parts = os.environ.get("BENCH_VENUE_PARTS", "1,2,3").split(",")
    with Pair.start(workdir) as pair:
        if "1" in parts:
            part_one_two(pair, players, saves, every, seed, parts)
        if "3" in parts:
            part_three(pair, players, day_results, compression, seed)
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the end (a shared machine)")


def part_one_two(
    pair: Any, players: int, saves: int, every: float, seed: int, parts: list[str]
) -> None:
    print(f"1. save at the venue -> public standings: {saves} saves, one every {every} s, "
          f"{players}-entrant round robin, pusher: the runserver's thread")  # fmt: skip
    from tests.venue import desk

    mirrored = desk.mirrored_event(pair, "bench-latency", players)
    timings = sorted(latency(mirrored, pair, saves, every, seed))
    p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
    print(
        f"   p50 {statistics.median(timings):.2f} s, p95 {p95:.2f} s, max {timings[-1]:.2f} s"
        f" -> goal p95 < {GOAL_P95:.0f} s: {'met' if p95 < GOAL_P95 else 'NOT met'}"
    )
    if "2" not in parts:
        return
    outages = [float(x) for x in os.environ.get("BENCH_VENUE_OUTAGES", "3,10,30").split(",")]
    spans = ", ".join(f"{o:.0f}" for o in outages)
    print(
        f"2. the link cut for {spans} s while the desk saves one result every {every} s, "
        "then restored (goal: equal within 5 s)"
    )
    back = catch_up(pair, mirrored, outages, every, seed)
    print("   " + "; ".join(
        f"{o:.0f} s cut: {t:.2f} s ({'met' if t <= 5 else 'NOT met'})" for o, _n, t in back
    ))  # fmt: skip


def part_three(pair: Any, players: int, day_results: int, compression: float, seed: int) -> None:
    print(
        f"3. a {DAY_HOURS:.0f}-hour day compressed x{compression:.0f}: {day_results} results,"
        " three cuts of a simulated 20 minutes, pusher: manage.py push_mirror"
    )
    found = day(pair, players, day_results, compression, seed)
    print(
        f"   {found['results']} results published, the copy equal "
        f"{found['caught_up']:.1f} s after the desk's last save; the day took "
        f"{found['real_seconds']:.0f} s (true compression x{found['compression']:.0f}); "
        f"event file {found['file_kib']:.0f} KiB at the end"
    )
    print(
        f"   pusher RSS: {found['rss_start']:.1f} MiB at the start, "
        f"{found['rss_after_first_hour']:.1f} after the first hour, {found['rss_end']:.1f} "
        f"at the end, {found['rss_max']:.1f} at most; slope from hour 1 on "
        f"{found['rss_slope']:+.2f} MiB per simulated hour, over the day's second half "
        f"{found['rss_slope_late']:+.2f} ({found['samples']} samples)"
    )
    print(
        f"   pusher CPU: {found['cpu_total']:.1f} s in all; from hour 1 on "
        f"{found['cpu_slope']:.2f} CPU s per simulated hour; hour 2 "
        f"{found['cpu_second_hour']:.2f} s, the last hour {found['cpu_last_hour']:.2f} s"
    )
    print(
        f"   at the start: anonymous {found['anon_start']:.1f} MiB, file-backed "
        f"{found['file_start']:.1f} MiB (/proc/<pid>/smaps_rollup)"
    )
    print(
        "   hour | pushes | whole files | KiB sent | pusher RSS MiB at its end | CPU s in it"
        " | anonymous | file-backed"
    )
    probes = []
    for hour, made, whole, kib, rss, cpu, anon, mapped, probed in found["per_hour"]:
        print(f"   {hour:4d} | {made:6d} | {whole:11d} | {kib:8d} | {rss:25.1f} | {cpu:11.2f}"
              f" | {anon:9.1f} | {mapped:11.1f}")  # fmt: skip
        if probed:
            probes.append(f"   h{hour}: {probed}")
    if probes:
        print("   the pusher's memory probe at each hour's end (ARBITER_PUSHER_PROBE=1):")
        print("\n".join(probes))


if __name__ == "__main__":
    main()
