"""Webhooks (issue 30, step 4): signed messages to a director's URLs, written with the
change and sent after its commit, retried with a backoff for 24 h, refused to internal
addresses, and shown on the director's screens."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import ipaddress
import socket

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import play_round, round_robin_event
from tests.webhooks.receiver import Receiver
from tournaments.models import AuditEntry, WebhookDelivery, WebhookEndpoint
from tournaments.services import rounds, webhook_http, webhooks
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
ALL = list(webhooks.KINDS)


@pytest.fixture
def local(settings):
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = True
    settings.ARBITER_WEBHOOK_TIMEOUT = 2


@pytest.fixture
def receiver():
    r = Receiver()
    r.start()
    yield r
    r.stop()


def _hook(event, director, url, kinds=ALL):
    endpoint, secret = webhooks.create_endpoint(event, url, kinds, by=director)
    return endpoint, secret


# -- signatures ---------------------------------------------------------------------------


def receiver_verify(secret: str, header: str, body: bytes, now: float, tolerance: int = 300):
    """The receiver's check as docs/api.md writes it, in a few standard-library lines."""
    fields = dict(part.split("=", 1) for part in header.split(","))
    timestamp = int(fields["t"])
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    fresh = abs(now - timestamp) <= tolerance
    return fresh and hmac.compare_digest(expected.hexdigest(), fields["v1"])


def test_signature_is_hmac_sha256_over_timestamp_and_body():
    body = b'{"kind":"round.published"}'
    header = webhooks.signature("whsec_abc", 1_800_000_000, body)
    assert header.startswith("t=1800000000,v1=")
    assert receiver_verify("whsec_abc", header, body, now=1_800_000_010)
    assert webhooks.verify("whsec_abc", header, body, now=1_800_000_010)
    # a changed body, another secret, a replay ten minutes later: refused
    assert not webhooks.verify("whsec_abc", header, body + b" ", now=1_800_000_010)
    assert not webhooks.verify("whsec_abd", header, body, now=1_800_000_010)
    assert not webhooks.verify("whsec_abc", header, body, now=1_800_000_600)
    assert not receiver_verify("whsec_abc", header, body, now=1_800_000_600)
    assert not webhooks.verify("whsec_abc", "v1=00", body)


def test_the_secret_is_shown_once_and_never_stored(director, local):
    event = round_robin_event(director, players=4)
    endpoint, secret = _hook(event, director, "http://127.0.0.1:9/hook")
    assert secret.startswith("whsec_") and len(secret) == 70
    assert webhooks.secret_for(WebhookEndpoint.objects.get(pk=endpoint.pk)) == secret
    stored = " ".join(str(v) for v in WebhookEndpoint.objects.values().get(pk=endpoint.pk).values())
    assert secret not in stored and secret[6:] not in stored
    _other, second = _hook(event, director, "http://127.0.0.1:9/other")
    assert second != secret


def test_deliveries_are_signed_and_carry_the_key_and_kind(
    director, local, receiver, django_capture_on_commit_callbacks
):
    event = round_robin_event(director, players=4)
    endpoint, secret = _hook(event, director, receiver.url)
    receiver.secret = secret
    with django_capture_on_commit_callbacks(execute=True):
        row = webhooks.send_test(endpoint)
    row.refresh_from_db()
    assert row.status == WebhookDelivery.Status.DELIVERED and row.last_status_code == 204
    assert receiver.bad_signatures == 0
    assert receiver.received == [str(row.idempotency_key)]
    message = receiver.applied[str(row.idempotency_key)]
    assert message["kind"] == "webhook.test" and message["event"] == event.slug
    # the Host header names the URL's host, though the connection went to the address
    assert receiver.hosts == [f"127.0.0.1:{receiver.port}"]


# -- what is sent, and when --------------------------------------------------------------


