"""The public pages run the same number of queries for an event of 100 entrants and one of
10,000 (both built with bulk_create in a few seconds), built fresh (no page cache, no stored
fragment) and built again once the large tables are stored; a cached page runs none."""

import time
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import bulk_event
from tournaments.models import Event
from tournaments.views import pagecache, pagegen

pytestmark = pytest.mark.django_db

PAGES = [
    ("tournaments:event", []),
    ("tournaments:round", [3]),
    ("tournaments:round", [1]),
    ("tournaments:standings", []),
    ("tournaments:entrant", [5]),
    ("tournaments:version", []),
]
BRACKETS = ["tournaments:gokodom_bracket", "tournaments:freestyle_bracket"]


@pytest.fixture(autouse=True)
def own_cache(settings):
    # The 10,000-entrant pages are large: on a loaded machine storing one can outlast the
    # production cache's 1 s socket timeout, and a timed-out call turns the page cache off
    # for a few seconds (by design: pages then run uncached), so the next request would
    # query. These tests measure a hit, so their cache waits longer.
    settings.CACHES = {
        name: {
            **conf,
            "KEY_PREFIX": f"q-{uuid.uuid4().hex[:8]}",
            **(
                {"OPTIONS": {**conf["OPTIONS"], "socket_timeout": 15}}
                if "socket_timeout" in conf.get("OPTIONS", {})
                else {}
            ),
        }
        for name, conf in settings.CACHES.items()
    }
    pagecache._down_until = pagegen._down_until = 0.0
    pagecache._local.clear()


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


@pytest.fixture(scope="module")
def sizes(django_db_setup, django_db_blocker):
    """One event of 100 entrants and one of 10,000, three rounds each (15,000 matches and
    30,000 seats for the large one), kept for the module's tests."""
    with django_db_blocker.unblock():
        started = time.monotonic()
        tag = uuid.uuid4().hex[:8]  # the events outlive a test's transaction: names apart
        events = [
            bulk_event(f"q-small-{tag}", entrants=100),
            bulk_event(f"q-large-{tag}", entrants=10_000),
        ]
        built = time.monotonic() - started
        yield events, built
        for event in events:  # built outside the tests' transactions: removed by hand
            with connection.cursor() as cursor:
                for table, column in [
                    ("tournaments_standingsrow", "snapshot_id IN (SELECT id FROM tournaments_standingssnapshot WHERE event_id = %s)"),  # noqa: E501
                    ("tournaments_standingssnapshot", "event_id = %s"),
                    ("tournaments_matchparticipant", "match_id IN (SELECT m.id FROM tournaments_match m JOIN tournaments_round r ON m.round_id = r.id WHERE r.event_id = %s)"),  # noqa: E501
                    ("tournaments_match", "round_id IN (SELECT id FROM tournaments_round WHERE event_id = %s)"),  # noqa: E501
                    ("tournaments_round", "event_id = %s"),
                    ("tournaments_entrant", "event_id = %s"),
                    ("tournaments_event", "id = %s"),
                ]:  # fmt: skip
                    cursor.execute(f"DELETE FROM {table} WHERE {column}", [event.pk])


def test_10000_entrants_are_built_in_seconds(sizes):
    _, built = sizes
    assert built < 60  # bulk_create: a few seconds here; the page counts below need it


def test_public_pages_run_as_many_queries_at_10000_entrants_as_at_100(client, settings, sizes):
    settings.ARBITER_PAGE_CACHE = False  # each page's own reads
    (small, large), _ = sizes
    for name, extra in PAGES:
        fresh = [_count(client, reverse(name, args=[e.slug, *extra])) for e in (small, large)]
        assert fresh[0] == fresh[1], (name, fresh)
        # built again: the large tables come from the stored fragment, fewer reads still
        again = [_count(client, reverse(name, args=[e.slug, *extra])) for e in (small, large)]
        assert again[0] == again[1] <= fresh[0], (name, again)
    cache.clear()


@pytest.mark.parametrize("bracket", BRACKETS)
def test_bracket_pages_run_as_many_queries_at_10000_entrants_as_at_100(
    client, settings, sizes, bracket
):
    settings.ARBITER_PAGE_CACHE = False
    (small, large), _ = sizes
    fmt = bracket.split(":")[1].split("_")[0]
    Event.objects.filter(pk__in=[small.pk, large.pk]).update(format=fmt)  # rolled back
    counts = [_count(client, reverse(bracket, args=[e.slug])) for e in (small, large)]
    assert counts[0] == counts[1], (bracket, counts)


def test_a_cached_public_page_runs_no_query_at_10000_entrants(
    client, sizes, django_assert_num_queries
):
    (_, large), _ = sizes
    for name, extra in PAGES[:-1]:  # the version endpoint is never cached
        url = reverse(name, args=[large.slug, *extra])
        assert client.get(url).status_code == 200
        with django_assert_num_queries(0):
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response["X-Page-Cache"] == "hit", name
