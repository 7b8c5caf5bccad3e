"""`make test` runs the suite in several processes (pytest-xdist) on one PostgreSQL server
and one Redis database: what each process shares with the others is kept apart
(tests/conftest.py), so that a test passes the same beside any other test."""

from __future__ import annotations

import os
import uuid

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from config.celery import app

WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1... under `make test`


@pytest.mark.django_db
def test_each_process_has_its_own_test_database():
    name = connection.settings_dict["NAME"]
    if WORKER and connection.vendor == "postgresql":
        assert name.endswith(f"_{WORKER}"), name


def test_each_process_sends_its_tasks_to_its_own_queue():
    """A celery worker that a test starts (tests/tournaments/test_tasks_worker.py) reads
    the database of the process that started it: it must never take another's task."""
    queue = app.conf.task_default_queue
    assert queue == settings.CELERY_TASK_DEFAULT_QUEUE
    if WORKER:
        assert queue.endswith(f"-{WORKER}")
        assert os.environ["CELERY_QUEUE"] == queue  # what the worker processes read
        assert app.amqp.queues[queue].routing_key == queue


def test_clearing_the_cache_leaves_the_keys_of_the_tests_beside_it():
    """Django's RedisCache.clear() is FLUSHDB: it emptied the counters, pages and queued
    tasks of the tests running at the same time in the other processes."""
    if "Redis" not in settings.CACHES["default"]["BACKEND"]:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true: the cache is Redis (REDIS_URL)")
        pytest.skip("needs Redis (REDIS_URL)")
    client = cache._cache.get_client(write=True)
    other = f"another-test-{uuid.uuid4().hex[:8]}:1:page"
    client.set(other, b"kept", ex=60)
    cache.set("page", "mine")
    try:
        cache.clear()
        assert cache.get("page") is None
        assert client.get(other) == b"kept"
    finally:
        client.delete(other)
