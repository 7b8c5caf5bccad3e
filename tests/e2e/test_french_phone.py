"""The director's pages in French on a 390 px phone (issue 28, item 8): French words are
longer than English ones, so every director page of every demo event is walked again in
French, and fails when a drop-down menu shows its choice cut, a button's words wrap onto a
second line, a link of the menu is cut, or anything is wider than the screen (the checks
of test_phone_widths.py). And on a desktop the results screen keeps each row's button
beside its inputs in French as in English ("Voir l'aperçu de la correction" wrapped onto
a line of its own on every row of an earlier round).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from tests.e2e.test_phone_widths import (
    OVERFLOW_CHECK,
    PASSWORDS,
    WIDTH,
    Crawl,
    _pages_for,
    _sign_in,
    demo,  # noqa: F401 - the six demo events, a fixture
)
from tournaments.demo import DEMO_BUILDERS
from tournaments.models import EventDirector

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Runs in the page. Words that do not fit their box: a select's chosen option, a button on
# more than one line, a menu link cut by its box.
CUT_CHECK = """
() => {
  const problems = [];
  const shown = (el) => {
    const b = el.getBoundingClientRect();
    return b.width > 0 && b.height > 0;
  };
  // A select as wide as its chosen option needs (a copy holding that option alone, sized
  // by the browser beside it): wider than the select on the page means the words are cut.
  for (const select of document.querySelectorAll('select')) {
    if (!shown(select) || select.selectedIndex < 0) continue;
    const chosen = select.options[select.selectedIndex];
    const copy = select.cloneNode(false);
    copy.removeAttribute('id');
    copy.removeAttribute('name');
    copy.append(chosen.cloneNode(true));
    Object.assign(copy.style, {
      position: 'absolute', visibility: 'hidden', width: 'auto', minWidth: '0',
      maxWidth: 'none', flex: 'none',
    });
    select.parentElement.append(copy);
    const needs = copy.getBoundingClientRect().width;
    copy.remove();
    if (needs > select.getBoundingClientRect().width + 1) {
      problems.push(`menu cut: "${chosen.text}"`);
    }
  }
  for (const button of document.querySelectorAll('button, a.button, input[type=submit]')) {
    if (!shown(button)) continue;
    const style = getComputedStyle(button);
    const line = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
    const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const inner = button.clientHeight - padding;
    if (inner > 1.6 * line) problems.push(`button on two lines: "${button.innerText.trim()}"`);
  }
  for (const link of document.querySelectorAll('nav a')) {
    const clipped = getComputedStyle(link).overflow !== 'visible';
    if (shown(link) && clipped && link.scrollWidth > link.clientWidth + 1) {
      problems.push(`menu link cut: "${link.innerText.trim()}"`);
    }
  }
  return problems.slice(0, 8);
}
"""


class FrenchCrawl(Crawl):
    """The director's pages in French. axe runs on them in English in the phone walk (the
    markup is the same); here only the words' fit is checked, to keep the suite short."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.axe = None

    def visit(self, path: str) -> list[str]:
        links = super().visit(path)
        assert self.page.locator("html").get_attribute("lang") == "fr", path
        found = self.page.evaluate(CUT_CHECK)
        if found:
            self.problems.setdefault(path, []).extend(found)
        return links


def _in_french(context, origin: str) -> None:
    host = origin.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "fr", "domain": host, "path": "/"}]
    )


def test_every_director_page_fits_a_390_px_phone_in_french(demo, small_phone, live_server, shot):  # noqa: F811
    origin = live_server.url
    wanted = (_pages_for("director") - _pages_for("anonymous")) | {
        "tournaments:round_projector",
        "tournaments:standings_projector",
    }
    crawl = FrenchCrawl(small_phone, origin, wanted, {"failed": lambda page: shot(page, "fr")})
    _sign_in(crawl.page, origin, "demo-director", PASSWORDS["director"])
    _in_french(small_phone, origin)
    for slug in demo:
        crawl.walk(slug, [reverse("tournaments:manage", args=[slug])])
    report = [f"{path}:\n    " + "\n    ".join(found) for path, found in crawl.problems.items()]
    missing = sorted(wanted - crawl.reached)
    assert not missing, f"no demo page of {missing} was reached"
    assert not report, f"{len(report)} pages in French at {WIDTH} px:\n" + "\n".join(report)


@pytest.fixture
def demo_woc(django_user_model, django_capture_on_commit_callbacks):
    """The WOC demo event alone (the results screen's rows): the six events cost seconds."""
    director = django_user_model.objects.create_user(
        "demo-director", password=PASSWORDS["director"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        event = DEMO_BUILDERS["demo-woc"](director=director, rng=random.Random("demo-woc"))
        EventDirector.objects.get_or_create(event=event, user=director)
    return event


def test_the_results_screen_keeps_its_button_in_the_row_in_french(demo_woc, desktop, live_server):
    origin = live_server.url
    page = desktop.new_page()
    _sign_in(page, origin, "demo-director", PASSWORDS["director"])
    _in_french(desktop, origin)
    page.goto(origin + reverse("tournaments:manage_round", args=["demo-woc", 2]))
    rows = page.locator("form.result-row")
    assert rows.count() > 5
    for index in range(rows.count()):
        row = rows.nth(index)
        button = row.locator("button.save").bounding_box()
        game = row.locator(".game").first.bounding_box()
        assert button and game
        assert button["y"] < game["y"] + game["height"], (
            f"row {index + 1}: the button wrapped under the inputs"
        )
    assert not page.evaluate(OVERFLOW_CHECK, 1280)
