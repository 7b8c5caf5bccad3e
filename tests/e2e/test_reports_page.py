"""The Reports page in a real browser (issue 28, item 10a): a director's screen with the
director's menu; Build is disabled and says "Building…" while the report is asked for, so a
quick second click is never lost without a word: it is not sent, and asking again later is
answered with the same report, said so; at desktop width and on a 390 px phone."""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from tests.factories import play_round, round_robin_event
from tournaments.models import Report
from tournaments.services import reports
from tournaments.views import reports as report_views

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def signed_in(browser, live_server, django_user_model):
    director = django_user_model.objects.create_user("dora", password="dora-secret-1")
    event = round_robin_event(director, players=6, slug="printed")
    play_round(event, director)
    contexts = []

    def open_context(**options):
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill("dora")
        page.get_by_label("Password").fill("dora-secret-1")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
        return page

    yield event, open_context
    for context in contexts:
        context.close()


def test_a_double_click_on_build_asks_once_and_shows_building(
    signed_in, live_url, shot, monkeypatch
):
    event, open_context = signed_in
    # the live server answers only once the test has seen the page while it waits
    gate = threading.Event()
    asked: list[str] = []
    real_request = reports.request

    def held_request(*args, **kwargs):
        asked.append(args[1])
        gate.wait(10)
        return real_request(*args, **kwargs)

    monkeypatch.setattr(report_views.reports, "request", held_request)
    page = open_context(viewport={"width": 1280, "height": 900})
    page.goto(live_url("reports_index", event.slug))
    expect(page.get_by_role("navigation", name="Director")).to_be_visible()
    page.get_by_label("Report").select_option("results_csv")
    build = page.locator("#report-form button[type=submit]")
    expect(build).to_have_css("background-color", "rgb(11, 92, 173)")  # styled as a button
    build.dblclick()
    expect(build).to_be_disabled()
    expect(build.locator(".busy")).to_be_visible()
    expect(build.locator(".idle")).to_be_hidden()
    shot(page, "building-desktop")
    gate.set()
    row = page.locator("#report-rows tr.asked")
    expect(row).to_contain_text("Results (CSV)")
    expect(page.locator("#report-said")).to_contain_text("Results (CSV): asked for")
    expect(build).to_be_enabled()
    expect(build.locator(".idle")).to_be_visible()
    assert asked == ["results_csv"], "the second click of the double click is not sent"
    report = Report.objects.get(event=event)
    reports.build(report.pk)
    expect(row.get_by_role("link", name="Download")).to_be_visible()  # the row polls
    # asked again: the same report, said so, still one row
    build.click()
    expect(page.locator("#report-said")).to_contain_text(
        "already asked for with the same results, so it is the same report"
    )
    expect(page.locator("#report-rows tr")).to_have_count(1)
    assert Report.objects.filter(event=event).count() == 1
    shot(page, "asked-again-desktop")

    phone = open_context(viewport={"width": 390, "height": 844}, has_touch=True)
    phone.goto(live_url("reports_index", event.slug))
    expect(phone.get_by_role("navigation", name="Director")).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    shot(phone, "reports-390")


def test_a_refused_ask_shows_its_reason_in_the_form(signed_in, live_url):
    event, open_context = signed_in
    page = open_context(viewport={"width": 1280, "height": 900})
    page.goto(live_url("reports_index", event.slug))
    page.get_by_label("Report").select_option("result_slips")
    page.evaluate(
        "document.querySelector('#id_round_number').insertAdjacentHTML('beforeend',"
        " '<option value=\"9\">9</option>')"
    )
    page.locator("#id_round_number").select_option("9")
    page.locator("#report-form button[type=submit]").click()
    expect(page.get_by_role("alert")).to_contain_text("no round 9")
    expect(page.locator("#report-form button[type=submit]")).to_be_enabled()
