"""The results desk at the keyboard (issue 21, finding 11): the cursor starts in the first
empty score box, a click on Save moves it to the next match like Enter does, and Enter on a
menu (how the game ended, who defaulted) saves the row."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_corrections import sign_in
from tests.tournaments.test_results_desk import first_match, woc_round
from tournaments.models import Match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_typing_results_with_the_keyboard(director, desktop, live_url, shot):
    event, rnd = woc_round(director, players=6)
    first = first_match(rnd)
    rows = list(Match.objects.filter(round=rnd).order_by("order"))
    page = sign_in(desktop, live_url)
    page.goto(live_url("manage_round", event.slug, rnd.number))
    one = page.locator(f"#match-{rows[0].pk}")
    expect(one.locator("input[name=g1-s0]")).to_be_focused()
    page.keyboard.type("40")
    page.keyboard.press("Tab")
    page.keyboard.type("24")
    one.get_by_role("button", name="Save").click()
    two = page.locator(f"#match-{rows[1].pk}")
    expect(page.locator(f"#match-{rows[0].pk} .status")).to_contain_text("Saved: 40-24")
    expect(two.locator("input[name=g1-s0]")).to_be_focused()
    # a forfeit: chosen from the menus, saved with Enter on the last menu
    two.locator("select[name=g1-ending]").select_option("forfeit")
    defaulter = two.locator("select[name=g1-defaulter]")
    defaulter.select_option("1")
    defaulter.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"#match-{rows[1].pk} .status")).to_contain_text("did not play (forfeit)")
    shot(page, "keyboard-results")
    assert Match.objects.get(pk=first.pk).result["summary"] == "40-24"
