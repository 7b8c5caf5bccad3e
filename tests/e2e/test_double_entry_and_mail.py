"""Issue 21, items 14 and 15 in a real browser: two directors enter a result blind, disagree,
and the head director settles it from the dashboard's "needs you"; a player enters their
own result and turns mail off on their page; a mail's unsubscribe link works without
signing in. Desktop and a 390 px phone, with no sideways scrolling on the phone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.services import claim_entrant
from tests.factories import round_robin_event
from tournaments.models import Match
from tournaments.services import double_entry, events, notifications, rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
User = get_user_model()
NARROW = {"width": 390, "height": 844}


def sign_in(context, live_url, username: str, password: str):
    page = context.new_page()
    page.goto(live_url("accounts:login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(live_url("event_list"))
    return page


def fits(page, width: int = NARROW["width"]) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def enter(page, match: Match, a: int, b: int) -> None:
    row = page.locator(f"#match-{match.pk}")
    row.locator("input[name=g1-s0]").fill(str(a))
    row.locator("input[name=g1-s1]").fill(str(b))
    row.get_by_role("button", name="Save").click()


def test_two_directors_disagree_and_the_head_director_settles(
    director, browser, desktop, live_url, shot
):
    event = round_robin_event(director, players=4, slug="blind")
    User.objects.create_user("bea", password="pw-bea-1")
    events.add_director(event, "bea", by=director)
    double_entry.set_enabled(event, True, by=director)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()

    bea = sign_in(desktop, live_url, "bea", "pw-bea-1")
    bea.goto(live_url("manage_round", event.slug, 1))
    enter(bea, match, 39, 25)
    expect(bea.locator(f"#match-{match.pk}").get_by_text("Your entry is in.")).to_be_visible()
    shot(bea, "first-entry-desktop")

    phone = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True)
    head = sign_in(phone, live_url, "director", "pw-director-1")
    head.goto(live_url("manage_round", event.slug, 1))
    row = head.locator(f"#match-{match.pk}")
    expect(row.get_by_text("First entry by bea: waiting for a second entry.")).to_be_visible()
    expect(row.locator("input[name=g1-s0]")).to_have_value("")  # blind: nothing shown
    fits(head)
    shot(head, "waiting-phone")
    enter(head, match, 25, 39)
    expect(row.get_by_role("alert")).to_contain_text("differs from the first one")
    assert Match.objects.get(pk=match.pk).result is None

    head.goto(live_url("manage", event.slug))
    needs = head.get_by_role("region", name="Needs you (1)")
    expect(needs).to_contain_text("the two entries of the result disagree")
    expect(needs).to_contain_text("bea entered 39-25")
    fits(head)
    shot(head, "needs-you-phone")
    needs.get_by_role("link").first.click()
    row = head.locator(f"#match-{match.pk}")
    expect(row).to_contain_text("director entered 25-39")
    enter(head, match, 39, 25)
    expect(row.get_by_text("The disagreement is settled.")).to_be_visible()
    shot(head, "settled-phone")
    assert Match.objects.get(pk=match.pk).result["summary"] == "39-25"
    phone.close()


def test_a_player_enters_their_result_and_turns_mail_off(director, browser, live_url, shot):
    event = round_robin_event(director, players=4, slug="mine")
    double_entry.set_enabled(event, True, by=director)
    player = User.objects.create_user("pia", email="pia@example.org", password="pw-pia-1")
    claim_entrant(player, event.entrants.get(number=1).claim_code)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)

    phone = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True)
    page = sign_in(phone, live_url, "pia", "pw-pia-1")
    page.goto(live_url("entrant", event.slug, 1))
    fits(page)
    shot(page, "own-page-phone")
    page.get_by_role("link", name="Enter your result of").click()
    page.locator("input[name=g1-s0]").fill("40")
    page.locator("input[name=g1-s1]").fill("24")
    page.get_by_role("button", name="Enter my result").click()
    expect(page.get_by_text("Your entry is in.")).to_be_visible()
    fits(page)
    shot(page, "entered-phone")

    page.goto(live_url("entrant", event.slug, 1))
    section = page.get_by_role("region", name="E-mail")
    section.get_by_label("My pairings").uncheck()
    section.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved: no e-mail about this event.")).to_be_visible()
    shot(page, "mail-off-phone")
    assert event.entrants.get(number=1).emails_off

    # a mail's "everything" link, opened without signing in
    anonymous = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True)
    token = notifications.unsubscribe_token(notifications.USER, player.pk)
    stop = anonymous.new_page()
    stop.goto(live_url("unsubscribe", token))
    expect(stop.get_by_text("This stops all e-mail from Arbiter to pia.")).to_be_visible()
    stop.get_by_role("button", name="Stop these e-mails").click()
    expect(stop.get_by_text("Done: all e-mail from Arbiter to pia is off.")).to_be_visible()
    fits(stop)
    shot(stop, "unsubscribed-phone")
    assert User.objects.get(pk=player.pk).emails_off
    anonymous.close()
    phone.close()
