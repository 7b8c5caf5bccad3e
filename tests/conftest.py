import os
import uuid

import pytest

SLOW_HELP = "--run-slow or ARBITER_SLOW=1 runs them; make test does"


def pytest_addoption(parser):
    parser.addoption(
        "--run-slow",
        action="store_true",
        help="also run the tests marked slow (brute-force checks); make test and CI pass it",
    )


def _run_slow(config) -> bool:
    return config.getoption("--run-slow") or os.environ.get("ARBITER_SLOW") == "1"


def pytest_collection_modifyitems(config, items):
    # A developer's `pytest tests/rules` stays fast: the brute-force checks (marked slow)
    # are deselected, never skipped, unless asked for; `make test` (and so CI) asks.
    if _run_slow(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
        config._arbiter_slow_deselected = len(slow)


def pytest_terminal_summary(terminalreporter, config):
    deselected = getattr(config, "_arbiter_slow_deselected", 0)
    if deselected:
        terminalreporter.write_line(f"{deselected} slow tests deselected ({SLOW_HELP}).")


def pytest_configure(config):
    # Under CI the real services are part of the contract: a missing one fails the run.
    if os.environ.get("CI") == "true":
        missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
        if missing:
            raise pytest.UsageError(f"CI=true but {', '.join(missing)} not set (see .ci/run)")

    # Tasks run in-process in tests unless a test starts a real worker. tests/rules runs
    # without Django at all (pytest -p no:django), so only touch Celery when it is there.
    if os.environ.get("DJANGO_SETTINGS_MODULE") or config.pluginmanager.has_plugin("django"):
        try:
            from config.celery import app
        except ImportError:
            return
        app.conf.task_always_eager = True
        app.conf.task_eager_propagates = True
        _apart_from_other_workers(config, app)
        # Eager tasks would start venue mode's pusher thread (runner.kick) in a test process,
        # where it would outlive its test, looking at the test database every second. Tests
        # push by calling the pusher; the two-instance tests (tests/venue) run real servers,
        # whose settings come from their own environment.
        from django.conf import settings as django_settings

        django_settings.ARBITER_MIRROR_PUSHER = "off"
        _empty_the_database_quickly_after_each_transactional_test()


def _apart_from_other_workers(config, app) -> None:
    """`make test` runs the suite in several processes (pytest-xdist), all on one Redis
    database. pytest-django gives each its own test database (test_<name>_gw0, ...); this
    gives each its own Celery queue, so that a real worker a test starts (and the queue it
    purges) only ever sees the tasks of its own process, whose rows are in its database.
    Child processes (celery workers, gunicorn) inherit the queue through CELERY_QUEUE."""
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker:
        from django.conf import settings

        queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-{worker}"
        os.environ["CELERY_QUEUE"] = settings.CELERY_TASK_DEFAULT_QUEUE = queue
        app.conf.task_default_queue = queue
    _clear_only_the_tests_keys()


# A table holding more rows than this is emptied by Django's own TRUNCATE (the whole flush).
_DELETE_AT_MOST = 5000


def _empty_the_database_quickly_after_each_transactional_test() -> None:
    """A transactional test (django_db(transaction=True), the e2e and worker tests) ends with
    Django's flush: one TRUNCATE of the 53 tables, 0.3 s on a quiet machine and more under
    load, though such a test leaves rows in a few small tables. On PostgreSQL, as a
    superuser, the tables that hold rows are emptied by DELETE instead, with triggers and
    foreign-key checks off as under TRUNCATE (session_replication_role = replica); then
    post_migrate runs as after the flush. Otherwise (another user, a large table) Django's
    flush runs as before. Sequences are not reset either way (reset_sequences=False)."""
    from django.core.management.sql import emit_post_migrate_signal
    from django.db import DatabaseError, connections
    from django.test import TransactionTestCase

    flush = TransactionTestCase._fixture_teardown

    def teardown(self) -> None:
        names = self._databases_names(include_mirrors=False)
        if self.available_apps is not None or self.serialized_rollback:
            return flush(self)
        for name in names:
            try:
                emptied = _delete_every_row(connections[name])
            except DatabaseError:
                emptied = False
            if not emptied:
                return flush(self)
        for name in names:
            emit_post_migrate_signal(0, False, name)

    TransactionTestCase._fixture_teardown = teardown


def _delete_every_row(connection) -> bool:
    from django.db import transaction

    if connection.vendor != "postgresql":
        return False
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    if not tables:
        return True
    quote = connection.ops.quote_name
    limit = _DELETE_AT_MOST + 1
    counted = " UNION ALL ".join(
        f"SELECT {i}, (SELECT count(*) FROM (SELECT 1 FROM {quote(t)} LIMIT {limit}) r)"
        for i, t in enumerate(tables)
    )
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(counted)
        rows = {tables[i]: n for i, n in cursor.fetchall() if n}
        if any(n > _DELETE_AT_MOST for n in rows.values()):
            return False
        for table in rows:
            cursor.execute(f"DELETE FROM {quote(table)}")
    return True


def _clear_only_the_tests_keys() -> None:
    # Django's RedisCache.clear() empties the whole Redis database (FLUSHDB): the keys of
    # the tests running beside it in other processes too (their pages, counters, queued
    # tasks). Each test has a key prefix of its own (_own_page_cache): clear() deletes
    # that prefix's keys, which is all a test can have meant.
    from django.core.cache.backends.redis import RedisCache

    def clear(self) -> bool:
        if not self.key_prefix:
            return bool(self._cache.get_client(write=True).flushdb())
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
        return True

    RedisCache.clear = clear


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("director", password="pw-director-1")


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.org", "pw-admin-1")


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    # Real hashing costs about 0.3 s per user; tests create hundreds.
    if not request.config.pluginmanager.has_plugin("django"):
        return
    settings = request.getfixturevalue("settings")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Public pages rebuilt on the first visit after each change (production waits up to
    # a few seconds: tests/tournaments/test_pagecache_stampede.py).
    settings.ARBITER_PAGE_MIN_AGE = 0


@pytest.fixture(autouse=True)
def _own_page_cache(request):
    # Tests reuse slugs ("wpf", "cached") and a test in a rolled-back transaction never
    # publishes its writes (on_commit): with one shared cache, a page or stamp stored by an
    # earlier test could answer a later one. Each test gets a key prefix of its own and an
    # empty per-worker store.
    if not request.config.pluginmanager.has_plugin("django"):
        yield
        return
    settings = request.getfixturevalue("settings")
    from tournaments.api import caching, ratecount
    from tournaments.views import entrant_book, fragments, pagecache, pagegen

    settings.CACHES = {
        name: {**conf, "KEY_PREFIX": f"t-{uuid.uuid4().hex[:8]}"}
        for name, conf in settings.CACHES.items()
    }
    pagecache._local.clear()
    entrant_book.forget()
    fragments._noted.clear()  # (the languages noted: in this test's cache alone)
    caching.forget_edge()
    ratecount.counts.clear()
    pagecache._down_until = pagegen._down_until = 0.0
    yield
    pagecache._local.clear()
    entrant_book.forget()


@pytest.fixture(autouse=True)
def _english_unless_asked(request):
    # A request in French leaves French active in the thread (LocaleMiddleware activates, no
    # one deactivates): a later test's command or service would speak French.
    if not request.config.pluginmanager.has_plugin("django"):
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _own_rate_limit_counters(request, monkeypatch):
    # Rate-limit counters live in the shared Redis for up to their window (an hour for
    # sign-up and event creation, all from 127.0.0.1 here): each test counts apart, so the
    # tests and runs before it never push it past a limit.
    if not request.config.pluginmanager.has_plugin("django"):
        return
    from tournaments import ratelimit

    monkeypatch.setattr(ratelimit, "KEY_PREFIX", f"ratelimit-test-{uuid.uuid4().hex[:12]}")


def _as_stored(value):
    """A message's parameters as a snapshot stores them (the rule of
    tournaments.services.state.jsonable, then JSON): what the web side will read back."""
    import json
    from fractions import Fraction

    def plain(v):
        if isinstance(v, Fraction):
            return v.numerator if v.denominator == 1 else float(v)
        if isinstance(v, dict) or (hasattr(v, "items") and callable(v.items)):
            return {str(k): plain(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [plain(x) for x in v]
        return v

    return json.loads(json.dumps(plain(value), default=str))


def _said_again(cls):
    """Every message whose sentence comes from the words modules must say the same from
    its stored parameters: an engine that passed a Fraction or a tuple where the sentence
    shows it would read differently on a page than in the engine (rules/words.py)."""
    original = cls.__post_init__

    def checked(self):
        from rules import words

        given = bool(self.text)
        original(self)
        if given:
            return
        again = words.render(self.code, _as_stored(dict(self.params)))
        assert again == self.text, (
            f"{self.code}: said {self.text!r} from the engine's parameters but "
            f"{again!r} from the stored ones; pass what the sentence shows (text, whole numbers)"
        )

    return original, checked


@pytest.fixture(autouse=True, scope="session")
def _messages_say_the_same_when_stored():
    from rules.contract import NeedsDecision, Problem, Reason

    saved = []
    for cls in (Reason, Problem, NeedsDecision):
        original, checked = _said_again(cls)
        saved.append((cls, original))
        cls.__post_init__ = checked
    yield
    for cls, original in saved:
        cls.__post_init__ = original
