"""Bot contest bulk entry (issue 9): a CSV of games checked whole, and the referee program's
JSON endpoint, idempotent on a game id and guarded by a token stored as a hash."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import bot_contest_event
from tournaments.formats.bot_contest import services as service
from tournaments.models import Game, Match, RefereeGame, RefereeToken, ResultChange, Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

HEADER = "round,board,X,O,result,X points,O points\n"


def start(event, director) -> Round:
    outcome = rounds.draft_next_round(event, by=director)
    assert outcome.round is not None, outcome
    return rounds.publish_round(outcome.round, by=director)


def game_lines(rnd: Round, points=lambda match, game: (40, 24)) -> list[str]:
    """Two lines a match: seat 0 plays X in game 1, seat 1 in game 2."""
    lines = []
    board = rnd.details["board"]
    for match in rnd.matches.prefetch_related("participants__entrant").order_by("order"):
        seats = [p.entrant.number for p in match.participants.all()]
        if len(seats) != 2:
            continue
        for game, (x, o) in enumerate(((seats[0], seats[1]), (seats[1], seats[0])), start=1):
            xp, op = points(match, game)
            lines.append(f"{rnd.number},{board},{x},{o},,{xp},{op}")
    return lines


@pytest.fixture
def contest(director):
    event = bot_contest_event(director, entries=4)
    return event, start(event, director)


def test_a_valid_csv_records_every_match_through_results_record(contest, director):
    event, rnd = contest
    lines = game_lines(rnd)
    outcome = service.import_csv(event, HEADER + "\n".join(lines), by=director, filename="r1.csv")
    assert (outcome.rows, outcome.matches) == (24, 12)
    assert Game.objects.filter(match__round=rnd).count() == 24
    # every match has one audit row, from the import, at version 1
    changes = ResultChange.objects.filter(match__round=rnd)
    assert changes.count() == 12
    assert set(changes.values_list("source", "version")) == {("import", 1)}
    # the engine scored them: each won as X 40-24 (1000 + 40) and lost as O (24)
    match = Match.objects.filter(round=rnd).order_by("order").first()
    assert match.result["details"]["contest_points"] == [1064, 1064]
    first_movers = list(match.games.order_by("number").values_list("first_seat", flat=True))
    assert first_movers == [0, 1]


def test_a_csv_with_a_bad_line_is_refused_whole_with_line_and_column(contest, director):
    event, rnd = contest
    lines = game_lines(rnd)
    lines[3] = lines[3].replace(",40,24", ",forty,24")  # line 5 of the file
    lines[7] = lines[7].replace(f",{rnd.details['board']},", ",Board 9,")  # line 9
    with pytest.raises(service.GamesRefused) as refused:
        service.import_csv(event, HEADER + "\n".join(lines), by=director)
    found = {(e.line, e.column) for e in refused.value.errors}
    assert found == {(5, "x_points"), (9, "board")}
    texts = " ".join(e.text for e in refused.value.errors)
    assert "Line 5, x_points: 'forty' is not a number of points." in texts
    assert "Line 9, board: Stage one: seeding gauntlet is played on 'Board 1'" in texts
    assert not Game.objects.filter(match__round=rnd).exists()
    assert not ResultChange.objects.exists()
    assert Match.objects.filter(round=rnd, version__gt=0).count() == 0


def test_an_engine_refusal_names_the_line_and_the_result_column(contest, director):
    """The referee's X contradicts points that say O won: the engine refuses the game
    (OPEN-QUESTION 26) and the error lands on that line's result column."""
    event, rnd = contest
    lines = game_lines(rnd)
    x_wins = lines[0].replace(",,40,24", ",O,40,24")
    lines[0] = x_wins
    with pytest.raises(service.GamesRefused) as refused:
        service.import_csv(event, HEADER + "\n".join(lines), by=director)
    (error,) = refused.value.errors
    assert (error.line, error.column) == (2, "result")
    assert "does not match the points" in error.text
    assert not Game.objects.exists()


