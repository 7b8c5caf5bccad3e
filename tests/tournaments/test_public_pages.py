"""Public pages: visible to anyone for public events, hidden for private ones, readable
on a phone, live without reloading, and a constant number of queries whatever the
event's size."""

import datetime
import zoneinfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import bulk_event, play_round, round_robin_event
from tournaments.models import Match, Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db(transaction=True)


def _url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def test_public_event_pages_show_pairings_and_standings(client, director):
    event = round_robin_event(director, players=5, slug="pub")
    play_round(event, director, scores=lambda m: [3, 1])
    home = client.get(_url("event", "pub"))
    assert home.status_code == 200
    assert "Player 1" in home.content.decode()
    standings = client.get(_url("standings", "pub"))
    assert "Why these ties were broken" in standings.content.decode()
    # the engine's detail already names its tiebreak: the page does not say it twice
    assert " above " in standings.content.decode()
    assert "by SB: Sonneborn" not in standings.content.decode()
    partial = client.get(_url("standings", "pub"), HTTP_HX_REQUEST="true")
    assert "<html" not in partial.content.decode()
    assert 'id="standings"' in partial.content.decode()
    assert "HX-Request" in partial["Vary"]
    version = client.get(_url("version", "pub")).json()
    assert version["results_version"] == version["standings_version"]


def test_private_event_is_a_404_to_strangers_and_visible_to_its_director(client, director):
    event = round_robin_event(director, players=4, slug="secret")
    play_round(event, director)
    event.public = False
    event.save()
    for name, args in [
        ("event", ["secret"]),
        ("standings", ["secret"]),
        ("version", ["secret"]),
        ("round", ["secret", 1]),
        ("entrant", ["secret", 1]),
    ]:
        assert client.get(_url(name, *args)).status_code == 404, name
    assert "secret" not in client.get(_url("event_list")).content.decode()
    client.force_login(director)
    assert client.get(_url("event", "secret")).status_code == 200
    assert client.get(_url("entrant", "secret", 1)).status_code == 200


def test_find_my_name_filters_pairings_without_javascript(client):
    bulk_event("find", entrants=10, rounds=2)
    page = client.get(_url("round", "find", 2), {"q": "entrant 0007"}).content.decode()
    assert "1 match for “entrant 0007”" in page
    assert "<mark>Entrant 0007</mark>" in page
    assert page.count('class="hit"') == 1
    assert page.count('<td class="result">') == 1  # every other match is filtered out
    # a registration number finds the entrant too; nothing found says so
    assert (
        "<mark>Entrant 0003</mark>"
        in client.get(_url("round", "find", 2), {"q": "3"}).content.decode()
    )
    empty = client.get(_url("round", "find", 2), {"q": "nobody"}).content.decode()
    assert "No match in this round has that name or number." in empty
    # the form is a plain GET form with a label, and htmx swaps the pairings as one types
    full = client.get(_url("round", "find", 2)).content.decode()
    assert '<label for="find-q">Find my name</label>' in full
    assert 'hx-target="#pairings"' in full
    live = client.get(_url("round", "find", 2), {"q": "0007"}, HTTP_HX_REQUEST="true")
    body = live.content.decode()
    assert "<html" not in body and body.strip().startswith('<div id="pairings"')
    assert body.count('class="hit"') == 1


def test_pairings_link_each_entrant_to_their_page_with_all_matches(client):
    bulk_event("ent", entrants=10, rounds=3)
    page = client.get(_url("round", "ent", 1)).content.decode()
    assert f'href="{_url("entrant", "ent", 1)}"' in page
    standings = client.get(_url("standings", "ent")).content.decode()
    assert f'href="{_url("entrant", "ent", 1)}"' in standings
    entrant = client.get(_url("entrant", "ent", 1)).content.decode()
    assert "<h1>Entrant 0001</h1>" in entrant
    for r in (1, 2, 3):
        assert f'href="{_url("round", "ent", r)}"' in entrant
    assert entrant.count("won") == 3  # seat 0 wins every match of the bulk event
    assert "rank 1" in entrant
    assert client.get(_url("entrant", "ent", 99)).status_code == 404


