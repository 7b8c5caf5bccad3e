"""The API's per-address limit counted in each worker and added to Redis in batches
(tournaments/api/ratecount.py): the tolerance docs/api.md states, across workers.

Several WorkerCount objects play several worker processes; the shared count is a dict
playing Redis (SET NX EX, INCRBY, TTL), with the clock passed in. The middleware's own
path to Redis is tested by tests/api/test_public_api.py's limit tests."""

from __future__ import annotations

import itertools

import pytest

from tournaments.api import ratecount
from tournaments.ratelimit import Rate


class SharedCount:
    """Redis's side: one counter per key with a window from its first request."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.counters: dict[str, tuple[int, float]] = {}  # key -> (count, window ends)
        self.round_trips = 0

    def add(self, key: str, adding: int, seconds: int) -> tuple[int, float]:
        self.round_trips += 1
        now = self.clock[0]
        count, ends = self.counters.get(key, (0, 0.0))
        if ends <= now:
            count, ends = 0, now + seconds
        count += adding
        self.counters[key] = (count, ends)
        return count, ends - now


def _run(rate: Rate, workers: int, requests: int, *, step: float = 0.001):
    clock = [1000.0]
    shared = SharedCount(clock)
    counts = [ratecount.WorkerCount() for _ in range(workers)]
    answered, first_refused = 0, None
    for n, count in zip(range(requests), itertools.cycle(counts), strict=False):
        clock[0] += step
        wait = count.hit("k", rate, shared.add, now=clock[0])
        if wait is None:
            answered += 1
        elif first_refused is None:
            first_refused = n + 1
    return answered, first_refused, shared


@pytest.mark.parametrize("workers", [1, 2, 3, 5])
def test_an_address_gets_at_most_the_limit_plus_workers_times_a_batch_less_one(workers):
    rate = Rate(600, 60)
    batch = ratecount.batch_for(rate)
    assert batch == 10  # a twentieth of 600, at most 10
    answered, first_refused, shared = _run(rate, workers, 2000)
    assert rate.count <= answered <= rate.count + workers * (batch - 1)
    # never refused before it made `limit` requests
    assert first_refused is not None and first_refused > rate.count
    # and far fewer round trips than requests while under the limit
    assert shared.round_trips < 2000 / 2


def test_a_small_limit_is_counted_exactly_with_a_round_trip_each():
    rate = Rate(30, 60)
    assert ratecount.batch_for(rate) == 1
    answered, first_refused, shared = _run(rate, 3, 100)
    assert answered == 30 and first_refused == 31
    # refused requests ask no more once a worker knows: 30 answers + a refusal per worker
    assert shared.round_trips == 33


def test_a_refusal_waits_for_the_shared_window_and_a_new_window_counts_afresh():
    rate = Rate(40, 60)  # batch 2
    clock = [0.0]
    shared = SharedCount(clock)
    count = ratecount.WorkerCount()
    waits = []
    for _ in range(60):
        clock[0] += 0.1
        waits.append(count.hit("k", rate, shared.add, now=clock[0]))
    refused = [w for w in waits if w is not None]
    assert waits[:40] == [None] * 40 and refused
    # the window began at the first request (0.1 s): at 6.0 s, 54.1 s are left
    assert refused[-1] == 55
    clock[0] = 60.2  # the window has ended
    assert count.hit("k", rate, shared.add, now=clock[0]) is None
    assert shared.counters["k"][0] == 1


def test_a_quiet_worker_adds_its_count_within_a_second():
    rate = Rate(600, 60)
    clock = [0.0]
    shared = SharedCount(clock)
    count = ratecount.WorkerCount()
    count.hit("k", rate, shared.add, now=0.0)  # new: asks at once
    count.hit("k", rate, shared.add, now=0.1)  # counted here
    count.hit("k", rate, shared.add, now=0.2)
    assert shared.counters["k"][0] == 1
    count.hit("k", rate, shared.add, now=1.5)  # a second since it asked: adds all three
    assert shared.counters["k"][0] == 4


def test_a_count_never_exceeds_the_requests_made_and_addresses_are_apart():
    rate = Rate(600, 60)
    clock = [0.0]
    shared = SharedCount(clock)
    count = ratecount.WorkerCount()
    for n in range(25):
        clock[0] += 0.01
        count.hit("a" if n % 5 else "b", rate, shared.add, now=clock[0])
    assert shared.counters["a"][0] <= 20 and shared.counters["b"][0] <= 5
    assert shared.counters["b"][0] >= 1


@pytest.mark.django_db
def test_a_failing_shared_count_lets_the_request_through_in_the_middleware(
    client, settings, monkeypatch
):
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    if not isinstance(caches["default"], RedisCache):
        pytest.skip("the batched count is used on Redis only (CI has Redis)")

    def down(*args):
        raise ConnectionError("Redis is down")

    from tournaments.api import middleware

    monkeypatch.setattr(middleware, "_add", down)
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "api": "1/m"}
    for _ in range(3):
        assert client.get("/api/v1/events/").status_code == 200


@pytest.mark.django_db
def test_through_the_middleware_a_batched_limit_holds_within_its_tolerance(client, settings):
    """100 a minute: batches of 5, one worker here, so 100 to 104 answers, then 429s with
    the window's time left; the shared counter in Redis holds what was added."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    if not isinstance(caches["default"], RedisCache):
        pytest.skip("the batched count is used on Redis only (CI has Redis)")
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "api": "100/m"}
    statuses = [client.get("/api/v1/events/").status_code for _ in range(110)]
    answered = statuses.count(200)
    assert 100 <= answered <= 104 and statuses[:100] == [200] * 100
    refused = client.get("/api/v1/events/")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
