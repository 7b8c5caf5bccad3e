"""A whole 16-player Freestyle event driven through the director's screens to a champion.

Rounds are drafted, published, their results typed on the results screen (the higher
seed's choice of A or B included from Round 2 on, a tie in a semi-final replayed with the
roles switched), closed; the public draws and bracket pages show what happened.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import confirm_preview, freestyle_event
from tournaments.models import AuditEntry, Entrant, Game, Match, RandomDraw, Round
from tournaments.services.standings import refresh

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def better_wins(match, participants):
    """The lower registration number (the higher rating) wins by 10 points."""
    first, second = (p.entrant.number for p in participants)
    return (15, 5) if first < second else (5, 15)


def save(client, event, match, data, status=200):
    post = {"version": match.version, **data}
    response = client.post(url("manage_result", event.slug, match.pk), post, HTTP_HX_REQUEST="true")
    assert response.status_code == status, response.content.decode()[:2000]
    return response


def play_round_on_screen(client, event, number, scores=better_wins, tie_first=()):
    response = client.post(url("manage_draft", event.slug))
    assert response.status_code == 302
    assert response["Location"] == url("manage_round", event.slug, number), response["Location"]
    assert client.get(response["Location"]).status_code == 200
    client.post(url("manage_round_action", event.slug, number, "publish"))
    rnd = Round.objects.get(event=event, number=number)
    assert rnd.status == Round.Status.PUBLISHED
    page = client.get(url("manage_round", event.slug, number)).content.decode()
    if number > 1:
        assert 'name="choice"' in page
    for match in rnd.matches.order_by("order"):
        participants = list(match.participants.select_related("entrant").order_by("seat"))
        if len(participants) != 2:
            continue
        a, b = scores(match, participants)
        data = {"g1-s0": a, "g1-s1": b, "g1-b_colours": "yellow/green", "g1-first_blue_piece": "X"}
        if number > 1:
            data["choice"] = "B"
        if match.code in tie_first:
            tie = {"g1-s0": 9, "g1-s1": 9, "choice": "B", "g1-b_colours": "yellow/green"}
            body = save(client, event, match, tie).content.decode()
            # the row grows a second game: the replay, with A and B switched
            assert 'name="g2-s0"' in body and "Replay 1" in body
            match.refresh_from_db()
            data = {**tie, "g2-s0": a, "g2-s1": b}
        save(client, event, match, data)
    response = client.post(url("manage_round_action", event.slug, number, "close"))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED, [str(m) for m in response.wsgi_request._messages]
    return rnd


def test_sixteen_players_to_a_champion(client, director):
    event = freestyle_event(director, players=16)
    client.force_login(director)
    for number in range(1, 6):
        play_round_on_screen(client, event, number, tie_first=("SF1",) if number == 4 else ())
    response = client.post(url("manage_draft", event.slug), follow=True)
    assert "wins the tournament" in response.content.decode()

    # Round 2 and 3 groupings were drawn from the seed, one key per attempt
    keys = set(RandomDraw.objects.filter(event=event).values_list("key", flat=True))
    assert "round-2/grouping/1" in keys and "round-3/grouping/1" in keys
    assert Round.objects.get(event=event, number=2).details["grouping"] in range(1, 7)

    # the choice was saved with the result; the semi-final tie was replayed, roles switched
    sf1 = Match.objects.get(round__event=event, code="SF1")
    assert sf1.games.count() == 2
    assert sf1.result["details"]["a_seats"] == [1, 0]
    assert Game.objects.get(match=sf1, number=1).details["higher_seed_chose"] == "B"
    assert Game.objects.get(match=sf1, number=1).details["b_colours"] == "yellow/green"

    # the best rated player won every game: champion on the bracket page
    champion = Entrant.objects.get(event=event, number=1).name
    client.logout()
    bracket = client.get(url("freestyle_bracket", event.slug)).content.decode()
    assert f"{champion} wins the tournament." in bracket
    draws = client.get(url("freestyle_draws", event.slug)).content.decode()
    assert "round-2/grouping/1" in draws and "grouping" in draws
    event.refresh_from_db()
    refresh(event.pk, event.results_version)  # the task on_commit would run
    standings = client.get(url("standings", event.slug)).content.decode()
    assert "Final ranking" in standings and "Round 3, Group 1" in standings
    assert AuditEntry.objects.filter(event=event, action="round.completed").count() == 5


def test_withdrawal_during_a_round_voids_its_games_and_the_round_closes(client, director):
    event = freestyle_event(director, players=17, slug="fs-wd")
    client.force_login(director)
    client.post(url("manage_draft", event.slug))
    client.post(url("manage_round_action", event.slug, 1, "publish"))
    leaver = Entrant.objects.get(event=event, number=17)
    confirm_preview(
        client, url("freestyle_withdraw", event.slug, 17), {"when": "during", "reason": "ill"}
    )
    leaver.refresh_from_db()
    assert leaver.withdrawn_after_round == 0  # during round 1: none of his games count
    rnd = Round.objects.get(event=event, number=1)
    for match in rnd.matches.filter(participants__entrant=leaver):
        assert match.result["summary"] == "void"
    for match in rnd.matches.exclude(participants__entrant=leaver).order_by("order"):
        participants = list(match.participants.select_related("entrant").order_by("seat"))
        a, b = better_wins(match, participants)
        save(client, event, match, {"g1-s0": a, "g1-s1": b})
    client.post(url("manage_round_action", event.slug, 1, "close"))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    play_round_on_screen(client, event, 2)
    in_round2 = Entrant.objects.filter(participations__match__round__number=2, event=event)
    assert leaver not in in_round2