def test_drafts_stay_hidden_from_the_entrant_page(client):
    event = bulk_event("drafts", entrants=4, rounds=2)
    Round.objects.filter(event=event, number=2).update(status=Round.Status.DRAFT)
    page = client.get(_url("entrant", "drafts", 1)).content.decode()
    assert "Round 1" in page and "Round 2" not in page
    assert client.get(_url("round", "drafts", 2)).status_code == 404


def test_multi_table_standings_sit_in_a_grid_with_notes_reasons_and_pending(client):
    bulk_event("groups", entrants=20, rounds=1, groups=4)
    page = client.get(_url("standings", "groups")).content.decode()
    # the overall table (20 rows) stands alone; the four group tables share one grid
    assert page.count('class="table-grid"') == 1
    assert page.count('class="table-stack"') == 1
    for g in "ABCD":
        assert f'<h3 id="table-group-{g.lower()}">Group {g}</h3>' in page
    assert page.count("The top two go on.") == 4
    assert "Still to be settled" in page
    assert "Entrants 3 and 4 play a tiebreaker game for third place." in page
    # the reason names the column that split the tie, by its label
    assert "<b>Entrant 0001</b> above <b>Entrant 0002</b> by SB: 5.5 against 4" in page
    assert '<th scope="row">' in page and '<th scope="col" class="num">' in page
    # the event home shows the top ten of the first table, the open question, and a link
    home = client.get(_url("event", "groups")).content.decode()
    assert "Entrant 0010</a>" in home and "Entrant 0011</a></th>" not in home
    assert "Entrants 3 and 4 play a tiebreaker game for third place." in home
    assert f'href="{_url("standings", "groups")}">Full standings' in home


def test_pairings_are_split_by_bracket_or_group(client):
    event = bulk_event("brackets", entrants=8, rounds=1)
    matches = list(Match.objects.filter(round__event=event).order_by("order"))
    Match.objects.filter(pk__in=[m.pk for m in matches[:2]]).update(bracket="Winners")
    Match.objects.filter(pk__in=[m.pk for m in matches[2:]]).update(bracket="Losers")
    page = client.get(_url("round", "brackets", 1)).content.decode()
    assert page.index("<h3>Winners</h3>") < page.index("<h3>Losers</h3>")
    assert page.count('<table class="pairings">') == 2


def test_times_show_in_the_events_time_zone(client):
    event = bulk_event("tz", entrants=4, rounds=1)
    event.time_zone = "Asia/Tokyo"
    event.save()
    deadline = datetime.datetime(2026, 5, 1, 12, 0, tzinfo=zoneinfo.ZoneInfo("UTC"))
    Round.objects.filter(event=event).update(deadline=deadline)
    for name, args in [("event", ["tz"]), ("round", ["tz", 1])]:
        page = client.get(_url(name, *args)).content.decode()
        assert "Fri 1 May, 21:00" in page, name  # 12:00 UTC is 21:00 in Tokyo
        assert "Asia/Tokyo" in page


