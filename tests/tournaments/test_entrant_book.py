"""The entrant pages read their rows from the event's book (tournaments/views/entrant_book.py):
every entrant's rows read at once per version of a public event. The page is the same as
one built alone, the book is built once per version and again after a change, a private
event never has one, and a page of another entrant then runs a fixed, small number of
queries whatever the size of the event."""

from __future__ import annotations

import re
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import bulk_event, play_round, round_robin_event
from tournaments.models import Match
from tournaments.services import results, rounds, standings
from tournaments.views import entrant_book, pagecache

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(director):
    """A public round robin of seven (a bye each round), two rounds played, the third
    published with one result in (the others pending), standings published."""
    event = round_robin_event(director, players=7, slug="book")
    play_round(event, director)
    play_round(event, director, scores=lambda match: [1, 1])
    third = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    first = third.matches.exclude(participants__entrant=None).order_by("order").first()
    results.record(first, [{"scores": [0, 1]}], expected_version=first.version, by=director)
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)
    event.refresh_from_db()
    return event


def _partial(client, slug: str, number: int) -> tuple[int, str]:
    response = client.get(
        reverse("tournaments:entrant", args=[slug, number]), headers={"HX-Request": "true"}
    )
    return response.status_code, response.content.decode()


def _counting_builds(monkeypatch) -> list[str]:
    """The parts of a book built from the database, in order ("matches", "placings")."""
    built: list[str] = []
    for part in ("matches", "placings"):
        real = getattr(entrant_book, f"build_{part}")

        def build(*args, real=real, part=part):
            built.append(part)
            return real(*args)

        monkeypatch.setattr(entrant_book, f"build_{part}", build)
    return built


def test_every_entrant_page_from_the_book_is_the_page_built_alone(
    client, played, settings, monkeypatch
):
    built = _counting_builds(monkeypatch)
    numbers = [*played.entrants.values_list("number", flat=True), 99]
    settings.ARBITER_PAGE_CACHE = False  # each page reads its own entrant
    alone = {n: _partial(client, played.slug, n) for n in numbers}
    assert built == []
    settings.ARBITER_PAGE_CACHE = True
    from_book = {n: _partial(client, played.slug, n) for n in numbers}
    assert built == ["matches", "placings"]  # one book for all of them
    assert alone.pop(99)[0] == from_book.pop(99)[0] == 404  # (its page holds a CSRF token)
    assert from_book == alone
    assert sum("pending" in html for _, html in alone.values()) >= 4  # round 3's
    assert all("rank" in html for _, html in alone.values())  # the placings


def test_the_whole_page_signed_out_heading_included(client, played, monkeypatch):
    """Signed out, the heading (name, number, rating, team, withdrawn) comes from the book
    too: the same page as one read alone, and a withdrawal shows at once."""
    from tournaments.models import Entrant, Team

    team = Team.objects.create(event=played, name="The Flippers")
    Entrant.objects.filter(event=played, number=2).update(team=team, country="FRA")
    person = Entrant.objects.get(event=played, number=2)
    person.status, person.withdrawn_after_round = Entrant.Status.WITHDRAWN, 3
    person.save()  # moves the names epoch (a bulk update alone would not)
    url = reverse("tournaments:entrant", args=[played.slug, 2])
    tokens = re.compile(r"[A-Za-z0-9]{64}")
    with monkeypatch.context() as patched:
        patched.setattr(entrant_book, "_keys", lambda event, rounds: None)  # no book
        alone = client.get(url)
    assert alone["X-Page-Cache"] == "miss"
    cache.clear()  # the page built alone goes; the next is built from the book
    pagecache._local.clear()
    built = _counting_builds(monkeypatch)
    html = client.get(url)
    assert html["X-Page-Cache"] == "miss" and built == ["matches", "placings"]
    html, alone = (tokens.sub("", r.content.decode()) for r in (html, alone))
    assert html == alone
    assert "The Flippers" in html and "FRA" in html and "withdrawn" in html
    assert "No. 2" in html and "rating 1999" in html


def test_the_whole_page_too_for_a_signed_in_director(client, played, director, settings):
    client.force_login(director)
    url = reverse("tournaments:entrant", args=[played.slug, 3])
    settings.ARBITER_PAGE_CACHE = False
    alone = client.get(url).content.decode()
    settings.ARBITER_PAGE_CACHE = True
    entrant_book.forget()
    tokens = re.compile(r"[A-Za-z0-9]{64}")  # each request's CSRF token
    assert tokens.sub("", client.get(url).content.decode()) == tokens.sub("", alone)
    assert "Player 3" in alone and "entrant-matches" in alone


def test_a_change_makes_a_new_book_that_shows_it(client, played, director, monkeypatch):
    built = _counting_builds(monkeypatch)
    _partial(client, played.slug, 1)
    match = (
        Match.objects.filter(round__event=played, round__number=3, result__isnull=True)
        .exclude(participants__entrant=None)
        .first()
    )
    number = match.participants.exclude(entrant=None).first().entrant.number
    _, pending = _partial(client, played.slug, number)
    results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    pagecache.events_changed()  # (the test's transaction never commits: move it by hand)
    _, after = _partial(client, played.slug, number)
    # a result: the matches again; the placings wait for new standings
    assert built == ["matches", "placings", "matches"]
    assert pending.count("pending") > after.count("pending")


