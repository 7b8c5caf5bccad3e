"""Issue 30 step 3: "a subscribe link on the pages": the event's page and an entrant's page
offer the calendar (webcal:// to subscribe, the .ics file to download) in English and in
French, the downloaded file is a calendar, and the pages keep passing axe."""

from __future__ import annotations

import datetime
from pathlib import Path

import icalendar
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.test_phone_widths import AXE_OPTIONS
from tests.factories import play_round, round_robin_event
from tournaments.models import Event
from tournaments.services import round_times

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _event(director) -> Event:
    event = round_robin_event(director, players=4, slug="cal-page")
    Event.objects.filter(pk=event.pk).update(venue="Town hall", time_zone="Europe/Paris")
    rnd = play_round(event, director, complete=False)
    round_times.set_start_time(
        rnd, datetime.datetime(2026, 8, 1, 8, 0, tzinfo=datetime.UTC), by=director
    )
    return event


def test_the_pages_offer_the_calendars(director, phone, live_url, shot):
    event = _event(director)
    page = phone.new_page()
    for view, args, name in (
        ("event", (event.slug,), "event"),
        ("entrant", (event.slug, 1), "entrant"),
    ):
        page.goto(live_url(view, *args))
        links = page.locator("p.calendar-links a")
        expect(links).to_have_count(2)
        webcal = links.nth(0).get_attribute("href")
        assert webcal.startswith("webcal://") and webcal.endswith("calendar.ics")
        with page.expect_download() as download:
            links.nth(1).click()
        calendar = icalendar.Calendar.from_ical(Path(download.value.path()).read_bytes())
        assert calendar.walk("VEVENT")
        page.locator("p.calendar-links").scroll_into_view_if_needed()
        shot(page, f"{name}-calendar-links")
        violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
        assert violations == [], [v["id"] for v in violations]


def test_both_pages_offer_the_links_in_either_language(client, director):
    event = _event(director)
    pages = {
        f"/e/{event.slug}/": "The rounds in a calendar:",
        f"/e/{event.slug}/entrants/1/": "These matches in a calendar:",
    }
    for language in ("en", "fr"):
        for url, words in pages.items():
            body = client.get(url, headers={"Accept-Language": language}).content.decode()
            assert "calendar.ics" in body and 'href="webcal://' in body
            # the words are marked for translation; the French catalogue is the lead's
            assert words in body or language == "fr"
