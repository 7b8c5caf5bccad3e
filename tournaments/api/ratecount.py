"""The API's per-address count, kept in each worker and added to Redis in small batches.

Every API answer, a cached one too, is counted against its client address (scope "api",
tournaments/ratelimit.py). An exact shared count costs a Redis round trip per request,
which was as much as the rest of serving a cached answer (docs/performance.md, "The API
beside the pages"). So each worker process counts here and adds its count to the shared
counter (one round trip: SET NX EX, INCRBY, TTL, in MULTI) when

- the address is new to this worker, or its window has ended (the first request of a
  window always asks Redis, so the window is the shared one, from the first request);
- the worker has counted ``batch`` requests since it last asked;
- a second has passed since it last asked (SYNC_SECONDS);
- or its own figures say the next request would pass the limit.

Once Redis says an address is over the limit, the worker refuses it until the window
ends without asking again (the Retry-After is the window's time to live).

The tolerance, stated in docs/api.md and tested in tests/api/test_rate_count.py: the
batch is a twentieth of the limit, at most 10, so a limit under 40 a window is counted
exactly (every request asks Redis, as before). Above that, each worker may let through at
most ``batch - 1`` requests that Redis has not been told of yet: with W workers, an
address gets at most ``limit + W * (batch - 1)`` answers in a window (600 a minute on 3
workers: at most 627), and is never refused before it has made ``limit`` requests. A
worker that stops counting an address (it went quiet) loses its last few uncounted
requests: a count is never higher than the requests made.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from tournaments.ratelimit import Rate

SYNC_SECONDS = 1.0  # the longest a worker counts alone
BATCH_MAX = 10
BATCH_SHARE = 20  # a batch is at most this share (1/20) of the limit
KEPT = 10_000  # addresses a worker remembers; past that, ended windows are forgotten

# (counter key, how many to add, the window in seconds) -> (the shared count, seconds left)
Add = Callable[[str, int, int], tuple[int, float]]


def batch_for(rate: Rate) -> int:
    return max(1, min(BATCH_MAX, rate.count // BATCH_SHARE))


@dataclass
class _Window:
    ends: float  # monotonic time the shared window ends
    total: int  # the shared count when this worker last asked (its own requests included)
    pending: int  # requests counted here since, not yet added
    asked: float  # monotonic time this worker last asked


class WorkerCount:
    """One per worker process (``counts`` below); tests make several to play workers."""

    def __init__(self) -> None:
        self.windows: dict[str, _Window] = {}
        self.lock = threading.Lock()

    def hit(self, counter: str, rate: Rate, add: Add, *, now: float | None = None) -> int | None:
        """Count one request under ``counter``: None to answer it, else the seconds to wait.
        ``add`` adds to the shared count and says the total and the window's time left
        (it may raise: the caller lets the request through, ratelimit.py's rule)."""
        now = time.monotonic() if now is None else now
        batch = batch_for(rate)
        with self.lock:
            window = self.windows.get(counter)
            if window is not None and now < window.ends:
                if window.total > rate.count:  # Redis said so: refused until the window ends
                    return max(1, math.ceil(window.ends - now))
                alone = (
                    window.pending + 1 < batch
                    and now - window.asked < SYNC_SECONDS
                    and window.total + window.pending + 1 <= rate.count
                )
                if alone:
                    window.pending += 1
                    return None
                adding = window.pending + 1
                window.pending = 0  # taken: a request meanwhile starts a new batch
            else:
                adding = 1  # a new window: only this request (an ended one's are dropped)
                if window is not None:
                    del self.windows[counter]
        total, left = add(counter, adding, rate.seconds)
        left = left if left > 0 else rate.seconds
        with self.lock:
            window = self.windows.get(counter)
            pending = window.pending if window is not None else 0
            self.windows[counter] = _Window(now + left, total, pending, now)
            if len(self.windows) > KEPT:
                self._forget(now)
        if total <= rate.count:
            return None
        return max(1, math.ceil(left))

    def _forget(self, now: float) -> None:
        for key in [k for k, w in self.windows.items() if w.ends <= now]:
            del self.windows[key]
        if len(self.windows) > KEPT:  # all live: start afresh (only uncounted requests go)
            self.windows.clear()

    def clear(self) -> None:
        with self.lock:
            self.windows.clear()


counts = WorkerCount()
