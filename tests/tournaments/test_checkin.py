"""Check-in (issue 21, item 12) on the web side: the director marks who plays the next
round, the counts and the draft button follow, the draft leaves the absent out as the
format says (a round robin forfeit here) and shows why, and the list starts afresh."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import round_robin_event
from tournaments.models import AuditEntry, CheckIn, Round
from tournaments.services import checkin, rounds
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def event(director):
    return round_robin_event(director, players=4, slug="chk")


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


def _toggle(desk, event, number: int, present: bool, round_number: int, **headers):
    url = reverse("tournaments:manage_checkin_toggle", args=[event.slug, number])
    data = {"present": "1" if present else "0", "round": str(round_number)}
    return desk.post(url, data, headers=headers)


def test_a_director_marks_an_absence_and_drafts_with_the_present(desk, event, director):
    url = reverse("tournaments:manage_checkin", args=[event.slug])
    page = desk.get(url).content.decode()
    assert "4 of 4 checked in" in page and "Draft round 1 with the 4 present" in page
    assert "stays in the Berger table as a forfeit" in page  # the format's rule, in words

    row = _toggle(desk, event, 2, False, 1, **HTMX)
    assert row.status_code == 200
    body = row.content.decode()
    assert 'id="checkin-2" class="absent"' in body and "Mark present" in body
    assert "3 of 4 checked in" in body and 'hx-swap-oob="true"' in body  # the counts too
    assert "Draft round 1 with the 3 present" in body
    entry = AuditEntry.objects.get(event=event, action="checkin.absent")
    assert entry.actor == director and entry.subject == "Player 2: Round 1"

    dashboard = desk.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    assert "Check-in for round 1: 3 of 4 checked in" in dashboard
    assert "Draft round 1 with the 3 present" in dashboard

    assert desk.post(reverse("tournaments:manage_draft", args=[event.slug])).status_code == 302
    rnd = Round.objects.get(event=event, number=1)
    assert rnd.details["absent"] == ["2"]
    draft = desk.get(reverse("tournaments:manage_round", args=[event.slug, 1])).content.decode()
    assert "Checked in as absent for this round: 2. Player 2." in draft
    assert "Player 2 is absent: the game is a forfeit, won by the opponent." in draft
    drafted = AuditEntry.objects.get(event=event, action="round.drafted")
    assert drafted.after == {"absent": [2]}

    # the check-in moves on to round 2, everyone present again
    page = desk.get(url).content.decode()
    assert "Check-in for round 2" in page and "4 of 4 checked in" in page

    # published, the forfeit is scored at once: the opponent wins, nothing to type
    rounds.publish_round(rnd, by=director)
    forfeit = rnd.matches.get(participants__entrant__number=2)
    assert forfeit.result["complete"] and forfeit.result["summary"] == "forfeit"
    seats = {p.entrant.number: p.seat for p in forfeit.participants.all()}
    assert forfeit.result["winner"] == next(s for n, s in seats.items() if n != 2)


def test_without_javascript_the_toggle_posts_and_returns_to_the_list(desk, event):
    response = _toggle(desk, event, 3, False, 1)
    assert response.status_code == 302 and response.url.endswith("#checkin-3")
    page = desk.get(response.url).content.decode()
    assert "Player 3 is absent for the next round." in page
    assert checkin.absent_ids(event, 1) == ("3",)
    _toggle(desk, event, 3, True, 1)
    assert checkin.absent_ids(event, 1) == ()
    assert AuditEntry.objects.filter(event=event, action="checkin.present").count() == 1


def test_a_check_in_for_a_round_already_drafted_is_refused(desk, event, director):
    rounds.draft_next_round(event, by=director)
    response = _toggle(desk, event, 2, False, 1, **HTMX)
    assert response.status_code == 422
    assert "Round 1 is already drafted: the check-in is now for round 2" in (
        response.content.decode()
    )
    assert not CheckIn.objects.filter(present=False).exists()


def test_deleting_a_draft_brings_its_check_in_back(event, director):
    entrant = event.entrants.get(number=4)
    checkin.set_presence(entrant, present=False, by=director)
    draft = rounds.draft_next_round(event, by=director).round
    assert checkin.next_round_number(event) == 2 and checkin.sheet(event).present == 4
    rounds.delete_draft(draft, by=director)
    again = rounds.draft_next_round(event, by=director).round
    assert again.details["absent"] == ["4"]


def test_a_withdrawn_entrant_cannot_be_checked_in(event, director):
    from tournaments.services import events

    entrant = event.entrants.get(number=1)
    events.withdraw(entrant, by=director, reason="ill")
    with pytest.raises(ServiceError, match="has withdrawn"):
        checkin.set_presence(entrant, present=False, by=director)
    assert checkin.sheet(event).total == 3


def test_a_bot_contest_has_no_check_in(client, director):
    from tests.factories import bot_contest_event

    event = bot_contest_event(director)
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_checkin", args=[event.slug])).content.decode()
    assert "This format has no check-in" in page and "Mark absent" not in page
    dashboard = client.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    assert reverse("tournaments:manage_checkin", args=[event.slug]) not in dashboard
    url = reverse("tournaments:manage_checkin_toggle", args=[event.slug, 1])
    assert client.post(url, {"present": "0"}).status_code == 404