def test_unknown_entrants_rounds_and_pairs_are_named(contest, director):
    event, _rnd = contest
    text = HEADER + "\n".join(
        [
            "1,Board 1,99,5,,1,0",  # no entrant 99
            "7,Board 1,1,5,,1,0",  # no round 7
            "1,Board 1,1,2,,1,0",  # entries 1 and 2 do not meet in the gauntlet
            "1,Board 1,Entry 1,Reference 1,draw,3,3",  # by name, 'draw' is a tie: valid
            "1,Board 1,Entry 1,Reference 1,,3,3",  # the same game again
        ]
    )
    checked = service.check_csv(event, text)
    assert {(e.line, e.column) for e in checked.errors} == {
        (2, "x"),
        (3, "round"),
        (4, "o"),
        (6, "x"),
    }
    assert "line 5 already gives the game" in checked.errors[-1].text


def test_a_header_without_the_columns_is_refused(contest, director):
    event, _ = contest
    checked = service.check_csv(event, "round,X,O\n1,1,5\n")
    assert checked.errors[0].line == 1
    assert "board" in checked.errors[0].text and "x_points" in checked.errors[0].text


def test_the_same_file_twice_changes_nothing_the_second_time(contest, director):
    event, rnd = contest
    text = HEADER + "\n".join(game_lines(rnd))
    service.import_csv(event, text, by=director)
    again = service.import_csv(event, text, by=director)
    assert (again.matches, again.unchanged) == (0, 12)
    assert ResultChange.objects.count() == 12


def test_half_a_match_merges_with_the_game_stored(contest, director):
    event, rnd = contest
    lines = game_lines(rnd)
    service.import_csv(event, HEADER + lines[0], by=director)
    match = Match.objects.filter(round=rnd).order_by("order").first()
    assert match.games.count() == 1 and match.result["complete"] is False
    service.import_csv(event, HEADER + lines[1], by=director)
    match.refresh_from_db()
    assert match.games.count() == 2 and match.result["complete"] is True


# -- the referee program ---------------------------------------------------------------------


def api(event) -> str:
    return reverse("tournaments:bot_contest_api_game", args=[event.slug])