def test_each_moment_sends_its_kind_after_the_commit_only(
    director, local, receiver, django_capture_on_commit_callbacks
):
    event = round_robin_event(director, players=4)
    _hook(event, director, receiver.url)
    draft = rounds.draft_next_round(event, by=director).round
    with django_capture_on_commit_callbacks(execute=False) as later:
        rounds.publish_round(draft, by=director)
    # written with the change, not sent before its commit
    assert WebhookDelivery.objects.filter(kind="round.published").count() == 1
    assert receiver.received == []
    for callback in later:
        callback()
    [published] = receiver.applied.values()
    assert published["kind"] == "round.published"
    assert published["about"] == {"round": 1}
    assert published["links"]["round"].endswith(f"/api/v1/events/{event.slug}/rounds/1/")
    with django_capture_on_commit_callbacks(execute=True):
        play_round_rest(event, director)
    kinds = sorted(m["kind"] for m in receiver.applied.values())
    assert kinds.count("result.saved") == 2
    assert "standings.changed" in kinds
    saved = [m for m in receiver.applied.values() if m["kind"] == "result.saved"]
    assert {m["about"]["correction"] for m in saved} == {False}
    assert all("@" not in str(m) for m in receiver.applied.values())  # no e-mail address


def play_round_rest(event, director):
    from tournaments.services import results

    rnd = event.rounds.get(number=1)
    for match in rnd.matches.prefetch_related("participants"):
        if len(match.participants.all()) == 2:
            results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)


def test_a_change_rolled_back_sends_nothing(
    director, local, receiver, django_capture_on_commit_callbacks
):
    event = round_robin_event(director, players=4)
    _hook(event, director, receiver.url)
    draft = rounds.draft_next_round(event, by=director).round
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        rounds.publish_round(draft, by=director)
        raise RuntimeError("the request failed after publishing")
    assert not WebhookDelivery.objects.exists()
    assert receiver.received == []


def test_only_the_kinds_asked_for_and_only_active_endpoints(
    director, local, receiver, django_capture_on_commit_callbacks
):
    event = round_robin_event(director, players=4)
    _hook(event, director, receiver.url, kinds=["round.published"])
    off, _secret = _hook(event, director, receiver.url.replace("x=1", "x=2"))
    webhooks.set_active(off, False, by=director)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event, director)
    assert [m["kind"] for m in receiver.applied.values()] == ["round.published"]


def test_a_correction_says_so(director, local, receiver, django_capture_on_commit_callbacks):
    from tournaments.services import results

    event = round_robin_event(director, players=4)
    play_round(event, director)
    _hook(event, director, receiver.url, kinds=["result.saved"])
    match = event.rounds.get(number=1).matches.filter(result__isnull=False).first()
    with django_capture_on_commit_callbacks(execute=True):
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    [message] = receiver.applied.values()
    assert message["about"]["correction"] is True
    assert message["about"]["match"] == match.code


def test_the_end_of_the_event_is_sent_once(
    director, local, receiver, django_capture_on_commit_callbacks
):
    event = round_robin_event(director, players=3)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            play_round(event, director)
    _hook(event, director, receiver.url, kinds=["event.finished"])
    with django_capture_on_commit_callbacks(execute=True):
        assert rounds.draft_next_round(event, by=director).finished is not None
        assert rounds.draft_next_round(event, by=director).finished is not None  # asked twice
    assert [m["kind"] for m in receiver.applied.values()] == ["event.finished"]


# -- failures, backoff, 410 ------------------------------------------------------------------


def test_backoff_doubles_from_30_seconds_to_an_hour_for_24_hours(settings):
    waits = [webhooks.backoff(n).total_seconds() for n in range(1, 10)]
    assert waits == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]
    total, attempts = 0.0, 0
    while total <= 24 * 3600:
        attempts += 1
        total += webhooks.backoff(attempts).total_seconds()
    assert 25 < attempts < 35  # about 30 tries over the day, none after it


