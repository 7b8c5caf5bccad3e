"""Issue 30, step 5: "an embeddable standings widget (an iframe page and a script-free
snippet) and an overlay page for streaming software: transparent background, the current
round's pairings and the live table, updating by the stream, readable at 1920 x 1080; both
in either language". Here: what each shows, who may see it, who may frame it, that a cached
copy costs no query and a built one a constant number whatever the event's size. The
browser's side (the overlay following the stream, screenshots, axe) is in
tests/e2e/test_embed_overlay.py."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import bulk_event, play_round, round_robin_event, wpf_imported_event
from tournaments.models import Event, Match
from tournaments.services import results, rounds, standings

pytestmark = pytest.mark.django_db

EMBEDS = ["embed_standings", "embed_snippet", "overlay"]


def _url(name: str, slug: str, **query: str) -> str:
    from urllib.parse import urlencode

    path = reverse(f"tournaments:{name}", args=[slug])
    return path + (f"?{urlencode(query)}" if query else "")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def _body_rows(html: str, section: str = "") -> list[str]:
    if section:
        html = html.split(section, 1)[1]
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [_text(row) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


@pytest.fixture
def club(director):
    """Six players, round 1 played, round 2 published with one result in."""
    event = round_robin_event(director, players=6, slug="club")
    play_round(event, director, scores=lambda m: [3, 1])
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()
    results.record(match, [{"scores": [2, 0]}], expected_version=match.version, by=director)
    event = Event.objects.get(pk=event.pk)
    standings.refresh(event.pk, event.results_version)
    return event


def test_the_widget_shows_the_top_rows_of_the_standings(client, club):
    page = client.get(_url("embed_standings", "club", rows="4"))
    assert page.status_code == 200
    html = page.content.decode()
    rows = _body_rows(html)
    assert len(rows) == 4  # the top N, not all six
    full = client.get(reverse("tournaments:standings", args=["club"])).content.decode()
    first_on_the_page = _body_rows(full)[0]
    assert rows[0].split()[:3] == first_on_the_page.split()[:3]  # rank and name agree
    assert 'class="embed theme-light"' in html
    assert not page.cookies  # no session, no CSRF cookie: a third-party frame needs none
    assert 'target="_blank"' in html and "/e/club/standings/" in html  # the way back
    dark = client.get(_url("embed_standings", "club", theme="dark", compact="1", link="0"))
    assert 'class="embed theme-dark compact"' in dark.content.decode()
    assert "/e/club/standings/" not in dark.content.decode()
    # nonsense options fall back to the defaults rather than failing
    odd = client.get(_url("embed_standings", "club", rows="many", theme="neon"))
    assert odd.status_code == 200 and len(_body_rows(odd.content.decode())) == 6


def test_the_widget_and_the_overlay_speak_the_language_asked(client, club):
    for name in ("embed_standings", "overlay"):
        french = client.get(_url(name, "club", lang="fr")).content.decode()
        assert '<html lang="fr"' in french
        english = client.get(_url(name, "club", lang="en"), HTTP_ACCEPT_LANGUAGE="fr")
        assert '<html lang="en"' in english.content.decode()
    widget = client.get(_url("embed_standings", "club", lang="fr")).content.decode()
    assert "Classement" in widget  # "Standings" in the French catalogue
    snippet = client.get(_url("embed_snippet", "club", lang="fr")).content.decode()
    assert 'lang="fr"' in snippet


def test_the_snippet_is_a_plain_table_without_script_with_absolute_links(client, club, settings):
    page = client.get(_url("embed_snippet", "club", rows="3"))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.lstrip().startswith("<table") and "<html" not in html
    assert "<script" not in html and "class=" not in html
    assert f'href="{settings.ARBITER_SITE_URL}/e/club/standings/"' in html
    assert len(_body_rows(html)) == 3
    assert page["Access-Control-Allow-Origin"] == "*"


def test_the_overlay_shows_the_current_rounds_pairings_and_the_table(client, club):
    page = client.get(_url("overlay", "club", rows="5"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Round 2" in _text(html.split('class="overlay-head"', 1)[1].split("</header>")[0])
    pairings = _body_rows(html, 'class="overlay-pairings"')
    matches = Match.objects.filter(round__event=club, round__number=2).order_by("order")
    assert len(pairings) == matches.count()
    for row, match in zip(pairings, matches.prefetch_related("participants__entrant"), strict=True):
        for seat in match.participants.all():
            assert (seat.entrant.name if seat.entrant else "bye") in row
    assert pairings[0].endswith("2-0")  # the result typed in; the others have none yet
    assert not any(re.search(r"\d-\d$", row) for row in pairings[1:])
    assert len(_body_rows(html, 'class="overlay-standings"')) == 5
    # transparent, the page's size for a 1920 x 1080 source, no cookie needed
    assert 'class="overlay"' in html and "overlay.css" in html
    assert not page.cookies


def test_the_overlay_shows_only_the_parts_asked(client, club):
    html = client.get(_url("overlay", "club", show="standings", scale="1.5")).content.decode()
    assert "overlay-standings" in html
    assert "overlay-pairings" not in html and 'class="overlay-head"' not in html
    assert "--scale: 1.50" in html
    few = client.get(_url("overlay", "club", show="pairings", boards="1")).content.decode()
    assert len(_body_rows(few, 'class="overlay-pairings"')) == 1
    assert "and 2 more matches" in few


def test_an_htmx_refresh_gets_the_part_alone_with_the_same_options(client, club):
    for name, part in (("embed_standings", "widget"), ("overlay", "overlay")):
        url = _url(name, "club", rows="3", lang="fr")
        partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
        assert partial.lstrip().startswith(f'<div id="{part}"') and "<html" not in partial
        assert f'hx-get="{url.replace("&", "&amp;")}"' in partial  # it asks itself again
        full = client.get(url).content.decode()
        # follows the event's stream (arbiter.js) and polls the version without it
        assert 'id="live-poller"' in full and 'data-stream="/api/v1/events/club/stream"' in full
        assert "arbiter/arbiter.js" in full


@pytest.mark.parametrize("name", [*EMBEDS, "embed"])
def test_a_private_event_has_no_embed_nor_overlay(client, club, name, django_user_model):
    Event.objects.filter(pk=club.pk).update(public=False)
    assert client.get(_url(name, "club")).status_code == 404
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    assert client.get(_url(name, "club")).status_code == 404


def _frame_ancestors(response) -> str:
    policy = response["Content-Security-Policy"]
    return next(p.strip() for p in policy.split(";") if p.strip().startswith("frame-ancestors"))


@pytest.mark.parametrize("name", EMBEDS)
def test_only_the_embeds_may_be_framed_by_other_sites(client, club, name):
    for attempt in ("miss", "hit"):  # built, then served from the page cache
        response = client.get(_url(name, "club"))
        assert response["X-Page-Cache"] == attempt
        assert "X-Frame-Options" not in response
        assert _frame_ancestors(response) == "frame-ancestors *"
    for other in ("standings", "event", "embed"):
        page = client.get(reverse(f"tournaments:{other}", args=["club"]))
        assert page["X-Frame-Options"] == "DENY"
        assert _frame_ancestors(page) == "frame-ancestors 'none'"
    assert client.get(reverse("tournaments:round_projector", args=["club", 2]))[
        "X-Frame-Options"
    ] == ("DENY")


def test_the_frame_ancestors_can_be_narrowed(client, club, settings):
    settings.ARBITER_EMBED_FRAME_ANCESTORS = ["https://federation.example"]
    response = client.get(_url("embed_standings", "club"))
    assert _frame_ancestors(response) == "frame-ancestors https://federation.example"


def test_hidden_wpf_results_stay_hidden_in_the_embeds(client, director):
    event = wpf_imported_event(director, 2, {"A1": 1})
    standings.refresh(event.pk, event.results_version)
    for name in EMBEDS:
        html = client.get(_url(name, event.slug)).content.decode()
        assert "Solver 1" in html or name == "overlay", name  # the seeds, as on the page
        for secret in ("1:40", "22:00", "Losses", "After round"):
            assert secret not in html, (name, secret)


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


def test_embeds_run_the_same_queries_for_10_and_1000_entrants(
    client, settings, django_assert_max_num_queries, django_assert_num_queries
):
    small = bulk_event("small", entrants=10, rounds=3, groups=2)
    big = bulk_event("big", entrants=1000, rounds=3, groups=2)
    # the event, its public rounds, the snapshot and its rows (+ the round and its matches,
    # seats and entrants on the overlay; one more on the Embed page)
    urls = [
        ("embed_standings", {"rows": "20"}, 4),
        ("embed_snippet", {}, 4),
        ("overlay", {"boards": "40", "rows": "12"}, 7),
        ("embed", {}, 5),
    ]
    for name, query, most in urls:
        settings.ARBITER_PAGE_CACHE = False  # every request builds its page
        counts = [_count(client, _url(name, e.slug, **query)) for e in (small, big)]
        assert counts[0] == counts[1], (name, counts)
        with django_assert_max_num_queries(most):
            client.get(_url(name, "big", **query))
        settings.ARBITER_PAGE_CACHE = True
        client.get(_url(name, "big", **query))  # built and stored
        with django_assert_num_queries(0):  # the stamp and the page come from the cache
            hit = client.get(_url(name, "big", **query))
        assert hit["X-Page-Cache"] == "hit", name
    overlay = client.get(_url("overlay", "big", boards="40")).content.decode()
    assert len(_body_rows(overlay, 'class="overlay-pairings"')) == 40
    assert "and 460 more matches" in overlay


def test_the_embed_panel_shows_the_codes_with_copy_buttons_and_a_preview(client, club, settings):
    settings.ARBITER_SITE_URL = "https://arbiter.example"
    page = client.get(_url("embed", "club", rows="5", theme="dark", lang="fr"))
    assert page.status_code == 200
    html = page.content.decode()
    src = "https://arbiter.example/e/club/embed/standings?rows=5&amp;theme=dark&amp;lang=fr"
    assert f"&lt;iframe src=&quot;{src}&quot;" in html or f'&lt;iframe src="{src}"' in html
    assert '<iframe class="embed-preview"' in html
    assert "/e/club/embed/standings?rows=5&amp;theme=dark&amp;lang=fr" in html
    assert "https://arbiter.example/e/club/overlay?lang=fr" in html
    assert html.count('data-copy="code-') == 4 and "arbiter/copy.js" in html
    # the static table is the snippet's own answer, escaped to be read and copied
    snippet = client.get(_url("embed_snippet", "club", rows="5", lang="fr")).content.decode()
    assert _text(snippet)[:60] in _text(html.replace("&lt;", "<").replace("&gt;", ">"))
    standings_page = client.get(reverse("tournaments:standings", args=["club"])).content.decode()
    assert 'href="/e/club/embed/"' in standings_page  # linked from the standings
