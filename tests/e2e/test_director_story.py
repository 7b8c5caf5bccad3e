"""The director's story in a real browser: sign in, create an event, import entrants from
CSV (a bad row first), publish round 1, enter results including an invalid score, fix it,
close the round; then a player on a phone finds the pairing and the standings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tournaments.models import Event, Round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GOOD_CSV = """name,rating,country
Ada Lovelace,2210,GB
Alan Turing,2180,GB
Grace Hopper,2155,US
Emmy Noether,2120,DE
"""
BAD_CSV = GOOD_CSV + "Kurt Godel,lots,AT\n"


@pytest.fixture
def director_account(django_user_model):
    return django_user_model.objects.create_user("dora", password="dora-secret-1")


def test_a_director_runs_round_one_and_a_player_finds_it(
    director_account, desktop, phone, live_url, shot, tmp_path
):
    page = desktop.new_page()
    page.goto(live_url("accounts:login"))
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill("dora-secret-1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(live_url("event_list"))

    # create the event, the format's settings appear when the format is chosen
    page.goto(live_url("manage_create"))
    page.get_by_label("Name").fill("Club Championship")
    page.get_by_label("Format").select_option("round_robin")
    page.locator("#settings input[name=setting_cycles], #settings select").first.wait_for()
    shot(page, "create-event")
    page.get_by_role("button", name="Create the event").click()
    page.get_by_role("heading", name="Entrants").wait_for()
    event = Event.objects.get(name="Club Championship")

    # a CSV with a bad row: refused whole, the line and the column named, nothing saved
    page.get_by_role("link", name="Import a CSV file").click()
    bad = tmp_path / "entrants.csv"
    bad.write_text(BAD_CSV)
    page.get_by_label("CSV file").set_input_files(str(bad))
    page.get_by_role("button", name="Check the file").click()
    page.get_by_text("Line 6: rating: 'lots' is not a whole number.").wait_for()
    shot(page, "csv-refused")
    assert event.entrants.count() == 0
    good = tmp_path / "good.csv"
    good.write_text(GOOD_CSV)
    page.get_by_label("CSV file").set_input_files(str(good))
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("button", name="Import them").click()
    page.get_by_text("4 entrants imported.").wait_for()
    assert event.entrants.count() == 4
    shot(page, "entrants")

    # draft round 1, review the engine's reasons, publish
    page.get_by_role("link", name="Event").first.click()
    page.get_by_role("button", name="Draft round 1").click()
    page.get_by_text("Berger table, round 1").first.wait_for()
    shot(page, "draft")
    page.get_by_role("button", name="Publish").click()
    page.get_by_text("players see it now").wait_for()

    # results in place: an invalid score is refused beside the match, then fixed
    first = page.locator("form.result-row").nth(0)
    inputs = first.locator("input.score-input")
    inputs.nth(0).fill("-2")
    inputs.nth(1).fill("1")
    inputs.nth(1).press("Enter")
    page.get_by_text("cannot be negative").wait_for()
    shot(page, "invalid-score")
    first = page.locator("form.result-row").nth(0)
    first.locator("input.score-input").nth(0).fill("2")
    first.locator("input.score-input").nth(1).press("Enter")
    page.locator("form.result-row.saved").first.wait_for()
    # Enter saved it and moved the cursor to the next match
    second = page.locator("form.result-row").nth(1)
    assert (
        second.locator("input.score-input").nth(0).evaluate("el => el === document.activeElement")
    )
    second.locator("input.score-input").nth(0).fill("1")
    second.locator("input.score-input").nth(1).fill("1")
    second.locator("input.score-input").nth(1).press("Enter")
    page.get_by_text("2 of 2 in").wait_for()
    shot(page, "results")
    page.get_by_role("button", name="Close the round").click()
    page.get_by_text("is closed").wait_for()
    assert Round.objects.get(event=event, number=1).status == "completed"

    # a player on a phone finds the pairing and the standings
    mobile = phone.new_page()
    mobile.goto(live_url("round", event.slug, 1))
    mobile.get_by_label("Find my name").fill("grace")
    expect(mobile.locator("#pairings tbody tr")).to_have_count(1)
    shot(mobile, "player-pairing")
    mobile.goto(live_url("standings", event.slug))
    mobile.locator("table.standings tbody tr").first.wait_for()
    assert mobile.locator("table.standings tbody tr").count() == 4
    shot(mobile, "player-standings")
