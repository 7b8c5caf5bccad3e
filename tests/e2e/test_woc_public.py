"""WOC on a phone: the Brightwell Quotient part by part under the standings, and the
colour choice of a playoff game on the round page (issue 5)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.tournaments.test_format_woc_web import _published, qualified_event
from tournaments.models import Match
from tournaments.services import results, rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_reads_the_bq_parts_and_the_playoff_choice(director, phone, live_url, shot):
    event = qualified_event(3)  # 4th and 5th equal: a playoff after the Swiss
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = Match.objects.filter(round=rnd, details__kind="playoff").first()
    results.record(
        match,
        games=[{"scores": [32, 32], "first": 1}],
        match_details={"choice": "draw_win"},
        expected_version=0,
        by=director,
    )
    event = _published(event)

    page = phone.new_page()
    page.goto(live_url("standings", event.slug))
    summary = page.get_by_text("Brightwell Quotient, part by part")
    summary.click()
    expect(page.locator("details.breakdown table tbody tr")).to_have_count(10)
    shot(page, "standings-bq-parts")

    better, other = (p.entrant.name for p in match.participants.order_by("seat"))
    page.goto(live_url("round", event.slug, rnd.number))
    expect(page.get_by_text(f"{other} chose the colour; a draw goes to {better}")).to_be_visible()
    shot(page, "playoff-choice")
