"""After a round's release the players open their entrant page and the new round through
the API within seconds: the release's task builds both before they ask
(tournaments/views/release_warm.py), so the first visitor builds nothing. The book it
builds adds the released round to the book of the version before, and that is the book
built whole; the pages are the pages built alone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import play_round, round_robin_event
from tournaments.models import Round
from tournaments.services import queue, rounds, standings
from tournaments.views import entrant_book, pagecache, release_warm

pytestmark = pytest.mark.django_db

TOKENS = re.compile(r"[A-Za-z0-9]{64}")  # each request's CSRF token


@pytest.fixture
def drafted(director, client):
    """A public round robin of seven, two rounds played, standings published, every
    entrant's page read (the book of that version stored), the third round drafted."""
    event = round_robin_event(director, players=7, slug="warm")
    play_round(event, director)
    play_round(event, director, scores=lambda match: [1, 1])
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)
    pagecache.events_changed()
    for number in range(1, 8):
        _page(client, event.slug, number)
    third = rounds.draft_next_round(event, by=director).round
    pagecache.events_changed()
    _page(client, event.slug, 1)  # read while the third round is drafted
    return event, third


def _page(client, slug, number):
    response = client.get(
        reverse("tournaments:entrant", args=[slug, number]), headers={"HX-Request": "true"}
    )
    return response.status_code, TOKENS.sub("", response.content.decode())


def _builds(monkeypatch):
    """The parts built from the database: ("matches", the rounds' numbers) or
    ("placings",)."""
    built = []
    real_matches, real_placings = entrant_book.build_matches, entrant_book.build_placings

    def matches(event, shown):
        built.append(("matches", [r.number for r in shown]))
        return real_matches(event, shown)

    def placings(event):
        built.append(("placings",))
        return real_placings(event)

    monkeypatch.setattr(entrant_book, "build_matches", matches)
    monkeypatch.setattr(entrant_book, "build_placings", placings)
    return built


def _nothing_warmed(monkeypatch):
    """Neither the transactions (the release's, its standings') nor the tasks build
    anything for the visitors."""
    monkeypatch.setattr(release_warm, "after_release", lambda *args: None)
    monkeypatch.setattr(release_warm, "after_standings", lambda *args: None)
    monkeypatch.setattr(entrant_book, "release_part", lambda *args: None)
    monkeypatch.setattr(entrant_book, "placings_part", lambda *args: None)
    monkeypatch.setattr("tournaments.api.main.prepare_round", lambda *args: None)


def _publish(director, third, django_capture_on_commit_callbacks, monkeypatch):
    """Publish, then run what the commit sends (the tasks run in the test's process)."""
    sent = []
    real = queue.send

    def send(name, *args, **options):
        sent.append((name, args))
        return real(name, *args, **options)

    monkeypatch.setattr(queue, "send", send)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.publish_round(third, by=director)
    return sent


