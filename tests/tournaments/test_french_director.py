"""The director's pages in French (issue 28, item 8): every page a director reaches from
each demo event's dashboard, and the projectors, carry no English a French director would
meet: no marked sentence left in English, no label of rules/ in its English pattern
("Round 4", "Group T"), no seat "(black)", no "bye".

What is English is decided as in test_french.py, from the catalogue, but for every page:
a run of text (or an attribute read aloud) that is an English msgid whose French differs,
or that holds the English fixed words of a label pattern French says otherwise
(tests/tournaments/french_pages.py). The pages are found by following the links of the
demo events as the demo director, and the test fails when a director page of the URL conf
(the authorization table's director-only GET pages) was not reached, so a new director
page is covered without editing this file.
"""

from __future__ import annotations

import random
import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.urls import Resolver404, resolve, reverse
from django.utils import translation

from tests.test_authorization import PARAMS, PERSONAS, TABLE
from tests.tournaments.french_pages import english_leftovers, read_texts
from tournaments.demo import DEMO_BUILDERS
from tournaments.models import EventDirector, Match
from tournaments.words import subject

pytestmark = pytest.mark.django_db

# Not pages a person reads: files, JSON, the poller, and screens that need a job or a file.
NOT_PAGES = {
    "tournaments:version",
    "tournaments:health",
    "tournaments:manage_export_event",
    "tournaments:manage_export_wof",
    "tournaments:reports_download",
    "tournaments:reports_public_standings",
    "tournaments:manage_import_job",
    "tournaments:reports_status",
    "tournaments:player_result",  # double entry only; asked below on its own
}
ENTRANT_PAGES = {"tournaments:entrant", "tournaments:manage_entrant"}
# Public pages a director projects or reaches from the dashboard (the projectors)
DIRECTOR_PUBLIC = {"tournaments:round_projector", "tournaments:standings_projector"}


def _pages(column: str) -> set[str]:
    index = PERSONAS.index(column)
    return {
        name
        for name, cases in TABLE.items()
        if name not in NOT_PAGES
        and "slug" in PARAMS.get(name, [])
        and any(c.method == "GET" and c.expect.split()[index] == "200" for c in cases)
    }


def director_pages() -> set[str]:
    """The event pages a director sees and the public does not, and the projectors."""
    return (_pages("director") - _pages("anonymous")) | DIRECTOR_PUBLIC


def _name(path: str) -> str | None:
    try:
        return resolve(path).view_name
    except Resolver404:
        return None


@pytest.fixture
def demo(django_user_model, django_capture_on_commit_callbacks):
    director = django_user_model.objects.create_user("demo-director", password="x")
    built = {}
    with django_capture_on_commit_callbacks(execute=True):
        for slug, build in DEMO_BUILDERS.items():
            event = build(director=director, rng=random.Random(slug))
            EventDirector.objects.get_or_create(event=event, user=director)
            built[slug] = event
    return director, built


@pytest.fixture
def demo_woc(django_user_model, django_capture_on_commit_callbacks):
    """The WOC demo event alone, built as in ``demo``: the six events cost seconds."""
    director = django_user_model.objects.create_user("demo-director", password="x")
    with django_capture_on_commit_callbacks(execute=True):
        event = DEMO_BUILDERS["demo-woc"](director=director, rng=random.Random("demo-woc"))
        EventDirector.objects.get_or_create(event=event, user=director)
    return director, event


def _walk(client, slug: str, wanted: set[str]) -> dict[str, str]:
    """Path -> page of every wanted page linked from the event's dashboard, in French."""
    queue = [reverse("tournaments:manage", args=[slug])]
    pages: dict[str, str] = {}
    entrants: dict[str, int] = {}
    while queue:
        path = queue.pop(0)
        if path in pages:
            continue
        response = client.get(path)
        assert response.status_code == 200, f"{path}: {response.status_code}"
        page = response.content.decode()
        pages[path] = page
        for href in _links(page):
            parts = urlsplit(href)
            name = _name(parts.path)
            if parts.netloc or parts.query or not parts.path.startswith(f"/e/{slug}/"):
                continue
            if name not in wanted or parts.path in pages or parts.path in queue:
                continue
            if name in ENTRANT_PAGES:
                entrants[name] = entrants.get(name, 0) + 1
                if entrants[name] > 2:
                    continue
            queue.append(parts.path)
    return pages


