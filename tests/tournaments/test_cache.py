"""Public pages cached per event version: one build per change, a fresh CSRF token per
visitor, HTMX and full pages apart, and a site that keeps working when Redis is down."""

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import translation

from config.celery import app
from tests.factories import play_round, round_robin_event
from tournaments import tasks
from tournaments.models import Event, Match
from tournaments.services import results, standings
from tournaments.views import pagecache, pagegen

pytestmark = pytest.mark.django_db(transaction=True)


# Each test has a cache key prefix of its own (tests/conftest.py): no marker or page left
# by another test is seen, and a shared Redis is never flushed.


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=6, slug="cached")
    play_round(event, director)
    play_round(event, director, complete=False)
    return event


def standings_url():
    return reverse("tournaments:standings", args=["cached"])


def test_a_page_is_built_once_per_change(client, director, event, django_assert_max_num_queries):
    first = client.get(standings_url())
    assert first["X-Page-Cache"] == "miss"
    with django_assert_max_num_queries(0):  # the event's stamp and the page come from Redis
        second = client.get(standings_url())
    assert second["X-Page-Cache"] == "hit"
    assert second.content.decode().count("Player 1") == first.content.decode().count("Player 1")
    match = Match.objects.filter(round__event=event, round__number=2).first()
    results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    third = client.get(standings_url())
    assert third["X-Page-Cache"] == "miss"  # new results version: a new key
    assert client.get(standings_url())["X-Page-Cache"] == "hit"


def test_a_shared_page_has_no_visitor_token_and_sets_no_cookie(client, event):
    client.get(standings_url())  # fills the cache
    response = client.get(standings_url())
    assert response["X-Page-Cache"] == "hit"
    html = response.content.decode()
    assert pagecache.PLACEHOLDER not in html and "X-CSRFToken" not in html
    assert "csrftoken" not in response.cookies


@pytest.mark.parametrize("compressed", [False, True])
def test_a_shared_page_with_a_form_gets_each_visitors_own_token(event, rf, compressed):
    """A cached page that posts carries each visitor's own CSRF token (in the gzip stream
    too), which the CSRF check accepts with that visitor's cookie and no other's."""
    import gzip
    import re

    from django.conf import settings
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpResponse
    from django.middleware.csrf import CsrfViewMiddleware
    from django.template import engines
    from django.utils.crypto import get_random_string

    template = engines["django"].from_string(
        '<form method="post">{% csrf_token %}<button>go</button></form>{% csrf_token %}'
    )

    @pagecache.cached_public_page
    def form_page(request, slug):
        building = pagecache.building_for_cache(request)
        context = {"csrf_token": pagecache.PLACEHOLDER} if building else {}
        return HttpResponse(template.render(context, request))

    check = CsrfViewMiddleware(lambda request: HttpResponse())

    def request(method, secret, **extra):
        made = getattr(rf, method)("/e/cached/form/", **extra)
        made.user = AnonymousUser()
        made.COOKIES[settings.CSRF_COOKIE_NAME] = secret
        check.process_request(made)
        return made

    secrets = [get_random_string(32) for _ in range(3)]
    states = []
    for secret in secrets:
        encoding = {"HTTP_ACCEPT_ENCODING": "gzip"} if compressed else {}
        response = form_page(request("get", secret, **encoding), "cached")
        states.append(response["X-Page-Cache"])
        body = gzip.decompress(response.content) if compressed else response.content
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', body.decode())
        assert len(tokens) == 2 and len(set(tokens)) == 1 and pagecache.PLACEHOLDER not in tokens
        for other, expected in (
            (secret, None),
            (secrets[0] if secret != secrets[0] else secrets[1], 403),
        ):
            post = request("post", other, data={"csrfmiddlewaretoken": tokens[0]})
            answer = check.process_view(post, form_page, ("cached",), {})
            assert (answer.status_code if answer else None) == expected
    assert states == ["miss", "hit", "hit"]


