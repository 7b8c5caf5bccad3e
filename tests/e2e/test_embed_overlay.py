"""Issue 30, step 5, in Chromium: the stream overlay at 1920 x 1080 follows the event's stream
(a result typed by the director shows without a reload while the poll is set to ten
minutes), is transparent over a dark and a light backdrop, never scrolls; the standings
widget sits in another site's iframe at 320 and 600 px while a page that is not an embed is
refused there; both pass axe (WCAG 2.1 AA). Screenshots under test-artifacts/."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.test_phone_widths import AXE_OPTIONS
from tests.factories import play_round, round_robin_event
from tournaments.models import Event, Match
from tournaments.services import results, rounds, standings

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REDIS_URL = os.environ.get("REDIS_URL")
SCREEN = {"width": 1920, "height": 1080}


@pytest.fixture
def hall(director, settings):
    """Ten players, round 1 played, round 2 published with no result yet."""
    settings.ARBITER_LIVE_WSGI = True  # the live server is WSGI, as `make run`'s runserver
    settings.ARBITER_LIVE_HEARTBEAT_SECONDS = 1
    event = round_robin_event(director, players=10, slug="hall")
    play_round(event, director, scores=lambda m: [3, 1])
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    event = Event.objects.get(pk=event.pk)
    standings.refresh(event.pk, event.results_version)
    return event


@pytest.fixture
def other_site() -> Iterator[Callable[[str, str], str]]:
    """Another site: a small HTTP server on 127.0.0.1 (another origin than the live server's
    localhost, in the same local address space, so Chromium's local network rules let its
    frames load and only the framing headers decide). other_site(body, background) gives
    the address of a page showing ``body``."""
    pages: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path)
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def page(body: str, background: str) -> str:
        path = f"/page-{len(pages)}.html"
        pages[path] = (
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>'
            f'</head><body style="margin:0;background:{background}">{body}</body></html>'
        ).encode()
        return f"http://127.0.0.1:{server.server_port}{path}"

    yield page
    server.shutdown()
    server.server_close()


def _violations(page) -> list[str]:
    found = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in found]


@pytest.mark.skipif(
    not REDIS_URL and os.environ.get("CI") != "true", reason="needs REDIS_URL (CI sets it)"
)
def test_the_overlay_follows_the_stream_at_1920_by_1080(
    hall, director, browser, live_url, settings, shot, other_site
):
    settings.REDIS_URL = REDIS_URL
    settings.ARBITER_POLL_SECONDS = 600  # the poll cannot be what shows the result
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    page.goto(live_url("overlay", "hall"))
    expect(page.locator("html")).to_have_attribute("data-live", "stream")
    expect(page.locator(".overlay-pairings tbody tr")).to_have_count(5)
    # no scrollbars, nothing past the frame, a transparent page
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
        " getComputedStyle(document.body).backgroundColor,"
        " getComputedStyle(document.documentElement).backgroundColor]"
    )
    assert size[:2] == [1920, 1080], size
    assert size[2:] == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"], size
    assert _violations(page) == []
    page.evaluate("window.notReloaded = true")

    match = Match.objects.filter(round__event=hall, round__number=2).order_by("order").first()
    winner = match.participants.order_by("seat").first().entrant.name
    results.record(match, [{"scores": [3, 1]}], expected_version=match.version, by=director)
    row = page.locator(".overlay-pairings tbody tr", has_text=winner).first
    expect(row).to_contain_text("3-1", timeout=8_000)
    expect(row.locator(".player.won")).to_have_text(winner)
    assert page.evaluate("window.notReloaded === true")
    context.close()

    # over a dark and a light video: the host page's background shows through the page
    for name, backdrop in (
        ("dark", "linear-gradient(135deg,#111 0%,#2a3b4c 100%)"),
        ("light", "linear-gradient(135deg,#fafafa 0%,#c8d6e5 60%,#ffe9a8 100%)"),
    ):
        context = browser.new_context(viewport=SCREEN)
        frame = (
            f'<iframe src="{live_url("overlay", "hall", lang="fr" if name == "light" else "en")}"'
            ' title="overlay" width="1920" height="1080" style="border:0;display:block"></iframe>'
        )
        host = context.new_page()
        host.goto(other_site(frame, backdrop))
        inner = host.frame_locator("iframe")
        expect(inner.locator(".overlay-pairings tbody tr")).to_have_count(5)
        expect(inner.locator(".overlay-pairings tbody tr").first).to_contain_text("3-1")
        shot(host, f"overlay-over-a-{name}-backdrop")
        context.close()


def test_the_widget_sits_in_another_sites_iframe_and_other_pages_do_not(
    hall, browser, live_url, shot, other_site
):
    context = browser.new_context(viewport={"width": 1000, "height": 1300})
    frames = "".join(
        f'<h2 style="font:16px sans-serif;color:#333">{title}</h2>'
        f'<iframe src="{src}" title="{title}" width="{width}" height="{height}"'
        ' style="border:1px solid #999"></iframe>'
        for title, src, width, height in (
            ("320 px", live_url("embed_standings", "hall", rows=6), 320, 330),
            (
                "600 px, dark",
                live_url("embed_standings", "hall", theme="dark", lang="fr"),
                600,
                500,
            ),
            ("not an embed", live_url("standings", "hall"), 600, 120),
        )
    )
    host = context.new_page()
    host.goto(other_site(frames, "#f3f1ea"))
    narrow = host.frame_locator('iframe[title="320 px"]')
    expect(narrow.locator("tbody tr")).to_have_count(6)
    wide = host.frame_locator('iframe[title="600 px, dark"]')
    expect(wide.locator("tbody tr")).to_have_count(10)
    expect(wide.locator("caption")).to_have_text("Classement")
    # the standings page itself refuses to be framed (X-Frame-Options, frame-ancestors)
    refused = host.locator('iframe[title="not an embed"]').element_handle().content_frame()
    expect(wide.locator("tbody tr").first).to_be_visible()
    assert refused is not None and refused.url.startswith("chrome-error:"), refused
    # nothing reaches past the 320 px frame (its border takes 2 px)
    small = host.locator('iframe[title="320 px"]').element_handle().content_frame()
    width = small.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    shot(host, "widget-in-iframes")
    context.close()

    for query in ({}, {"theme": "dark", "compact": "1"}):
        page = browser.new_page(viewport={"width": 320, "height": 600})
        page.goto(live_url("embed_standings", "hall", **query))
        assert _violations(page) == [], query
        page.close()


def test_the_embed_panel_fits_a_phone_and_copies_the_codes(hall, small_phone, live_url, shot):
    page = small_phone.new_page()
    page.goto(live_url("standings", "hall"))
    page.get_by_role("link", name="Embed").click()
    expect(page.get_by_role("heading", name="Embed and stream")).to_be_visible()
    page.get_by_label("Rows").fill("4")
    page.get_by_label("Theme").select_option("dark")
    page.get_by_role("button", name="Show the codes").click()
    expect(page.locator("#code-iframe")).to_contain_text("rows=4&theme=dark")
    preview = page.frame_locator("iframe.embed-preview")
    expect(preview.locator("tbody tr")).to_have_count(4)
    expect(page.locator("button[data-copy]").first).to_be_visible()  # copy.js shows them
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert _violations(page) == []
    shot(page, "embed-panel")
    page.close()
