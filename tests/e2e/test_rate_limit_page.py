"""A player past the self-report limit sees why nothing was saved and how long to wait: above
the match card with htmx, as a page of its own without JavaScript."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import gokodom_event
from tournaments.models import Match
from tournaments.services import rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_in(page, live_url, username: str) -> None:
    page.goto(live_url("accounts:login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-player-1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(live_url("event_list"))


def test_a_player_over_the_limit_is_told_to_wait(
    director, settings, browser, phone, live_url, shot
):
    event = gokodom_event(director, slug="goko")
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "self_report": "0/m"}
    message = "Message the director: we could not agree a time"
    wait = "You sent too many requests in a short time; nothing was saved."

    page = phone.new_page()
    sign_in(page, live_url, "goko-p1")
    page.goto(live_url("gokodom_player", event.slug))
    page.get_by_role("button", name=message).click()
    alert = page.get_by_role("alert").filter(has_text=wait)
    expect(alert).to_be_visible()
    expect(page.locator("#match-card")).to_be_visible()  # the card stays, with its buttons
    shot(page, "htmx-message-above-the-card")

    plain = browser.new_context(java_script_enabled=False, viewport={"width": 412, "height": 900})
    page = plain.new_page()
    sign_in(page, live_url, "goko-p1")
    page.goto(live_url("gokodom_player", event.slug))
    page.get_by_role("button", name=message).click()
    expect(page.get_by_role("heading", name="Too many requests")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text(wait)
    shot(page, "page-without-javascript")
    plain.close()
    assert not any("messages" in m.details for m in Match.objects.filter(round__event=event))
