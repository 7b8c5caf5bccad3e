"""The WPF playoffs demo event for `make run` (tournaments/demo.py collects each format's).

Its players come from the demo Puzzle Grand Prix as the WPF rules have it: the series' top
30 are the line (each place with its reason), the first 16 are offered a place, two of
them decline and the next two are offered theirs; those who confirm become the entrants,
and their eligibility scores, GP positions and attendance are read from the series
(series_link.py), not typed. The rounds played so far are the format's own simulation
from those entrants, cut during round 5.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from rules.formats.wpf_playoffs.simulate import simulate
from tournaments import demo_series, simulation
from tournaments.demo import slug
from tournaments.models import Entry, Event, Registration
from tournaments.services import (
    events,
    locking,
    places,
    qualification,
    series,
    standings,
)
from tournaments.services.eventfile.importing import replace_event
from tournaments.services.state import load_event_state

NAME = "Demo WPF Grand Prix playoffs"
INVITED = 30  # "Have one of the top 30 eligibility scores"
PLACES = 16
DECLINING = (2, 7)  # the places in the line of the two who decline


def build(*, director: Any, rng: random.Random) -> Event:
    now = timezone.now() - timedelta(days=10)
    gp = demo_series.grand_prix(director)
    event = events.create_event(
        slug=slug("wpf_playoffs"), name=NAME, format="wpf_playoffs", by=director, public=True
    )
    series.add_feed(gp, event, by=director)
    candidates = qualification.from_series(gp)[:INVITED]
    qualification.build(
        event,
        candidates,
        places_count=PLACES,
        label=gp.name,
        confirm_hours=72,
        source=Registration.Source.SERIES,
        series_key=gp.slug,
        by=director,
        now=now,
    )
    line = Entry.objects.filter(event=event)
    for order in DECLINING:
        places.decline(line.get(order=order), now=now + timedelta(hours=order))
    for entry in line.filter(status=Entry.Status.OFFERED).order_by("order"):
        places.confirm_place(entry, now=now + timedelta(days=1))
    places.make_entrants(event, by=director, now=now + timedelta(days=2))
    _play(event, director)
    return Event.objects.get(pk=event.pk)


def _play(event: Event, director: Any) -> None:
    """Rounds A to E of the format's simulation, from the entrants as the series seeded
    them, written into the event as a venue's push would be (its entrants' rows stay)."""
    state = load_event_state(event)
    played = simulation.cut(simulate(random.Random(7), players=state.entrants), 5)
    data = simulation.to_event_file(played, slug=event.slug, name=event.name)
    with transaction.atomic():
        replace_event(locking.lock_event(event), data, by=director)
    standings.refresh(event.pk, Event.objects.get(pk=event.pk).results_version)
