"""The event list of a signed-in user: the events they may see, each with its entrant count,
in a query whose size does not grow with the entrants squared (bench/load.py found a
director waiting minutes for the list of three 1,000-entrant events)."""

import pytest

from tests.factories import round_robin_event
from tournaments.models import Entrant, Event
from tournaments.selectors import visible_events

pytestmark = pytest.mark.django_db


def test_a_signed_in_user_sees_public_directed_and_entered_events(director, django_user_model):
    player = django_user_model.objects.create_user("player-q", password="pw-player-1")
    round_robin_event(director, players=3, slug="q-public")
    directed = round_robin_event(player, players=4, slug="q-directed")
    entered = round_robin_event(director, players=5, slug="q-entered")
    hidden = round_robin_event(director, players=2, slug="q-hidden")
    Event.objects.filter(pk__in=[directed.pk, entered.pk, hidden.pk]).update(public=False)
    Entrant.objects.filter(event=entered, number=2).update(user=player)

    events = visible_events(player)
    counts = {e.slug: e.entrant_count for e in events}
    assert counts == {"q-public": 3, "q-directed": 4, "q-entered": 5}
    assert len(list(events)) == 3  # one row per event, without DISTINCT
    assert str(events.query).count('JOIN "tournaments_entrant"') == 1  # the count's only
