"""Issue 32 in a real browser, on a 390 px phone: a player enters an open event (no
account: name and e-mail), confirms the address by the mailed link, is waitlisted (the one
place is taken), is offered the place when its holder withdraws by their own link, and
confirms it. Every page is axe-clean (WCAG 2.0/2.1 A and AA) and never wider than the
screen; the director's entries screen too."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core import mail
from playwright.sync_api import expect

from tests.e2e.test_phone_widths import AXE_OPTIONS
from tournaments.models import Entry
from tournaments.services import events, places
from tournaments.services import registration as registration_settings

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _checked(page) -> None:
    violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    assert violations == [], [f"{v['id']}: {v['help']}" for v in violations]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def _link(address: str) -> str:
    (message,) = [m for m in mail.outbox if m.to == [address]][-1:]
    return re.search(r"https?://\S+/entry/\S+/", message.body).group(0)


def test_a_player_enters_waits_is_promoted_and_confirms_on_a_phone(
    small_phone, live_server, live_url, shot, settings, director
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ARBITER_SITE_URL = live_server.url
    event = events.create_event(
        slug="open-cup", name="Open Cup", format="round_robin", by=director, public=True
    )
    registration_settings.update_settings(event, {"open": True, "capacity": 1}, by=director)
    holder = places.confirm_email(places.enter(event, name="Ann Early", email="ann@example.org"))
    assert holder.status == "accepted"

    page = small_phone.new_page()
    page.goto(live_url("enter", event.slug))
    expect(page.get_by_role("heading", level=1)).to_have_text("Enter Open Cup")
    expect(page.get_by_text("1 of 1 taken")).to_be_visible()
    _checked(page)
    page.get_by_role("button", name="Enter").click()  # empty: the fields say what is missing
    expect(page.get_by_text("This field is required.").first).to_be_visible()
    _checked(page)
    shot(page, "enter-errors")
    page.get_by_label("Name").fill("Pia Late")
    page.get_by_label("E-mail").fill("pia@example.org")
    page.get_by_role("button", name="Enter").click()
    expect(page.locator("#entry-status")).to_contain_text("E-mail not confirmed yet")

    # the mailed link confirms the address: the event is full, so she waits
    page.goto(_link("pia@example.org"))
    page.get_by_role("button", name="Confirm my entry").click()
    expect(page.locator("#entry-status")).to_contain_text("Waiting list")
    expect(page.locator("#entry-status")).to_contain_text("number 1 in line")
    _checked(page)
    shot(page, "waitlisted")

    # Ann withdraws by her own link (another browser page, no sign-in)
    other = small_phone.new_page()
    other.goto(live_url("entry", event.slug, holder.token))
    other.get_by_role("button", name="Withdraw my entry").click()
    expect(other.locator("#entry-status")).to_contain_text("Withdrew")
    other.close()

    # Pia is mailed the offer, with a time to confirm; she confirms on her phone
    offer = [m for m in mail.outbox if m.to == ["pia@example.org"]][-1]
    assert "a place is yours if you confirm" in offer.subject
    page.goto(_link("pia@example.org"))
    expect(page.locator("#entry-status")).to_contain_text("Offered a place")
    expect(page.get_by_text("Confirm by")).to_be_visible()
    _checked(page)
    shot(page, "offered")
    page.get_by_role("button", name="Confirm my place").click()
    expect(page.locator("#entry-status")).to_contain_text("Has a place")
    _checked(page)
    shot(page, "confirmed")
    assert Entry.objects.get(email="pia@example.org").status == "accepted"


def test_the_directors_entries_screen_fits_a_phone(small_phone, live_server, live_url, shot):
    from django.contrib.auth import get_user_model

    dora = get_user_model().objects.create_user("dora", password="dora-secret-1")
    event = events.create_event(slug="cup", name="Cup", format="round_robin", by=dora)
    registration_settings.update_settings(event, {"open": True, "capacity": 2}, by=dora)
    for name in ("Ann Early", "Bob Second", "Cat Third"):
        places.confirm_email(
            places.enter(event, name=name, email=f"{name.split()[0].lower()}@example.org")
        )
    page = small_phone.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill("dora-secret-1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    page.goto(live_url("manage_entries_list", event.slug))
    expect(page.get_by_text("2 of 2 places held")).to_be_visible()
    _checked(page)
    page.get_by_role("button", name="Refuse Ann Early").click()
    expect(page.get_by_text("Ann Early: done.")).to_be_visible()
    expect(page.locator("tr", has_text="Cat Third")).to_contain_text("Offered a place")
    _checked(page)
    shot(page, "director-entries")
