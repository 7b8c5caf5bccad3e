"""Issue 30, step 2: "The public pages use it [the event's stream] instead of polling where the
browser allows". A round page in Chromium follows the stream: with the poll set to ten
minutes, a result typed by the director shows within seconds, without a reload; without
Redis the stream is refused and the page polls as before."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.factories import round_robin_event
from tournaments.models import Event, Match
from tournaments.services import results, rounds, standings

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REDIS_URL = os.environ.get("REDIS_URL")


@pytest.fixture
def hall(director, settings):
    settings.ARBITER_LIVE_WSGI = True  # the live server is WSGI, as `make run`'s runserver
    settings.ARBITER_LIVE_HEARTBEAT_SECONDS = 1
    event = round_robin_event(director, players=6, slug="hall")
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    event = Event.objects.get(pk=event.pk)
    standings.refresh(event.pk, event.results_version)
    return event


def _type_a_result(event: Event, director) -> str:
    match = Match.objects.filter(round__event=event).order_by("order").first()
    winner = match.participants.order_by("seat").first().entrant.name
    results.record(match, [{"scores": [3, 1]}], expected_version=match.version, by=director)
    return winner


@pytest.mark.skipif(
    not REDIS_URL and os.environ.get("CI") != "true", reason="needs REDIS_URL (CI sets it)"
)
def test_a_round_page_updates_through_the_stream(hall, director, browser, live_url, settings, shot):
    settings.REDIS_URL = REDIS_URL
    settings.ARBITER_POLL_SECONDS = 600  # the poll cannot be what shows the result
    page = browser.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/version" in r.url else None)
    page.goto(live_url("round", "hall", 1))
    expect(page.locator("html")).to_have_attribute("data-live", "stream")
    page.evaluate("window.notReloaded = true")
    winner = _type_a_result(hall, director)
    row = page.locator("tr", has_text=winner).first
    expect(row).to_contain_text("3-1", timeout=8_000)
    assert page.evaluate("window.notReloaded === true")
    # one ask per change the stream told of (the result, then the standings), none timed
    assert 1 <= len(asked) <= 2, asked
    shot(page, "round-updated-by-the-stream")
    page.close()


def test_without_redis_the_page_polls(hall, director, browser, live_url, settings):
    settings.REDIS_URL = None
    settings.ARBITER_POLL_SECONDS = 1
    page = browser.new_page()
    page.goto(live_url("round", "hall", 1))
    expect(page.locator("html")).to_have_attribute("data-live", "poll")
    winner = _type_a_result(hall, director)
    expect(page.locator("tr", has_text=winner).first).to_contain_text("3-1", timeout=8_000)
    page.close()
