"""factory_boy factories and small builders for database tests."""

from __future__ import annotations

import factory

from tournaments.models import Entrant, Event
from tournaments.services import events, results, rounds


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    slug = factory.Sequence(lambda n: f"event-{n}")
    name = factory.Sequence(lambda n: f"Event {n}")
    format = "round_robin"
    public = True


class EntrantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entrant

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Faker("name")
    rating = factory.Sequence(lambda n: 2000 - n)


def round_robin_event(director, players=6, slug="rr", **settings) -> Event:
    event = events.create_event(
        slug=slug,
        name=f"RR {slug}",
        format="round_robin",
        by=director,
        public=True,
        settings=settings,
    )
    for i in range(players):
        events.add_entrant(event, name=f"Player {i + 1}", rating=2000 - i, by=director)
    return event


def play_round(event, director, scores=lambda match: [1, 0], complete=True):
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    for match in rnd.matches.prefetch_related("participants"):
        if len(match.participants.all()) == 2:
            results.record(
                match, [{"scores": scores(match)}], expected_version=match.version, by=director
            )
    if complete:
        rnd = rounds.complete_round(rnd, by=director)
    return rnd
