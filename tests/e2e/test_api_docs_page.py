"""Issue 30 step 1: the API's schema "rendered as a page", under the project's Content
Security Policy and with nothing loaded from the internet, free of axe WCAG 2.1 AA
violations on a desktop and a 390 px phone."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.test_phone_widths import AXE_OPTIONS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", ["desktop", "small_phone"])
def test_the_api_docs_page_reads_well_and_loads_nothing_from_elsewhere(
    request, live_server, shot, width
):
    context = request.getfixturevalue(width)
    page = context.new_page()
    elsewhere: list[str] = []
    page.on(
        "request",
        lambda r: elsewhere.append(r.url) if not r.url.startswith(live_server.url) else None,
    )
    page.goto(live_server.url + reverse("api_docs"))
    expect(page.get_by_role("heading", name="GET /api/v1/events/{slug}/standings/")).to_be_visible()
    for path in ("outlook/", "draws/", "gokodom/bracket/", "wpf_playoffs/ladder/"):
        heading = page.get_by_role("heading", name="GET /api/v1/events/{slug}/" + path)
        expect(heading).to_be_visible()
    shot(page, f"api-docs-{width}")
    assert elsewhere == []
    violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    assert violations == [], [f"{v['id']}: {v['help']}" for v in violations]
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow, "the page is wider than the screen"
