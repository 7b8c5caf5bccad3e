"""The long fuzz run: the tests of tests/fuzz/ with 10,000 examples per entry point, then a
coverage-guided run (atheris) of the WOF parser and the event-file checker.

    python -m bench.fuzz [EXAMPLES] [--only imports|forms|http|atheris]

Needs DATABASE_URL (PostgreSQL, as in CI) like the tests. Prints one row per entry point:
inputs, refused, accepted, server errors (a failing example; the run stops at it and
hypothesis prints the smallest input), partial saves (a refused input that changed the
database: also a failing example) and the time. It never fails a build.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUPS = {
    "imports": ["tests/fuzz/test_fuzz_imports.py"],
    "forms": ["tests/fuzz/test_fuzz_forms.py", "-k", "not every_post_endpoint"],
    "http": ["tests/fuzz/test_fuzz_forms.py", "-k", "every_post_endpoint"],
}


def run_group(name: str, examples: int) -> list[tuple]:
    stats = Path(tempfile.mkstemp(prefix=f"fuzz-{name}-", suffix=".json")[1])
    env = {**os.environ, "FUZZ_EXAMPLES": str(examples), "FUZZ_STATS": str(stats)}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *GROUPS[name]],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    seconds = time.monotonic() - started
    failed = done.returncode != 0
    if failed:
        print(done.stdout[-6000:], file=sys.stderr)
    counts = json.loads(stats.read_text() or "{}") if stats.stat().st_size else {}
    stats.unlink()
    rows = []
    for entry, outcome in sorted(counts.items()):
        total = sum(outcome.values())
        refused = sum(v for k, v in outcome.items() if k == "refused")
        rows.append((entry, total, refused, total - refused, "failed" if failed else 0, seconds))
    return rows or [(name, 0, 0, 0, "failed" if failed else 0, seconds)]


def atheris_run(runs: int) -> list[tuple]:
    """Coverage-guided: atheris mutates bytes towards new branches of the two parsers."""
    script = ROOT / "bench" / "fuzz_atheris.py"
    rows = []
    for target in ("wof", "eventfile"):
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, str(script), target, f"-runs={runs}", "-max_len=4096"],
            cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        crashed = done.returncode != 0
        if crashed:
            print(done.stderr[-4000:], file=sys.stderr)
        rows.append((f"atheris {target}", runs, "-", "-", 1 if crashed else 0,
                     time.monotonic() - started))  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.fuzz",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("examples", nargs="?", type=int, default=10_000)
    parser.add_argument("--only", choices=[*GROUPS, "atheris"])
    args = parser.parse_args(argv)
    examples, only = args.examples, args.only
    rows = []
    for name in GROUPS:
        if only in (None, name):
            rows += run_group(name, examples)
    if only in (None, "atheris"):
        rows += atheris_run(examples)
    print(f"\n{examples} examples per entry point (HTTP: in all, spread over every POST URL)")
    print("| entry point | inputs | refused | accepted | server errors / partial saves | s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for entry, total, refused, accepted, errors, seconds in rows:
        print(f"| {entry} | {total} | {refused} | {accepted} | {errors} | {seconds:.0f} |")


if __name__ == "__main__":
    main()
