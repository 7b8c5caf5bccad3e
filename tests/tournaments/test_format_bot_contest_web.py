"""Bot contest through the web layer (issue 9): a whole contest run by a director's browser
requests, manual entry of two games with their first movers, the board and final-tie
screens, and the public pages with their query budgets."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import bot_contest_event
from tests.tournaments.test_format_bot_contest import HEADER, game_lines, start
from tournaments.formats.bot_contest import services as service
from tournaments.models import Event, Match, RandomDraw, Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def seat0_wins(match, game):
    """Seat 0 (the higher seed, or the entry in the gauntlet) wins both games; in the
    gauntlet the entry's points grow with its number, so no two totals tie."""
    bonus = match.participants.order_by("seat").first().entrant.number
    return (40 + bonus, 24) if game == 1 else (30, 35 + bonus)


def ties(match, game):
    return (10, 10)


def url(name: str, event: Event, *args) -> str:
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def run_round(client: Client, event: Event, points) -> Round | None:
    """Draft, publish, upload the round's games as a CSV and close it, as the director
    would; None when the engine drafts nothing (finished or waiting for a decision)."""
    before = event.rounds.count()
    response = client.post(url("manage_draft", event))
    assert response.status_code == 302
    if event.rounds.count() == before:
        return None
    rnd = event.rounds.order_by("-number").first()
    assert response.url == url("manage_round", event, rnd.number)
    client.post(url("manage_round_action", event, rnd.number, "publish"))
    text = HEADER + "\n".join(game_lines(rnd, points))
    response = client.post(url("bot_contest_import", event), {"text": text, "save": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    response = client.post(url("manage_round_action", event, rnd.number, "close"))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    return rnd


def test_a_whole_contest_through_the_web_layer(director, django_capture_on_commit_callbacks):
    event = bot_contest_event(director, entries=5)
    client = Client()
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        gauntlet = run_round(client, event, seat0_wins)
        bracket = run_round(client, event, seat0_wins)
        final = run_round(client, event, ties)  # every final game tied: totals tie
        assert run_round(client, event, ties) is None  # the engine asks the director
    assert [r.stage.key for r in (gauntlet, bracket, final)] == ["gauntlet", "brackets", "final"]
    assert bracket.details["seeds"] == ["5", "4", "3", "2", "1"]
    assert len(final.details["finalists"]) == 5

    hub = client.get(url("bot_contest_manage", event)).content.decode()
    assert "share the highest total of the final" in hub
    page = client.get(url("bot_contest_final_tie", event))
    assert page.status_code == 200 and 'name="winner"' in page.content.decode()
    refused = client.post(url("bot_contest_final_tie", event), {"winner": "4", "reason": ""})
    assert refused.status_code == 422
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url("bot_contest_final_tie", event),
            {"winner": "4", "reason": "a deciding game on board 9"},
        )
        assert response.status_code == 302
        assert run_round(client, event, ties) is None  # finished now
    draw = RandomDraw.objects.get(event=event, key="final/winner")
    assert draw.value == "4" and draw.method == "external"
    assert event.audit_entries.filter(action="bot_contest.final_decided").exists()
    assert event.rounds.count() == 3

    standings = service.standings.compute(event)
    assert standings.final and not standings.pending
    assert standings.tables[0].key == "overall" and standings.tables[0].rows[0].entrant == "4"

    public = Client()
    final_page = public.get(url("bot_contest_final", event)).content.decode()
    assert "the director declared Entry 4 the winner" in final_page
    assert "a deciding game on board 9" in final_page
    brackets_page = public.get(url("bot_contest_brackets", event)).content.decode()
    assert brackets_page.count('class="bracket-match bye"') == 1
    assert brackets_page.count('<span class="fate" title="first loss') == 2  # two drop
    gauntlet_page = public.get(url("bot_contest_gauntlet", event)).content.decode()
    assert re.search(r"Reference 1.*Reference 2.*Reference 3", gauntlet_page, re.S)
    boards_page = public.get(url("bot_contest_boards", event)).content.decode()
    assert all(f"Board {n}" in boards_page for n in (1, 2, 3))


def test_manual_entry_two_games_with_their_first_movers(director):
    event = bot_contest_event(director, entries=2)
    rnd = start(event, director)
    match = rnd.matches.order_by("order").first()
    client = Client()
    client.force_login(director)
    page = client.get(url("manage_round", event, rnd.number)).content.decode()
    assert 'name="g1-first"' in page and 'name="g2-first"' in page
    data = {
        "version": "0",
        "g1-first": "1",  # the reference moved first in game 1 ...
        "g1-s0": "30",
        "g1-s1": "34",
        "g2-first": "0",  # ... and the entry in game 2
        "g2-s0": "33",
        "g2-s1": "33",
        "g2-result": "tie",
    }
    response = client.post(reverse("tournaments:manage_result", args=[event.slug, match.pk]), data)
    assert response.status_code == 200, response.content.decode()
    match.refresh_from_db()
    games = list(match.games.order_by("number"))
    assert [g.first_seat for g in games] == [1, 0]
    assert games[1].details == {"result": "tie"}
    # game 1: the reference won as X (1000 + 34); game 2 tied, the entry as X (500 + 33)
    assert match.result["details"]["contest_points"] == [30 + 500 + 33, 1034 + 600 + 33]


def test_manual_entry_refuses_the_same_first_mover_twice(director):
    event = bot_contest_event(director, entries=2)
    rnd = start(event, director)
    match = rnd.matches.order_by("order").first()
    client = Client()
    client.force_login(director)
    data = {"version": "0", "g1-first": "0", "g1-s0": "3", "g1-s1": "1"}
    data.update({"g2-first": "0", "g2-s0": "3", "g2-s1": "1"})
    response = client.post(reverse("tournaments:manage_result", args=[event.slug, match.pk]), data)
    assert response.status_code == 422
    assert "Each entry moves first once" in response.content.decode()
    assert not match.games.exists()


def test_the_director_chooses_each_rounds_board(director):
    event = bot_contest_event(
        director, entries=2, board_choice="director", boards=["Open", "Cross", "Corner"]
    )
    client = Client()
    client.force_login(director)
    outcome = rounds.draft_next_round(event, by=director)
    assert outcome.decision.code == "bot_contest.board_needed"
    page = client.get(url("bot_contest_board", event)).content.decode()
    assert '<option value="Cross">Cross</option>' in page
    assert client.post(url("bot_contest_board", event), {"round": 1, "board": "Nope"}).status_code
    bad = client.post(url("bot_contest_board", event), {"round": 2, "board": "Cross"})
    assert bad.status_code == 422 and "next round (1)" in bad.content.decode()
    response = client.post(url("bot_contest_board", event), {"round": 1, "board": "Cross"})
    assert response.status_code == 302
    rnd = rounds.draft_next_round(event, by=director).round
    assert rnd.details["board"] == "Cross" and rnd.details["board_source"] == "director"
    again = client.post(url("bot_contest_board", event), {"round": 1, "board": "Open"})
    assert again.status_code == 422


def test_the_board_screen_explains_a_rotation(director):
    event = bot_contest_event(director, entries=2)
    client = Client()
    client.force_login(director)
    page = client.get(url("bot_contest_board", event)).content.decode()
    assert "rotates through the list of boards" in page
    refused = client.post(url("bot_contest_board", event), {"round": 1, "board": "Board 1"})
    assert refused.status_code == 422


def test_the_referee_screen_shows_the_token_once(director):
    event = bot_contest_event(director, entries=2)
    client = Client()
    client.force_login(director)
    response = client.post(url("bot_contest_referee", event), {"action": "create"})
    page = response.content.decode()
    token = re.search(r'<p class="bc-token" id="token">([^<]+)</p>', page).group(1)
    assert service.token_for(event, token) is not None
    assert token not in client.get(url("bot_contest_referee", event)).content.decode()
    client.post(url("bot_contest_referee", event), {"action": "revoke"})
    assert service.token_for(event, token) is None


def test_the_csv_screen_reports_errors_by_line_and_saves_nothing(director):
    event = bot_contest_event(director, entries=2)
    rnd = start(event, director)
    client = Client()
    client.force_login(director)
    lines = game_lines(rnd)
    lines[2] = lines[2].replace(",40,24", ",40,")
    response = client.post(
        url("bot_contest_import", event), {"text": HEADER + "\n".join(lines), "save": "1"}
    )
    page = response.content.decode()
    assert response.status_code == 422
    assert "<td>4</td><td>o_points</td>" in page
    assert not Match.objects.filter(round=rnd, version__gt=0).exists()
    checked = client.post(url("bot_contest_import", event), {"text": HEADER + lines[0]})
    assert checked.status_code == 200 and "Nothing is saved yet" in checked.content.decode()
    assert not Match.objects.filter(round=rnd, version__gt=0).exists()


def _contest_in_stage_two(director, entries: int, slug: str) -> Event:
    event = bot_contest_event(director, entries=entries, slug=slug)
    for _ in range(3):
        rnd = start(event, director)
        text = HEADER + "\n".join(game_lines(rnd, seat0_wins))
        service.import_csv(event, text, by=director)
        rounds.complete_round(rnd, by=director)
    return event


@pytest.mark.parametrize(
    ("page", "budget"), [("bot_contest_brackets", 7), ("bot_contest_gauntlet", 6)]
)
def test_public_contest_pages_run_a_constant_number_of_queries(
    director, django_assert_max_num_queries, page, budget
):
    """Measured: 7 and 6 queries for 6, 14 and 30 entries."""
    small = _contest_in_stage_two(director, 6, "small")
    big = _contest_in_stage_two(director, 14, "big")
    assert big.rounds.filter(stage__key="brackets").count() == 2
    client = Client()
    for event in (small, big):
        with django_assert_max_num_queries(budget):
            response = client.get(url(page, event))
        assert response.status_code == 200


def test_the_final_page_runs_a_constant_number_of_queries(
    director, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    event = bot_contest_event(director, entries=5)
    client = Client()
    client.force_login(director)
    for points in (seat0_wins, seat0_wins, seat0_wins):
        run_round(client, event, points)
    with django_assert_max_num_queries(7):
        page = Client().get(url("bot_contest_final", event))
    assert page.status_code == 200 and 'class="crosstable"' in page.content.decode()


def test_contest_pages_are_404_for_other_formats(director):
    from tests.factories import round_robin_event

    event = round_robin_event(director, players=2)
    client = Client()
    client.force_login(director)
    for name in ("bot_contest_brackets", "bot_contest_manage", "bot_contest_import"):
        assert client.get(url(name, event)).status_code == 404
    # the referee API answers as to a wrong token: it never tells which contests exist
    assert client.post(url("bot_contest_api_game", event), {}).status_code == 403
