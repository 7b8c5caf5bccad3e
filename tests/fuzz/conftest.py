"""Shared pieces of the fuzz tests: example budgets, a database digest, input statistics.

CI runs a few examples per entry point (FUZZ_EXAMPLES, default below); bench/fuzz.py runs
the same tests with FUZZ_EXAMPLES=10000 and FUZZ_STATS=<file> to record what was tried.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

import pytest
from django.apps import apps
from django.db import connection
from hypothesis import HealthCheck, settings

DEFAULT_EXAMPLES = 25  # per entry point in CI: the whole package stays well under a minute


def examples(ci: int = DEFAULT_EXAMPLES) -> int:
    """The example budget of one entry point: ``ci`` unless FUZZ_EXAMPLES says otherwise."""
    return int(os.environ.get("FUZZ_EXAMPLES", ci))


def fuzz_settings(ci: int = DEFAULT_EXAMPLES) -> settings:
    return settings(
        max_examples=examples(ci),
        deadline=None,
        derandomize=os.environ.get("FUZZ_EXAMPLES") is None,  # CI: the same inputs each run
        database=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


APPS = ("tournaments", "accounts", "auth")


def _tables() -> list[str]:
    names = []
    for label in APPS:
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            if not model._meta.proxy and model._meta.managed:
                names.append(model._meta.db_table)
    return sorted(set(names))


def digest() -> tuple:
    """A hash of every row of each of the project's tables (name, rows, hash): equal
    digests, unchanged database; when they differ the assertion shows which table moved."""
    tables = _tables()
    if connection.vendor == "postgresql":
        parts = " UNION ALL ".join(
            f"SELECT '{t}', count(*), md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), ''))"
            f' FROM "{t}" x'
            for t in tables
        )
        with connection.cursor() as cursor:
            cursor.execute(parts)
            # UNION ALL keeps no order: under load PostgreSQL gave the tables in another one
            rows = sorted(cursor.fetchall())
    else:
        rows = []
        with connection.cursor() as cursor:
            for t in tables:
                cursor.execute(f'SELECT * FROM "{t}"')
                rows.append((t, sorted(map(repr, cursor.fetchall()))))
    return tuple(
        (row[0], len(row[1]), hashlib.sha256(repr(row[1]).encode()).hexdigest()[:16])
        if isinstance(row[1], list)
        else tuple(row)
        for row in rows
    )


class Tally:
    """Counts of what each entry point did with its inputs (written for bench/fuzz.py)."""

    def __init__(self) -> None:
        self.counts: dict[str, Counter[str]] = {}

    def add(self, entry: str, outcome: str) -> None:
        self.counts.setdefault(entry, Counter())[outcome] += 1
        if sum(self.counts[entry].values()) % 500 == 0:
            self.write()  # a long run stopped early still leaves its figures

    def write(self) -> None:
        target = os.environ.get("FUZZ_STATS")
        if target:
            counts = {k: dict(v) for k, v in self.counts.items()}
            Path(target).write_text(json.dumps(counts, indent=1))


TALLY = Tally()


@pytest.fixture(scope="session", autouse=True)
def _write_stats():
    yield
    TALLY.write()
