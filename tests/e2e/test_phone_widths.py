"""Every page of every demo event on a 390 px phone (issue 21, item 8): as a visitor, as a
player and as the demo director, nothing is wider than the screen.

The six demo events are built as ``manage.py load_demo`` builds them, with the demo event
that takes entries (its entry form). From each event's
home page (visitor) and dashboard (director) the test follows every link inside the event,
so each round, each format's own pages, the standings, the results screens, draws, rules
check, reports and imports are visited; a few entrant pages per event are enough. It then
checks that every page of the URL conf that the authorization table opens to that persona
was reached, so a page nobody links to cannot hide from it. The visitor walks the public
pages, the director the director's pages and each home page (the only public page that
differs for a director), the player their own screens (GokoDom, WPF preferences).

A page fails when the document is wider than the viewport, when any element reaches past
its right edge outside a scroll region, or when a box scrolls sideways without being a
scroll region we meant (``role=region`` with ``tabindex=0``, so that a keyboard can scroll
it and a screen reader names it).

The same walk runs axe-core (from axe-playwright-python, in the page as it stands) on every
kind of page it visits and fails on any violation of WCAG 2.0 and 2.1, levels A and AA: the
pages' accessibility is checked by the tool outside judges use, in a real browser. A kind of
page is its markup's shape (SHAPE: each element's tag, classes, role, type, attributes'
names, whether a control has a label or a link words): round 3 shaped as round 2 was
already checked, a round with a bye, a form or a new column is not. axe costs about 0.25 s
a page and most of the walk's pages repeat a shape (docs/performance.md).
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import Resolver404, resolve, reverse

from accounts.services import claim_entrant
from tests.test_authorization import API_FORMAT_PAGES, PARAMS, PERSONAS, TABLE
from tournaments import demo_entries
from tournaments.demo import DEMO_BUILDERS
from tournaments.models import EventDirector
from tournaments.services import reports

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH = 390
PASSWORDS = {"director": "demo-pw-director", "player": "demo-pw-player"}
# Not pages a person reads: files, JSON, the poller, and screens that need a job or a file.
NOT_PAGES = {
    "tournaments:version",
    "tournaments:health",
    "tournaments:manage_export_event",
    "tournaments:manage_export_wof",
    "tournaments:reports_download",
    "tournaments:reports_public_standings",
    "tournaments:manage_import_job",
    "tournaments:reports_status",  # what the reports page polls (without htmx, that page)
    # linked only under double entry, which no demo event uses: its own browser test
    # (tests/e2e/test_double_entry_and_mail.py) looks at it at 390 px
    "tournaments:player_result",
    # other sites' frames and the stream overlay, made for their own widths (320-600 px,
    # 1920 x 1080): tests/e2e/test_embed_overlay.py looks at them there, with axe
    "tournaments:embed_standings",
    "tournaments:embed_snippet",
    "tournaments:overlay",
    # the public API's JSON (its schema page: tests/e2e/test_api_docs_page.py)
    "api-v1:event",
    "api-v1:entrants",
    "api-v1:entries",
    "api-v1:rounds",
    "api-v1:round",
    "api-v1:standings",
    "api-v1:outlook",
    "api-v1:draws",
    *(f"api-v1:{page}" for page in API_FORMAT_PAGES),
    # a series' JSON; its pages (under /series/, not an event's) have their own browser
    # test at 390 px with axe: tests/e2e/test_series_pages.py
    "api-v1:series",
    "api_event_stream",  # text/event-stream
    # the calendar feeds (text/calendar), linked from the event's and entrants' pages
    "api_event_calendar",
    "api_entrant_calendar",
}
ENTRANT_PAGES = {"tournaments:entrant", "tournaments:manage_entrant"}
ENTRANTS_PER_EVENT = 3  # of each kind of entrant page: a few, not all 120
# axe-core's rules of WCAG 2.0 and 2.1 at levels A and AA
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}

# Runs in the page. Returns the page's problems at this width, each in words.
OVERFLOW_CHECK = """
(width) => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > width) problems.push(`the page is ${doc.scrollWidth}px wide`);
  const region = '[role=region][tabindex="0"]';
  const name = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += '#' + el.id;
    if (el.classList.length) text += '.' + [...el.classList].join('.');
    const words = (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return words ? `${text} "${words}"` : text;
  };
  const past = new Set();  // elements reaching past the edge: their children are not named
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const scroller = el.parentElement && el.parentElement.closest(region);
    if (!scroller && box.right > width + 1) {
      past.add(el);
      const right = Math.round(box.right);
      if (!past.has(el.parentElement)) problems.push(`${name(el)} reaches ${right}px`);
    }
    if (el.scrollWidth <= el.clientWidth + 1 || el.matches(region)) continue;
    if (/auto|scroll/.test(getComputedStyle(el).overflowX)) {
      problems.push(`${name(el)} scrolls sideways (${el.scrollWidth}px in ${el.clientWidth}px)`);
    }
  }
  return problems.slice(0, 8);
}
"""


# Runs in the page. The markup's shape: the set of kinds of element it holds, without the
# words, ids' values or links' targets. Two pages of one shape give axe the same elements
# to judge (the same roles, labels, names and styles), so axe runs on the first alone.
SHAPE = """
() => {
  // attributes whose value says what an element is; the others count by name (and empty)
  const kept = /^(class|role|type|lang|dir|scope|tabindex|aria-(?!label|describedby|controls))/;
  const worded = /^(A|BUTTON|TH|LABEL|LEGEND|CAPTION|H[1-6]|TITLE|SUMMARY)$/;
  const kinds = new Set();
  for (const el of document.querySelectorAll('*')) {
    let kind = el.tagName;
    for (const a of [...el.attributes].sort((x, y) => x.name.localeCompare(y.name))) {
      if (a.name === 'class') kind += '.' + [...el.classList].sort().join('.');
      else if (kept.test(a.name)) kind += `[${a.name}=${a.value}]`;
      else kind += a.value ? `[${a.name}]` : `[${a.name}=""]`;
    }
    if (el.labels) kind += el.labels.length ? ' labelled' : ' unlabelled';
    if (worded.test(el.tagName) && !el.textContent.trim()) kind += ' wordless';
    kinds.add(kind);
  }
  return [...kinds].sort().join('\\n');
}
"""


def _pages_for(column: str) -> set[str]:
    """The event pages (URL names) the authorization table opens to this persona by GET."""
    index = PERSONAS.index(column)
    names = set()
    for name, cases in TABLE.items():
        if name in NOT_PAGES or "slug" not in PARAMS.get(name, []):
            continue
        if any(c.method == "GET" and c.expect.split()[index] == "200" for c in cases):
            names.add(name)
    return names


def _url_name(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.view_name


class Crawl:
    """One browser context walking the links of each demo event, checking every page."""

    def __init__(self, context, origin: str, wanted: set[str], shots: dict[str, Callable]):
        self.page = context.new_page()
        self.origin = origin
        self.wanted = wanted
        self.shots = shots  # path -> take a screenshot there
        self.seen: set[str] = set()
        self.reached: set[str] = set()
        self.entrants: dict[tuple[str, str], int] = defaultdict(int)
        self.problems: dict[str, list[str]] = {}
        self.inaccessible: dict[str, list[str]] = {}
        self.visits = 0
        self.axe: Axe | None = Axe()
        self.shapes: set[str] = set()  # of the pages axe has judged

    def visit(self, path: str) -> list[str]:
        self.seen.add(path)
        response = self.page.goto(self.origin + path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        self.visits += 1
        self.reached.add(_url_name(urlsplit(path).path) or path)
        found = self.page.evaluate(OVERFLOW_CHECK, WIDTH)
        if found:
            self.problems[path] = found
        violations = []
        if self.axe and (shape := self.page.evaluate(SHAPE)) not in self.shapes:
            self.shapes.add(shape)
            violations = self.axe.run(self.page, options=AXE_OPTIONS).response["violations"]
        if violations:
            self.inaccessible[path] = [
                f"{v['id']} ({v['impact']}): {v['help']}: "
                + "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:3])
                for v in violations
            ]
        if path in self.shots or (found and len(self.problems) <= 5):
            self.shots.get(path, self.shots["failed"])(self.page)
        return self.page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")

    def walk(self, slug: str, start: list[str]) -> None:
        queue = list(start)
        while queue:
            path = queue.pop(0)
            if path in self.seen:
                continue
            for href in self.visit(path):
                parts = urlsplit(href)
                if parts.netloc != urlsplit(self.origin).netloc:
                    continue
                link = parts.path + (f"?{parts.query}" if parts.query else "")
                if link in self.seen or link in queue:
                    continue
                if not parts.path.startswith(f"/e/{slug}/") or parts.query:
                    continue  # other events are walked on their own; filters are the same page
                name = _url_name(parts.path)
                if name not in self.wanted:
                    continue
                if name in ENTRANT_PAGES:
                    if self.entrants[(slug, name)] >= ENTRANTS_PER_EVENT:
                        continue
                    self.entrants[(slug, name)] += 1
                queue.append(link)


@pytest.fixture
def demo(django_user_model, django_capture_on_commit_callbacks):
    """The six demo events of `manage.py load_demo`, a built report, a claimed entry."""
    director = django_user_model.objects.create_user(
        "demo-director", password=PASSWORDS["director"]
    )
    player = django_user_model.objects.create_user("demo-player", password=PASSWORDS["player"])
    built = {}
    with django_capture_on_commit_callbacks(execute=True):
        for slug, build in DEMO_BUILDERS.items():
            event = build(director=director, rng=random.Random(slug))
            EventDirector.objects.get_or_create(event=event, user=director)
            built[slug] = event
        # the event taking entries (issue 32): its entry form, its director's Entries screen
        event = demo_entries.build(director=director)
        EventDirector.objects.get_or_create(event=event, user=director)
        built[event.slug] = event
        reports.request(built["demo-round-robin"], "entrants_csv", by=director)
    # a player acts on their own match where the format lets players act
    for slug in ("demo-gokodom", "demo-wpf-playoffs"):
        claim_entrant(player, built[slug].entrants.order_by("number")[0].claim_code)
    return built


def _sign_in(page, origin: str, username: str, password: str) -> None:
    page.goto(origin + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(origin + "/")


def test_every_demo_page_fits_a_390_px_phone_and_passes_axe(demo, small_phone, live_server, shot):
    started = time.monotonic()
    origin = live_server.url
    walks = {}
    woc_round = demo["demo-woc"].rounds.order_by("-number").first().number
    shots = {
        path: (lambda page, name=name: shot(page, name))
        for path, name in (
            (reverse("tournaments:manage_round", args=["demo-woc", woc_round]), "woc-results"),
            (reverse("tournaments:standings", args=["demo-freestyle"]), "freestyle-standings"),
            (reverse("tournaments:standings", args=["demo-bot-contest"]), "bot-standings"),
            (reverse("tournaments:bot_contest_brackets", args=["demo-bot-contest"]), "brackets"),
            (reverse("tournaments:round", args=["demo-round-robin", 5]), "rr-round"),
        )
    }
    shots["failed"] = lambda page: shot(page, urlsplit(page.url).path.strip("/").replace("/", "-"))
    # One context for the three personas: the cookies are cleared between them.
    for persona, column in (
        ("visitor", "anonymous"),
        ("director", "director"),
        ("player", "player"),
    ):
        small_phone.clear_cookies()
        wanted = _pages_for(column)
        if persona != "visitor":
            # The public pages are the visitor's; a director's differ only on the home page
            # (a "Run it" link) and in the header, which every director page has too.
            wanted -= _pages_for("anonymous")
        if persona == "director":
            wanted.add("tournaments:event")
        crawl = walks[persona] = Crawl(small_phone, origin, wanted, shots)
        if persona != "visitor":
            _sign_in(crawl.page, origin, f"demo-{persona}", PASSWORDS[persona])
        if persona == "player":
            for name, slug in (
                ("gokodom_player", "demo-gokodom"),
                ("wpf_playoffs_preferences", "demo-wpf-playoffs"),
            ):
                crawl.visit(reverse(f"tournaments:{name}", args=[slug]))
            continue
        crawl.visit(reverse("tournaments:event_list"))
        if persona == "director":
            crawl.visit(reverse("tournaments:manage_create"))
            crawl.visit(reverse("tournaments:manage_import_event"))
        for slug in demo:
            home = reverse("tournaments:event", args=[slug])
            dashboard = reverse("tournaments:manage", args=[slug])
            crawl.walk(slug, [dashboard, home] if persona == "director" else [home])
        crawl.page.close()

    report = []
    for persona, crawl in walks.items():
        missing = sorted(crawl.wanted - crawl.reached)
        if missing:
            report.append(f"{persona}: no demo page of {', '.join(missing)} was reached")
        for path, found in crawl.problems.items():
            report.append(f"{persona} {path}:\n    " + "\n    ".join(found))
        for path, found in crawl.inaccessible.items():
            report.append(f"{persona} {path} (axe, WCAG 2.1 AA):\n    " + "\n    ".join(found))
    visits = sum(c.visits for c in walks.values())
    shapes = sum(len(c.shapes) for c in walks.values())
    print(f"{visits} pages ({shapes} shapes judged by axe) in {time.monotonic() - started:.1f} s")
    assert not report, f"{len(report)} problems at {WIDTH} px:\n" + "\n".join(report)
