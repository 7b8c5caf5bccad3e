"""The projector pages (issue 21, item 13): a round as a "find your table" list (each player
once, by their own name, with their table and opponent, and the result once it is in) and
the top of the standings, in big type, for a screen in the hall. Visible exactly when the
round page and the standings page are; a constant number of queries; linked from the
director's round screen and dashboard and from the public round and standings pages."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from tests.factories import bulk_event, play_round, round_robin_event, wpf_imported_event
from tests.tournaments.test_corrections import flipped
from tests.tournaments.test_corrections_redraw import _changing_match, _round_two_published
from tournaments import selectors
from tournaments.models import Event, Match, MatchParticipant
from tournaments.services import corrections, results, rounds, standings
from tournaments.views import projector

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _rows(html: str) -> list[tuple[str, str, str, str]]:
    """(name, table, opponent, result) of each row of the round projector, tags removed."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    found = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        found.append(tuple(cells))
    return found


class _Seats(list):
    def all(self):
        return self


def _match(table, *people, result=None):
    seats = _Seats(
        SimpleNamespace(entrant=person, seat=i, role="") for i, person in enumerate(people)
    )
    return SimpleNamespace(table=table, code=f"T{table}", result=result, participants=seats)


def test_each_entrant_is_listed_once_in_alphabetical_order_numbers_by_value():
    def person(number, name):
        return SimpleNamespace(number=number, name=name)

    p9, p10, ada, ref = (
        person(1, "Player 9"),
        person(2, "Player 10"),
        person(3, "ada"),
        person(4, "Reference"),
    )
    won = {"summary": "2-0", "winner": 0, "complete": True}
    rows = selectors.projector_rows(
        [_match(1, p10, p9, result=won), _match(2, ada, None), _match(3, p9, ref)]
    )
    assert [r["entrant"].name for r in rows] == ["ada", "Player 9", "Player 10", "Reference"]
    by_name = {r["entrant"].name: r["matches"] for r in rows}
    # Player 9 has two matches in this round (a gauntlet round): one row, both matches
    assert [g["match"].table for g in by_name["Player 9"]] == [1, 3]
    first, second = by_name["Player 9"]
    assert [o.entrant for o in first["opponents"]] == [p10]
    assert (first["outcome"], first["score"]) == ("loss", "0-2")
    assert (second["outcome"], second["score"]) == ("", "")
    (mine,) = by_name["Player 10"]
    assert (mine["outcome"], mine["score"]) == ("win", "2-0")
    assert [o.entrant for o in by_name["ada"][0]["opponents"]] == [None]  # a bye


@pytest.fixture
def club(director):
    """Five players (one bye a round), round 1 closed, round 2 published with one result."""
    event = round_robin_event(director, players=5, slug="club")
    play_round(event, director, scores=lambda m: [3, 1])
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = next(m for m in rnd.matches.order_by("order") if m.participants.count() == 2)
    results.record(match, [{"scores": [2, 0]}], expected_version=match.version, by=director)
    event = Event.objects.get(pk=event.pk)
    standings.refresh(event.pk, event.results_version)
    return event


def test_the_round_projector_lists_each_player_once_by_name_with_table_and_opponent(client, club):
    page = client.get(reverse("tournaments:round_projector", args=["club", 2]))
    assert page.status_code == 200
    rows = _rows(page.content.decode())
    names = [row[0].split(" (")[0] for row in rows]
    assert names == sorted(names, key=str.casefold)
    assert sorted(names) == [f"Player {i}" for i in range(1, 6)]  # everyone once, bye too
    matches = Match.objects.filter(round__event=club, round__number=2)
    for match in matches.prefetch_related("participants__entrant"):
        people = [p.entrant.name for p in match.participants.order_by("seat")]
        for me in people:
            row = next(r for r in rows if r[0].split(" (")[0] == me)
            others = [p for p in people if p != me]
            assert row[1] == (str(match.table) if match.table is not None else "")  # a bye
            assert row[2].split(" (")[0] == (others[0] if others else "bye")
    # the result is in for one match: from each side, winner and loser
    won = [r for r in rows if r[3].startswith("won")]
    lost = [r for r in rows if r[3].startswith("lost")]
    assert [r[3] for r in won] == ["won 2-0"] and [r[3] for r in lost] == ["lost 0-2"]
    assert won[0][0].split(" (")[0] in {r[2].split(" (")[0] for r in lost}


def test_an_htmx_refresh_gets_the_list_alone(client, club):
    url = reverse("tournaments:round_projector", args=["club", 2])
    html = client.get(url, **HTMX).content.decode()
    assert html.lstrip().startswith('<div id="projector"')
    assert "<html" not in html
    full = client.get(url).content.decode()
    # the page polls the version endpoint and swaps this list when something changes
    assert 'id="live-poller"' in full and 'hx-trigger="arbiter-changed from:body"' in full
    assert "arbiter/projector.js" in full