def test_htmx_and_full_pages_are_cached_apart(client, event):
    full = client.get(standings_url())
    partial = client.get(standings_url(), HTTP_HX_REQUEST="true")
    assert partial["X-Page-Cache"] == "miss" and "<html" not in partial.content.decode()
    again = client.get(standings_url(), HTTP_HX_REQUEST="true")
    assert again["X-Page-Cache"] == "hit" and "<html" not in again.content.decode()
    assert "<html" in client.get(standings_url()).content.decode()
    for response in (full, partial, again):
        assert "HX-Request" in response["Vary"]


def test_signed_in_visitors_and_private_events_are_never_served_from_the_cache(
    client, director, event
):
    client.get(standings_url())
    client.force_login(director)
    assert "X-Page-Cache" not in client.get(standings_url())
    client.logout()
    Event.objects.filter(pk=event.pk).update(public=False)
    assert client.get(standings_url()).status_code == 404


DEAD = "redis://127.0.0.1:1/0"  # a closed port: nothing listens there


def test_with_redis_down_pages_are_served_results_saved_and_the_sweep_catches_up(
    client, director, event, settings
):
    match = Match.objects.filter(round__event=event, round__number=2).first()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": DEAD,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    saved = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = DEAD, False
    app._pool = app.amqp._producer_pool = None
    try:
        for url in (
            standings_url(),
            reverse("tournaments:event", args=["cached"]),
            reverse("tournaments:round", args=["cached", 2]),
        ):
            assert client.get(url).status_code == 200
        outcome = results.record(
            match, [{"scores": [0, 1]}], expected_version=match.version, by=director
        )
        assert outcome.version == match.version + 1
        event.refresh_from_db()
        assert event.standings_version < event.results_version  # the recompute waits
        # the broker really is unreachable: nothing could be sent, and saying so is quiet
        assert standings.schedule_recompute(event.pk, event.results_version, delay=0) is False
        assert client.get(standings_url()).status_code == 200
    finally:
        app.conf.broker_url, app.conf.task_always_eager = saved
        app._pool = app.amqp._producer_pool = None
    # Redis is back (here: eager tasks and local memory): the periodic sweep catches up.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert tasks.sweep_standings.delay().get() == 1
    event.refresh_from_db()
    assert event.standings_version == event.results_version