def post(client: Client, event, token: str | None, body) -> tuple[int, dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.post(
        api(event), json.dumps(body), content_type="application/json", headers=headers
    )
    return response.status_code, response.json()


def first_game(rnd: Round, game_id: str = "g-1") -> dict:
    match = rnd.matches.order_by("order").first()
    x, o = [p.entrant.number for p in match.participants.order_by("seat")]
    return {
        "game_id": game_id,
        "round": rnd.number,
        "board": rnd.details["board"],
        "x": x,
        "o": o,
        "result": "X",
        "x_points": 40,
        "o_points": 24,
    }


def test_the_token_is_stored_as_a_hash_and_shown_once(contest, director):
    event, _ = contest
    row, token = service.create_token(event, by=director)
    assert token not in row.token_hash and len(row.token_hash) == 64
    assert row.hint == token[-4:]
    assert service.token_for(event, token) == row
    newer, _token = service.create_token(event, by=director)
    row.refresh_from_db()
    assert row.revoked_at is not None and newer.active
    assert service.token_for(event, token) is None


def test_a_referee_post_twice_counts_once(contest, director):
    event, rnd = contest
    _, token = service.create_token(event, by=director)
    client = Client()
    body = first_game(rnd)
    status, answer = post(client, event, token, body)
    assert status == 201, answer
    assert answer["status"] == "recorded" and answer["game"] == 1
    status, again = post(client, event, token, body)
    assert status == 200 and again["status"] == "duplicate"
    assert again["version"] == answer["version"] == 1
    match = rnd.matches.order_by("order").first()
    assert match.games.count() == 1
    assert ResultChange.objects.filter(match=match).count() == 1
    assert RefereeGame.objects.filter(event=event).count() == 1
    assert ResultChange.objects.get(match=match).source == "api"


def test_a_retry_after_the_director_edited_the_match_still_counts_once(contest, director):
    event, rnd = contest
    _, token = service.create_token(event, by=director)
    client = Client()
    body = first_game(rnd)
    post(client, event, token, body)
    match = rnd.matches.order_by("order").first()
    from tournaments.services import results

    results.record(
        match,
        [{"number": 1, "scores": [30, 20], "first": 0}],
        expected_version=1,
        by=director,
    )
    status, again = post(client, event, token, body)
    assert status == 200 and again["status"] == "duplicate"
    match.refresh_from_db()
    assert match.games.get().scores == [30, 20]


def test_the_second_game_completes_the_match(contest, director):
    event, rnd = contest
    _, token = service.create_token(event, by=director)
    client = Client()
    body = first_game(rnd)
    post(client, event, token, body)
    second = {
        **body,
        "game_id": "g-2",
        "x": body["o"],
        "o": body["x"],
        "result": "tie",
        "x_points": 30,
        "o_points": 30,
    }
    status, answer = post(client, event, token, second)
    assert status == 201 and answer["game"] == 2
    match = rnd.matches.order_by("order").first()
    assert match.result["complete"] and match.result["details"]["results"] == ["X", "tie"]


@pytest.mark.parametrize("token", [None, "not-the-token"])
def test_a_bad_or_missing_token_is_403_and_saves_nothing(contest, director, token):
    event, rnd = contest
    service.create_token(event, by=director)
    status, answer = post(Client(), event, token, first_game(rnd))
    assert status == 403 and "token" in answer["error"]
    assert not Game.objects.exists()


def test_a_revoked_token_is_403(contest, director):
    event, rnd = contest
    _, token = service.create_token(event, by=director)
    service.revoke_token(event, by=director)
    assert post(Client(), event, token, first_game(rnd))[0] == 403


def test_another_events_token_is_403(contest, director):
    event, rnd = contest
    other = bot_contest_event(director, slug="other")
    _, token = service.create_token(other, by=director)
    assert post(Client(), event, token, first_game(rnd))[0] == 403


def test_a_refused_game_is_422_with_its_fields(contest, director):
    event, rnd = contest
    _, token = service.create_token(event, by=director)
    body = {**first_game(rnd), "x_points": "lots", "board": "Board 7"}
    status, answer = post(Client(), event, token, body)
    assert status == 422
    assert {e["field"] for e in answer["errors"]} == {"x_points", "board"}
    assert all(not e["message"].startswith("Line") for e in answer["errors"])
    assert not Game.objects.exists() and not RefereeGame.objects.exists()


def test_another_result_for_a_stored_game_is_refused(contest, director):
    event, rnd = contest
    _, token = service.create_token(event, by=director)
    client = Client()
    post(client, event, token, first_game(rnd))
    other = {**first_game(rnd, "g-other"), "result": "O", "x_points": 10, "o_points": 50}
    status, answer = post(client, event, token, other)
    assert status == 422 and "director corrects it by hand" in answer["errors"][0]["message"]


def test_posts_beyond_the_rate_limit_are_429(contest, director, settings):
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "referee": "2/m"}
    event, rnd = contest
    _, token = service.create_token(event, by=director)  # a new token: a counter of its own
    client = Client(enforce_csrf_checks=True)
    answers = [post(client, event, token, first_game(rnd))[0] for _ in range(3)]
    assert answers == [201, 200, 429]


def test_the_endpoint_is_post_only_and_csrf_exempt_only_there(contest, director):
    event, _ = contest
    client = Client(enforce_csrf_checks=True)
    assert client.get(api(event)).status_code == 405
    client.force_login(director)
    url = reverse("tournaments:bot_contest_referee", args=[event.slug])
    assert client.post(url, {"action": "create"}).status_code == 403  # CSRF applies here
    assert not RefereeToken.objects.exists()
