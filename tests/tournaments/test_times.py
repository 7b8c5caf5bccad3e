"""Times (issue 21, finding 7): every time a director or a player sees is in the event's
zone and says so; the zone is chosen from a list."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import play_round, round_robin_event
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_director_pages_show_times_in_the_events_zone_and_say_so(client, director):
    event = round_robin_event(director, players=4, slug="tokyo")
    event.time_zone = "Asia/Tokyo"
    event.save(update_fields=["time_zone"])
    play_round(event, director)
    entry = AuditEntry.objects.filter(event=event).first()
    tokyo = timezone.localtime(entry.at, timezone.get_fixed_timezone(9 * 60))
    client.force_login(director)
    page = client.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    assert f"{tokyo:%H:%M} JST" in page
    assert "times in Asia/Tokyo" in page
    # the zone does not stay on for the next request of another event
    other = round_robin_event(director, players=2, slug="utc")
    play_round(other, director)
    page = client.get(reverse("tournaments:manage", args=[other.slug])).content.decode()
    assert " JST" not in page and " UTC" in page


def test_the_zone_is_chosen_from_a_list(client, director):
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_create")).content.decode()
    assert '<select name="time_zone"' in page
    assert '<option value="Europe/Paris">Europe/Paris</option>' in page
    assert '<option value="America/New_York">America/New York</option>' in page
