"""The player's part of the story: on a phone, find my pairing and open the standings.
Then the same page without JavaScript, a page that refreshes itself when a result comes
in, and group tables side by side on a desktop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.factories import bulk_event, play_round, round_robin_event
from tournaments.models import Match
from tournaments.services import results

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club_round_2(director):
    """Eight players, round 1 closed, round 2 published with no result yet."""
    event = round_robin_event(director, players=8, slug="club")
    play_round(event, director, scores=lambda m: [3, 1])
    from tournaments.services import rounds

    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return event


def test_a_player_on_a_phone_finds_their_pairing_and_the_standings(
    club_round_2, phone, live_url, shot
):
    page = phone.new_page()
    page.goto(live_url("event_list"))
    shot(page, "event-list")
    page.get_by_role("link", name="RR club").click()
    page.get_by_role("heading", name="RR club").wait_for()
    shot(page, "event-home")

    page.get_by_role("link", name="Round 2").first.click()
    # the click only starts the navigation: wait for the round's page before counting
    page.wait_for_url(re.compile(r"/e/club/rounds/2/"))
    expect(page.locator("#pairings tbody tr")).to_have_count(4)
    page.get_by_label("Find my name").fill("player 5")
    # htmx swaps the pairings as the player types: one match left, the name marked
    expect(page.locator("#pairings tbody tr")).to_have_count(1)
    assert page.locator("#pairings mark").inner_text() == "Player 5"
    assert re.search(r"q=player(\+|%20)5", page.url)  # the filtered view keeps its address
    assert page.locator("#find-q").evaluate("el => el === document.activeElement")
    shot(page, "find-my-name")

    page.locator("#pairings mark").click()
    page.get_by_role("heading", name="Player 5").wait_for()
    assert page.locator("table.entrant-matches tbody tr").count() == 2
    shot(page, "entrant-page")

    page.get_by_role("navigation", name="Event").get_by_role("link", name="Standings").click()
    page.locator("table.standings").wait_for()
    assert page.locator("table.standings tbody tr").count() == 8
    page.get_by_text("Why these ties were broken").click()
    ties = page.locator("details.why", has_text="Why these ties were broken")
    assert ties.locator("li").first.is_visible()
    # nothing wider than the phone: tables scroll inside their own box, not the page
    assert page.evaluate("document.documentElement.scrollWidth") <= 412
    shot(page, "standings")


def test_find_my_name_works_without_javascript(club_round_2, browser, live_url, shot):
    context = browser.new_context(viewport={"width": 412, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_url("round", "club", 2))
    page.get_by_label("Find my name").fill("Player 2")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"q=Player\+2"))
    assert page.locator("#pairings tbody tr").count() == 1
    assert page.get_by_role("status").inner_text().startswith("1 match for")
    shot(page, "no-js-find")
    context.close()


def test_pairings_refresh_themselves_when_a_result_comes_in(
    club_round_2, director, desktop, live_url, settings, shot
):
    settings.ARBITER_POLL_SECONDS = 1
    page = desktop.new_page()
    page.goto(live_url("round", "club", 2))
    page.evaluate("window.notReloaded = true")
    first = page.locator("#pairings tbody tr").first
    assert "pending" in first.inner_text()
    match = Match.objects.filter(round__event=club_round_2, round__number=2).order_by("order")[0]
    results.record(match, [{"scores": [2, 2]}], expected_version=match.version, by=director)
    expect(page.locator("#pairings tbody tr").first).not_to_contain_text("pending", timeout=15_000)
    assert page.evaluate("window.notReloaded === true")  # swapped in place, no reload
    shot(page, "refreshed")


def test_keyboard_users_can_skip_to_the_content(club_round_2, desktop, live_url):
    page = desktop.new_page()
    page.goto(live_url("standings", "club"))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"


def test_group_tables_sit_side_by_side_on_a_desktop(desktop, phone, live_url, shot):
    bulk_event("groups", entrants=24, rounds=2, groups=4)
    for context, name in ((desktop, "desktop"), (phone, "phone")):
        page = context.new_page()
        page.goto(live_url("standings", "groups"))
        a = page.get_by_role("heading", name="Group A").bounding_box()
        b = page.get_by_role("heading", name="Group B").bounding_box()
        assert (a["y"] == b["y"]) is (name == "desktop"), name
        assert page.get_by_text("Still to be settled").is_visible()
        shot(page, f"groups-{name}")
