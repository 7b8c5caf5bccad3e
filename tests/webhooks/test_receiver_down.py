"""Issue 30, step 4's proof: a real receiver that is down for a while (its port closed,
then answering 503, then losing the answer of messages it applied) loses nothing and
applies nothing twice, because every attempt carries the same idempotency key.

The backoff is shortened (0.2 s doubling to 1 s) and the outage lasts
ARBITER_TEST_WEBHOOK_DOWN seconds (6 by default; 60 for the issue's minute).
"""

from __future__ import annotations

import collections
import json
import os
import time

import pytest

from tests.factories import play_round, round_robin_event
from tests.webhooks.receiver import Receiver
from tournaments.models import WebhookDelivery
from tournaments.services import webhooks

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
DOWN = float(os.environ.get("ARBITER_TEST_WEBHOOK_DOWN", "6"))


def test_a_receiver_down_for_a_while_loses_nothing_and_applies_nothing_twice(
    director, settings, django_capture_on_commit_callbacks
):
    settings.ARBITER_WEBHOOK_ALLOW_LOCAL = True
    settings.ARBITER_WEBHOOK_TIMEOUT = 2
    settings.ARBITER_WEBHOOK_BACKOFF_SECONDS = 0.2
    settings.ARBITER_WEBHOOK_BACKOFF_MAX_SECONDS = 1
    receiver = Receiver()
    receiver.start()  # to get a port,
    receiver.stop()  # then down: connections to it are refused
    event = round_robin_event(director, players=8, slug="down")
    endpoint, receiver.secret = webhooks.create_endpoint(
        event, receiver.url, webhooks.KINDS, by=director
    )
    started = time.monotonic()
    try:
        with django_capture_on_commit_callbacks(execute=True):
            for _ in range(7):  # the whole round robin, while the receiver is down
                play_round(event, director)
            webhooks.notify(event, "event.finished", {"results_version": 1})
        rows = list(WebhookDelivery.objects.filter(endpoint=endpoint))
        assert len(rows) >= 35
        assert all(r.status == "pending" and r.attempts >= 1 for r in rows)  # tried, failed
        assert receiver.received == []
        while time.monotonic() - started < DOWN:  # the sweep keeps trying while it is down
            webhooks.sweep()
            time.sleep(0.1)
        receiver.start()
        receiver.mode = "503"  # back, but failing for a moment
        end_503 = time.monotonic() + 1.5
        while time.monotonic() < end_503:
            webhooks.sweep()
            time.sleep(0.1)
        receiver.mode = "lose-answer-once"  # applies, then the answer is lost: sent again
        deadline = time.monotonic() + 60
        while WebhookDelivery.objects.filter(endpoint=endpoint, status="pending").exists():
            assert time.monotonic() < deadline, "deliveries still pending after a minute up"
            webhooks.sweep()
            time.sleep(0.1)
    finally:
        receiver.stop()
    rows = list(WebhookDelivery.objects.filter(endpoint=endpoint))
    keys = {str(r.idempotency_key) for r in rows}
    # 0 lost: every message written was delivered and applied
    assert {r.status for r in rows} == {"delivered"}
    assert set(receiver.applied) == keys
    # 0 applied twice, though every message arrived at least twice (its answer lost once)
    received = collections.Counter(receiver.received)
    assert all(received[k] >= 2 for k in keys)
    about = collections.Counter(
        (m["kind"], json.dumps(m["about"], sort_keys=True)) for m in receiver.applied.values()
    )
    assert max(about.values()) == 1  # no change told twice under two keys either
    assert receiver.bad_signatures == 0
    kinds = {m["kind"] for m in receiver.applied.values()}
    assert kinds == set(webhooks.KINDS)
    # the failures are on the rows: many attempts, the last one answered
    assert max(r.attempts for r in rows) >= 4