def test_the_standings_projector_shows_the_top_rows_of_each_table(client, director):
    bulk_event("big", entrants=2 * projector.TOP_ROWS, rounds=2, groups=2)
    html = client.get(reverse("tournaments:standings_projector", args=["big"])).content.decode()
    tables = re.findall(r"<tbody>(.*?)</tbody>", html, re.S)
    assert len(tables) == 3  # the overall table and two groups
    assert [t.count("<tr") for t in tables] == [
        projector.TOP_ROWS,
        projector.TOP_ROWS,
        projector.TOP_ROWS,
    ]
    assert f"The top {projector.TOP_ROWS} of each table" in html


@pytest.mark.parametrize("view", ["round", "standings"])
def test_projector_pages_follow_the_visibility_of_the_public_pages(
    client, club, view, django_user_model
):
    args = ["club", 2] if view == "round" else ["club"]
    url = reverse(f"tournaments:{view}_projector", args=args)
    Event.objects.filter(pk=club.pk).update(public=False)
    assert client.get(url).status_code == 404
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    client.force_login(club.directors.get())
    assert client.get(url).status_code == 200


def test_a_draft_round_has_no_projector(client, director):
    event = round_robin_event(director, players=4, slug="drafty")
    play_round(event, director)
    draft = rounds.draft_next_round(event, by=director).round
    url = reverse("tournaments:round_projector", args=["drafty", draft.number])
    assert client.get(url).status_code == 404
    client.force_login(director)  # not its director's either: the hall sees what all see
    assert client.get(url).status_code == 404
    screen = client.get(reverse("tournaments:manage_round", args=["drafty", draft.number]))
    assert url not in screen.content.decode()


def test_hidden_wpf_online_rounds_stay_hidden_on_the_projector(client, director):
    event = wpf_imported_event(director, 2, {"A1": 1})
    standings.refresh(event.pk, event.results_version)
    for number in (1, 2):  # online rounds: hidden on the round page, so here too
        assert (
            client.get(reverse("tournaments:round", args=[event.slug, number])).status_code == 404
        )
        url = reverse("tournaments:round_projector", args=[event.slug, number])
        assert client.get(url).status_code == 404
    html = client.get(
        reverse("tournaments:standings_projector", args=[event.slug])
    ).content.decode()
    assert "Solver 1" in html  # the seeds, as on the standings page
    for secret in ("1:40", "22:00", "Losses", "After round"):
        assert secret not in html, secret


def test_a_withdrawn_pairing_says_so_instead_of_freezing(client, director):
    """A correction pairs round 2 again: the projector says so (a 200, so its poll goes on)
    and shows the new pairing once it is published."""
    event, r1, _ = _round_two_published(director, "redrawn")
    match, preview = _changing_match(r1)
    corrections.confirm_result(
        match,
        flipped(match),
        expected_version=match.version,
        results_version=preview.results_version,
        digest=preview.digest,
        by=director,
        reason="score sheet misread",
        redraw=2,
    )
    url = reverse("tournaments:round_projector", args=[event.slug, 2])
    page = client.get(url)
    assert page.status_code == 200
    assert "withdrawn to be paired again" in page.content.decode()
    rounds.publish_round(event.rounds.get(number=2), by=director)
    again = client.get(url).content.decode()
    assert "withdrawn" not in again and len(_rows(again)) == event.entrants.count()


# the event, its public rounds, then the round, its matches and their entrants (round) or
# the newest snapshot and its rows (standings)
BUDGET = {"round": 5, "standings": 4}


@pytest.mark.parametrize("view", sorted(BUDGET))
def test_projector_queries_do_not_grow_with_the_event(
    client, view, django_assert_max_num_queries, settings
):
    settings.ARBITER_PAGE_CACHE = False  # count the page's own reads, not a cache hit
    for slug, size in (("small", 8), ("large", 200)):
        bulk_event(slug, entrants=size, rounds=3, groups=2)
        args = [slug, 3] if view == "round" else [slug]
        with django_assert_max_num_queries(BUDGET[view]):
            page = client.get(reverse(f"tournaments:{view}_projector", args=args))
        assert page.status_code == 200
        first = re.search(r"<tbody>(.*?)</tbody>", page.content.decode(), re.S).group(1)
        if view == "round":  # every entrant of the round, once
            playing = MatchParticipant.objects.filter(match__round__event__slug=slug)
            wanted = playing.filter(match__round__number=3).values("entrant").distinct().count()
        else:  # the top of the overall table
            wanted = min(size, projector.TOP_ROWS)
        assert first.count("<tr") == wanted


def test_the_projector_is_linked_from_the_round_standings_and_director_pages(
    client, club, director
):
    round_url = reverse("tournaments:round_projector", args=["club", 2])
    standings_url = reverse("tournaments:standings_projector", args=["club"])
    assert round_url in client.get(reverse("tournaments:round", args=["club", 2])).content.decode()
    assert (
        standings_url
        in client.get(reverse("tournaments:standings", args=["club"])).content.decode()
    )
    client.force_login(director)
    dashboard = client.get(reverse("tournaments:manage", args=["club"])).content.decode()
    assert round_url in dashboard and standings_url in dashboard
    screen = client.get(reverse("tournaments:manage_round", args=["club", 2])).content.decode()
    assert round_url in screen
