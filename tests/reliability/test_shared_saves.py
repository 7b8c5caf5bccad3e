"""Directors saving into the same matches at once over real HTTP (gunicorn, PostgreSQL):
nothing lost, nothing silently overwritten; and the negative control, the same run against
the app with its version check taken out (bench/wsgi_last_write_wins.py), which must show
silent overwrites, or the check below could not see them. The full size (10 clients x 100
saves into 20 matches) is `make bench-reliability`."""

from __future__ import annotations

import pytest

from bench import proof_saves

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS, SAVES, MATCHES = 4, 25, 5


def test_parallel_saves_into_shared_matches_are_each_saved_or_a_seen_conflict(stack):
    base = stack.gunicorn(workers=3)
    event, users = proof_saves.shared_round("shared", MATCHES, CLIENTS)
    attempts, seconds = proof_saves.run(base, event, users, saves=SAVES)
    found = proof_saves.audit(event, attempts, seconds)
    print(found)
    assert found.attempts == CLIENTS * SAVES
    assert found.errors == 0, [a for a in attempts if a.outcome == "error"][:5]
    assert found.lost == 0 and found.silently_overwritten == 0, found
    assert found.holds, found
    # the run raced for real: some saves met another's save in between and were told so
    assert found.conflicts > 0 and found.saved > 0, found


def test_negative_control_without_the_version_check_shows_silent_overwrites(stack):
    base = stack.gunicorn("bench.wsgi_last_write_wins:application", workers=3)
    event, users = proof_saves.shared_round("unchecked", MATCHES, CLIENTS)
    attempts, seconds = proof_saves.run(base, event, users, saves=SAVES)
    found = proof_saves.audit(event, attempts, seconds)
    print(found)
    assert found.errors == 0 and found.conflicts == 0  # every save "landed"
    assert found.lost == 0 and found.history_rows == found.saved  # and has its row ...
    assert found.silently_overwritten > 0, found  # ... but some replaced an unseen result
    assert not found.holds
