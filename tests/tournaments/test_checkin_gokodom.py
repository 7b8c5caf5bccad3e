"""GokoDom check-in (docs/formats/gokodom.md, Absence): the player's "I can't play next
round" on their own page, and what it gives: a Bye by Request when told in time (I.E),
otherwise the ``absent_result`` setting."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.test_format_gokodom import HTMX, client_for, pair, play_swiss, start
from tournaments.models import CheckIn
from tournaments.services import checkin, rounds

pytestmark = pytest.mark.django_db


def _say(entrant, event, number: int, action: str):
    url = reverse("tournaments:gokodom_absence", args=[event.slug])
    return client_for(entrant).post(url, {"round": number, "action": action}, **HTMX)


def test_i_cant_play_next_round_told_in_time_is_a_bye_by_request(director, client):
    # gokodom.md, Absence: "told by the end of the round before, it is a Bye by Request"
    event, rnd = start(director, swiss_rounds=3)
    _, a, _ = pair(rnd)
    page = client_for(a).get(reverse("tournaments:gokodom_player", args=[event.slug]))
    assert "I can't play round 2" in page.content.decode()
    card = _say(a, event, 2, "absent")
    assert card.status_code == 200
    text = card.content.decode()
    assert "You told the director you cannot play round 2." in text
    assert "You get a Bye by Request, worth a draw." in text
    a.refresh_from_db()
    assert a.flags["bye_requests"] == [2]
    mark = CheckIn.objects.get(entrant=a, round_number=2)
    assert not mark.present and mark.source == "player"

    client.force_login(director)
    sheet = client.get(reverse("tournaments:manage_checkin", args=[event.slug])).content.decode()
    assert "7 of 8 checked in" in sheet and "said by the player" in sheet

    play_swiss(event, director, rnd)
    second = rounds.draft_next_round(event, by=director).round
    mine = second.matches.get(participants__entrant=a)
    assert mine.details == {"result": "BR"} and second.details["absent"] == [str(a.number)]


def test_in_the_final_swiss_round_an_absence_is_a_loss_and_can_be_taken_back(director):
    # gokodom.md, Absence: "no Bye by Request in the final Swiss round (I.E): the
    # absent_result setting applies (default: a Loss, the player stays in)"
    event, rnd = start(director, swiss_rounds=2)
    _, a, _ = pair(rnd)
    text = _say(a, event, 2, "absent").content.decode()
    assert "may not be used in the final Swiss round" in text
    assert "gets a Loss (0 match points), and stays in the tournament" in text
    a.refresh_from_db()
    assert not a.flags.get("bye_requests")
    assert "I can play round 2 after all" in text
    _say(a, event, 2, "present")
    assert checkin.absent_ids(event, 2) == ()
    _say(a, event, 2, "absent")
    play_swiss(event, director, rnd)
    second = rounds.draft_next_round(event, by=director).round
    out = second.matches.get(participants__entrant=a)
    assert out.details == {"result": "L", "absent": [str(a.number)]}
    reasons = [r["text"] for r in out.reasons]
    assert reasons == [
        f"{a.name} is absent: not paired; a Loss (0 match points), and the player stays in."
    ]


def test_a_director_marking_an_absence_in_time_asks_for_the_bye_too(director, client):
    event, rnd = start(director, swiss_rounds=3)
    _, a, _ = pair(rnd)
    client.force_login(director)
    url = reverse("tournaments:manage_checkin_toggle", args=[event.slug, a.number])
    assert client.post(url, {"present": "0", "round": "2"}).status_code == 302
    a.refresh_from_db()
    assert a.flags["bye_requests"] == [2]
    client.post(url, {"present": "1", "round": "2"})
    a.refresh_from_db()
    assert a.flags["bye_requests"] == []  # back in: the request is withdrawn with it