def _links(page: str) -> list[str]:
    return [unescape(h) for h in re.findall(r'href="([^"#]+)"', page)]


def _french_client(client, director):
    client.force_login(director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return client


def test_every_director_page_of_every_demo_event_is_french(client, demo):
    """Item 8: the results screen, the projector, the dashboard and its log, the rules
    check, draws, reports... of each demo event, with no English leftover."""
    director, built = demo
    client = _french_client(client, director)
    wanted = director_pages()
    reached: set[str] = set()
    problems: dict[str, list[str]] = {}
    for slug, event in built.items():
        names = [event.name, *event.entrants.values_list("name", flat=True)]
        # what players typed (a dispute's note) is theirs, in their language, like a name
        names += [
            str(details["report"]["note"])
            for details in Match.objects.filter(round__event=event).values_list(
                "details", flat=True
            )
            if (details or {}).get("report", {}).get("note")
        ]
        for path, page in _walk(client, slug, wanted).items():
            reached.add(_name(path) or path)
            assert '<html lang="fr"' in page, path
            for text in english_leftovers(page, names):
                problems.setdefault(text, []).append(path)
    missing = sorted(wanted - reached)
    assert not missing, f"no demo event links to these director pages: {missing}"
    report = [
        f"{text!r} on {len(paths)} pages, e.g. {paths[0]}" for text, paths in problems.items()
    ]
    assert not problems, f"{len(problems)} English leftovers:\n" + "\n".join(sorted(report))


def test_the_correction_preview_is_french(client, demo_woc):
    """Item 8: "Round 2, R2-T1", "Standings" and "Points / Discs" were English there."""
    director, event = demo_woc
    client = _french_client(client, director)
    match = (
        Match.objects.filter(round__event=event, round__number=2, result__complete=True)
        .order_by("table")
        .first()
    )
    game = match.games.get(number=1)
    black, white = game.scores
    data = {"version": match.version, "g1-s0": white, "g1-s1": black}  # the other way round
    response = client.post(
        reverse("tournaments:manage_result", args=[event.slug, match.pk]),
        data,
        HTTP_HX_REQUEST="true",
    )
    page = response.content.decode()
    assert "correction-diff" in page, page[:2000]
    assert not english_leftovers(page), english_leftovers(page)
    assert "Ronde 2, R2-T" in page


def test_the_reader_sees_text_and_the_attributes_read_aloud():
    page = (
        '<html><body><p title="Round 4">Ronde <b>4</b></p><code>Round 1</code>'
        '<button lang="en">English</button><script>var x = "Standings";</script></body></html>'
    )
    assert read_texts(page) == ["Round 4", "Ronde", "4"]
    assert english_leftovers(page) == ["Round 4"]


def test_a_subject_is_said_with_its_round_label_in_french():
    """Item 8: the audit log said "Ronde close: Round 4"; a subject is stored as written and
    its label is said when the log is read (tournaments/audit_words.py)."""
    with translation.override("fr"):
        assert subject("Round 4") == "Ronde 4"
        assert subject("Round 2, R2-T1: Ann - Bob") == "Ronde 2, R2-T1: Ann - Bob"
        assert subject("Round 3 A1: Ann") == "Ronde 3 A1: Ann"
        assert subject("Ann: Round 4") == "Ann: Ronde 4"
        assert subject("Ann Smith") == "Ann Smith"
    with translation.override("en"):
        assert subject("Ann: Round 4") == "Ann: Round 4"
