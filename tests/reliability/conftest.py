"""Real servers for the reliability proofs (bench/stack.py), always stopped after the test.

They run against the test database (real commits: transaction=True, flushed after each
test) and a private Redis on a free port, never the shared one. Locally they skip with the
reason when REDIS_URL, PostgreSQL or redis-server is missing; under CI=true they fail.
"""

from __future__ import annotations

import os

import pytest
from django.db import connections

from bench.stack import Stack, database_url, missing


def need_servers() -> None:
    reasons = missing()
    if not os.environ.get("REDIS_URL"):
        reasons.append("REDIS_URL (unset)")
    if connections["default"].vendor != "postgresql":
        reasons.append("PostgreSQL (DATABASE_URL)")
    if reasons:
        message = "needs " + "; ".join(reasons)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def stack(transactional_db):
    """A private Redis; the test starts gunicorn, a worker or beat on it as it needs."""
    need_servers()
    with Stack(database_url(connections["default"].settings_dict)) as running:
        try:
            yield running
        finally:
            print(running.logs())  # shown by pytest when the test failed
