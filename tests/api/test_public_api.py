"""Issue 30 step 1: the public read-only API (/api/v1/) answers what the public pages show,
with the same permissions (a private event is a 404 like a missing one), WPF online
results hidden until the reveal, pagination, ETag/304, JSON errors, CORS and a rate limit."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import play_round, round_robin_event, wpf_imported_event
from tournaments.services import standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(director):
    """A public round robin of six with two rounds played and standings published."""
    event = round_robin_event(director, players=6, slug="rr-api")
    play_round(event, director)
    play_round(event, director, scores=lambda match: [1, 1])
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)
    event.refresh_from_db()
    return event


def _get(client, name, *args, **headers):
    return client.get(reverse(f"api-v1:{name}", args=args), headers=headers)


# -- shapes --------------------------------------------------------------------------------


def test_event_list_and_one_event(client, played):
    listed = client.get("/api/v1/events/").json()
    assert [e["slug"] for e in listed["results"]] == ["rr-api"]
    assert listed["count"] == 1 and listed["page"] == 1 and listed["pages"] == 1
    one = _get(client, "event", "rr-api").json()
    assert one["name"] == "RR rr-api" and one["format"] == "round_robin"
    assert one["entrant_count"] == 6 and one["rounds"] == 2 and one["results_hidden"] is False
    assert one["results_version"] == played.results_version


def test_entrants_are_paginated_by_number(client, played):
    first = client.get("/api/v1/events/rr-api/entrants/?per_page=4").json()
    assert [e["number"] for e in first["results"]] == [1, 2, 3, 4]
    assert (first["count"], first["pages"], first["per_page"]) == (6, 2, 4)
    second = client.get("/api/v1/events/rr-api/entrants/?per_page=4&page=2").json()
    assert [e["name"] for e in second["results"]] == ["Player 5", "Player 6"]


def test_rounds_and_one_round_with_pairings_and_results(client, played):
    rounds = _get(client, "rounds", "rr-api").json()
    assert [r["number"] for r in rounds] == [1, 2]
    assert rounds[0]["url"] == "/api/v1/events/rr-api/rounds/1/"
    one = _get(client, "round", "rr-api", 1).json()
    assert len(one["matches"]) == 3
    match = one["matches"][0]
    assert [s["seat"] for s in match["seats"]] == [0, 1]
    assert all(isinstance(s["entrant"]["number"], int) for s in match["seats"])
    assert match["result"]["complete"] is True and match["result"]["winner"] == 0
    assert match["games"][0]["scores"] == [1, 0]


def test_standings_carry_every_tiebreak_value_and_the_reasons(client, played):
    body = _get(client, "standings", "rr-api").json()
    assert body["published"] is True and body["after_round"] == 2
    table = body["tables"][0]
    assert len(table["rows"]) == 6
    columns = [c["key"] for c in table["columns"]]
    # every column's value for every row, as the standings page shows them
    for row in table["rows"]:
        assert set(columns) <= set(row["values"]), (columns, row["values"])
    assert table["decided"], "ties were split: the reasons are there"
    reason = table["decided"][0]
    assert reason["ahead"]["name"] and reason["behind"]["name"] and reason["detail"]


# -- permissions ----------------------------------------------------------------------------


def test_a_private_event_answers_the_same_404_as_a_missing_one(client, played):
    # read (and stored) while public first: made private, the stored answer is not served
    assert _get(client, "standings", "rr-api").status_code == 200
    assert _get(client, "standings", "rr-api")["X-Page-Cache"] == "hit"
    played.public = False
    played.save()
    for name, args in [
        ("event", []),
        ("entrants", []),
        ("rounds", []),
        ("round", [1]),
        ("standings", []),
    ]:
        private = _get(client, name, "rr-api", *args)
        missing = _get(client, name, "no-such-event", *args)
        assert private.status_code == missing.status_code == 404
        assert (
            private.json()
            == missing.json()
            == {
                "code": "not_found",
                "message": "Nothing here: no such public resource.",
            }
        )
    assert client.get("/api/v1/events/").json()["results"] == []


def test_a_director_reads_their_private_event(client, played, director):
    played.public = False
    played.save()
    client.force_login(director)
    assert _get(client, "event", "rr-api").status_code == 200


def test_a_round_not_published_is_missing(client, played):
    assert _get(client, "round", "rr-api", 3).status_code == 404


def test_hidden_wpf_online_results_stay_hidden(client, director):
    """issue 8: "Online results stay hidden from the public until the director reveals
    them": no online round, no result, no time, no overall table before the reveal."""
    event = wpf_imported_event(director, 2, {"A1": 1})
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)
    one = _get(client, "event", event.slug).json()
    assert one["results_hidden"] is True and one["rounds"] == 0
    assert one["results_version"] is None and one["standings_version"] is None
    assert _get(client, "rounds", event.slug).json() == []
    assert _get(client, "round", event.slug, 1).status_code == 404
    body = _get(client, "standings", event.slug).json()
    assert body["results_hidden"] is True
    assert body["after_round"] is None and body["computed_at"] is None
    assert "overall" not in [t["key"] for t in body["tables"]]
    everything = "".join(
        client.get(url).content.decode()
        for url in [f"/api/v1/events/{event.slug}/{p}" for p in ("", "standings/", "rounds/")]
    )
    for secret in ("1:40", "22:00", "ranks swapped"):
        assert secret not in everything


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "status", "parameter"),
    [
        ("page=abc", 422, "page"),
        ("page=0", 422, "page"),
        ("per_page=1000", 422, "per_page"),
        ("page=9", 404, "page"),
    ],
)
def test_bad_paging_names_the_parameter(client, played, query, status, parameter):
    response = client.get(f"/api/v1/events/rr-api/entrants/?{query}")
    assert response.status_code == status
    body = response.json()
    assert body["parameter"] == parameter and parameter in body["message"]
    assert body["code"] in ("invalid_parameter", "page_out_of_range")


