"""Invite links on the director's entrant list (issue 21, item 6), in a real browser: the
copy button copies the link, a new link replaces the old one in place (htmx), and without
JavaScript the link is plain selectable text; at desktop width and on a 390 px phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import round_robin_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def signed_in(browser, live_server, django_user_model):
    """A browser context factory signed in as the event's director."""
    director = django_user_model.objects.create_user("dora", password="dora-secret-1")
    event = round_robin_event(director, players=4, slug="invites")
    contexts = []

    def open_context(**options):
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill("dora")
        page.get_by_label("Password").fill("dora-secret-1")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
        return page

    yield event, open_context
    for context in contexts:
        context.close()


def test_copy_and_renew_an_invite_link(signed_in, live_url, shot):
    event, open_context = signed_in
    page = open_context(viewport={"width": 1280, "height": 900})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(live_url("manage_entrants", event.slug))
    first = event.entrants.get(number=1)
    link = page.locator("#invite-1")
    expect(link).to_have_text(f"{live_url('accounts:claim_code', first.claim_code)}")
    copy = page.locator("#entrant-1 button[data-copy]")
    expect(copy).to_have_text("copy link")
    expect(copy).to_be_visible()  # the script shows it
    copy.click()
    expect(copy).to_have_text("copied")
    assert page.evaluate("navigator.clipboard.readText()") == link.text_content().strip()
    shot(page, "entrant-list-desktop")

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#entrant-1").get_by_role("button", name="new link").click()
    first.refresh_from_db()
    expect(page.locator("#invite-1")).to_have_text(
        live_url("accounts:claim_code", first.claim_code)
    )
    # the swapped-in row's copy button works too
    expect(page.locator("#entrant-1").get_by_role("button", name="copy link")).to_be_visible()


def test_without_javascript_the_link_is_text_and_the_phone_page_fits(signed_in, live_url, shot):
    event, open_context = signed_in
    page = open_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, java_script_enabled=False
    )
    page.goto(live_url("manage_entrants", event.slug))
    expect(page.locator("#invite-2")).to_have_text(
        live_url("accounts:claim_code", event.entrants.get(number=2).claim_code)
    )
    expect(page.locator("#entrant-2").get_by_role("button", name="copy link")).to_be_hidden()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    shot(page, "entrant-list-phone-no-js")
