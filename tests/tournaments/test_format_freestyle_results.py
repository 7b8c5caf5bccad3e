"""Freestyle result entry (FreestyleUI) and the public bracket page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EventFactory, freestyle_event, play_round
from tournaments.formats import ui_for
from tournaments.formats.freestyle.ui import UI, FreestyleUI
from tournaments.models import Match
from tournaments.services import results, rounds

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def test_the_choice_is_saved_with_the_first_game():
    games, problems = UI.parse(
        {"g1-s0": "12", "g1-s1": "7", "choice": "b", "g1-first_blue_piece": "X"}, 2, {}
    )
    assert problems == []
    assert games[0]["details"] == {"first_blue_piece": "X", "higher_seed_chose": "B"}


def test_form_refusals_name_the_field():
    _, problems = UI.parse({"choice": "A"}, 2, {})
    assert [(p.field, p.code) for p in problems] == [("choice", "form.choice_alone")]
    _, problems = UI.parse({"g1-s0": "1", "g1-s1": "2", "choice": "C"}, 2, {})
    assert [p.field for p in problems] == ["choice"]
    _, problems = UI.parse({"g1-s0": "1", "g1-s1": "2", "g1-first_red_piece": "x" * 21}, 2, {})
    assert [p.field for p in problems] == ["g1-first_red_piece"]
    _, problems = UI.parse({"g1-s0": "1", "g2-s0": "4", "g2-s1": "4", "g3-s1": "3"}, 2, {})
    assert {p.field for p in problems} == {"g1-s1", "g3-s0"}


def test_freestyle_events_get_the_freestyle_form(director):
    event = freestyle_event(director, slug="fs-ui")
    assert isinstance(ui_for(event), FreestyleUI)


@pytest.fixture
def semis(director):
    event = freestyle_event(director, slug="fs-sf")
    for _ in range(3):
        play_round(event, director, scores=lambda m: [10, 4])
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return event, rnd


def test_a_semi_final_tie_asks_for_a_replay_with_roles_switched(client, director, semis):
    event, rnd = semis
    match = rnd.matches.get(code="SF1")
    client.force_login(director)
    target = url("manage_result", event.slug, match.pk)
    body = client.post(
        target, {"version": 0, "g1-s0": "8", "g1-s1": "8", "choice": "A"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    higher, lower = (p.entrant.name for p in match.participants.order_by("seat"))
    assert f"A: {higher}" in body  # game 1: the higher seed chose A
    assert f"A: {lower}" in body  # the replay: roles switched
    assert 'name="g2-s0"' in body and "enter the replay" in body
    match.refresh_from_db()
    assert match.result["complete"] is False
    # a decided game then no replay row
    body = client.post(
        target,
        {"version": 1, "g1-s0": "8", "g1-s1": "8", "choice": "A", "g2-s0": "3", "g2-s1": "9"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert 'name="g3-s0"' not in body
    match.refresh_from_db()
    assert match.result["winner"] == 1 and match.result["details"]["a_seats"] == [0, 1]


def test_a_group_game_has_one_row_and_round_1_has_no_choice(client, director):
    event = freestyle_event(director, slug="fs-g1")
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()
    client.force_login(director)
    page = client.get(url("manage_round", event.slug, 1)).content.decode()
    assert 'name="choice"' not in page and 'name="g2-s0"' not in page
    assert "pieces, colours" in page
    response = client.post(
        url("manage_result", event.slug, match.pk),
        {"version": 0, "g1-s0": "3", "g1-s1": "2", "choice": "A"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert "In Round 1 the seeds decide who is A" in response.content.decode()
    response = client.post(
        url("manage_result", event.slug, match.pk),
        {"version": 0, "g1-s0": "3", "g1-s1": "2", "g2-s0": "4", "g2-s1": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert "Matches are one game, no rematch" in response.content.decode()
    assert Match.objects.get(pk=match.pk).version == 0


def test_the_bracket_fills_in_as_the_rounds_are_played(
    client, director, semis, django_assert_max_num_queries
):
    event, rnd = semis
    page = client.get(url("freestyle_bracket", event.slug)).content.decode()
    assert "winner of a semi-final" in page  # the final is not drafted yet
    for match in rnd.matches.all():
        results.record(match, [{"scores": [11, 2]}], expected_version=0, by=director)
    rounds.complete_round(rnd, by=director)
    play_round(event, director, scores=lambda m: [11, 2])
    with django_assert_max_num_queries(10):
        page = client.get(url("freestyle_bracket", event.slug)).content.decode()
    champion = Match.objects.get(round__event=event, code="F").participants.get(seat=0)
    assert f"{champion.entrant.name} wins the tournament." in page
    assert "Final ranking" in page


def test_the_public_pages_are_for_freestyle_events_that_may_be_seen(client, director):
    other = EventFactory(format="round_robin")
    assert client.get(url("freestyle_bracket", other.slug)).status_code == 404
    private = freestyle_event(director, slug="fs-private")
    private.public = False
    private.save()
    assert client.get(url("freestyle_draws", private.slug)).status_code == 404
    client.force_login(director)
    assert client.get(url("freestyle_draws", private.slug)).status_code == 200