def test_an_unknown_address_under_api_is_a_json_404(client):
    response = client.get("/api/v1/nothing/here/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


# -- caching, CORS, the rate limit --------------------------------------------------------


def test_etag_and_if_none_match_give_304_until_a_result_changes(client, played, director):
    first = _get(client, "standings", "rr-api")
    etag = first["ETag"]
    again = _get(client, "standings", "rr-api", If_None_Match=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    play_round(played, director)
    changed = _get(client, "standings", "rr-api", If_None_Match=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_stored_answer_is_sent_gzipped_to_who_asks_compressed_once(client, played):
    """The gzip form is made when the answer is built and stored with it; the same JSON,
    the weak form of the same ETag (either answers 304), Vary: Accept-Encoding."""
    import gzip
    import json

    plain = _get(client, "standings", "rr-api")
    packed = _get(client, "standings", "rr-api", Accept_Encoding="gzip, br")
    assert packed["X-Page-Cache"] == "hit" and packed["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed.content)) == plain.json()
    assert len(packed.content) < len(plain.content)
    assert packed["ETag"] == "W/" + plain["ETag"]
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    assert "Content-Encoding" not in plain
    for tag in (packed["ETag"], plain["ETag"]):
        again = _get(client, "standings", "rr-api", Accept_Encoding="gzip", If_None_Match=tag)
        assert again.status_code == 304
    # a small answer is sent as it is
    small = _get(client, "rounds", "rr-api", Accept_Encoding="gzip")
    if len(small.content) < 1024:
        assert "Content-Encoding" not in small


def test_cors_is_open_for_reading(client, played):
    response = _get(client, "event", "rr-api", Origin="https://example.org")
    assert response["Access-Control-Allow-Origin"] == "*"
    preflight = client.options(
        "/api/v1/events/",
        headers={"Origin": "https://x.org", "Access-Control-Request-Method": "GET"},
    )
    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    # not on the pages
    assert "Access-Control-Allow-Origin" not in client.get("/")


def test_past_the_rate_limit_a_429_with_json_and_retry_after(client, played, settings):
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "api": "3/m"}
    for _ in range(3):
        assert _get(client, "event", "rr-api").status_code == 200
    refused = _get(client, "event", "rr-api")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    body = refused.json()
    assert body["code"] == "rate_limited" and "Wait" in body["message"]
    assert refused["Access-Control-Allow-Origin"] == "*"


def test_the_limit_is_one_window_from_the_first_request(client, played, settings):
    """The API's counter (one Redis round trip, tournaments/api/middleware.py) keeps
    ratelimit.hit's window: it starts at the first request, a refusal says how long is
    left of it, and the counter expires with it."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "api": "2/m"}
    assert _get(client, "event", "rr-api").status_code == 200
    assert _get(client, "events").status_code == 200  # one count per address, any path
    refused = _get(client, "event", "rr-api")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        redis = backend._cache.get_client(write=True)
        from tournaments import ratelimit

        counters = list(redis.scan_iter(match=f"*{ratelimit.KEY_PREFIX}:api:*"))
        assert counters and all(0 < redis.ttl(c) <= 60 for c in counters)


def test_the_api_only_reads_and_answers_head_as_get(client, played):
    refused = client.post("/api/v1/events/rr-api/")
    assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD, OPTIONS"
    assert refused.json()["code"] == "method_not_allowed"
    head = client.head("/api/v1/events/rr-api/")
    assert head.status_code == 200 and head.content == b""
    assert head["ETag"] == client.get("/api/v1/events/rr-api/")["ETag"]


def test_the_schema_is_openapi_3_1_with_every_operation(client):
    schema = client.get("/api/v1/schema/").json()
    assert schema["openapi"].startswith("3.1")
    operations = {path for path in schema["paths"]}
    assert operations == {
        "/api/v1/events/",
        "/api/v1/events/{slug}/",
        "/api/v1/events/{slug}/entrants/",
        "/api/v1/events/{slug}/entries/",  # issue 32 (test_entries_api.py)
        "/api/v1/events/{slug}/rounds/",
        "/api/v1/events/{slug}/rounds/{number}/",
        "/api/v1/events/{slug}/standings/",
        "/api/v1/events/{slug}/outlook/",
        "/api/v1/events/{slug}/draws/",
        "/api/v1/events/{slug}/gokodom/bracket/",
        "/api/v1/events/{slug}/freestyle/bracket/",
        "/api/v1/events/{slug}/bot_contest/gauntlet/",
        "/api/v1/events/{slug}/bot_contest/brackets/",
        "/api/v1/events/{slug}/bot_contest/final/",
        "/api/v1/events/{slug}/bot_contest/boards/",
        "/api/v1/events/{slug}/wpf_playoffs/ladder/",
        "/api/v1/events/{slug}/export/",  # step 7: for an event's token (test_api_export.py)
        "/api/v1/series/",  # issue 32 (test_series_api.py)
        "/api/v1/series/{slug}/",
    }
    for path, methods in schema["paths"].items():
        token = {"401", "403"} if path.endswith("/export/") else set()
        assert set(methods["get"]["responses"]) == {"200", "304", "404", "422", "429"} | token
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "GET /api/v1/events/{slug}/standings/" in html
    # nothing from another site: the page is ours, under the project's CSP
    # no script or style from a CDN host (a random CSRF token may spell "cdn")
    assert "//cdn" not in html.lower() and "cdn.jsdelivr" not in html.lower()
    assert '<script src="http' not in html


# -- one build per new answer (bench/release.py: hundreds ask for a new round at once) ----


def _hold_build_lock(monkeypatch):
    """Another worker holds the build lock of whatever answer is asked; returns the
    answer's key once asked, and the real cache call."""
    from tournaments.api import caching

    real = caching.pagecache.cache_call
    asked: dict[str, str] = {}

    def call(method, *args, **kwargs):
        if method == "add" and str(args[0]).startswith("building:api:"):
            asked["key"] = args[0].removeprefix("building:")
            return False
        return real(method, *args, **kwargs)

    monkeypatch.setattr(caching.pagecache, "cache_call", call)
    return asked, real


def test_a_miss_waits_for_the_answer_another_worker_is_building(client, played, monkeypatch):
    from tournaments.api import caching

    asked, real = _hold_build_lock(monkeypatch)
    stored = (b'{"x":1}', None)  # the JSON and its gzip form (none: too small)
    monkeypatch.setattr(caching.time, "sleep", lambda s: real("set", asked["key"], stored))
    monkeypatch.setattr(caching, "_build", lambda *a: pytest.fail("built a second time"))
    response = _get(client, "standings", "rr-api")
    assert response.status_code == 200 and response.content == b'{"x":1}'
    assert response["X-Page-Cache"] == "hit"


def test_a_miss_builds_itself_when_the_other_build_never_lands(client, played, monkeypatch):
    from tournaments.api import caching

    asked, real = _hold_build_lock(monkeypatch)
    monkeypatch.setattr(caching, "BUILD_WAIT_SECONDS", 0.05)
    response = _get(client, "standings", "rr-api")
    assert response.status_code == 200 and response["X-Page-Cache"] == "miss"
    assert response.json()["published"] is True
    assert real("get", asked["key"])[0] == response.content  # stored for the next visitor
    assert real("get", "building:" + asked["key"]) is None


def test_a_miss_takes_the_build_lock_and_leaves_none_behind(client, played, monkeypatch):
    from tournaments.api import caching

    real = caching.pagecache.cache_call
    locks: list[str] = []

    def call(method, *args, **kwargs):
        if method == "add" and str(args[0]).startswith("building:api:"):
            locks.append(args[0])
        return real(method, *args, **kwargs)

    monkeypatch.setattr(caching.pagecache, "cache_call", call)
    assert _get(client, "standings", "rr-api")["X-Page-Cache"] == "miss"
    assert _get(client, "standings", "rr-api")["X-Page-Cache"] == "hit"
    assert len(locks) == 1 and real("get", locks[0]) is None
