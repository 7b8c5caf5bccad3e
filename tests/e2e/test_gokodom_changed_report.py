"""A GokoDom player confirms the report shown on their card, never one its author changed
since (tests/reliability/test_gokodom_race.py races it over HTTP): the card says what the
report now says and offers to confirm that one."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_rate_limit_page import sign_in
from tests.factories import gokodom_event
from tournaments.formats.gokodom import services as format_gokodom
from tournaments.models import Match
from tournaments.services import rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_report_changed_while_shown_is_not_confirmed(director, phone, live_url, shot):
    event = gokodom_event(director, slug="goko")
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()
    first, second = (p.entrant for p in match.participants.order_by("seat"))
    format_gokodom.report(match, first, outcome="W", by=first.user)

    page = phone.new_page()
    sign_in(page, live_url, second.user.username)
    page.goto(live_url("gokodom_player", event.slug))
    expect(page.locator("#match-card")).to_contain_text(f"{first.name} reported")
    format_gokodom.report(match, first, outcome="L", by=first.user)  # from another tab
    page.get_by_role("button", name="Confirm").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("changed the report since you saw it")
    shot(page, "changed-report-not-confirmed")
    match.refresh_from_db()
    assert match.result is None

    page.get_by_role("button", name="Confirm").click()  # the card now shows the new report
    expect(page.locator("#match-card")).to_contain_text("Result")
    shot(page, "new-report-confirmed")
    assert Match.objects.get(pk=match.pk).details["results"][str(second.number)] == "W"
