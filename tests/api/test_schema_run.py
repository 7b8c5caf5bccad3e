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

from tournaments import demo_entries, demo_series
from tournaments.api.export import SCOPE
from tournaments.demo import DEMO_BUILDERS
from tournaments.models import Event
from tournaments.services import api_tokens

pytestmark = pytest.mark.django_db(transaction=True)

ST = Path(sys.executable).with_name("st")


def test_schemathesis_finds_no_failure_in_any_operation(
    live_server, director, settings, django_capture_on_commit_callbacks, tmp_path
):
    settings.ARBITER_RATE_LIMITS = {
        **settings.ARBITER_RATE_LIMITS,
        "api": "1000000/m",
        "api_bad_token": "1000000/m",  # the checks send wrong tokens on purpose
    }
    with django_capture_on_commit_callbacks(execute=True):
        for slug, build in DEMO_BUILDERS.items():
            build(director=director, rng=random.Random(slug))
        demo_series.build(director=director)  # the series operations' example
        demo_entries.build(director=director)  # the entries operation's example
    # the export's token, for the event the schema's examples name: its 200 is checked too,
    # and schemathesis's own checks send none or a wrong one (the documented 401)
    example = Event.objects.get(slug="demo-round-robin")
    _row, secret = api_tokens.create(example, name="schemathesis", scopes=[SCOPE], by=director)
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
            "--header",
            f"Authorization: Bearer {secret}",
        ],
        cwd=tmp_path,  # schemathesis keeps a cache folder where it runs
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-6000:]
    assert "19 selected / 19 total" in report
    assert "No issues found" in report
