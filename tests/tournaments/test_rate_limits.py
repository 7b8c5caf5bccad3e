"""Rate limits: a player's own result actions and the referee API answer 429 past their
limit, say how long to wait, save nothing, and count each player, token or address apart."""

import json
import time
import uuid

import pytest
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from tests.factories import bot_contest_event, gokodom_event
from tests.tournaments.test_format_bot_contest import api, first_game
from tests.tournaments.test_format_bot_contest import post as post_game
from tests.tournaments.test_format_gokodom import HTMX, client_for, pair
from tests.tournaments.test_format_gokodom import post as post_action
from tournaments import ratelimit
from tournaments.formats.bot_contest import services as bots
from tournaments.models import AuditEntry, Event, Match, RefereeGame
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_cache(settings):
    """A private cache: counters left in a shared Redis by an earlier run stay out."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"rate-limits-{uuid.uuid4()}",
        }
    }


def limits(settings, **changed):
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, **changed}


@pytest.mark.parametrize(
    ("text", "count", "seconds"),
    [("20/m", 20, 60), ("5/10s", 5, 10), ("100 / h", 100, 3600), ("0/d", 0, 86400)],
)
def test_rates_read_as_count_per_period(text, count, seconds):
    assert ratelimit.parse_rate(text) == ratelimit.Rate(count, seconds)


@pytest.mark.parametrize("text", ["", "20", "20/minute", "-1/m", "m/20"])
def test_a_bad_rate_names_itself(text):
    with pytest.raises(ImproperlyConfigured, match=f"got {text!r}"):
        ratelimit.parse_rate(text)


def test_every_configured_limit_is_a_valid_rate(settings):
    assert set(settings.ARBITER_RATE_LIMITS) == {
        "self_report",
        "referee",
        "referee_bad_token",
        "signup",
        "event_create",
        "event_create_address",
        "api",
        "api_bad_token",
    }
    for scope in settings.ARBITER_RATE_LIMITS:
        assert ratelimit.rate_for(scope).count > 0


def test_counts_each_key_apart_in_the_real_cache(settings):
    # the configured cache (Redis under CI): unique keys, so other runs cannot interfere
    limits(settings, self_report="3/m")
    key, other = f"test:{uuid.uuid4()}", f"test:{uuid.uuid4()}"
    start = time.time()
    answers = [ratelimit.hit("self_report", key, now=start) for _ in range(3)]
    assert answers == [None, None, None]
    assert ratelimit.hit("self_report", key, now=start + 20) == 40  # the window's rest
    assert ratelimit.hit("self_report", other, now=start + 20) is None


def test_a_window_starts_at_the_first_request_and_ends_after_its_period(settings):
    limits(settings, self_report="1/1s")
    key = f"test:{uuid.uuid4()}"
    assert ratelimit.hit("self_report", key) is None
    assert ratelimit.hit("self_report", key) == 1
    time.sleep(1.5)  # the counter's own expiry in the cache, not a timing assertion
    assert ratelimit.hit("self_report", key) is None


def test_a_cache_that_is_down_lets_requests_through(settings, monkeypatch):
    limits(settings, self_report="0/m")

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    # the backend itself, not the proxy: its teardown would reach whichever backend the
    # test's own cache settings (tests/conftest.py) leave in place by then
    monkeypatch.setattr(caches["default"], "add", down)
    assert ratelimit.hit("self_report", f"test:{uuid.uuid4()}") is None


def test_behind_a_proxy_the_last_forwarded_address_counts(settings):
    request = RequestFactory().get(
        "/", HTTP_X_FORWARDED_FOR="6.6.6.6, 10.0.0.7", REMOTE_ADDR="127.0.0.1"
    )
    settings.ARBITER_CLIENT_IP_HEADER = ""
    assert ratelimit.client_ip(request) == "127.0.0.1"
    settings.ARBITER_CLIENT_IP_HEADER = "X-Forwarded-For"
    assert ratelimit.client_ip(request) == "10.0.0.7"  # the proxy's hop, not the client's


def test_a_forwarded_hop_that_is_not_an_address_falls_back_to_the_peer(settings):
    settings.ARBITER_CLIENT_IP_HEADER = "X-Forwarded-For"
    forged = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="<script>", REMOTE_ADDR="10.0.0.1")
    assert ratelimit.client_ip(forged) == "10.0.0.1"
    ipv6 = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="2001:DB8::1", REMOTE_ADDR="10.0.0.1")
    assert ratelimit.client_ip(ipv6) == "2001:db8::1"


@pytest.fixture
def goko(director):
    event = gokodom_event(director)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return event, rnd


def test_player_self_report_past_the_limit_is_429_and_saves_nothing(goko, settings, own_cache):
    limits(settings, self_report="2/m")
    event, rnd = goko
    match, a, b = pair(rnd)
    client = client_for(a)
    answers = [post_action(client, "message", event, match).status_code for _ in range(2)]
    assert answers == [302, 302]
    messages_saved = len(Match.objects.get(pk=match.pk).details.get("messages", []))
    audit_rows = AuditEntry.objects.count()

    refused = post_action(client, "report", event, match, {"outcome": "W"})
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60
    text = refused.content.decode()
    assert "Too many requests" in text and f"Wait {wait} seconds" in text
    assert "nothing was saved" in text
    match.refresh_from_db()
    assert "report" not in match.details
    assert len(match.details.get("messages", [])) == messages_saved
    assert AuditEntry.objects.count() == audit_rows

    # the opponent has a count of their own
    assert post_action(client_for(b), "report", event, match, {"outcome": "L"}).status_code == 302
    match.refresh_from_db()
    assert match.details["report"]["status"] == "reported"


def test_htmx_gets_the_message_alone_placed_above_the_card(goko, settings, own_cache):
    limits(settings, self_report="0/m")
    event, rnd = goko
    match, a, _ = pair(rnd)
    response = post_action(client_for(a), "report", event, match, {"outcome": "W"}, **HTMX)
    assert response.status_code == 429
    assert response["HX-Reswap"] == "beforebegin"
    text = response.content.decode()
    assert "<html" not in text and 'role="alert"' in text and "Wait 60 seconds" in text


def test_signing_in_comes_before_counting(goko, settings, own_cache):
    limits(settings, self_report="0/m")
    event, rnd = goko
    match, _, _ = pair(rnd)
    assert post_action(Client(), "report", event, match).status_code == 302  # to sign in


@pytest.fixture
def contest(director):
    event = bot_contest_event(director, entries=4)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return event, rnd


def test_referee_posts_past_the_limit_get_json_429_and_nothing_is_stored(
    contest, director, settings, own_cache
):
    limits(settings, referee="1/m")
    event, rnd = contest
    _, token = bots.create_token(event, by=director)
    client = Client()
    assert post_game(client, event, token, first_game(rnd, "g-1"))[0] == 201
    status, body = post_game(client, event, token, first_game(rnd, "g-2"))
    assert status == 429
    assert 1 <= body["retry_after"] <= 60 and "nothing was saved" in body["error"]
    assert list(RefereeGame.objects.values_list("game_id", flat=True)) == ["g-1"]
    # another token (a second referee machine) is counted apart
    _, second = bots.create_token(event, by=director)
    assert post_game(client, event, second, first_game(rnd, "g-3"))[0] != 429


def test_guessing_referee_tokens_is_slowed_per_address(contest, director, settings, own_cache):
    limits(settings, referee_bad_token="2/m")
    event, rnd = contest
    _, token = bots.create_token(event, by=director)
    client = Client(REMOTE_ADDR="192.0.2.9")
    answers = [post_game(client, event, f"guess-{n}", first_game(rnd))[0] for n in range(3)]
    assert answers == [403, 403, 429]
    response = client.post(api(event), "{}", content_type="application/json")
    assert response.status_code == 429 and response["Retry-After"]
    # the right token from that address still works; another address is not slowed
    assert post_game(client, event, token, first_game(rnd))[0] == 201
    assert post_game(Client(REMOTE_ADDR="192.0.2.10"), event, "guess", first_game(rnd))[0] == 403


# -- sign-up per address, event creation and import per account (issue 20) ---------------

SIGNUP = reverse("accounts:signup")
CREATE = reverse("tournaments:manage_create")
IMPORT = reverse("tournaments:manage_import_event")


def sign_up(address: str, n: int):
    """A new visitor behind the TLS proxy (every request comes from 10.0.0.1)."""
    client = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=address)
    data = {
        "username": f"user{n}",
        "email": f"user{n}@example.org",
        "password1": "violet-kite-72",
        "password2": "violet-kite-72",
    }
    return client, client.post(SIGNUP, data)


def test_sign_up_past_the_limit_per_address_is_429_and_creates_nothing(settings, own_cache):
    settings.ARBITER_CLIENT_IP_HEADER = "X-Forwarded-For"
    limits(settings, signup="3/h")
    answers = [sign_up("198.51.100.1", n)[1].status_code for n in range(3)]
    assert answers == [302, 302, 302]
    client, refused = sign_up("198.51.100.1", 3)
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 3500 < wait <= 3600
    text = refused.content.decode()
    assert "Too many requests" in text and f"Wait {-(-wait // 60)} minutes" in text
    assert not User.objects.filter(username="user3").exists()
    assert client.get(SIGNUP).status_code == 200  # the form itself is not counted
    # another visitor behind the same proxy has a count of their own
    assert sign_up("198.51.100.2", 4)[1].status_code == 302
    assert User.objects.count() == 4


def create(client, slug: str):
    data = {"name": slug, "slug": slug, "format": "round_robin", "time_zone": "UTC", "save": "1"}
    return client.post(CREATE, data)


def test_creating_events_past_the_limit_per_account_is_429_and_creates_nothing(
    settings, own_cache, director, django_user_model
):
    limits(settings, event_create="2/h")
    client = Client()
    client.force_login(director)
    assert client.get(CREATE).status_code == 200
    assert client.get(CREATE, {"format": "round_robin"}).status_code == 200  # not counted
    assert [create(client, slug).status_code for slug in ("one", "two")] == [302, 302]
    refused = create(client, "three")
    assert refused.status_code == 429
    assert 3500 < int(refused["Retry-After"]) <= 3600
    assert not Event.objects.filter(slug="three").exists()
    # importing an event counts in the same limit: the check is refused before any work
    text = json.dumps({"format_version": 1})
    refused_import = client.post(IMPORT, {"step": "check", "text": text, "kind": "auto"})
    assert refused_import.status_code == 429
    # another account is counted apart
    other = Client()
    other.force_login(django_user_model.objects.create_user("other", password="pw-other-1"))
    assert create(other, "three").status_code == 302
    assert sorted(Event.objects.values_list("slug", flat=True)) == ["one", "three", "two"]


def test_creating_events_past_the_limit_per_address_is_429_whatever_the_account(
    settings, own_cache, django_user_model
):
    """Issue 29 finding 5: one address made 278 public events with 10 accounts in 60 s;
    the limits were per account only."""
    settings.ARBITER_CLIENT_IP_HEADER = "X-Forwarded-For"
    limits(settings, event_create="30/h", event_create_address="3/h")

    def client_at(address: str, n: int) -> Client:
        client = Client(HTTP_X_FORWARDED_FOR=address)
        client.force_login(django_user_model.objects.create_user(f"flood{n}", password="pw-f-1"))
        return client

    answers = [create(client_at("198.51.100.7", n), f"flood-{n}").status_code for n in range(5)]
    assert answers == [302, 302, 302, 429, 429]
    assert Event.objects.filter(slug__startswith="flood-").count() == 3
    # an import from that address is refused too, before any work
    refused = client_at("198.51.100.7", 9).post(IMPORT, {"step": "check", "text": "{}"})
    assert refused.status_code == 429
    # another address behind the same proxy has a count of its own
    assert create(client_at("198.51.100.8", 10), "elsewhere").status_code == 302


def test_event_imports_are_counted_per_account(settings, own_cache, director):
    limits(settings, event_create="1/h")
    client = Client()
    client.force_login(director)
    assert client.get(IMPORT).status_code == 200  # the form is not counted
    first = client.post(IMPORT, {"step": "check", "text": "{}", "kind": "event"})
    assert first.status_code == 422  # checked (and refused for what the file lacks)
    second = client.post(IMPORT, {"step": "check", "text": "{}", "kind": "event"})
    assert second.status_code == 429
    assert "Too many requests" in second.content.decode()
