"""The director's webhooks screens in a real browser (issue 30, step 4): a webhook added with
htmx shows its secret once, a test message reaches a real receiver, a failing one appears in
the delivery log and "Send again" delivers it; both pages fit a 390 px phone and pass axe
(WCAG 2.1 AA), in English and in French."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings as django_settings
from playwright.sync_api import expect

from tests.e2e.test_checkin_page import _fits, _sign_in
from tests.e2e.test_phone_widths import AXE_OPTIONS
from tests.factories import round_robin_event
from tests.webhooks.receiver import Receiver
from tournaments.models import WebhookDelivery

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _axe(page) -> None:
    violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]


def test_a_director_adds_a_webhook_tests_it_and_sends_a_failed_delivery_again(
    browser, live_server, live_url, shot, django_user_model, settings
):
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = True
    settings.ARBITER_WEBHOOK_TIMEOUT = 2
    receiver = Receiver()
    receiver.start()
    try:
        django_user_model.objects.create_user("dora", password="dora-secret-1")
        director = django_user_model.objects.get(username="dora")
        event = round_robin_event(director, players=4, slug="hooks")
        context, page = _sign_in(
            browser,
            live_server,
            "dora",
            "dora-secret-1",
            viewport={"width": 390, "height": 844},
            is_mobile=True,
        )
        page.goto(live_url("manage_webhooks", event.slug))
        expect(page.locator("h1")).to_have_text("Webhooks")
        _fits(page)
        _axe(page)
        shot(page, "webhooks-empty-phone")
        page.get_by_label("Receiver's URL").fill("ftp://example.org/x")
        page.get_by_role("button", name="Add the webhook").click()
        expect(page.get_by_role("alert")).to_contain_text("http:// or https://")
        _axe(page)
        page.get_by_label("Receiver's URL").fill(receiver.url)
        page.get_by_label("New standings published").uncheck()
        page.get_by_role("button", name="Add the webhook").click()
        secret = page.locator("#webhook-secret")
        expect(secret).to_contain_text("whsec_")
        receiver.secret = secret.inner_text().strip()
        _fits(page)
        _axe(page)
        shot(page, "webhook-added-secret-shown-once")
        page.get_by_role("button", name=f"Send a test message to {receiver.url}").click()
        expect(page.get_by_text("Test message delivered.")).to_be_visible()
        assert len(receiver.applied) == 1 and receiver.bad_signatures == 0
        expect(page.locator("#webhook-secret")).to_have_count(0)  # shown once only
        # the receiver fails: the log shows it, and "Send again" delivers once it is back
        receiver.mode = "503"
        page.get_by_role("button", name=f"Send a test message to {receiver.url}").click()
        expect(page.get_by_text("was not delivered")).to_be_visible()
        page.get_by_role("link", name="Delivery log").click()
        expect(page.locator("tr.delivery.status-pending")).to_contain_text("HTTP 503")
        _fits(page)
        _axe(page)
        shot(page, "delivery-log-phone")
        receiver.mode = "up"
        page.locator("tr.delivery.status-pending button").click()
        expect(page.locator("tr.delivery.status-pending")).to_have_count(0)
        assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"delivered"}
        assert len(receiver.applied) == 2
        shot(page, "delivery-log-sent-again")
        context.close()

        # in French, at the same width
        french, page = _sign_in(
            browser,
            live_server,
            "dora",
            "dora-secret-1",
            viewport={"width": 390, "height": 844},
            is_mobile=True,
        )
        host = urlsplit(live_server.url).hostname
        french.add_cookies(
            [
                {
                    "name": django_settings.LANGUAGE_COOKIE_NAME,
                    "value": "fr",
                    "domain": host,
                    "path": "/",
                }
            ]
        )
        for name in ("manage_webhooks", "manage_webhook_log"):
            page.goto(live_url(name, event.slug))
            assert page.locator("html").get_attribute("lang") == "fr"
            _fits(page)
            _axe(page)
            shot(page, f"{name}-fr")
        french.close()
    finally:
        receiver.stop()
