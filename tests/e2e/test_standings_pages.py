"""A large field's standings on a phone (issue 33): the top first, the next page by its
link, "find my name" across every page while typing, and axe WCAG 2.1 AA finds nothing on
a page, on a search, or on a signed-in player's page with their own row above the table."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.test_phone_widths import AXE_OPTIONS
from tests.factories import bulk_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _axe_clean(page) -> None:
    violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    assert violations == [], [v["id"] for v in violations]


def test_a_reader_pages_through_and_finds_a_name(phone, live_url, shot):
    bulk_event("paged", entrants=250, rounds=3, groups=5)
    page = phone.new_page()
    page.goto(live_url("standings", "paged"))
    expect(page.get_by_text("Rows 1 to 100 of 250")).to_be_visible()
    expect(page.locator("#overall-1")).to_be_visible()
    _axe_clean(page)
    shot(page, "page-1")
    page.get_by_role("link", name="Next page").click()
    expect(page.get_by_text("Rows 101 to 200 of 250")).to_be_visible()
    expect(page.locator("#overall-101")).to_be_visible()
    _axe_clean(page)
    shot(page, "page-2")
    page.get_by_label("Find my name").fill("Entrant 0230")
    # in the overall table and in group E
    expect(page.get_by_text("2 matches for “Entrant 0230”")).to_be_visible()
    _axe_clean(page)
    shot(page, "found")
    page.get_by_role("link", name="in the table").first.click()
    expect(page.get_by_text("Rows 201 to 250 of 250")).to_be_visible()
    expect(page.locator("#overall-230")).to_be_in_viewport()


def test_a_signed_in_player_sees_their_place_first(phone, live_url, shot, django_user_model):
    from tournaments.models import Entrant

    event = bulk_event("mine", entrants=250, rounds=3)
    user = django_user_model.objects.create_user("e230", password="pw-for-the-test-1")
    Entrant.objects.filter(event=event, number=230).update(user=user)
    page = phone.new_page()
    page.goto(live_url("accounts:login"))
    page.get_by_label("Username").fill("e230")
    page.get_by_label("Password").fill("pw-for-the-test-1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(live_url("event_list"))
    page.goto(live_url("standings", "mine"))
    own = page.locator("section.own-standings")
    expect(own.get_by_role("heading", name="Your place")).to_be_visible()
    expect(own.get_by_text("Entrant 0230")).to_be_visible()
    _axe_clean(page)
    shot(page, "own-place")
