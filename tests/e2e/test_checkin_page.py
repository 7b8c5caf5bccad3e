"""Check-in in a real browser (issue 21, item 12): the director marks an absence with htmx
(the row and the counts change in place), drafts "with the N present" and sees the absence
in the draft; a GokoDom player says "I can't play round 2" on a 390 px phone; and without
JavaScript the toggle still works."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import gokodom_event, round_robin_event
from tournaments.services import rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _sign_in(browser, live_server, username: str, password: str, **options):
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    return context, page


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def test_a_director_checks_in_and_drafts_with_the_present(
    browser, live_server, live_url, shot, django_user_model
):
    director = django_user_model.objects.create_user("dora", password="dora-secret-1")
    event = round_robin_event(director, players=6, slug="checkin")
    context, page = _sign_in(
        browser, live_server, "dora", "dora-secret-1", viewport={"width": 1280, "height": 900}
    )
    page.goto(live_url("manage_checkin", event.slug))
    expect(page.get_by_role("status")).to_contain_text("6 of 6 checked in")
    page.get_by_role("button", name="Mark Player 3 absent").click()
    expect(page.locator("#checkin-3")).to_have_class("absent")
    expect(page.get_by_role("status")).to_contain_text("5 of 6 checked in")
    draft = page.get_by_role("button", name="Draft round 1 with the 5 present")
    expect(draft).to_be_visible()
    shot(page, "checkin-desktop")
    draft.click()  # the button swapped in by htmx is a working form
    expect(page.locator("#round-absent")).to_contain_text("3. Player 3")
    expect(page.get_by_text("Player 3 is absent: the game is a forfeit")).to_be_visible()
    shot(page, "draft-with-the-absence")
    context.close()

    phone, page = _sign_in(
        browser,
        live_server,
        "dora",
        "dora-secret-1",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        java_script_enabled=False,
    )
    page.goto(live_url("manage_checkin", event.slug))
    expect(page.locator("h1")).to_have_text("Check-in for round 2")
    page.get_by_role("button", name="Mark Player 5 absent").click()  # a plain form post
    expect(page.get_by_text("Player 5 is absent for the next round.")).to_be_visible()
    expect(page.locator("#checkin-5")).to_have_class("absent")
    _fits(page)
    shot(page, "checkin-phone-no-js")
    phone.close()


def test_a_gokodom_player_says_they_cannot_play_next_round(
    browser, live_server, live_url, shot, director
):
    event = gokodom_event(director, swiss_rounds=3, slug="goko-absent")
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    entrant = rnd.matches.first().participants.first().entrant
    context, page = _sign_in(
        browser,
        live_server,
        entrant.user.username,
        "pw-player-1",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
    )
    page.goto(live_url("gokodom_player", event.slug))
    page.get_by_role("button", name="I can't play round 2").click()
    expect(page.get_by_text("You told the director you cannot play round 2.")).to_be_visible()
    expect(page.get_by_text("You get a Bye by Request, worth a draw.")).to_be_visible()
    expect(page.get_by_role("button", name="I can play round 2 after all")).to_be_visible()
    _fits(page)
    shot(page, "gokodom-player-phone")
    context.close()
