"""The language switch in a real browser: on a 390 px phone a player finds it in the header,
it takes them to the same page in French and back, and it works without JavaScript."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import play_round, round_robin_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OVERFLOW = "document.documentElement.scrollWidth > window.innerWidth"


@pytest.fixture
def club(director):
    event = round_robin_event(director, players=6, slug="club")
    play_round(event, director, scores=lambda m: [3, 1])
    return event


def test_a_player_on_a_small_phone_switches_to_french_and_back(club, small_phone, live_url, shot):
    page = small_phone.new_page()
    url = live_url("standings", club.slug)
    page.goto(url)
    switch = page.locator("header.site form.language button")
    expect(switch).to_have_text("Français")
    box = switch.bounding_box()
    assert box and box["x"] + box["width"] <= 390 and box["y"] < 120, "on the first screen"
    switch.click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.url == url, "back on the same page"
    expect(page.locator("main h2").first).to_contain_text("Classement")
    assert not page.evaluate(OVERFLOW)
    shot(page, "standings-fr")
    page.get_by_role("link", name="Aperçu").click()  # the choice stays for the next page
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.locator("header.site form.language button").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("link", name="Overview")).to_be_visible()


def test_the_switch_works_without_javascript(club, browser, live_url):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(live_url("round", club.slug, 1))
        page.get_by_role("button", name="Français").click()
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.get_by_role("button", name="Chercher")).to_be_visible()
    finally:
        context.close()
