"""The slow marker: a bare `pytest tests/rules` deselects the brute-force checks, `make test`
(and so CI, through .ci/run) runs them, and nothing is skipped either way."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# a file with both kinds: four brute-force checks marked slow, the rest fast
SAMPLE = "tests/rules/test_contention_swiss.py"
QUIET = ("-p", "no:django", "-p", "no:cacheprovider", "--collect-only", "-q")


def _collect(*args: str, slow_env: str | None = None) -> tuple[int, int]:
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_SLOW"}
    if slow_env is not None:
        env["ARBITER_SLOW"] = slow_env
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *QUIET, SAMPLE, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    collected = len([line for line in done.stdout.splitlines() if "::" in line])
    found = re.search(r"(\d+) deselected", done.stdout)
    return collected, int(found.group(1)) if found else 0


def test_slow_tests_are_deselected_by_default_and_run_when_asked():
    fast, deselected = _collect()
    assert deselected == 4
    assert fast >= 1
    assert _collect(slow_env="1") == (fast + 4, 0)


class _Config:
    """What conftest's switch reads of pytest's config: the --run-slow option."""

    def __init__(self, run_slow: bool) -> None:
        self.run_slow = run_slow

    def getoption(self, name: str) -> bool:
        assert name == "--run-slow"
        return self.run_slow


def test_the_option_or_arbiter_slow_1_and_nothing_else_asks_for_them(monkeypatch):
    # the switch the collections above go through, for the cases not collected twice more
    from tests.conftest import _run_slow

    monkeypatch.delenv("ARBITER_SLOW", raising=False)
    assert _run_slow(_Config(True)) and not _run_slow(_Config(False))
    monkeypatch.setenv("ARBITER_SLOW", "0")
    assert not _run_slow(_Config(False))
    assert _run_slow(_Config(True))
    monkeypatch.setenv("ARBITER_SLOW", "1")
    assert _run_slow(_Config(False))


def test_make_test_and_so_ci_run_the_slow_tests():
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^test:.*\n\t(.*)$", makefile, re.M)
    assert recipe and "--run-slow" in recipe.group(1).split()
    assert re.search(r"^make test$", (ROOT / ".ci" / "run").read_text(), re.M)
