"""`make bench-reliability`: the goal table of docs/reliability.md at full size, each
figure asserted (unlike the other benchmarks, a miss fails: exit status 1).

    python -m bench.reliability [saves] [gokodom] [kills] [outage]    (all by default)

- saves: 10 directors x 100 saves into 20 shared matches over HTTP (gunicorn, 4 workers):
  0 lost, 0 silently overwritten; the negative control (bench/wsgi_last_write_wins.py)
  must show silent overwrites;
- gokodom: report and confirmation raced by both players of 16 GokoDom matches: 0 double
  confirmations, 0 lost reports, 0 confirmations of a report the player was not shown;
- kills: a worker killed with -9 three times in the middle of a recompute during 1,000
  recomputes: the published standings equal a clean computation;
- outage: Redis refused during 200 saves with gunicorn, a worker and beat running (the
  sweep at its production interval): all saves accepted, pages served, 0 stale events
  within 60 s of Redis returning.

Each runs on its own private Redis (bench/stack.py) against BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/arbiter_reliability, created and migrated if missing);
this process itself runs tasks eagerly. The same scenarios run small in CI
(tests/reliability).
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable

from bench.stack import ROOT, Stack, missing

SCENARIOS = ("saves", "gokodom", "kills", "outage")


def _machine() -> str:
    from bench.__main__ import _memory

    return f"{os.cpu_count()} cores, {_memory()}, Python {platform.python_version()}"


def _load() -> str:
    return "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def saves(database: str, tag: str) -> tuple[bool, list[str]]:
    from bench import proof_saves

    lines = ["| run | saves | landed | conflicts seen | errors | lost | silently overwritten "
             "| history rows | unexplained rows | time |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    found = {}
    with Stack(database) as stack:
        for name, wsgi in (
            ("version check (the app)", "config.wsgi:application"),
            ("negative control: check off", "bench.wsgi_last_write_wins:application"),
        ):
            base = stack.gunicorn(wsgi, workers=4)
            event, users = proof_saves.shared_round(f"{tag}-{len(found)}", 20, 10)
            attempts, seconds = proof_saves.run(base, event, users, saves=100)
            audit = found[name] = proof_saves.audit(event, attempts, seconds)
            lines.append(
                f"| {name} | {audit.attempts} | {audit.saved} | {audit.conflicts} | "
                f"{audit.errors} | {audit.lost} | {audit.silently_overwritten} | "
                f"{audit.history_rows} | {audit.unexplained_rows} | {seconds:.0f} s |"
            )
    checked, control = found.values()
    ok = checked.holds and checked.attempts == 1000 and not control.holds
    ok = ok and control.silently_overwritten > 0
    return ok, lines


def gokodom(database: str, tag: str) -> tuple[bool, list[str]]:
    from bench import proof_gokodom

    with Stack(database) as stack:
        base = stack.gunicorn(workers=4)
        event, duels = proof_gokodom.race_round(f"{tag}-race", matches=16)
        started = time.monotonic()
        proof_gokodom.run(base, event, duels)
        seconds = time.monotonic() - started
    race = proof_gokodom.audit(event, duels)
    lines = [
        "| matches | reports sent | acknowledged | refused | confirms acknowledged | double "
        "confirmations | lost reports | confirmed unseen | time |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {race.matches} | {sum(len(d.reports) for d in duels)} | "
        f"{race.reports_acknowledged} | {race.reports_refused} | "
        f"{race.confirmations_acknowledged} | {len(race.double_confirmations)} | "
        f"{len(race.lost_reports)} | {len(race.unseen_confirmations)} | {seconds:.0f} s |",
    ]
    lines += [f"- {problem}" for problem in race.errors + race.double_confirmations]
    lines += [f"- {problem}" for problem in race.lost_reports + race.unseen_confirmations]
    return race.holds and race.matches == 16, lines


def kills(database: str, tag: str) -> tuple[bool, list[str]]:
    from django.contrib.auth import get_user_model

    from bench import proof_broker

    owner = get_user_model().objects.create_user(f"{tag}-kills", password=None)
    event = proof_broker.open_round(f"{tag}-kills", players=12, by=owner)
    with Stack(database) as stack:
        found = proof_broker.worker_kills(stack, event, owner, saves=1000, kills=3)
    back = ", ".join(f"{s:.1f}" for s in found.back_after_kill)
    lines = [
        "| saves | recomputes published | kills -9 | of them mid-recompute | published again "
        "after each kill | published = clean | time |",
        "| ---: | ---: | ---: | ---: | --- | --- | ---: |",
        f"| {found.saves} | {found.recomputes} | {found.kills} | {found.killed_mid_recompute} "
        f"| {back} s | {'yes' if found.equal_to_clean else 'NO'} | {found.seconds:.0f} s |",
    ]
    ok = found.kills == 3 and found.killed_mid_recompute == 3 and found.equal_to_clean
    return ok and found.recomputes >= 1000 - found.kills, lines


def outage(database: str, tag: str) -> tuple[bool, list[str]]:
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from bench import proof_broker

    owner = get_user_model().objects.create_user(f"{tag}-outage", password=None)
    events = [proof_broker.open_round(f"{tag}-outage-{i}", players=12, by=owner) for i in range(4)]
    wait = 60
    with Stack(database) as stack:
        base = stack.gunicorn(workers=4)
        stack.worker()
        stack.beat()  # the sweep every ARBITER_SWEEP_SECONDS, as deployed
        found = proof_broker.redis_outage(stack, base, events, owner, saves=200, wait=wait)
    to_current = "-" if found.seconds_to_current is None else f"{found.seconds_to_current:.1f} s"
    lines = [
        "| saves with Redis down | accepted | save median / max | pages served | outage | "
        "events stale as Redis returned | 0 stale after | stale at 60 s | published = clean |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        f"| {found.saves} | {found.saves_accepted} | {found.save_ms_median:.0f} / "
        f"{found.save_ms_max:.0f} ms | {found.pages_served} of {found.pages} | "
        f"{found.outage_seconds:.0f} s | {found.stale_when_back} of {len(events)} | "
        f"{to_current} | {found.stale_at_deadline} | "
        f"{'yes' if found.equal_to_clean else 'NO'} |",
        f"(beat sends the sweep every "
        f"{settings.CELERY_BEAT_SCHEDULE['sweep-standings']['schedule']:.0f} s)",
    ]
    lines += [f"- {failure}" for failure in found.failures]
    ok = not found.failures and found.saves_accepted == 200 and found.stale_at_deadline == 0
    return ok and found.equal_to_clean and found.servers_alive, lines


RUNS: dict[str, Callable[[str, str], tuple[bool, list[str]]]] = {
    "saves": saves,
    "gokodom": gokodom,
    "kills": kills,
    "outage": outage,
}


def main() -> int:
    chosen = [name for name in sys.argv[1:] if name in RUNS] or list(SCENARIOS)
    database = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arbiter_reliability"
    )
    lacking = missing() + ([] if database.startswith("postgres") else ["PostgreSQL"])
    if lacking:
        print("bench-reliability needs " + ", ".join(lacking))
        return 2
    var = tempfile.mkdtemp(prefix="arbiter-reliability-")
    os.environ.pop("REDIS_URL", None)  # this process: eager tasks; the servers: their Redis
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=database, ARBITER_VAR_DIR=var
    )
    try:
        return _run(chosen, database)
    finally:
        shutil.rmtree(var, ignore_errors=True)


def _run(chosen: list[str], database: str) -> int:
    from bench.load import _database

    _database(database)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    import django

    django.setup()
    tag = f"r{uuid.uuid4().hex[:6]}"
    print(f"machine: {_machine()}; PostgreSQL at {database.split('@')[-1]}")
    print(f"command: python -m bench.reliability {' '.join(chosen)}")
    failed = []
    for name in chosen:
        before = _load()
        print(f"\n## {name} (load average before: {before})", flush=True)
        started = time.monotonic()
        ok, lines = RUNS[name](database, tag)
        print("\n".join(lines))
        print(
            f"{'PASS' if ok else 'FAIL'} in {time.monotonic() - started:.0f} s "
            f"(load average after: {_load()})",
            flush=True,
        )
        if not ok:
            failed.append(name)
    print(f"\n{'all goals met' if not failed else 'FAILED: ' + ', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
