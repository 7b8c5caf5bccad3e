"""The round robin's demo event for `make run` (tournaments/demo.py collects each format's)."""

from __future__ import annotations

import random
from typing import Any

from tournaments.models import Event, Round
from tournaments.services import events, results, rounds, standings

DEMO_PLAYERS = [
    ("Ada Lovelace", 2210, "GB", "F"),
    ("Alan Turing", 2180, "GB", "M"),
    ("Grace Hopper", 2155, "US", "F"),
    ("Emmy Noether", 2120, "DE", "F"),
    ("Kurt Gödel", 2090, "AT", "M"),
    ("John von Neumann", 2075, "HU", "M"),
    ("Sofia Kovalevskaya", 2040, "RU", "F"),
    ("Srinivasa Ramanujan", 2010, "IN", "M"),
    ("Hypatia", 1985, "EG", "F"),
]


def _play_round_robin(event: Event, director: Any, rng: random.Random, rounds_to_play: int) -> None:
    for _ in range(rounds_to_play):
        outcome = rounds.draft_next_round(event, by=director)
        assert outcome.round is not None
        rnd = rounds.publish_round(outcome.round, by=director)
        for match in rnd.matches.prefetch_related("participants"):
            if len(match.participants.all()) < 2:
                continue
            a = rng.randint(0, 3)
            b = rng.randint(0, 3)
            results.record(match, [{"scores": [a, b]}], expected_version=match.version, by=director)
        rounds.complete_round(Round.objects.get(pk=rnd.pk), by=director)


def build(*, director: Any, rng: random.Random) -> Event:
    """Nine players, four of nine rounds played, round five published and half entered."""
    event = events.create_event(
        slug="demo-round-robin",
        name="Demo Round Robin (Berger tables)",
        format="round_robin",
        by=director,
        public=True,
        venue="Arbiter demo hall",
        settings={"tiebreaks": ["head_to_head", "sonneborn_berger", "wins"]},
    )
    for name, rating, country, gender in DEMO_PLAYERS:
        events.add_entrant(
            event, name=name, rating=rating, country=country, gender=gender, by=director
        )
    _play_round_robin(event, director, rng, 4)
    outcome = rounds.draft_next_round(event, by=director)
    assert outcome.round is not None
    rnd = rounds.publish_round(outcome.round, by=director)
    playable = [
        m for m in rnd.matches.prefetch_related("participants") if m.participants.count() > 1
    ]
    for match in playable[: len(playable) // 2]:
        results.record(
            match,
            [{"scores": [rng.randint(0, 3), rng.randint(0, 3)]}],
            expected_version=match.version,
            by=director,
        )
    standings.refresh(event.pk, Event.objects.get(pk=event.pk).results_version)
    return event
