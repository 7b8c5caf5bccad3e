"""Settling a GokoDom dispute at the keyboard (issue 28, item 4): "Needs you" opens the
disputed match with both accounts and the note; Enter on a code menu saves the decision
(on the settle page and in the results grid, where it answered 422 "Save result codes with
their own button"); both players are mailed it."""

from __future__ import annotations

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.e2e.test_corrections import sign_in
from tests.factories import gokodom_event
from tournaments.formats.gokodom import services as format_gokodom
from tournaments.models import AuditEntry, Match
from tournaments.services import rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _disputed(director):
    event = gokodom_event(director, slug="goko", swiss_rounds=3)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()
    a, b = (p.entrant for p in match.participants.order_by("seat"))
    for entrant, address in ((a, "ann@example.org"), (b, "bob@example.org")):
        entrant.user.email = address
        entrant.user.save(update_fields=["email"])
    format_gokodom.report(match, a, outcome="W", by=a.user)
    format_gokodom.dispute(match, b, note="I won on time", outcome="W", by=b.user)
    return event, rnd, match, a, b


def test_needs_you_opens_the_dispute_and_enter_on_a_code_menu_settles_it(
    director, desktop, small_phone, live_url, shot
):
    event, _rnd, match, a, b = _disputed(director)
    page = sign_in(small_phone, live_url)
    page.goto(live_url("manage", event.slug))
    shot(page, "needs-you-phone")
    needs = page.locator("section.needs-you")
    expect(needs).not_to_contain_text("NeedsYou(")
    needs.get_by_role("link", name=f"{match.code}: the players' accounts differ").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"{match.code}")
    expect(page.locator("main")).to_contain_text(f"{a.name} says {a.name} won")
    expect(page.locator("main")).to_contain_text(f"{b.name} says {b.name} won")
    expect(page.locator("main")).to_contain_text("I won on time")
    shot(page, "settle-phone")
    mail.outbox = []
    page.get_by_label(a.name, exact=True).select_option("L")
    menu = page.get_by_label(b.name, exact=True)
    menu.select_option("W")
    expect(page.get_by_label("A result code for each player")).to_be_checked()
    menu.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text(f"{match.code} is settled")
    expect(page.locator("section.needs-you")).to_have_count(0)
    shot(page, "settled-dashboard-phone")
    saved = Match.objects.get(pk=match.pk)
    assert saved.details["results"] == {str(a.number): "L", str(b.number): "W"}
    assert AuditEntry.objects.filter(action="gokodom.dispute_settled").count() == 1
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]

    wide = sign_in(desktop, live_url)
    wide.goto(live_url("gokodom_settle", event.slug, match.pk))
    expect(wide.locator("main")).to_contain_text("settled by the director")
    shot(wide, "settled-desktop")


def test_enter_on_a_code_menu_of_the_results_grid_saves_the_codes(
    director, desktop, live_url, shot
):
    """Before: Enter submitted the row to the games' endpoint, which answered 422."""
    event, rnd, match, a, b = _disputed(director)
    page = sign_in(desktop, live_url)
    page.goto(live_url("gokodom_settle", event.slug, match.pk))
    shot(page, "settle-desktop")
    page.goto(live_url("manage_round", event.slug, rnd.number))
    row = page.locator(f"#match-{match.pk}")
    row.locator(f"select[name=code-{a.number}]").select_option("W")
    menu = row.locator(f"select[name=code-{b.number}]")
    menu.select_option("L")
    menu.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"#match-{match.pk} .status")).to_contain_text("Saved")
    expect(page.locator(f"#match-{match.pk}")).not_to_contain_text("their own button")
    shot(page, "grid-codes-saved")
    saved = Match.objects.get(pk=match.pk)
    assert saved.details["results"] == {str(a.number): "W", str(b.number): "L"}
