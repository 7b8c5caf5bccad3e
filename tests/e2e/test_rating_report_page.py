"""Send to the rating officer in a real browser (issue 30, step 6): the director reaches it
from Reports, sees the problems listed by line and field with links to the file's lines,
types the header's fields, checks again, sends, and finds the copy with its dates; on a
390 px phone and at desktop width, passing axe."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core import mail
from playwright.sync_api import expect

from tests.e2e.test_phone_widths import AXE_OPTIONS
from tests.factories import play_round, round_robin_event
from tournaments.models import Entrant, RatingSubmission

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _axe(page) -> None:
    violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    assert violations == [], [v["id"] for v in violations]


@pytest.mark.parametrize("width", [390, 1280])
def test_a_director_checks_and_sends_the_wof_file(
    browser, live_server, django_user_model, settings, shot, width
):
    settings.ARBITER_RATING_OFFICER_EMAIL = "ratings@wof.example"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    director = django_user_model.objects.create_user("dora", password="dora-secret-1")
    event = round_robin_event(director, players=4, slug="rated")
    names = [("DUPRE", "Helene"), ("MARTIN", "Paul"), ("TANAKA", "Yuki")]
    for entrant, (family, given) in zip(event.entrants.order_by("number"), names, strict=False):
        Entrant.objects.filter(pk=entrant.pk).update(family_name=family, given_name=given)
    play_round(event, director, scores=lambda match: [40, 24])

    context = browser.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill("dora-secret-1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    page.goto(live_server.url + f"/e/{event.slug}/reports/")
    page.get_by_role("link", name="Send to the rating officer").click()
    expect(page.get_by_role("heading", name="Send to the rating officer")).to_be_visible()

    rows = page.locator("table.rating-check tbody tr")
    # Country, Date and Sender empty; player 4 typed as one name (a guess, "4" as NAME)
    expect(rows.filter(has_text="Country is empty")).to_have_count(1)
    expect(rows.filter(has_text="a name has no digits")).to_have_count(1)
    expect(page.get_by_role("button", name="Send to the rating officer")).to_have_count(0)
    shot(page, f"problems-{width}")
    _axe(page)

    Entrant.objects.filter(event=event, number=4).update(family_name="OKAFOR", given_name="Ada")
    page.get_by_label("Country").fill("France")
    page.get_by_label("Date").fill("01/08/2026")
    page.get_by_label("Sender").fill("Dora Director")
    page.get_by_role("button", name="Check again").click()
    expect(page.get_by_text("No problem found")).to_be_visible()
    expect(page.locator("pre.wof-file").first).to_contain_text("%%Country: France")
    shot(page, f"ready-{width}")
    _axe(page)

    page.get_by_role("button", name="Send to the rating officer").click()
    expect(page.get_by_text("rated.elo is kept and mailed to ratings@wof.example")).to_be_visible()
    page.get_by_text("The copy sent: rated.elo").click()
    shot(page, f"sent-{width}")
    _axe(page)
    submission = RatingSubmission.objects.get(event=event)
    assert submission.mailed_at is not None
    assert [m.to for m in mail.outbox] == [["ratings@wof.example"]]
    context.close()
