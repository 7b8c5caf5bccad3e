"""`make bench-wof`: `import_event --check` over the WOF archive sample (302 files) and the raw
FlipTheDisc exports of ../shared/data/real, timed: files read, refused and with differences,
wall and processor seconds. The goal (issue 22): the sample in under 20 s on this machine.

Runs the command as a director would, in a child process, against BENCH_DATABASE_URL (default:
a fresh, migrated SQLite file: the check only asks whether a web address is free). It prints a
table; it never fails a build.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "data" / "real"
GOAL_SECONDS = 20.0
RUNS = [("wof", REAL / "wof-archive-sample"), ("ftd", REAL / "raw")]


def _manage(env: dict[str, str], *args: str) -> tuple[str, float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, wall, cpu


def main() -> None:
    if not REAL.is_dir():
        print(f"{REAL} is not here: nothing to time (the real data lives beside the project).")
        return
    env = dict(os.environ)
    folder = tempfile.mkdtemp(prefix="bench-wof-")
    if not env.get("BENCH_DATABASE_URL"):
        env["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        _manage(env, "migrate", "-v", "0")
    else:
        env["DATABASE_URL"] = env["BENCH_DATABASE_URL"]
    print(
        f"{'source':<6} {'files':>5} {'read':>5} {'refused':>7} {'differ':>6} "
        f"{'wall s':>7} {'cpu s':>6}  goal"
    )
    for source, path in RUNS:
        out, wall, cpu = _manage(env, "import_event", "--from", source, "--check", str(path))
        summary = out.strip().splitlines()[-1]
        found = re.match(r"(\d+) files: (\d+) read, (\d+) refused, (\d+) with differences", summary)
        files, read, refused, differ = found.groups() if found else ("?",) * 4
        goal = f"under {GOAL_SECONDS:.0f} s: {'met' if wall < GOAL_SECONDS else 'MISSED'}"
        print(
            f"{source:<6} {files:>5} {read:>5} {refused:>7} {differ:>6} "
            f"{wall:>7.1f} {cpu:>6.1f}  {goal if source == 'wof' else ''}"
        )


if __name__ == "__main__":
    main()
