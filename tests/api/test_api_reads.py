"""Issue 30 step 1: "The API never exposes e-mail addresses or claim codes" (every
operation walked over every demo event), and the API shares the page cache's versions:
"a cached hit costs no query", a miss the same queries whatever the event's size."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.services import claim_entrant
from tests.factories import bulk_event
from tournaments.api.formats import PAGES
from tournaments.demo import DEMO_BUILDERS
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


FORMAT_PAGES = [path for path, *_ in PAGES]


def _walk(client) -> list[str]:
    """Every operation's answer over every listed event: each page of each list."""
    bodies, urls = [], ["/api/v1/events/?per_page=200"]
    listed = client.get(urls[0]).json()
    for event in listed["results"]:
        base = event["url"]
        urls += [base, base + "rounds/", base + "standings/", base + "outlook/?per_page=200"]
        urls += [base + "draws/?per_page=200"]
        # the event's own format pages (another format's answer 404, as the page)
        for page in FORMAT_PAGES:
            if page.startswith(event["format"] + "/"):
                urls.append(base + page)
        page, pages = 1, 1
        while page <= pages:
            url = f"{base}entrants/?per_page=20&page={page}"
            pages = client.get(url).json()["pages"]
            urls.append(url)
            page += 1
        urls += [r["url"] for r in client.get(base + "rounds/").json()]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        bodies.append(response.content.decode())
    return bodies


def test_no_email_claim_code_or_user_id_in_any_answer(
    client, director, django_user_model, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        built = [
            build(director=director, rng=random.Random(slug))
            for slug, build in DEMO_BUILDERS.items()
        ]
    player = django_user_model.objects.create_user(
        "player-api", email="secret.player@example.org", password="pw-player-1"
    )
    claim_entrant(player, built[0].entrants.order_by("number")[0].claim_code)
    director.email = "secret.director@example.org"
    director.save()
    bodies = _walk(client)
    assert len(bodies) > 40
    assert any('"gauntlet"' not in b and '"references"' in b for b in bodies)  # format pages
    everything = "\n".join(bodies)
    assert "@" not in everything
    for code in Entrant.objects.values_list("claim_code", flat=True):
        assert code not in everything
    for body in bodies:
        text = json.dumps(json.loads(body))
        for key in ('"user"', '"user_id"', '"email"', '"claim_code"', '"created_by"'):
            assert key not in text


OPERATIONS = [
    "/api/v1/events/{slug}/",
    "/api/v1/events/{slug}/entrants/",
    "/api/v1/events/{slug}/rounds/",
    "/api/v1/events/{slug}/rounds/3/",
    "/api/v1/events/{slug}/standings/",
]


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


def test_a_miss_costs_the_same_queries_whatever_the_size_and_a_hit_none(client):
    small = bulk_event("api-small", entrants=20)
    large = bulk_event("api-large", entrants=1_000)
    for operation in [*OPERATIONS, "/api/v1/events/"]:
        misses = []
        for event in (small, large):
            url = operation.format(slug=event.slug)
            misses.append(_queries(client, url))
            hit = client.get(url)
            assert hit["X-Page-Cache"] == "hit", url
            assert _queries(client, url) == 0, url
        assert misses[0] == misses[1] or operation == "/api/v1/events/", (operation, misses)
        assert max(misses) <= 8, (operation, misses)


def test_an_answer_changes_with_the_page_cache_versions(client, director):
    event = bulk_event("api-versions", entrants=20)
    url = f"/api/v1/events/{event.slug}/entrants/"
    before = client.get(url)
    assert client.get(url)["X-Page-Cache"] == "hit"
    entrant = event.entrants.get(number=1)
    entrant.name = "Renamed Player"
    entrant.save()
    after = client.get(url)
    assert after["X-Page-Cache"] == "miss" and after["ETag"] != before["ETag"]
    assert after.json()["results"][0]["name"] == "Renamed Player"
