"""Issue 30 step 7 in a real browser: on a 390 px phone the director makes an API token on
the event's Tokens screen (htmx: the secret appears once, in place), the token reads the
export, a confirmed revoke refuses it at once; axe WCAG 2.1 AA finds nothing, in English
and in French, and the page is never wider than the screen."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.test_phone_widths import AXE_OPTIONS
from tests.factories import play_round, round_robin_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _checked(page) -> None:
    violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    assert violations == [], [f"{v['id']}: {v['help']}" for v in violations]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_director_makes_uses_and_revokes_a_token_on_a_phone(
    browser, live_server, live_url, shot, django_user_model, language
):
    director = django_user_model.objects.create_user("dora", password="dora-secret-1")
    event = round_robin_event(director, players=6, slug="tokens")
    play_round(event, director)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=language)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill("dora")
    page.locator("#id_password").fill("dora-secret-1")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    page.goto(live_url("manage_tokens", event.slug))
    _checked(page)
    shot(page, f"tokens-empty-{language}")
    page.locator("#id_name").fill("federation mirror")
    page.locator("form.stack button[type=submit]").click()
    secret = page.locator("#new-token")
    expect(secret).to_be_visible()
    token = secret.inner_text().strip()
    assert token.startswith("arb_")
    expect(page.locator("table.api-tokens")).to_contain_text("federation mirror")
    _checked(page)
    shot(page, f"tokens-made-{language}")
    url = live_url("api-v1:export", event.slug)
    reading = context.request.get(url, headers={"Authorization": f"Bearer {token}"})
    assert reading.status == 200 and reading.json()["event"]["slug"] == "tokens"
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("table.api-tokens button").first.click()
    expect(page.locator("table.api-tokens button")).to_have_count(0)
    expect(page.locator("#new-token")).to_have_count(0)
    _checked(page)
    shot(page, f"tokens-revoked-{language}")
    refused = context.request.get(url, headers={"Authorization": f"Bearer {token}"})
    assert refused.status == 401
    context.close()
