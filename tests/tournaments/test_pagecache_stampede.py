"""After a change, one visitor rebuilds a public page while the others get the previous
version, instead of every worker rendering the same large page at once (bench/load.py)."""

import re
import time
import uuid
from unittest import mock

import pytest
from django.urls import reverse

from tests.factories import play_round, round_robin_event
from tournaments.models import Match
from tournaments.services import results
from tournaments.views import pagecache, pagegen

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    settings.CACHES = {
        name: {**conf, "KEY_PREFIX": f"s-{uuid.uuid4().hex[:8]}"}
        for name, conf in settings.CACHES.items()
    }
    pagecache._down_until = pagegen._down_until = 0.0


def _token(response) -> str:
    return re.search(r'data-version="([^"]+)"', response.content.decode()).group(1)


def test_while_a_new_version_is_built_others_get_the_previous_one(client, director):
    event = round_robin_event(director, players=4, slug="stampede")
    play_round(event, director, complete=False)
    url = reverse("tournaments:standings", args=[event.slug])
    old = client.get(url)
    assert old["X-Page-Cache"] == "miss"
    match = Match.objects.filter(round__event=event).order_by("pk").first()
    results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)

    # another worker holds the build of the new version
    with mock.patch.object(pagecache.cache, "add", return_value=False):
        with mock.patch("tournaments.views.public._page") as built:
            stale = client.get(url)
        assert not built.called  # no second build of the same page
    assert stale["X-Page-Cache"] == "stale"
    assert stale.status_code == 200

    fresh = client.get(url)  # the build is free: this visitor builds the new version
    assert fresh["X-Page-Cache"] == "miss"
    assert client.get(url)["X-Page-Cache"] == "hit"
    # the poller's version token: the previous one on the stale page, so it catches up
    assert _token(stale) == _token(old) != _token(fresh)


def test_a_page_is_rebuilt_at_most_once_per_min_age(client, director, settings):
    settings.ARBITER_PAGE_MIN_AGE = 4
    event = round_robin_event(director, players=4, slug="min-age")
    play_round(event, director, complete=False)
    url = reverse("tournaments:standings", args=[event.slug])
    assert client.get(url)["X-Page-Cache"] == "miss"
    for match in Match.objects.filter(round__event=event):
        results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
        assert client.get(url)["X-Page-Cache"] == "stale"  # built less than 4 s ago
    time.sleep(4.1)
    assert client.get(url)["X-Page-Cache"] == "miss"  # old enough: the new version is built


def test_the_build_lock_is_released_when_the_view_fails(client, director):
    event = round_robin_event(director, players=4, slug="stampede-error")
    url = reverse("tournaments:standings", args=[event.slug])
    deleted = []
    real = pagecache._cache_call

    def spy(method, *args, **kwargs):
        if method == "delete":
            deleted.append(args[0])
        return real(method, *args, **kwargs)

    with (
        mock.patch.object(pagecache, "_cache_call", spy),
        mock.patch("tournaments.views.public._page", side_effect=RuntimeError("boom")),
        pytest.raises(RuntimeError),
    ):
        client.get(url)
    assert len(deleted) == 1 and deleted[0].startswith("building:latest:standings:")
    assert pagecache.cache.get(deleted[0]) is None
