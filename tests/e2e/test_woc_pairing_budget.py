"""Issue 24 in a real browser: a WOC draft whose pairing was not proven optimal within its
time budget says so at the top of the round page, with Publish and Search longer; Search
longer pairs the round again with a larger budget and the proven draft replaces it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_corrections import sign_in
from tests.tournaments.test_woc_pairing_budget_web import _hurried, _woc
from tournaments.services import rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_unproven_draft_is_published_or_searched_longer(
    director, desktop, phone, live_url, shot
):
    event = _woc(director, seconds=0)
    draft = rounds.draft_next_round(event, by=director).round
    _hurried(draft)
    for context, name in ((phone, "phone"), (desktop, "desktop")):
        page = sign_in(context, live_url)
        page.goto(live_url("manage_round", event.slug, draft.number))
        expect(page.get_by_text("Not proven optimal", exact=False)).to_be_visible()
        expect(page.get_by_role("button", name="Publish")).to_be_visible()
        expect(page.get_by_role("button", name="Search longer")).to_be_visible()
        shot(page, f"unproven-{name}")
    page.get_by_role("button", name="Search longer").click()
    expect(page.get_by_text("paired again with 60 seconds", exact=False)).to_be_visible()
    expect(page.get_by_role("button", name="Search longer")).to_have_count(0)
    shot(page, "searched-longer")
