"""Two directors saving the same match at once: real parallel transactions."""

import threading

import pytest
from django.db import connection

from tests.factories import play_round, round_robin_event
from tournaments.models import Match
from tournaments.services import results
from tournaments.services.errors import StaleResult

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.skipif(connection.vendor == "sqlite", reason="needs row locks (PostgreSQL)")
def test_parallel_saves_from_the_same_version_let_exactly_one_through(director):
    event = round_robin_event(director, players=4)
    play_round(event, director, complete=False)
    match = Match.objects.filter(round__event=event).order_by("pk").first()
    version = match.version
    barrier = threading.Barrier(6)
    outcomes = []

    def save(score):
        from django.db import connections

        try:
            barrier.wait()
            results.record(match, [{"scores": [score, 0]}], expected_version=version, by=director)
            outcomes.append(("saved", score))
        except StaleResult:
            outcomes.append(("stale", score))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save, args=(s,)) for s in range(1, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    saved = [s for kind, s in outcomes if kind == "saved"]
    assert len(saved) == 1 and len(outcomes) == 6
    match.refresh_from_db()
    assert match.games.get().scores == [saved[0], 0]
    assert match.version == version + 1
