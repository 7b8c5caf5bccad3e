"""Tiebreaker games: "Finally, if need be, there is a tie-breaker game." The engine asks
for one (Standings.pending, NeedsDecision from next_round); the director records its winner
on the Freestyle screen, stored as the draw record the engine reads (question 12)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import freestyle_event, play_round
from tournaments.formats.freestyle import services as format_freestyle
from tournaments.models import AuditEntry, RandomDraw, Round
from tournaments.services import rounds
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


@pytest.fixture
def all_tied(director):
    """Every Round 1 game a 5-5 tie: four players tied on every step in every group."""
    event = freestyle_event(director, players=16, slug="fs-tie")
    play_round(event, director, scores=lambda m: [5, 5])
    return event


def test_drafting_stops_for_a_tiebreaker_game(client, director, all_tied):
    client.force_login(director)
    response = client.post(url("manage_draft", all_tied.slug), follow=True)
    assert "play a tiebreaker game" in response.content.decode()
    assert not Round.objects.filter(event=all_tied, number=2).exists()
    page = client.get(url("freestyle_tiebreakers", all_tied.slug)).content.decode()
    assert page.count('name="winner"') == 4 * 4  # four groups, four tied players each


def test_recording_winners_until_every_place_is_settled(client, director, all_tied):
    client.force_login(director)
    target = url("freestyle_tiebreakers", all_tied.slug)
    games = 0
    while pending := format_freestyle.pending_tiebreakers(all_tied):
        item = pending[0]
        response = client.post(
            target, {"key": item.key, "winner": item.options[-1], "note": "12-10"}
        )
        assert response.status_code == 302
        games += 1
    # each four-way tie takes three games (the winner leaves the tie, the rest play again)
    assert games == 4 * 3
    draw = RandomDraw.objects.filter(event=all_tied, key__contains="/tiebreaker/").first()
    assert draw.method == RandomDraw.Method.EXTERNAL
    assert draw.details["kind"] == "tiebreaker_game" and draw.details["note"] == "12-10"
    assert AuditEntry.objects.filter(action="freestyle.tiebreaker_recorded").count() == 12
    outcome = rounds.draft_next_round(all_tied, by=director)
    assert outcome.round is not None and outcome.round.number == 2
    # the lowest seeds won their games: they are #1 of their groups and seed Round 2 groups
    public = client.get(url("freestyle_draws", all_tied.slug)).content.decode()
    assert "Tiebreaker games" in public and "won by" in public


def test_a_winner_outside_the_tie_or_a_settled_tie_is_refused(client, director, all_tied):
    item = format_freestyle.pending_tiebreakers(all_tied)[0]
    outsider = next(str(n) for n in range(1, 17) if str(n) not in item.options)
    with pytest.raises(ServiceError, match="Choose one of the tied players"):
        format_freestyle.record_tiebreaker(all_tied, item.key, outsider, by=director)
    with pytest.raises(ServiceError, match="No tiebreaker game is waiting"):
        format_freestyle.record_tiebreaker(
            all_tied, "round-1/group-B/tiebreaker/98+99", "98", by=director
        )
    client.force_login(director)
    response = client.post(
        url("freestyle_tiebreakers", all_tied.slug), {"key": item.key, "winner": outsider}
    )
    assert response.status_code == 422
    assert "Choose one of the tied players" in response.content.decode()
    assert not RandomDraw.objects.filter(key__contains="tiebreaker").exists()


def test_the_tiebreaker_page_is_for_directors_only(client, director, all_tied, django_user_model):
    target = url("freestyle_tiebreakers", all_tied.slug)
    assert client.get(target).status_code == 302  # to sign in
    client.force_login(django_user_model.objects.create_user("stranger", password="x-pw-12345"))
    assert client.get(target).status_code == 404
    assert client.post(target, {"key": "x", "winner": "1"}).status_code == 404
