"""Issue 28, item 3: the dashboard's "Needs you" list says each item as a sentence that is
a link to where the director acts, with its lines as a list, never the object's repr
(``NeedsYou(text=..., url=..., lines=(...))``). Both sources: a GokoDom dispute and a
double-entry mismatch."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import round_robin_event
from tests.tournaments.test_format_gokodom import pair, start
from tournaments.formats.gokodom import services as gokodom
from tournaments.models import Match
from tournaments.services import double_entry, events, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _needs_you(client: Client, slug: str) -> str:
    page = client.get(reverse("tournaments:manage", args=[slug])).content.decode()
    start = page.index('<section class="needs-you"')
    return page[start : page.index("</section>", start)]


def _links(section: str) -> list[tuple[str, str]]:
    return [
        (html.unescape(href), html.unescape(re.sub(r"\s+", " ", text)).strip())
        for href, text in re.findall(r'<a href="([^"]*)"[^>]*>(.*?)</a>', section, re.S)
    ]


def test_a_gokodom_dispute_is_a_sentence_and_a_link_with_its_lines(director):
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    gokodom.report(match, a, outcome="W", by=a.user)
    gokodom.dispute(match, b, note="no, I won", outcome="W", by=b.user)
    client = Client()
    client.force_login(director)
    section = _needs_you(client, event.slug)
    assert "NeedsYou(" not in section and "lines=" not in section
    settle = reverse("tournaments:gokodom_settle", args=[event.slug, match.pk])
    sentence = f"{rnd.label} {match.code}: the players' accounts differ (disputed)"
    assert (settle, sentence) in _links(section)
    items = re.findall(r"<li>([^<]*)</li>", section)
    assert f"{a.name} says {a.name} won" in items and f"{b.name} says {b.name} won" in items
    assert f"What is wrong, says {b.name}: “no, I won”" in [html.unescape(i) for i in items]


def test_a_double_entry_mismatch_is_a_sentence_and_a_link_to_its_row(director):
    event = round_robin_event(director, players=4, slug="desk")
    get_user_model().objects.create_user("bea", password="pw-1")
    events.add_director(event, "bea", by=director)
    double_entry.set_enabled(event, True, by=director)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()
    bea = get_user_model().objects.get(username="bea")
    games = [{"number": 1, "scores": [39, 25]}]
    double_entry.enter(match, games, expected_version=0, by=bea)
    double_entry.enter(match, [{"number": 1, "scores": [25, 39]}], expected_version=0, by=director)
    client = Client()
    client.force_login(director)
    section = _needs_you(client, event.slug)
    assert "NeedsYou(" not in section
    url = reverse("tournaments:manage_round", args=[event.slug, rnd.number])
    sentence = f"{rnd.label} {match.code}: the two entries of the result disagree"
    assert (f"{url}#match-{match.pk}", sentence) in _links(section)
    assert "<li>bea entered 39-25</li>" in section and "<li>director entered 25-39</li>" in section
    # the link leads where the head director settles it: the row with both entries
    page = client.get(url).content.decode()
    row = page[page.index(f'id="match-{match.pk}"') :]
    row = row[: row.index("</form>")]
    assert "bea entered 39-25" in row and Match.objects.get(pk=match.pk).result is None
