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


def test_after_a_reload_the_cursor_skips_a_saved_forfeit(director, desktop, live_url, shot):
    """Issue 28, item 2: a forfeit saved without discs left empty boxes, and after a reload
    the cursor landed in them: "50 Tab 14 Enter" saved table 4 again as a forfeit with discs
    50-14 while table 5 stayed pending. The cursor goes to the first match without a result,
    and the forfeit's row shows the score the format gave it, never empty boxes."""
    from tournaments.services import results

    event, rnd = woc_round(director, players=10)
    rows = list(Match.objects.filter(round=rnd).order_by("order"))
    for match in rows[:3]:
        results.record(match, [{"scores": [40, 24]}], expected_version=0, by=director)
    forfeit = [{"ending": "forfeit", "scores": [None, None], "details": {"defaulter": 1}}]
    results.record(rows[3], forfeit, expected_version=0, by=director)
    page = sign_in(desktop, live_url)
    page.goto(live_url("manage_round", event.slug, rnd.number))
    four, five = page.locator(f"#match-{rows[3].pk}"), page.locator(f"#match-{rows[4].pk}")
    expect(four.locator("input[name=g1-s0]")).to_have_value("64")
    expect(four.locator("input[name=g1-s1]")).to_have_value("0")
    expect(five.locator("input[name=g1-s0]")).to_be_focused()
    page.keyboard.type("50")
    page.keyboard.press("Tab")
    page.keyboard.type("14")
    page.keyboard.press("Enter")
    expect(five.locator(".status")).to_contain_text("Saved: 50-14")
    shot(page, "cursor-after-forfeit")
    assert Match.objects.get(pk=rows[3].pk).result["summary"] == "64-0"
    assert Match.objects.get(pk=rows[3].pk).version == 1  # not saved again
    assert Match.objects.get(pk=rows[4].pk).result["summary"] == "50-14"


def test_a_correction_is_confirmed_with_enter_in_the_why_box(director, desktop, live_url, shot):
    """Issue 28, item 7: after the preview the cursor stayed in the score box, and Enter in
    the "Why" box ran the preview again. The preview puts the cursor in "Why"; Enter there
    confirms the correction that was previewed."""
    from tests.tournaments.test_corrections import four_round_swiss
    from tournaments.models import AuditEntry

    event, r1 = four_round_swiss(director, slug="keys")
    match = r1.matches.order_by("order").first()
    page = sign_in(desktop, live_url)
    page.goto(live_url("manage_round", event.slug, 1))
    row = page.locator(f"#match-{match.pk}")
    row.locator("input[name=g1-s0]").fill("24")
    row.locator("input[name=g1-s1]").fill("40")
    row.locator("input[name=g1-s1]").press("Enter")
    why = page.get_by_role("region", name="Preview of the correction").get_by_label(
        "Why (kept in the log)"
    )
    expect(why).to_be_focused()
    page.keyboard.type("score sheet misread")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Correction saved")).to_be_visible()
    shot(page, "correction-by-keyboard")
    assert Match.objects.get(pk=match.pk).result["summary"] == "24-40"
    entry = AuditEntry.objects.get(event=event, action="correction.result_confirmed")
    assert entry.reason == "score sheet misread"
