"""Issue 30 step 1: "Tested by schemathesis against the running app (every operation, every
documented status; 0 failures)". The demo events are built, the app is served by Django's
live server, and schemathesis's command line runs every check over every operation of the
generated schema, its examples, coverage, fuzzing and stateful phases, bounded in examples
and time."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.demo import DEMO_BUILDERS

pytestmark = pytest.mark.django_db(transaction=True)

ST = Path(sys.executable).with_name("st")


def test_schemathesis_finds_no_failure_in_any_operation(
    live_server, director, settings, django_capture_on_commit_callbacks, tmp_path
):
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "api": "1000000/m"}
    with django_capture_on_commit_callbacks(execute=True):
        for slug, build in DEMO_BUILDERS.items():
            build(director=director, rng=random.Random(slug))
    run = subprocess.run(
        [
            str(ST),
            "run",
            f"{live_server.url}/api/v1/schema/",
            "--checks",
            "all",
            "--max-examples",
            "15",
            "--workers",
            "1",
            "--generation-deterministic",
            "--request-timeout",
            "20",
            "--no-color",
        ],
        cwd=tmp_path,  # schemathesis keeps a cache folder where it runs
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-6000:]
    assert "15 selected / 15 total" in report
    assert "No issues found" in report
