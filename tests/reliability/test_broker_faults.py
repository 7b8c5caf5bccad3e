"""The standings pipeline with real processes failing (bench/proof_broker.py): a worker
killed with -9 in the middle of a recompute, and Redis refusing connections while results
are saved over gunicorn with a worker and beat running. The full size (three kills in
1,000 recomputes; 200 saves with Redis down) is `make bench-reliability`."""

from __future__ import annotations

import pytest

from bench import proof_broker

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_worker_killed_mid_recompute_leaves_published_standings_equal_to_a_clean_run(
    stack, director
):
    event = proof_broker.open_round("kills", players=10, by=director)
    found = proof_broker.worker_kills(stack, event, director, saves=20, kills=1)
    print(found)
    assert found.kills == 1 and found.killed_mid_recompute == 1, found
    assert found.recomputes >= found.saves - found.kills, found  # one per save, nearly
    assert found.equal_to_clean, found


def test_redis_refused_during_saves_loses_nothing_and_beat_catches_up(stack, director):
    events = [proof_broker.open_round(f"outage-{i}", players=6, by=director) for i in range(2)]
    sweep = {"ARBITER_SWEEP_SECONDS": "2", "ARBITER_STANDINGS_DELAY": "0.2"}
    base = stack.gunicorn(workers=2, **sweep)
    stack.worker(**sweep)
    stack.beat(**sweep)
    found = proof_broker.redis_outage(stack, base, events, director, saves=20, wait=30)
    print(found)
    assert found.failures == [], found
    assert found.saves_accepted == found.saves == 20
    assert found.pages_served == found.pages > 0
    assert found.stale_when_back == 2  # the saves really waited for the sweep ...
    assert found.seconds_to_current is not None and found.stale_at_deadline == 0  # ... which ran
    assert found.equal_to_clean and found.servers_alive, found