def test_version_poller_answers_204_until_something_changes(client, director):
    event = round_robin_event(director, players=4, slug="live")
    rnd = play_round(event, director, complete=False)
    page = client.get(_url("round", "live", 1)).content.decode()
    token = client.get(_url("version", "live")).json()["token"]
    assert f'data-version="{token}"' in page
    assert 'hx-trigger="arbiter-changed from:body"' in page
    same = client.get(_url("version", "live"), {"known": token}, HTTP_HX_REQUEST="true")
    assert same.status_code == 204 and same.content == b""
    rounds.complete_round(rnd, by=director)
    play_round(event, director)  # round 2 is published: the token moves on
    changed = client.get(_url("version", "live"), {"known": token}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200
    assert changed["HX-Trigger"] == "arbiter-changed"
    new_token = client.get(_url("version", "live")).json()["token"]
    assert new_token != token
    assert f'data-version="{new_token}"' in changed.content.decode()


def _count(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


PAGES = [
    ("event", []),
    ("round", [3]),
    ("standings", []),
    ("entrant", [5]),
    ("version", []),
]


def test_public_pages_run_the_same_queries_for_10_and_1000_entrants(
    client, django_assert_max_num_queries
):
    small = bulk_event("small", entrants=10, rounds=3, groups=2)
    big = bulk_event("big", entrants=1000, rounds=3, groups=10)
    for name, extra in PAGES:
        counts = [_count(client, _url(name, e.slug, *extra)) for e in (small, big)]
        assert counts[0] == counts[1], (name, counts)
        with django_assert_max_num_queries(8):
            client.get(_url(name, big.slug, *extra))
    found = client.get(_url("round", "big", 3), {"q": "Entrant 0999"}).content.decode()
    assert "<mark>Entrant 0999</mark>" in found
    with django_assert_max_num_queries(8):
        client.get(_url("round", "big", 3), {"q": "0999"}, HTTP_HX_REQUEST="true")
    with django_assert_max_num_queries(3):
        client.get(_url("event_list"))


def _with_contention(event):
    """Give a bulk event's snapshot contention, as the standings task stores it: entrant 1
    clinched, the rest eliminated."""
    from tournaments.models import StandingsRow, StandingsSnapshot

    verdict = {"method": "bound", "code": "contention.win.eliminated.points"}
    StandingsSnapshot.objects.filter(event=event).update(
        contention={"stage_key": "", "stage_name": "", "method": "bound", "notes": []}
    )
    rows = StandingsRow.objects.filter(snapshot__event=event)
    rows.exclude(entrant__number=1).update(
        contention={"win": {**verdict, "status": "eliminated", "text": "eliminated: too far"}}
    )
    rows.filter(entrant__number=1).update(
        contention={"win": {**verdict, "status": "clinched", "text": "clinched: no one close"}}
    )


def test_contention_marks_keep_the_query_count_constant(client, django_assert_max_num_queries):
    small = bulk_event("small-c", entrants=10, rounds=3, groups=2)
    big = bulk_event("big-c", entrants=1000, rounds=3, groups=10)
    for event in (small, big):
        _with_contention(event)
    for name, extra in [("standings", []), ("entrant", [1]), ("entrant", [5]), ("event", [])]:
        counts = [_count(client, _url(name, e.slug, *extra)) for e in (small, big)]
        assert counts[0] == counts[1], (name, counts)
        with django_assert_max_num_queries(8):
            client.get(_url(name, big.slug, *extra))
    page = client.get(_url("standings", "big-c")).content.decode()
    # one mark per row shown: the overall table's first page (100 rows, the leader's
    # mark "clinched") and the ten groups, whole on page 1
    assert page.count("cm-eliminated cm-win") == 99 + 999
    assert 'title="clinched: no one close">clinched 1st' in page
    entrant = client.get(_url("entrant", "big-c", 1)).content.decode()
    assert "clinched: no one close" in entrant


def test_health_endpoint(client):
    assert client.get(reverse("tournaments:health")).json() == {"status": "ok"}


def test_health_endpoint_says_503_when_the_database_is_down(client, monkeypatch):
    from django.db import OperationalError, connection

    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = client.get(reverse("tournaments:health"))
    assert response.status_code == 503
    assert response.json() == {"status": "database unavailable"}


def test_a_match_scored_by_points_without_a_winner_is_not_called_a_draw():
    """A bot-contest gauntlet game has points and no winner: the entrant page called it
    "drawn 1038-1059"; only equal points make a draw."""
    from tournaments.selectors import _outcome

    assert _outcome({"winner": None, "points": [1038, 1059], "complete": True}, 0, 2) == ""
    assert _outcome({"winner": None, "points": [0.5, 0.5], "complete": True}, 0, 2) == "draw"
    assert _outcome({"winner": 1, "points": [0, 1], "complete": True}, 0, 2) == "loss"