def test_a_failing_receiver_is_retried_on_the_schedule_then_given_up(director, local, receiver):
    event = round_robin_event(director, players=4)
    endpoint, _secret = _hook(event, director, receiver.url)
    receiver.mode = "503"
    with transaction.atomic():
        row = webhooks.send_test(endpoint)
    start = timezone.now()
    webhooks.deliver([row.pk], now=start)
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_status_code) == ("pending", 1, 503)
    assert row.next_attempt_at == start + dt.timedelta(seconds=30)
    # not due yet: nothing sent
    webhooks.deliver([row.pk], now=start + dt.timedelta(seconds=29))
    row.refresh_from_db()
    assert row.attempts == 1
    moment = start
    while row.status == "pending":
        moment = row.next_attempt_at
        webhooks.deliver([row.pk], now=moment)
        row.refresh_from_db()
    assert row.status == WebhookDelivery.Status.FAILED
    assert moment <= start + dt.timedelta(hours=24) and row.next_attempt_at is None
    assert len(receiver.received) == row.attempts


def test_410_gone_turns_the_endpoint_off(director, local, receiver):
    event = round_robin_event(director, players=4)
    endpoint, _secret = _hook(event, director, receiver.url)
    receiver.mode = "410"
    with transaction.atomic():
        first = webhooks.send_test(endpoint)
        second = webhooks.send_test(endpoint)
    webhooks.deliver([first.pk, second.pk])
    endpoint.refresh_from_db()
    assert not endpoint.active and "410" in endpoint.disabled_reason
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"cancelled"}
    assert len(receiver.received) == 1  # the second was never sent
    assert AuditEntry.objects.filter(event=event, action="webhook.gone").exists()


def test_the_sweep_sends_what_a_lost_task_never_sent(director, local, receiver):
    event = round_robin_event(director, players=4)
    endpoint, _secret = _hook(event, director, receiver.url)
    with transaction.atomic():  # on_commit never runs inside the test's transaction: lost
        row = webhooks.send_test(endpoint)
    WebhookDelivery.objects.filter(pk=row.pk).update(
        status="pending", attempts=0, next_attempt_at=timezone.now()
    )
    assert webhooks.sweep() == 0  # left to its own task for a moment
    assert webhooks.sweep(now=timezone.now() + dt.timedelta(minutes=1)) == 1
    row.refresh_from_db()
    assert row.status == "delivered"


# -- SSRF --------------------------------------------------------------------------------

REFUSED = {
    "10.1.2.3": "private",
    "172.16.0.1": "private",
    "192.168.1.10": "private",
    "127.0.0.1": "loopback",
    "127.8.9.10": "loopback",
    "::1": "loopback",
    "169.254.169.254": "link-local",
    "fe80::1": "link-local",
    "224.0.0.251": "multicast",
    "ff02::1": "multicast",
    "0.0.0.0": "unspecified",
    "::": "unspecified",
    "240.0.0.1": "reserved",
    "100.64.0.1": "reserved",
    "fc00::1": "private",
    "::ffff:127.0.0.1": "loopback",
    "::ffff:10.0.0.1": "private",
    "::ffff:169.254.169.254": "link-local",
    "192.0.2.1": "private",
}


@pytest.mark.parametrize("address", sorted(REFUSED))
def test_internal_addresses_are_refused(address, settings):
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = False
    why = webhook_http.refusal(ipaddress.ip_address(address))
    assert why, address
    assert REFUSED[address] in why or why == "a reserved address"
    host = f"[{address}]" if ":" in address else address
    with pytest.raises(webhook_http.UnsafeTarget):
        webhook_http.resolve(f"http://{host}/hook")


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:4700:4700::1111", "1.1.1.1"])
def test_public_addresses_are_allowed(address, settings):
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = False
    assert webhook_http.refusal(ipaddress.ip_address(address)) == ""


