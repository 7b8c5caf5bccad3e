"""Issue 30's goal "an API hit on a cached resource within 90% of the cached page's
requests/s": a stored answer about a public event is served by the API's edge middleware,
before django-ninja routes the request (tournaments/api/caching.py, ``edge_answer``). It
must be the answer the router would send: the same bytes and headers, ETag and 304, CORS,
the rate limit, a private event's 404 and hidden WPF results."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import play_round, round_robin_event, wpf_imported_event
from tournaments.api import caching, middleware
from tournaments.services import standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(director):
    event = round_robin_event(director, players=6, slug="rr-edge")
    play_round(event, director)
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)
    event.refresh_from_db()
    return event


@pytest.fixture
def served(monkeypatch):
    """The answers the edge sent (not None), in order."""
    sent = []

    def spy(request):
        answer = caching.edge_answer(request)
        if answer is not None:
            sent.append(answer)
        return answer

    monkeypatch.setattr(middleware, "edge_answer", spy)
    return sent


def _router_only(monkeypatch):
    monkeypatch.setattr(middleware, "edge_answer", lambda request: None)


def _same(edge, routed):
    assert edge.status_code == routed.status_code
    assert edge.content == routed.content
    assert dict(edge.headers) == dict(routed.headers)
    assert not edge.cookies and not routed.cookies


ASKED = [
    ("standings", [], {}),
    ("standings", [], {"Accept-Encoding": "gzip, br"}),
    ("standings", [], {"Accept-Language": "fr"}),
    ("round", [1], {"Accept-Encoding": "gzip", "Origin": "https://example.org"}),
    ("entrants", [], {"Accept-Language": "fr-CA,fr;q=0.9"}),
    ("event", [], {}),
]


@pytest.mark.parametrize(("name", "args", "headers"), ASKED)
def test_the_edge_sends_the_routers_bytes_and_headers(
    client, played, served, monkeypatch, name, args, headers
):
    path = reverse(f"api-v1:{name}", args=["rr-edge", *args])
    first = client.get(path, headers=headers)  # routed: the address is noted
    assert first.status_code == 200 and not served
    edge = client.get(path, headers=headers)
    assert len(served) == 1 and edge["X-Page-Cache"] == "hit"
    conditional = client.get(path, headers={**headers, "If-None-Match": edge["ETag"]})
    assert len(served) == 2 and conditional.status_code == 304
    head = client.head(path, headers=headers)
    assert len(served) == 3 and head.content == b""
    _router_only(monkeypatch)
    _same(edge, client.get(path, headers=headers))
    _same(conditional, client.get(path, headers={**headers, "If-None-Match": edge["ETag"]}))
    _same(head, client.head(path, headers=headers))


def test_a_query_string_is_its_own_address(client, played, served):
    path = reverse("api-v1:entrants", args=["rr-edge"])
    client.get(path + "?per_page=2")
    assert client.get(path).status_code == 200 and not served  # not noted yet
    second = client.get(path + "?per_page=2")
    assert len(served) == 1 and len(second.json()["results"]) == 2


def test_a_new_result_is_never_answered_from_the_old_store(client, played, director, served):
    path = reverse("api-v1:standings", args=["rr-edge"])
    before = client.get(path)
    client.get(path)
    assert len(served) == 1
    play_round(played, director)
    played.refresh_from_db()
    standings.refresh(played.pk, played.results_version)
    after = client.get(path)  # the key moved: the router builds the new answer
    assert len(served) == 1 and after["ETag"] != before["ETag"]
    assert after.json() != before.json()


def test_made_private_the_event_answers_404_as_a_missing_one(client, played, served):
    path = reverse("api-v1:standings", args=["rr-edge"])
    client.get(path)
    client.get(path)
    assert len(served) == 1
    played.public = False
    played.save()
    private = client.get(path)
    missing = client.get(reverse("api-v1:standings", args=["no-such-event"]))
    assert len(served) == 1
    assert private.status_code == missing.status_code == 404
    assert private.json() == missing.json()


def test_a_signed_in_visitor_is_routed(client, played, director, served):
    path = reverse("api-v1:standings", args=["rr-edge"])
    client.get(path)
    client.force_login(director)
    assert client.get(path).status_code == 200 and not served
    client.logout()
    client.cookies.clear()
    client.get(path)
    assert len(served) == 1


def test_the_edge_counts_toward_the_rate_limit(client, played, served, settings):
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "api": "3/m"}
    path = reverse("api-v1:event", args=["rr-edge"])
    assert [client.get(path).status_code for _ in range(3)] == [200, 200, 200]
    assert len(served) == 2
    refused = client.get(path)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert refused["Access-Control-Allow-Origin"] == "*"


def test_hidden_wpf_online_results_stay_hidden_at_the_edge(client, director, served):
    event = wpf_imported_event(director, 2, {"A1": 1})
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)
    path = reverse("api-v1:standings", args=[event.slug])
    routed = client.get(path)
    edge = client.get(path)
    assert len(served) == 1 and edge.content == routed.content
    body = edge.json()
    assert body["results_hidden"] is True and body["after_round"] is None
    assert "overall" not in [t["key"] for t in body["tables"]]


def test_off_with_the_page_cache(client, played, served, settings):
    settings.ARBITER_PAGE_CACHE = False
    path = reverse("api-v1:standings", args=["rr-edge"])
    client.get(path)
    client.get(path)
    assert not served
