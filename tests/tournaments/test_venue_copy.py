"""Issue 31, the public copy (docs/venue.md): read-only in the Django admin too, and its
calendars say when it was last updated from the venue, as its pages and API do. The venue
and the copy share one test database (tests/tournaments/test_venue.py's bridge)."""

from __future__ import annotations

import icalendar
import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.tournaments.test_venue import (  # noqa: F401  (fixtures)
    COPY,
    _equal,
    bridge,
    linked,
    public,
    token,
    venue,
)
from tournaments.models import Entrant, Event, Game, Match, Round, Team
from tournaments.services.mirror import push

pytestmark = pytest.mark.django_db

REFUSAL = "This event is run at the venue"


@pytest.fixture
def copied(linked, public, bridge) -> Event:  # noqa: F811
    """The public copy after the venue's first push."""
    assert push.push(linked.pk) == "applied"
    return Event.objects.get(pk=public.pk)


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def _change_url(obj) -> str:
    return reverse(f"admin:tournaments_{obj._meta.model_name}_change", args=[obj.pk])


# -- the admin -----------------------------------------------------------------------------


def test_admin_change_of_a_copy_row_is_refused_with_the_reason(
    client,
    admin_user,
    copied,
    linked,  # noqa: F811
):
    """Issue 31: the copy "is read-only there"; the admin goes around the services, so it
    refuses by itself: the row is shown read-only with the reason, a posted change is
    refused with it, and nothing is saved."""
    client.force_login(admin_user)
    entrant = copied.entrants.order_by("number").first()
    page = client.get(_change_url(entrant))
    assert page.status_code == 200
    assert any(REFUSAL in m for m in _messages(page))
    assert b'name="name"' not in page.content  # no input: the row is read-only
    posted = client.post(
        _change_url(entrant),
        {"name": "Renamed at the copy", "number": entrant.number, "event": copied.pk},
    )
    assert posted.status_code == 302
    assert any(REFUSAL in m for m in _messages(posted))
    assert Entrant.objects.get(pk=entrant.pk).name == entrant.name
    rnd = copied.rounds.order_by("number").first()
    match = Match.objects.filter(round=rnd).first()
    game = Game.objects.filter(match=match).first()
    for row in (rnd, match, game):
        answer = client.post(_change_url(row), {})
        assert answer.status_code == 302 and any(REFUSAL in m for m in _messages(answer))
    assert _equal(linked, copied)


def test_admin_deletes_and_additions_on_a_copy_are_refused(
    client,
    admin_user,
    copied,
    linked,  # noqa: F811
):
    client.force_login(admin_user)
    entrant = copied.entrants.order_by("number").first()
    url = reverse("admin:tournaments_entrant_delete", args=[entrant.pk])
    answer = client.post(url, {"post": "yes"})
    assert answer.status_code == 302 and any(REFUSAL in m for m in _messages(answer))
    assert Entrant.objects.filter(pk=entrant.pk).exists()
    # the list's "delete selected"
    rounds = list(copied.rounds.values_list("pk", flat=True))
    answer = client.post(
        reverse("admin:tournaments_round_changelist"),
        {"action": "delete_selected", "_selected_action": rounds, "post": "yes"},
    )
    assert any(REFUSAL in m for m in _messages(answer))
    assert Round.objects.filter(event=copied).count() == len(rounds)
    # a new team of the copy: refused by the form, naming the field
    answer = client.post(
        reverse("admin:tournaments_team_add"), {"name": "New team", "event": copied.pk}
    )
    assert answer.status_code == 200
    assert REFUSAL in str(answer.context["adminform"].form.errors["event"])
    assert not Team.objects.filter(event=copied).exists()
    assert _equal(linked, copied)


def test_admin_keeps_the_copys_directors_editable_and_its_fields_read_only(
    client, admin_user, copied, director
):
    """The event's directors are the copy's own (one of them may take the event over);
    everything the event file holds is read-only there."""
    client.force_login(admin_user)
    url = _change_url(copied)
    page = client.get(url)
    assert page.status_code == 200
    assert any(REFUSAL in m for m in _messages(page))
    assert b'name="name"' not in page.content
    assert b'name="eventdirector_set-TOTAL_FORMS"' in page.content
    assert b'name="stages-0-name"' not in page.content


def test_admin_edits_of_a_plain_event_still_work(client, admin_user, director, venue):  # noqa: F811
    client.force_login(admin_user)
    team_add = client.post(
        reverse("admin:tournaments_team_add"), {"name": "Plain team", "event": venue.pk}
    )
    assert team_add.status_code == 302
    assert Team.objects.filter(event=venue, name="Plain team").exists()


# -- the calendars -------------------------------------------------------------------------


def test_the_copys_calendars_say_when_it_was_updated_from_the_venue(client, copied):
    """Issue 31 (1): the public copy's "public pages, API and feeds show it like any event,
    with 'updated from the venue at HH:MM'"; the calendars (iCalendar) too, in the
    calendar's description (X-WR-CALDESC for the readers that show only that)."""
    when = copied.mirrored_at.strftime("%H:%M")  # the event's zone is UTC
    number = copied.entrants.order_by("number").first().number
    for url in (
        f"/api/v1/events/{COPY}/calendar.ics",
        f"/api/v1/events/{COPY}/entrants/{number}/calendar.ics",
    ):
        answer = client.get(url)
        assert answer.status_code == 200, url
        calendar = icalendar.Calendar.from_ical(answer.content)
        said = f"Updated from the venue at {when}."
        assert str(calendar["X-WR-CALDESC"]) == said
        assert str(calendar["DESCRIPTION"]) == said


def test_a_plain_events_calendar_says_nothing_of_a_venue(client, venue):  # noqa: F811
    answer = client.get(f"/api/v1/events/{venue.slug}/calendar.ics")
    assert answer.status_code == 200
    assert b"X-WR-CALDESC" not in answer.content
