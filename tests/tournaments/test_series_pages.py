"""Series pages (tournaments/views/series.py, manage_series.py): who sees what, the
standings explained, a constant number of queries at two sizes, the CSV, the director's
screens (a bad CSV names its lines and saves nothing)."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from tournaments.models import SeriesScore
from tournaments.services import series

pytestmark = pytest.mark.django_db


def grand_prix(director, players: int, rounds: int, slug: str = "gp", public: bool = True):
    gp = series.create_series(
        slug=slug, name="Grand Prix", by=director, kind="grand_prix", best=6, public=public
    )
    for number in range(1, rounds + 1):
        text = "\n".join(
            f"Player {p},{(p * 37 + number * 11) % 500},{1000 + p}" for p in range(players)
        )
        series.import_scores(gp, name=f"Round {number}", text=text, by=director)
    return gp


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


def test_standings_page_costs_the_same_queries_at_two_sizes(client, director):
    small = grand_prix(director, players=5, rounds=2, slug="small")
    large = grand_prix(director, players=60, rounds=8, slug="large")
    assert queries(client, reverse("tournaments:series", args=[small.slug])) == queries(
        client, reverse("tournaments:series", args=[large.slug])
    )
    player = reverse("tournaments:series_player", args=[small.slug, "wof:1001"])
    player_large = reverse("tournaments:series_player", args=[large.slug, "wof:1001"])
    assert queries(client, player) == queries(client, player_large)


def test_every_total_is_explained_on_the_page(client, director):
    gp = grand_prix(director, players=3, rounds=8)
    page = client.get(reverse("tournaments:series", args=[gp.slug])).content.decode()
    assert "The best 6 of 8 stages played count" in page
    assert "dropped:" in page and "Round 1: score" in page


def test_a_private_series_is_hidden_from_strangers(client, director):
    gp = grand_prix(director, players=2, rounds=1, public=False)
    url = reverse("tournaments:series", args=[gp.slug])
    assert client.get(url).status_code == 404
    stranger = User.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    assert url not in client.get(reverse("tournaments:series_list")).content.decode()
    client.force_login(director)
    assert client.get(url).status_code == 200


def test_csv_export_neutralises_formulas_and_explains(client, director):
    gp = series.create_series(slug="gp", name="GP", by=director, public=True)
    series.import_scores(gp, name="R1", text="=cmd|' /C calc'!A0,10\nAnn,5\n", by=director)
    response = client.get(reverse("tournaments:series_csv", args=[gp.slug]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:4] == ["Rank", "Player", "WOF id", "Total"]
    assert rows[1][1].startswith("'=")
    assert rows[2][3] == "5" and "Every stage played counts" in rows[2][-1]


def test_director_creates_a_series_and_imports_scores(client, director):
    client.force_login(director)
    response = client.post(
        reverse("tournaments:manage_series_create"),
        {
            "name": "Puzzle GP 2026",
            "kind": "grand_prix",
            "value": "score",
            "best": 6,
            "ties": "shared",
            "public": "on",
            "points": "",
        },
    )
    assert response.status_code == 302
    url = reverse("tournaments:manage_series", args=["puzzle-gp-2026"])
    bad = client.post(
        url, {"action": "import", "import-name": "R1", "import-text": "Ann,10\nBob,x\n"}
    )
    assert bad.status_code == 422
    assert "Line 2: the score &#x27;x&#x27; of Bob is not a number." in bad.content.decode()
    assert not SeriesScore.objects.exists()
    good = client.post(
        url, {"action": "import", "import-name": "R1", "import-text": "Ann,10\nBob,7\n"}
    )
    assert good.status_code == 302 and SeriesScore.objects.count() == 2


def test_a_stranger_cannot_manage_a_series(client, director):
    gp = grand_prix(director, players=2, rounds=1)
    stranger = User.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    url = reverse("tournaments:manage_series", args=[gp.slug])
    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "remove", "stage": gp.stages.first().pk}).status_code == 404
    assert gp.stages.count() == 1


def test_a_players_page_lists_their_events_and_other_series_without_their_account_id(
    client, director, django_capture_on_commit_callbacks
):
    """Issue 32 item 4: "their page lists their events and series totals"."""
    from accounts.services import claim_entrant
    from tests.factories import play_round, round_robin_event
    from tournaments.models import Event
    from tournaments.services import standings

    with django_capture_on_commit_callbacks(execute=True):
        event = round_robin_event(director, players=4, slug="spring")
        for _ in range(3):
            play_round(event, director)
    event = Event.objects.get(pk=event.pk)
    standings.refresh(event.pk, event.results_version)
    ann = User.objects.create_user("ann", password="pw-ann-123456")
    entrant = event.entrants.get(number=1)
    claim_entrant(ann, entrant.claim_code)
    first = series.create_series(
        slug="one", name="Series one", by=director, points=["3", "1"], public=True
    )
    second = series.create_series(
        slug="two", name="Series two", by=director, points=["5"], public=True
    )
    for made in (first, second):
        series.add_event_stage(made, event, by=director)
    page = client.get(reverse("tournaments:series", args=["one"])).content.decode()
    assert f"account:{ann.pk}" not in page and "/players/player-" in page
    link = next(part for part in page.split('"') if "/players/player-" in part)
    player = client.get(link).content.decode()
    assert "Series two" in player and event.name in player
    assert f"/e/{event.slug}/entrants/{entrant.number}/" in player


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"action": "nonsense"},
        {"action": "remove", "stage": "99999999999999999999"},
        {"action": "up", "stage": "-1"},
        {"action": "unmerge", "merge": "x"},
        {"action": "unfeed", "event": "12"},
        {"action": "feed", "feed-event": "no-such-event"},
        {"action": "import", "import-name": "R", "import-text": "A,1", "import-stage": "5"},
        {"action": "import", "import-name": "R", "import-text": "A,1", "import-stage": "9" * 30},
        {"action": "rule", "name": "X", "value": "score", "ties": "shared", "points": "1e999999"},
    ],
)
def test_a_refused_post_says_why_and_changes_nothing(client, director, data):
    gp = grand_prix(director, players=2, rounds=1)
    client.force_login(director)
    before = list(SeriesScore.objects.values_list("pk", "name", "score"))
    response = client.post(reverse("tournaments:manage_series", args=[gp.slug]), data)
    assert response.status_code == 422
    assert 'role="alert"' in response.content.decode()
    assert list(SeriesScore.objects.values_list("pk", "name", "score")) == before
    assert gp.stages.count() == 1


def test_an_empty_create_post_says_what_is_missing(client, director):
    client.force_login(director)
    response = client.post(reverse("tournaments:manage_series_create"), {})
    assert response.status_code == 422 and 'role="alert"' in response.content.decode()


def test_the_screen_shows_each_change_in_its_recent_changes(client, director):
    """Every director change to a series writes its audit log (issue 32: series changes
    are audited like an event's), and the series' screen lists it with who made it."""
    from tests.factories import round_robin_event
    from tournaments.models import SeriesAuditEntry

    gp = grand_prix(director, players=3, rounds=2)
    event = round_robin_event(director, players=4, slug="final")
    client.force_login(director)
    url = reverse("tournaments:manage_series", args=[gp.slug])
    second = gp.stages.order_by("order").last()
    posts = [
        {"action": "up", "stage": second.pk},
        {"action": "merge", "merge-name": "Jon", "merge-same_as": "John"},
        {"action": "feed", "feed-event": "final"},
        {"action": "rule", "name": "Grand Prix", "value": "score", "best": 1, "ties": "shared"},
    ]
    for data in posts:
        assert client.post(url, data).status_code == 302, data
    assert list(gp.feeds.all()) == [event]
    actions = list(SeriesAuditEntry.objects.filter(series=gp).values_list("action", flat=True))
    assert actions == [
        "series.rule_changed",
        "series.feed_added",
        "series.names_merged",
        "series.stage_moved",
        "series.scores_imported",
        "series.scores_imported",
        "series.created",
    ]
    rule = SeriesAuditEntry.objects.get(series=gp, action="series.rule_changed")
    assert rule.before == {"best": 6, "public": True} and rule.after == {"best": 1, "public": False}
    assert rule.actor == director
    page = client.get(url).content.decode()
    for words in (
        "Rule of the total changed",
        "Series now qualifies players for an event",
        "Two spellings merged into one player",
        "Stage moved: Round 2",
        "Stage&#x27;s scores imported: Round 1",
    ):
        assert words in page, words
    assert client.post(url, {"action": "unfeed", "event": event.pk}).status_code == 302
    assert not gp.feeds.exists()
    assert SeriesAuditEntry.objects.filter(series=gp, action="series.feed_removed").exists()