def test_an_etag_gives_a_304_until_the_page_changes(client, director, event):
    client.get(standings_url())  # a first visit sets the CSRF cookie the page's token is for
    first = client.get(standings_url())
    etag = first["ETag"]
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    again = client.get(standings_url(), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    match = Match.objects.filter(round__event=event, round__number=2).first()
    results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    changed = client.get(standings_url(), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_gzip_client_gets_the_same_page_compressed(client, event):
    import gzip

    client.get(standings_url())  # fills the cache
    for _ in range(2):  # from the cache, then built anew
        response = client.get(standings_url(), HTTP_ACCEPT_ENCODING="gzip, deflate")
        assert response["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in response["Vary"]
        plain = client.get(standings_url()).content
        assert gzip.decompress(response.content) == plain
        Event.objects.filter(pk=event.pk).update(name="Cached Open")  # rebuilt on the next


def test_a_stamp_never_outlives_the_event_going_private(client, event, django_assert_num_queries):
    assert client.get(standings_url()).status_code == 200
    with django_assert_num_queries(0):
        assert client.get(standings_url())["X-Page-Cache"] == "hit"
    event.public = False
    event.save()
    assert client.get(standings_url()).status_code == 404
    Event.objects.filter(pk=event.pk).update(public=True)
    assert client.get(standings_url()).status_code == 200
    Event.objects.filter(pk=event.pk).update(slug="renamed")  # the old address is gone
    assert client.get(standings_url()).status_code == 404


def test_a_renamed_entrant_is_seen_on_the_cached_page(client, director, event):
    from tournaments.models import Entrant

    assert "Player 1<" in client.get(standings_url()).content.decode()
    assert client.get(standings_url())["X-Page-Cache"] == "hit"
    entrant = Entrant.objects.get(event=event, name="Player 1")
    entrant.name = "Player One"
    entrant.save()
    page = client.get(standings_url())
    assert page["X-Page-Cache"] == "miss"
    assert "Player One<" in page.content.decode()


def _read_in(client, language: str) -> None:
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    assert client.get(standings_url()).status_code == 200


def test_the_standings_task_stores_the_tables_before_anyone_asks(client, director, event):
    from unittest import mock

    from tournaments.views import fragments

    for language in ("en", "fr"):  # the event is read in both of the site's languages
        _read_in(client, language)
    match = Match.objects.filter(round__event=event, round__number=2).first()
    with mock.patch("tournaments.services.standings.schedule_recompute"):
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    event.refresh_from_db()
    assert tasks.recompute_standings(event.pk, event.results_version)
    with mock.patch.object(fragments, "render_to_string") as rendered:
        for language in ("en", "fr"):
            client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
            for url in (standings_url(), reverse("tournaments:event", args=["cached"])):
                assert client.get(url).status_code == 200
    assert not rendered.called  # standings, top ten and pairings: all stored by the task


@pytest.mark.parametrize("read", [[], ["en"], ["fr"]])
def test_the_standings_task_renders_only_in_the_languages_read(client, director, event, read):
    """A language nobody read the event in is left to its first reader (a release's French
    tables took the worker's time while the crowd read English pages)."""
    from unittest import mock

    from tournaments.views import fragments

    for language in read:
        _read_in(client, language)
    match = Match.objects.filter(round__event=event, round__number=2).first()
    with mock.patch("tournaments.services.standings.schedule_recompute"):
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    event.refresh_from_db()
    real = fragments.render_to_string
    rendered: list[str | None] = []

    def render(*args, **kwargs):
        rendered.append(translation.get_language())
        return real(*args, **kwargs)

    with mock.patch.object(fragments, "render_to_string", render):
        assert tasks.recompute_standings(event.pk, event.results_version)
        by_task = set(rendered)
        rendered.clear()
        for language in ("en", "fr"):
            _read_in(client, language)
    assert by_task == set(read or [django_settings.LANGUAGE_CODE])
    # the other language's first reader renders its tables, once
    assert set(rendered) == {"en", "fr"} - by_task


def test_a_worker_hears_of_another_workers_change_without_asking_redis(settings):
    """The generation every cached page checks: read from memory once the listener is
    subscribed, and a change published by another process arrives by itself."""
    import time

    import redis

    if "Redis" not in settings.CACHES["default"]["BACKEND"]:
        pytest.skip("needs Redis")
    first = pagegen.generation()
    listener = pagegen._listener()
    deadline = time.monotonic() + 5
    while not listener.epoch % 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # the listener subscribes
    assert pagegen.generation() == first
    other = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    key = pagecache.cache.make_key(pagegen.KEY)
    value = other.incr(key)
    other.publish(key, value)  # another worker's write
    with mock_get(listener) as asked:
        while pagegen.generation() != value and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pagegen.generation() == value
    assert asked == []  # every read came from memory


def mock_get(listener):
    import contextlib

    @contextlib.contextmanager
    def spy():
        asked = []
        real = listener.client.get
        listener.client.get = lambda key: asked.append(key) or real(key)
        try:
            yield asked
        finally:
            listener.client.get = real

    return spy()


@pytest.mark.parametrize(
    "name,args",
    [("event", []), ("round", [2]), ("standings", []), ("entrant", [1]), ("round_projector", [2])],
)
def test_every_cached_page_is_html_plain_and_the_same_gzipped(client, event, name, args):
    import gzip

    url = reverse(f"tournaments:{name}", args=["cached", *args])
    for _ in range(2):  # built (for a gzip client first), then from the cache
        packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert packed["Content-Encoding"] == "gzip"
        plain = client.get(url)
        assert not plain.has_header("Content-Encoding")
        assert plain.content.lstrip().lower().startswith(b"<!doctype html>")
        assert gzip.decompress(packed.content) == plain.content
