"""Fixtures that put a FaultProxy between the app and PostgreSQL or Redis."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import pytest
from django.db import connections

from tests.faults.proxy import FaultProxy


def reconnect() -> None:
    """What Django does at the start and end of every request: a connection that failed
    is closed, so the next query opens a fresh one."""
    connection = connections["default"]
    connection.close_if_unusable_or_obsolete()
    if connection.connection is not None and not connection.is_usable():
        connection.close()


@pytest.fixture
def db_proxy(transactional_db):
    """The default database connection, through a proxy (real commits: the test database
    is flushed after the test)."""
    connection = connections["default"]
    assert connection.vendor == "postgresql", "the fault tests need PostgreSQL (DATABASE_URL)"
    saved = dict(connection.settings_dict)
    target = (saved["HOST"] or "127.0.0.1", int(saved["PORT"] or 5432))
    with FaultProxy(*target) as proxy:
        connection.close()
        connection.settings_dict.update(HOST="127.0.0.1", PORT=str(proxy.port))
        try:
            yield proxy
        finally:
            proxy.resume()
            proxy.refuse = False
            connection.close()
            connection.settings_dict.update(HOST=saved["HOST"], PORT=saved["PORT"])


@pytest.fixture
def redis_proxy():
    url = os.environ.get("REDIS_URL")
    assert url, "the fault tests need Redis (REDIS_URL)"
    parts = urlsplit(url)
    with FaultProxy(parts.hostname or "127.0.0.1", parts.port or 6379) as proxy:
        proxy.url = f"redis://127.0.0.1:{proxy.port}{parts.path or '/0'}"
        yield proxy
