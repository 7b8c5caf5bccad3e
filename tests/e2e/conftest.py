"""Browser tests: a live Arbiter server and Debian's Chromium driven by Playwright.

Fixtures to reuse in any e2e test:
- ``browser``: one headless Chromium for the session (from /usr/bin/chromium, or
  $ARBITER_CHROMIUM, or ``chromium`` on PATH). Missing Chromium skips locally and FAILS
  under CI=true, so CI can never pass by not testing.
- ``phone`` / ``small_phone`` / ``desktop``: fresh browser contexts (412x900 touch, 390x844
  touch, 1280x900).
- ``live_url(name, *args, **query)``: an absolute URL on the live server by URL name.
- ``shot(page, name)``: saves a full-page screenshot under test-artifacts/<test>/.
Pages run under the real Content Security Policy (no eval): wait with locators and
``expect``, not ``page.wait_for_function``. Mark tests with ``@pytest.mark.e2e``; they
need a transactional database (the live server runs in another thread and must see
committed rows).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.urls import reverse

# Playwright's sync API runs an event loop in this thread; Django would otherwise refuse
# ORM calls made by the test itself (setting up events, checking rows).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 412, "height": 900}
SMALL_PHONE = {"width": 390, "height": 844}  # the narrowest common phone today
DESKTOP = {"width": 1280, "height": 900}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def chromium_path() -> str | None:
    for candidate in (
        os.environ.get("ARBITER_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator:
    path = chromium_path()
    if path is None:
        message = "Chromium not found (/usr/bin/chromium, $ARBITER_CHROMIUM or PATH)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: {message}; .ci/run installs the chromium package")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=path, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


def _context(browser, **options) -> Iterator:
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def phone(browser) -> Iterator:
    yield from _context(browser, viewport=PHONE, is_mobile=True, has_touch=True)


@pytest.fixture
def small_phone(browser) -> Iterator:
    yield from _context(browser, viewport=SMALL_PHONE, is_mobile=True, has_touch=True)


@pytest.fixture
def desktop(browser) -> Iterator:
    yield from _context(browser, viewport=DESKTOP)


@pytest.fixture
def live_url(live_server) -> Callable[..., str]:
    def url(name: str, *args, **query) -> str:
        path = reverse(name if ":" in name else f"tournaments:{name}", args=args)
        return live_server.url + path + (f"?{urlencode(query)}" if query else "")

    return url


@pytest.fixture
def shot(request) -> Callable[..., Path]:
    """shot(page, "standings") -> test-artifacts/<test name>/01-standings.png"""
    folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    taken: list[Path] = []

    def take(page, name: str) -> Path:
        path = folder / f"{len(taken) + 1:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        taken.append(path)
        return path

    return take
