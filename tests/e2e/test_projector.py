"""The projector in a real browser (issue 21, item 13): a round's "find your table" list on
a 1280x720 screen scrolls by itself, rests at the end and starts again at the top; with
reduced motion it turns a screenful at a time instead; a result typed by the director
appears without a reload; the standings projector shows the top of each table."""

from __future__ import annotations

import itertools
import time

import pytest
from playwright.sync_api import expect

from tests.factories import round_robin_event
from tournaments.models import Event, Match
from tournaments.services import results, rounds, standings

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 1280, "height": 720}


@pytest.fixture
def hall(director, settings):
    """Thirty players, round 1 published with no result yet."""
    settings.ARBITER_POLL_SECONDS = 1
    settings.ARBITER_PROJECTOR_PAUSE_SECONDS = 1
    event = round_robin_event(director, players=30, slug="hall")
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    event = Event.objects.get(pk=event.pk)
    standings.refresh(event.pk, event.results_version)
    return event


def _scroll_positions(page, seconds: float) -> list[int]:
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        seen.append(round(page.evaluate("window.scrollY")))
        page.wait_for_timeout(100)
    return seen


def test_the_round_projector_scrolls_and_refreshes_by_itself(
    hall, director, browser, live_url, shot
):
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    page.goto(live_url("round_projector", "hall", 1))
    expect(page.locator("#projector tbody tr")).to_have_count(30)
    shot(page, "round-projector")
    seen = _scroll_positions(page, 3)
    assert seen[-1] > 0, "the list did not scroll by itself"
    steps = [b - a for a, b in itertools.pairwise(seen) if b != a]
    assert steps and max(steps) < 100, f"it jumped instead of scrolling: {steps}"
    page.evaluate("window.notReloaded = true")

    # the director types a result: the screen shows it without a reload
    match = Match.objects.filter(round__event=hall).order_by("order").first()
    winner = match.participants.order_by("seat").first().entrant.name
    results.record(match, [{"scores": [3, 1]}], expected_version=match.version, by=director)
    row = page.locator("#projector tbody tr", has_text=winner).first
    expect(row.locator(".result")).to_have_text("won 3-1", timeout=15_000)
    assert page.evaluate("window.notReloaded === true")

    # at the end it rests, then starts again from the top
    end = page.evaluate("document.documentElement.scrollHeight - window.innerHeight")
    page.evaluate(f"window.scrollTo(0, {end})")
    seen = _scroll_positions(page, 3)
    assert seen[0] == end and 0 in seen, f"no rest at the end, then the top: {seen}"
    context.close()


def test_reduced_motion_turns_a_screenful_at_a_time(hall, browser, live_url):
    context = browser.new_context(viewport=SCREEN, reduced_motion="reduce")
    page = context.new_page()
    page.goto(live_url("round_projector", "hall", 1))
    expect(page.locator("#projector tbody tr")).to_have_count(30)
    seen = _scroll_positions(page, 3.5)
    moved = sorted(set(seen))
    assert len(moved) >= 2, "it did not turn a page"
    # whole screenfuls (less a row and the heading), never a slow slide
    assert moved[1] - moved[0] > SCREEN["height"] / 2, moved
    context.close()


def test_the_standings_projector_shows_each_table(hall, browser, live_url, shot):
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    page.goto(live_url("standings_projector", "hall"))
    expect(page.locator("#projector tbody tr")).to_have_count(30)
    expect(page.get_by_role("heading", name="Standings", level=1)).to_be_visible()
    shot(page, "standings-projector")
    context.close()