def test_a_private_event_has_no_book_and_stays_private(client, played, director, monkeypatch):
    built = _counting_builds(monkeypatch)
    played.public = False
    played.save()
    status, _ = _partial(client, played.slug, 1)
    assert status == 404
    client.force_login(director)
    status, html = _partial(client, played.slug, 1)
    assert status == 200 and '<table class="entrant-matches">' in html
    assert built == []


def test_a_book_another_worker_never_finishes_leaves_each_page_to_read_its_own(
    client, played, monkeypatch
):
    monkeypatch.setattr(entrant_book, "BUILD_WAIT_SECONDS", 0.05)
    real = pagecache.cache_call

    def call(method, *args, **kwargs):
        if method == "add" and str(args[0]).startswith("building:entrantbook:"):
            return False  # someone else holds the build, and never stores it
        return real(method, *args, **kwargs)

    monkeypatch.setattr(pagecache, "cache_call", call)
    built = _counting_builds(monkeypatch)
    status, html = _partial(client, played.slug, 2)
    assert status == 200 and '<table class="entrant-matches">' in html and built == []


def test_with_the_book_an_entrant_page_runs_as_many_queries_at_1000_entrants_as_at_20(
    client, settings
):
    """Signed out, the page cache on, each page a new address (as after a release): the
    first page builds the book, the next ones read the event and its rounds only."""
    tag = uuid.uuid4().hex[:6]
    small = bulk_event(f"b-small-{tag}", entrants=20)
    large = bulk_event(f"b-large-{tag}", entrants=1000)
    counts = {}
    for event in (small, large):
        client.get(reverse("tournaments:entrant", args=[event.slug, 1]))  # builds the book
        per_page = []
        for number in (2, 3, 4):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(reverse("tournaments:entrant", args=[event.slug, number]))
            assert response.status_code == 200 and response["X-Page-Cache"] == "miss"
            per_page.append(len(queries))
        counts[event.slug] = per_page
    assert counts[small.slug] == counts[large.slug]
    assert max(counts[large.slug]) <= 3, counts


def _page(client, slug: str, number: int) -> str:
    response = client.get(reverse("tournaments:entrant", args=[slug, number]))
    assert response.status_code == 200
    return re.sub(r"[A-Za-z0-9]{64}", "", response.content.decode())  # (CSRF tokens)


def test_after_a_versions_first_signed_out_page_the_next_read_nothing_and_are_the_same(
    client, played, settings
):
    """Signed out, each page a new address (as after a release): the event, its rounds, its
    navigation and the book are read once per version; the next pages read nothing, and
    every page is the page built without the cache."""
    numbers = list(played.entrants.values_list("number", flat=True))
    _page(client, played.slug, numbers[0])
    shared = {}
    for number in numbers[1:]:
        with CaptureQueriesContext(connection) as queries:
            shared[number] = _page(client, played.slug, number)
        assert len(queries) == 0, [q["sql"] for q in queries]
    settings.ARBITER_PAGE_CACHE = False
    # (a page built for one visitor carries their htmx token on its body; a shared one none)
    alone = {
        n: _page(client, played.slug, n).replace(
            '<body hx-headers=\'{"X-CSRFToken": ""}\'>', "<body>"
        )
        for n in numbers[1:]
    }
    assert shared == alone
    assert all('class="event-nav"' in html and "Round 3" in html for html in shared.values())


def test_a_change_of_the_event_or_its_rounds_shows_on_the_next_page(client, director):
    """What the signed-out pages read once per version (the event, its rounds, the
    navigation) is read again once the event changes: a new name, a round released."""
    event = round_robin_event(director, players=6, slug="book-change")
    play_round(event, director)
    second = rounds.draft_next_round(event, by=director).round
    pagecache.events_changed()
    _page(client, event.slug, 1)
    event.name = "Renamed Open"
    event.save()
    renamed = _page(client, event.slug, 2)
    assert "Renamed Open" in renamed and "Round 2" not in renamed
    rounds.publish_round(second, by=director)
    pagecache.events_changed()  # (the test's transaction never commits: move it by hand)
    after = _page(client, event.slug, 3)
    assert "Renamed Open" in after
    assert reverse("tournaments:round", args=[event.slug, 2]) in after  # the navigation
    assert "Round 2" in after


def test_a_part_holds_each_entrants_rows_packed_apart_and_a_page_unpacks_its_own(
    client, played, monkeypatch
):
    """A web worker reads each new part of a release's first seconds (the release, its
    standings, their outlook): a thousand small strings, not a hundred thousand dicts for
    its garbage collector to walk; and a page unpickles one entrant's rows, not the book."""
    entrant_book.forget()
    pagecache._local.clear()
    assert _partial(client, played.slug, 1)[0] == 200
    shown = list(played.rounds.order_by("number"))
    matches_key, placings_key = entrant_book._keys(played, shown)
    matches, placings = cache.get(matches_key), cache.get(placings_key)
    assert matches["rows"] and placings
    assert all(
        isinstance(packed, tuple) and all(isinstance(one, bytes) for one in packed)
        for packed in matches["rows"].values()
    )
    assert all(isinstance(packed, bytes) for packed in placings.values())
    unpickled: list[bytes] = []
    real = entrant_book.pickle.loads
    monkeypatch.setattr(
        entrant_book.pickle, "loads", lambda data: unpickled.append(data) or real(data)
    )
    assert _partial(client, played.slug, 2)[0] == 200
    own = played.entrants.get(number=2).pk
    book = {one for packed in matches["rows"].values() for one in packed} | {*placings.values()}
    assert [data for data in unpickled if data in book] == [*matches["rows"][own], placings[own]]