def test_allow_local_opens_loopback_and_private_but_not_link_local(settings):
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = True
    for address in ["127.0.0.1", "::1", "10.0.0.5", "192.168.1.2", "::ffff:127.0.0.1"]:
        assert webhook_http.refusal(ipaddress.ip_address(address)) == "", address
    for address in ["169.254.169.254", "fe80::1", "224.0.0.1", "0.0.0.0", "240.0.0.1"]:
        assert webhook_http.refusal(ipaddress.ip_address(address)), address


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/hook",
        "file:///etc/passwd",
        "gopher://example.org/",
        "http://user:pw@example.org/hook",
        "http://user@example.org/hook",
        "http:///nohost",
        "http://example.org:99999/",
        "javascript:alert(1)",
    ],
)
def test_bad_urls_are_refused(url):
    with pytest.raises(webhook_http.UnsafeTarget):
        webhook_http.check_url(url)


def _answers(*batches):
    """A DNS that answers each lookup with the next batch of addresses (rebinding)."""
    calls: list[str] = []
    asked = [0]
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if not str(host).endswith(".example.org"):
            return real(host, port, *args, **kwargs)  # the database, Redis
        calls.append(host)
        asked[0] += 1
        batch = batches[min(asked[0] - 1, len(batches) - 1)]
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in batch
        ]

    return getaddrinfo, calls


def test_a_name_resolving_to_any_internal_address_is_refused(monkeypatch, settings):
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = False
    lookup, _calls = _answers(["93.184.216.34", "10.0.0.7"])
    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    with pytest.raises(webhook_http.UnsafeTarget, match=r"10\.0\.0\.7"):
        webhook_http.resolve("https://hooks.example.org/x")


def test_dns_rebinding_the_name_is_resolved_once_and_that_address_is_dialled(
    monkeypatch, settings, director
):
    """The first answer is public, every later one is 127.0.0.1: the connection still goes
    to the address that was checked, because the name is never looked up again."""
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = False
    lookup, calls = _answers(["93.184.216.34"], ["127.0.0.1"])
    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    dialled = []

    def create_connection(address, timeout=None, *args, **kwargs):
        dialled.append(address)
        raise ConnectionRefusedError("test: not really connecting")

    monkeypatch.setattr(socket, "create_connection", create_connection)
    event = round_robin_event(director, players=4)
    endpoint, _secret = _hook(event, director, "http://rebind.example.org:8080/hook")
    calls.clear()
    with transaction.atomic():
        row = webhooks.send_test(endpoint)
    # creating it looked the name up (public); the attempt looks it up once more: now loopback
    webhooks.deliver([row.pk])
    row.refresh_from_db()
    assert calls == ["rebind.example.org"]
    assert dialled == []  # the second answer (loopback) was refused before any connection
    assert "127.0.0.1" in row.last_error and row.status == "pending"
    # and a target resolved while public is dialled at that address, never by name
    target = webhook_http.Target("http", "rebind.example.org", 8080, "/hook", "93.184.216.34")
    with pytest.raises(OSError):
        webhook_http.post(target, b"{}", {}, timeout=1)
    assert dialled == [("93.184.216.34", 8080)]


