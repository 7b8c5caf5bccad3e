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


@pytest.mark.skipif(connection.vendor == "sqlite", reason="needs row locks (PostgreSQL)")
def test_parallel_settles_of_one_gokodom_dispute_record_exactly_one_decision(director):
    """Issue 28, item 4: directors (and the player who accepts the other's account) acting
    on one dispute at once, all from the page they read: one decision is recorded, the
    others are refused, never written over it."""
    from tests.factories import gokodom_event
    from tournaments.formats.gokodom import services as gokodom
    from tournaments.formats.gokodom import services_settle
    from tournaments.formats.gokodom.claims import seen_mark
    from tournaments.models import AuditEntry, ResultChange
    from tournaments.services import rounds
    from tournaments.services.errors import ServiceError

    event = gokodom_event(director, swiss_rounds=3)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()
    a, b = (p.entrant for p in match.participants.order_by("seat"))
    gokodom.report(match, a, outcome="W", by=a.user)
    gokodom.dispute(match, b, note="I won", outcome="W", by=b.user)
    shown = Match.objects.get(pk=match.pk)
    seen, version = seen_mark(shown.details["report"]), shown.version
    barrier = threading.Barrier(5)
    outcomes = []

    def act(claim):
        from django.db import connections

        try:
            barrier.wait()
            if claim == "accept":
                gokodom.confirm(shown, a, by=a.user, seen=shown.details["report"]["counter"]["at"])
            else:
                services_settle.settle(
                    shown, expected_version=version, seen=seen, claim=claim, by=director
                )
            outcomes.append(("saved", claim))
        except ServiceError:
            outcomes.append(("refused", claim))
        finally:
            connections.close_all()

    claims = ["report", "counter", "report", "counter", "accept"]
    threads = [threading.Thread(target=act, args=(c,)) for c in claims]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    saved = [c for kind, c in outcomes if kind == "saved"]
    assert len(outcomes) == 5 and len(saved) == 1, outcomes
    assert ResultChange.objects.filter(match=match).count() == 1
    settled = AuditEntry.objects.filter(action="gokodom.dispute_settled").count()
    assert settled == (0 if saved == ["accept"] else 1)
    winner = "counter" if saved[0] in ("counter", "accept") else "report"
    expected = {str(a.number): "L", str(b.number): "W"} if winner == "counter" else None
    recorded = Match.objects.get(pk=match.pk).details["results"]
    assert recorded == (expected or {str(a.number): "W", str(b.number): "L"})
