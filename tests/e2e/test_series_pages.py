"""Series pages in a real browser (issue 32, docs/series.md): the public standings on a
390 px phone and a desktop, a total's "Why" opened, a player's page, and the director's
screen importing a bad file (every bad line named) then a good one; every page fits the
phone and passes axe (WCAG 2.1 AA)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.test_checkin_page import _fits, _sign_in
from tests.e2e.test_phone_widths import AXE_OPTIONS
from tournaments.services import series

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _axe(page) -> None:
    violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]


def _grand_prix(director):
    gp = series.create_series(
        slug="puzzle-gp",
        name="Puzzle Grand Prix",
        by=director,
        kind="grand_prix",
        best=6,
        public=True,
    )
    for number in range(1, 9):
        lines = [
            f"Solver {p},{(p * 97 + number * 31) % 700},{2000 + p}"
            for p in range(1, 13)
            if (p + number) % 7  # some solvers miss a round
        ]
        series.import_scores(gp, name=f"Round {number}", text="\n".join(lines), by=director)
    return gp


def test_series_standings_on_a_phone_and_a_desktop(browser, live_url, shot, django_user_model):
    director = django_user_model.objects.create_user("dora", password="dora-secret-1")
    gp = _grand_prix(director)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_url("series", gp.slug))
    expect(page.locator("h1")).to_have_text("Puzzle Grand Prix")
    _fits(page)
    _axe(page)
    shot(page, "series-phone")
    first = page.locator("details.why-total").first
    first.locator("summary").click()
    expect(first).to_contain_text("stages played")
    _axe(page)
    shot(page, "series-phone-why-open")
    page.locator("tbody th a").first.click()
    expect(page.get_by_role("heading", name="How the total is made")).to_be_visible()
    _fits(page)
    _axe(page)
    shot(page, "series-player-phone")
    context.close()
    wide = browser.new_context(viewport={"width": 1280, "height": 900})
    page = wide.new_page()
    page.goto(live_url("series", gp.slug))
    expect(page.locator("th.stage-col").first).to_be_visible()  # the stage columns show
    _axe(page)
    shot(page, "series-desktop")
    wide.close()


def test_a_director_imports_scores_on_a_phone(
    browser, live_server, live_url, shot, django_user_model
):
    django_user_model.objects.create_user("dora", password="dora-secret-1")
    context, page = _sign_in(browser, live_server, "dora", "dora-secret-1", **PHONE)
    page.goto(live_url("manage_series_create"))
    _fits(page)
    _axe(page)
    page.get_by_label("Name", exact=True).fill("Spring circuit")
    page.get_by_label("Best stages that count").fill("2")
    page.get_by_role("button", name="Create the series").click()
    expect(page.locator("h1")).to_have_text("Spring circuit")
    _fits(page)
    _axe(page)
    shot(page, "series-manage-empty")
    page.get_by_label("Stage name").first.fill("Round 1")
    page.get_by_label("or paste it here").fill("Ann,10\nBob,ten\n,3\n")
    page.get_by_role("button", name="Import the scores").click()
    alerts = page.get_by_role("alert")
    expect(alerts.first).to_contain_text("Line 2: the score 'ten' of Bob is not a number.")
    expect(alerts.nth(1)).to_contain_text("Line 3: the player's name is empty.")
    _fits(page)
    _axe(page)
    shot(page, "series-manage-bad-csv")
    page.get_by_label("or paste it here").fill("Ann,10\nBob,7\n")
    page.get_by_role("button", name="Import the scores").click()
    expect(page.get_by_role("status")).to_contain_text("The scores are imported.")
    expect(page.locator("table.standings")).to_contain_text("Round 1")
    _fits(page)
    _axe(page)
    shot(page, "series-manage-imported")
    page.get_by_role("link", name="public page").click()
    expect(page.locator("table.series-table")).to_contain_text("Ann")
    context.close()
