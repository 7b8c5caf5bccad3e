"""A results desk in a process of its own: rounds drafted, published and closed, and
results saved one by one through the services (tournaments.services.results.record, what the
desk's save calls), as fast as the venue's database takes them.

    python -m tests.venue.enter_results SLUG COUNT SEED [PAUSE]

Run with an instance's environment (harness.Instance.spawn). Prints one line per saved
result, flushed: ``saved INDEX ROUND MATCH-CODE SCORES MONOTONIC``, then ``done COUNT``.
PAUSE (seconds, default 0) paces the saves, one every PAUSE seconds from the start (a
desk's rhythm rather than a flood); a save slower than that is followed at once.
A save that fails ends the process with the error (exit 1): nothing is skipped quietly.
"""

from __future__ import annotations

import random
import sys
import time


def main(slug: str, count: int, seed: int, pause: float = 0.0) -> None:
    import django

    django.setup()
    from accounts.models import User
    from tournaments.models import Event
    from tournaments.services import results, rounds

    director = User.objects.get(username="director")
    rng = random.Random(seed)
    index = 0
    started = time.monotonic()
    while index < count:
        event = Event.objects.get(slug=slug)
        rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
        for match in rnd.matches.prefetch_related("participants").order_by("pk"):
            if len(match.participants.all()) != 2:
                continue  # a bye has no result to enter
            if index >= count:
                break
            scores = rng.choice(([1, 0], [0, 1]))
            results.record(match, [{"scores": scores}], expected_version=match.version, by=director)
            print(
                f"saved {index} {rnd.number} {match.code} {scores[0]}-{scores[1]} "
                f"{time.monotonic():.3f}",
                flush=True,
            )
            index += 1
            if pause:  # on a schedule: a slow save shortens the next wait
                time.sleep(max(0.0, started + index * pause - time.monotonic()))
        else:
            rounds.complete_round(rnd, by=director)
    print(f"done {index}", flush=True)


if __name__ == "__main__":
    pause = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), pause)