def test_redirects_are_not_followed(director, local):
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    hits = []

    class Redirect(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            hits.append(self.path)
            self.send_response(307)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.end_headers()

    server = HTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        event = round_robin_event(director, players=4)
        endpoint, _secret = _hook(event, director, f"http://127.0.0.1:{server.server_port}/h")
        with transaction.atomic():
            row = webhooks.send_test(endpoint)
        webhooks.deliver([row.pk])
    finally:
        server.shutdown()
        server.server_close()
    row.refresh_from_db()
    assert hits == ["/h"] and row.last_status_code == 307 and row.status == "pending"


def test_creating_an_endpoint_names_the_problem_and_saves_nothing(director, settings):
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = False
    event = round_robin_event(director, players=4)
    with pytest.raises(ServiceError) as refused:
        webhooks.create_endpoint(event, "http://127.0.0.1/x", [], by=director)
    fields = {p.field for p in refused.value.problems}
    assert fields == {"url", "kinds"}
    assert not WebhookEndpoint.objects.exists()


# -- the director's screens ------------------------------------------------------------------


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_only_the_events_directors_see_or_change_webhooks(director, django_user_model, local):
    event = round_robin_event(director, players=4)
    endpoint, _secret = _hook(event, director, "http://127.0.0.1:9/hook")
    with transaction.atomic():
        row = webhooks.send_test(endpoint)
    stranger = _client(django_user_model.objects.create_user("stranger", password="pw-s-1"))
    urls = [
        ("get", reverse("tournaments:manage_webhooks", args=[event.slug])),
        ("get", reverse("tournaments:manage_webhook_log", args=[event.slug])),
        ("post", reverse("tournaments:manage_webhooks", args=[event.slug])),
        ("post", reverse("tournaments:manage_webhook", args=[event.slug, endpoint.pk])),
        ("post", reverse("tournaments:manage_webhook_resend", args=[event.slug, row.pk])),
    ]
    for method, url in urls:
        data = {"url": "http://127.0.0.1:9/x", "kinds": ALL, "action": "delete", "attempts": "0"}
        assert getattr(stranger, method)(url, data).status_code == 404, url
        assert getattr(Client(), method)(url, data).status_code == 302, url  # to sign in
    assert WebhookEndpoint.objects.count() == 1
    # another event's director cannot reach this event's endpoint through their own event
    other = round_robin_event(django_user_model.objects.get(username="stranger"), slug="other")
    url = reverse("tournaments:manage_webhook", args=[other.slug, endpoint.pk])
    assert stranger.post(url, {"action": "delete"}).status_code == 404
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()


def test_the_webhooks_page_adds_shows_the_secret_once_and_turns_off(director, local):
    event = round_robin_event(director, players=4)
    client = _client(director)
    url = reverse("tournaments:manage_webhooks", args=[event.slug])
    page = client.get(url)
    assert page.status_code == 200 and b"Add a webhook" in page.content
    bad = client.post(url, {"url": "ftp://x.org/", "kinds": ALL}, headers=HTMX)
    assert bad.status_code == 422 and b"http:// or https://" in bad.content
    made = client.post(
        url, {"url": "http://127.0.0.1:9/hook", "kinds": ["round.published"]}, headers=HTMX
    )
    assert made.status_code == 201
    endpoint = WebhookEndpoint.objects.get()
    secret = webhooks.secret_for(endpoint)
    assert secret.encode() in made.content and b"<html" not in made.content
    assert secret.encode() not in client.get(url).content  # shown once
    change = reverse("tournaments:manage_webhook", args=[event.slug, endpoint.pk])
    off = client.post(change, {"action": "off"}, headers=HTMX)
    assert off.status_code == 200 and b"Turn on" in off.content
    endpoint.refresh_from_db()
    assert not endpoint.active
    assert client.post(change, {"action": "delete"}).status_code == 302
    assert not WebhookEndpoint.objects.exists()
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"webhook.added", "webhook.disabled", "webhook.deleted"} <= actions


def test_send_again_is_version_checked_and_audited(
    director, local, receiver, django_capture_on_commit_callbacks
):
    event = round_robin_event(director, players=4)
    endpoint, _secret = _hook(event, director, receiver.url)
    receiver.mode = "503"
    with transaction.atomic():
        row = webhooks.send_test(endpoint)
    webhooks.deliver([row.pk])
    row.refresh_from_db()
    client = _client(director)
    log = client.get(reverse("tournaments:manage_webhook_log", args=[event.slug]))
    assert b"HTTP 503" in log.content and b"Send again" in log.content
    url = reverse("tournaments:manage_webhook_resend", args=[event.slug, row.pk])
    stale = client.post(url, {"attempts": "0"}, headers=HTMX)  # the page showed 0 attempts
    assert stale.status_code == 422 and b"tried since you opened the page" in stale.content
    receiver.mode = "up"
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(url, {"attempts": str(row.attempts)}, headers=HTMX)
    assert again.status_code == 200
    row.refresh_from_db()
    assert row.status == "delivered"
    assert receiver.applied.keys() == {str(row.idempotency_key)}
    entry = AuditEntry.objects.get(event=event, action="webhook.resent")
    assert entry.actor == director