def test_the_release_task_goes_first_with_the_releases_version(
    drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    event, third = drafted
    sent = _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    event.refresh_from_db()
    names = [name for name, _ in sent]
    assert names[:2] == ["tournaments.tasks.warm_release", "tournaments.tasks.recompute_standings"]
    assert sent[0][1] == (event.pk, third.pk, sent[1][1][1])  # the version the release made


def test_after_the_release_the_first_pages_build_nothing_and_are_the_pages_built_alone(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch, settings
):
    event, third = drafted
    built = _builds(monkeypatch)
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    # the release's task read the third round's matches only for the English book (the
    # rest from the book of the version before), and kept its placings (no round decides
    # them); no French book (nobody read one); the standings task then the placings of
    # the new snapshot and of its outlook, in English only
    assert built == [("matches", [3]), *[("placings",)] * 2]
    built.clear()
    entrant_book.forget()  # (another web worker: nothing in its memory)
    from_book = {n: _page(client, event.slug, n) for n in range(1, 8)}
    assert built == []
    settings.ARBITER_PAGE_CACHE = False
    alone = {n: _page(client, event.slug, n) for n in range(1, 8)}
    assert from_book == alone
    assert all(status == 200 for status, _ in alone.values())
    assert sum("Round 3" in html for _, html in alone.values()) == 7


def _french_page(client, slug, number):
    response = client.get(
        reverse("tournaments:entrant", args=[slug, number]),
        headers={"HX-Request": "true", "Accept-Language": "fr"},
    )
    return response.status_code, TOKENS.sub("", response.content.decode())


def test_a_language_nobody_read_is_left_to_its_first_reader(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch, settings
):
    """The release warms no French book when nobody read one during the round (a whole
    book, every round's matches: a second of the one worker at 1,000 entrants, in the
    release's first second); the first French visitor builds it, once."""
    event, third = drafted
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    built = _builds(monkeypatch)
    entrant_book.forget()
    french = {n: _french_page(client, event.slug, n) for n in range(1, 8)}
    assert built == [("matches", [1, 2, 3]), ("placings",)]
    assert all("Ronde 3" in html for _, html in french.values())
    settings.ARBITER_PAGE_CACHE = False
    assert {n: _french_page(client, event.slug, n) for n in range(1, 8)} == french


def test_a_language_read_during_the_round_is_warmed_by_adding_the_round(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    """Players reading in French during the round: the release adds the new round to the
    French book too, English first (the site's language), and the French pages then
    build nothing."""
    event, third = drafted
    _french_page(client, event.slug, 1)  # the book of the version before, in French
    built = _builds(monkeypatch)
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    assert built[:2] == [("matches", [3]), ("matches", [3])]
    assert ("matches", [1, 2, 3]) not in built
    built.clear()
    entrant_book.forget()
    assert all("Ronde 3" in _french_page(client, event.slug, n)[1] for n in range(1, 8))
    assert built == []


def test_the_book_a_release_adds_to_is_the_book_built_whole(
    drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    from django.core.cache import cache

    event, third = drafted
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    event.refresh_from_db()
    shown = list(Round.objects.filter(event=event).order_by("number"))
    key = entrant_book._keys(event, shown)[0]
    added, whole = cache.get(key), entrant_book.build_matches(event, shown)
    assert entrant_book.unpacked(added) == entrant_book.unpacked(whole)
    assert added["people"] == whole["people"]
    # the release's round packed apart from the rows before it: nothing else unpickled
    assert {len(packed) for packed in added["rows"].values()} == {2}


def test_a_visitor_first_after_the_release_adds_the_round_too(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    """Nothing was built for the crowd (neither before the commit nor by the task): the
    first visitor builds the book as the task would, from the release's note, and it is
    the book built whole."""
    event, third = drafted
    _nothing_warmed(monkeypatch)
    built = _builds(monkeypatch)
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    built.clear()
    status, html = _page(client, event.slug, 1)
    assert status == 200 and "Round 3" in html
    # (the placings: of the standings the commit's recompute published, here at once)
    assert built == [("matches", [3]), ("placings",)]


def test_a_change_since_the_release_builds_the_whole_book(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    """A result saved after the release: its version is no release's, the book is read
    whole."""
    from tournaments.models import Match
    from tournaments.services import results

    event, third = drafted
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    match = third.matches.exclude(participants__entrant=None).order_by("order").first()
    results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    pagecache.events_changed()
    built = _builds(monkeypatch)
    _page(client, event.slug, 1)
    assert ("matches", [1, 2, 3]) in built and ("matches", [3]) not in built
    assert Match.objects.get(pk=match.pk).result is not None


def test_the_standings_of_a_result_warm_nothing(
    drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    """After a saved result the standings task publishes and renders the standings but
    builds no entrant book nor API round: at 10,000 entrants that was seconds of the worker
    ahead of the next result's standings (7 s p95 in bench.latency woc:10000)."""
    from tournaments.models import Match
    from tournaments.services import results

    event, third = drafted
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    stored = []
    monkeypatch.setattr("tournaments.api.main.store_round", lambda *a: stored.append(a))
    built = _builds(monkeypatch)
    match = third.matches.exclude(participants__entrant=None).order_by("order").first()
    with django_capture_on_commit_callbacks(execute=True):
        results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    event.refresh_from_db()
    assert event.standings_version == event.results_version  # the task ran
    assert built == [] and stored == []
    release_warm.after_standings(event.pk)
    assert built == [] and stored == []
    assert Match.objects.get(pk=match.pk).result is not None


def test_the_api_round_is_stored_before_the_first_visitor(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    event, third = drafted
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    path = reverse("api-v1:round", args=[event.slug, 3])
    first = client.get(path)
    assert first.status_code == 200 and first["X-Page-Cache"] == "hit"
    # (nobody read the event in French: its first French reader builds its answer)
    french = client.get(path, headers={"Accept-Language": "fr"})
    assert french.status_code == 200 and french["X-Page-Cache"] == "miss"
    pagecache._local.clear()
    from django.core.cache import cache

    cache.clear()
    assert client.get(path).content == first.content  # the answer built by a visitor


def test_a_private_event_is_never_warmed(
    drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    event, third = drafted
    event.public = False
    event.save()
    built = _builds(monkeypatch)
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    assert built == []


def test_the_standings_after_a_release_keep_the_api_rounds_answer(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    """A round's answer holds no standings: the standings and the outlook that follow a
    release keep the answer stored at the release (each used to make it built again while
    the crowd asked for it); a result does not."""
    from tournaments.api import caching, schemas
    from tournaments.models import Match
    from tournaments.services import results

    event, third = drafted
    built = []
    real = caching._build

    def build(shape, read):
        if shape is schemas.Round:
            built.append(shape)
        return real(shape, read)

    monkeypatch.setattr(caching, "_build", build)
    before = event.standings_version
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    event.refresh_from_db()
    assert event.standings_version > before and event.outlook_version == event.standings_version
    path = reverse("api-v1:round", args=[event.slug, 3])
    answer = client.get(path)
    assert answer["X-Page-Cache"] == "hit" and len(built) == 1  # the release's task's
    match = third.matches.exclude(participants__entrant=None).order_by("order").first()
    results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    pagecache.events_changed()
    after = client.get(path)
    assert after["X-Page-Cache"] == "miss" and after.content != answer.content
    assert Match.objects.get(pk=match.pk).result is not None


def _round_answers(monkeypatch):
    """The API round answers built (one item each)."""
    from tournaments.api import caching, schemas

    built = []
    real = caching._build

    def build(shape, read):
        if shape is schemas.Round:
            built.append(shape)
        return real(shape, read)

    monkeypatch.setattr(caching, "_build", build)
    return built


def _run(hooks, django_capture_on_commit_callbacks):
    """Run commit hooks captured earlier, and the hooks they register (a task's commits)."""
    with django_capture_on_commit_callbacks(execute=True):
        for hook in hooks:
            hook()


def test_the_release_builds_the_crowds_first_asks_before_its_commit_and_stores_them_first(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    """The crowd comes at the commit, before the release's task runs: the release's own
    transaction builds the released round's part of the entrant book and the round's API
    answer, claims their keys (a visitor that asks first waits rather than builds) and
    stores them from the commit's first hook, before the event's stamp moves. Then neither
    the task nor any visitor builds them; the director's language and zone are kept."""
    from django.core.cache import cache
    from django.utils import timezone, translation

    from tournaments import selectors
    from tournaments.api import caching

    event, third = drafted
    built, answers = _builds(monkeypatch), _round_answers(monkeypatch)
    with translation.override("fr"), timezone.override("Asia/Tokyo"):
        with django_capture_on_commit_callbacks(execute=False) as hooks:
            rounds.publish_round(third, by=director)
        assert translation.get_language() == "fr"
        assert timezone.get_current_timezone_name() == "Asia/Tokyo"
    assert built == [("matches", [3])] and len(answers) == 1  # before the commit
    event.refresh_from_db()
    shown = selectors.public_rounds(event)
    version = pagecache.version_at_commit(event.pk)
    book = entrant_book._keys(event, shown, version)[0]
    answer = caching._key("round", event.slug, (3,), version)
    for key in (book, answer):
        assert cache.get("building:" + key) and not cache.has_key(key)
    hooks[0]()  # the commit's first hook: the release noted, what it built stored
    for key in (book, answer):
        assert cache.has_key(key) and not cache.has_key("building:" + key)
    assert built == [("matches", [3])] and len(answers) == 1  # (its task built nothing)
    _run(hooks[1:], django_capture_on_commit_callbacks)  # the stamp moves, the standings
    whole = entrant_book.build_matches(event, shown)  # the book built whole
    assert entrant_book.unpacked(cache.get(book)) == entrant_book.unpacked(whole)
    built.clear()
    entrant_book.forget()  # (a web worker: nothing in its memory)
    pagecache._local.clear()
    pages = {n: _page(client, event.slug, n) for n in range(1, 8)}
    api = client.get(reverse("api-v1:round", args=[event.slug, 3]))
    assert all(status == 200 and "Round 3" in html for status, html in pages.values())
    assert api.status_code == 200 and api["X-Page-Cache"] == "hit"
    assert built == [] and len(answers) == 1  # no visitor built anything


def test_the_placings_of_a_releases_standings_are_stored_at_their_commit(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    """After a release, the transactions that publish its standings and then their outlook
    build the entrant book's new placings (as they see the new snapshot), claim them and
    store them from their commit's first hook, before the stamp moves and the live pages
    are told: no visitor waits for placings."""
    from django.core.cache import cache

    from tournaments import selectors
    from tournaments.services import at_commit

    event, third = drafted
    monkeypatch.setattr(standings, "schedule_recompute", lambda *args, **kwargs: False)
    _publish(director, third, django_capture_on_commit_callbacks, monkeypatch)
    built = _builds(monkeypatch)
    for publish in (standings.publish_standings, standings.attach_outlook):
        with django_capture_on_commit_callbacks(execute=False) as hooks:
            assert publish(event.pk)
        assert built == [("placings",)]
        event.refresh_from_db()
        shown = selectors.public_rounds(event)
        key = entrant_book._keys(event, shown, pagecache.version_at_commit(event.pk))[1]
        assert cache.get("building:" + key) and not cache.has_key(key)
        assert isinstance(hooks[0], at_commit.AtCommit)
        hooks[0]()
        assert cache.has_key(key) and not cache.has_key("building:" + key)
        assert cache.get(key) == entrant_book.build_placings(event)
        _run(hooks[1:], django_capture_on_commit_callbacks)
        built.clear()
    assert event.outlook_version == event.standings_version == event.results_version
    entrant_book.forget()
    pages = {n: _page(client, event.slug, n) for n in range(1, 8)}
    assert built == []
    entrant_book.forget()
    pagecache._local.clear()
    cache.clear()
    assert {n: _page(client, event.slug, n) for n in range(1, 8)} == pages  # built by a visitor


def test_a_failure_before_the_commit_leaves_the_release_and_no_claim(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch
):
    """What the release builds for the crowd is only an optimisation: a failure (here the
    book's build) leaves the release as it was, claims nothing, and the pages build it."""
    from django.core.cache import cache

    from tournaments import selectors

    event, third = drafted

    def broken(*args):
        raise RuntimeError("the book's build failed")

    with monkeypatch.context() as patched:
        patched.setattr(entrant_book, "build_matches", broken)
        with django_capture_on_commit_callbacks(execute=False) as hooks:
            rounds.publish_round(third, by=director)
    third.refresh_from_db()
    assert third.status == Round.Status.PUBLISHED
    event.refresh_from_db()
    key = entrant_book._keys(
        event, selectors.public_rounds(event), pagecache.version_at_commit(event.pk)
    )[0]
    assert not cache.has_key("building:" + key) and not cache.has_key(key)
    _run(hooks, django_capture_on_commit_callbacks)
    assert all("Round 3" in _page(client, event.slug, n)[1] for n in range(1, 8))


def test_the_thread_of_the_releases_transaction_never_waits_for_its_own_claims(
    client, drafted, director, monkeypatch
):
    """Before its commit the release's claims are its own transaction's: the same thread
    (a test, a command reading after a publish inside its transaction) builds the page and
    the API answer rather than waiting for what only that commit stores."""
    import time

    event, third = drafted
    rounds.publish_round(third, by=director)  # (its commit never comes in this test)

    def waited(seconds):
        raise AssertionError("waited for its own claim")

    monkeypatch.setattr(time, "sleep", waited)
    status, html = _page(client, event.slug, 1)
    assert status == 200 and "Round 3" in html
    answer = client.get(reverse("api-v1:round", args=[event.slug, 3]))
    assert answer.status_code == 200 and answer["X-Page-Cache"] == "miss"


def test_a_round_larger_than_the_setting_is_left_to_the_releases_task(
    client, drafted, director, django_capture_on_commit_callbacks, monkeypatch, settings
):
    """A field of thousands: building the round's part and answer inside the release would
    hold the director's publish (and the event's row) for seconds; above
    ARBITER_RELEASE_BUILD_MATCHES matches the release's task builds them after the commit."""
    event, third = drafted
    settings.ARBITER_RELEASE_BUILD_MATCHES = third.matches.count() - 1
    built, answers = _builds(monkeypatch), _round_answers(monkeypatch)
    with django_capture_on_commit_callbacks(execute=False) as hooks:
        rounds.publish_round(third, by=director)
    assert built == [] and answers == []  # nothing inside the release
    _run(hooks, django_capture_on_commit_callbacks)
    assert built and built[0] == ("matches", [3]) and len(answers) == 1  # by its task
    built.clear()
    assert all("Round 3" in _page(client, event.slug, n)[1] for n in range(1, 8))
    assert ("matches", [3]) not in built  # and no visitor after it
