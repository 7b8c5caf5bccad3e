"""The GokoDom demo event for `make run` (tournaments/demo.py collects each format's): the
league cut during its third round, with one result reported by a player and disputed by the
other, so "Needs you" and the settle page have something to show."""

from __future__ import annotations

import random
from typing import Any

from tournaments.demo import simulated_demo
from tournaments.models import Event, Round

_simulated = simulated_demo("gokodom", 24, 3, "Demo GokoDom league (Swiss, then top 8)")


def build(*, director: Any, rng: random.Random) -> Event:
    from tournaments.formats.gokodom import services

    event = _simulated(director=director, rng=rng)
    current = event.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    if current is None:
        return event
    for match in current.matches.order_by("order").prefetch_related("participants__entrant"):
        seats = [p.entrant for p in match.participants.all() if p.entrant is not None]
        if match.result or len(seats) != 2 or match.details.get("report"):
            continue
        services.report(match, seats[0], outcome="W", by=director)
        services.dispute(match, seats[1], note="I won on time: my clock was stopped.", by=director)
        break
    return event
