"""A 1,000-entrant event as an event file: two rounds played, the third published and open."""

from __future__ import annotations

import random
from typing import Any


def event_file(slug: str, entrants: int = 1000, played: int = 2) -> dict[str, Any]:
    rng = random.Random(4)
    people = [
        {"number": n, "name": f"Entrant {n:04d}", "rating": 2400 - n, "seed": None,
         "country": "", "gender": "", "team": "", "external_id": "", "flags": {},
         "status": "active", "withdrawn_after_round": None}
        for n in range(1, entrants + 1)
    ]  # fmt: skip
    rounds = []
    for number in range(1, played + 2):
        order = list(range(1, entrants + 1))
        rng.shuffle(order)
        matches = []
        for table, (a, b) in enumerate(zip(order[::2], order[1::2], strict=True), start=1):
            games = []
            if number <= played:
                games = [{"number": 1, "scores": rng.choice([[1, 0], [0, 1], [0.5, 0.5]]),
                          "first": None, "ending": "normal", "details": {}}]  # fmt: skip
            matches.append(
                {"code": f"R{number}-T{table}", "group": None, "bracket": "", "table": table,
                 "details": {}, "reasons": [], "overridden": False,
                 "participants": [{"entrant": a, "role": "white", "details": {}},
                                  {"entrant": b, "role": "black", "details": {}}],
                 "games": games}
            )  # fmt: skip
        rounds.append(
            {"number": number, "label": f"Round {number}",
             "status": "completed" if number <= played else "published", "stage": None,
             "starts_at": None, "deadline": None, "published_at": None, "completed_at": None,
             "reasons": [], "details": {}, "groups": [], "matches": matches}
        )  # fmt: skip
    return {
        "arbiter_event_file": 1,
        # Sonneborn-Berger rather than head-to-head: the engine's head-to-head among
        # hundreds of tied entrants is quadratic (docs/performance.md).
        "event": {"slug": slug, "name": "Bench Open (1,000 entrants)", "format": "round_robin",
                  "settings": {"tiebreaks": ["sonneborn_berger", "wins"]}, "status": "running",
                  "public": True, "starts_on": None, "ends_on": None, "time_zone": "UTC",
                  "venue": "", "random_seed": "bench", "external_draws": False},
        "teams": [], "stages": [], "entrants": people, "rounds": rounds, "draws": [],
    }  # fmt: skip
