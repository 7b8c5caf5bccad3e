"""Freestyle withdrawals, "Player withdrawals from the tournament": during a round "his
games (even if he played all of them) do not count"; between rounds "everyone who finished
below him in the previous round moves up one place". The engine reads a withdrawal during
round r as withdrawn_after_round = r - 1 and one between rounds r and r + 1 as r."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import confirm_preview, freestyle_event, play_round
from tournaments.formats.freestyle import services as format_freestyle
from tournaments.models import Entrant, Match, ResultChange, Round
from tournaments.services import events, rounds
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def test_the_generic_button_records_a_withdrawal_between_rounds_only(director):
    """services.events.withdraw stores the last published round: right between rounds,
    but during round r the engine would read it as "after round r" (games counted). The
    Freestyle screen records the engine's way."""
    event = freestyle_event(director, slug="fs-g")
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    generic = events.withdraw(Entrant.objects.get(event=event, number=5), by=director)
    assert generic.withdrawn_after_round == rnd.number  # "between rounds 1 and 2"
    mine = format_freestyle.withdraw(
        Entrant.objects.get(event=event, number=6), during=True, by=director
    )
    assert mine.withdrawn_after_round == rnd.number - 1  # "during round 1"


def test_during_a_group_round_the_games_are_void_and_rescored(director):
    event = freestyle_event(director, slug="fs-d")
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    leaver = Entrant.objects.get(event=event, number=16)
    played = Match.objects.filter(round=rnd, participants__entrant=leaver).first()
    from tournaments.services import results

    results.record(played, [{"scores": [9, 3]}], expected_version=0, by=director)
    format_freestyle.withdraw(leaver, during=True, by=director, reason="ill")
    played.refresh_from_db()
    assert played.result["summary"] == "void" and played.version == 2
    change = ResultChange.objects.get(match=played, version=2)
    assert change.source == ResultChange.Source.SYSTEM
    assert "withdrew during Round 1" in change.reason
    for match in Match.objects.filter(round=rnd, participants__entrant=leaver):
        assert match.result["details"]["void"] is True


def test_between_rounds_the_next_player_moves_up(director):
    event = freestyle_event(director, slug="fs-b")
    # the lower registration number wins every game
    play_round(event, director, scores=lambda m: [10, 4] if _seat0_better(m) else [4, 10])
    leaver = Entrant.objects.get(event=event, number=1)
    format_freestyle.withdraw(leaver, during=False, by=director)
    leaver.refresh_from_db()
    assert leaver.withdrawn_after_round == 1
    rnd = rounds.draft_next_round(event, by=director).round
    playing = set(rnd.matches.values_list("participants__entrant__number", flat=True).distinct())
    assert 1 not in playing and len(playing) == 15  # his group's #5 does not exist: 3 go on


def _seat0_better(match):
    numbers = [p.entrant.number for p in match.participants.order_by("seat")]
    return numbers[0] < numbers[1]


def test_during_a_semi_final_the_opponent_wins_by_walkover(client, director):
    event = freestyle_event(director, slug="fs-k")
    for _ in range(3):
        play_round(event, director, scores=lambda m: [10, 4] if _seat0_better(m) else [4, 10])
    semis = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    sf1 = semis.matches.get(code="SF1")
    low = sf1.participants.get(seat=1).entrant
    client.force_login(director)
    form = client.get(url("freestyle_withdraw", event.slug, low.number)).content.decode()
    assert "Semi-finals" in form and 'value="during"' in form
    confirm_preview(client, url("freestyle_withdraw", event.slug, low.number), {"when": "during"})
    sf1.refresh_from_db()
    assert sf1.result["summary"] == "W/O" and sf1.result["winner"] == 0
    bracket = client.get(url("freestyle_bracket", event.slug)).content.decode()
    assert "walkover" in bracket


def test_refusals_name_the_problem(client, director):
    event = freestyle_event(director, slug="fs-r")
    entrant = Entrant.objects.get(event=event, number=2)
    with pytest.raises(ServiceError, match="No round is in play"):
        format_freestyle.withdraw(entrant, during=True, by=director)
    rounds.draft_next_round(event, by=director)
    with pytest.raises(ServiceError, match="is in the draft of Round 1"):
        format_freestyle.withdraw(entrant, during=False, by=director)
    client.force_login(director)
    response = client.post(url("freestyle_withdraw", event.slug, 2), {"when": "sometime"})
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert Round.objects.filter(event=event).count() == 1
    entrant.refresh_from_db()
    assert entrant.status == Entrant.Status.ACTIVE
