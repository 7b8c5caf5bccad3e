"""The page cache's generation: a counter that every write to an event moves up, against
which each worker checks the event stamps it holds (tournaments/views/pagecache.py).

Reading it from Redis on every request cost a round trip per page, as much as the rest of
serving a cached page on a busy machine (docs/performance.md). So on Redis each worker
keeps the highest value it saw and a thread that listens for changes: each new value is
published, and each worker's listener takes it as it comes; meanwhile a worker answers
from memory. The listener is trusted only while it is subscribed: before it is (and after
any error, a Redis restart included), every read asks Redis. Values only grow, so the
highest seen is the newest whatever order messages and reads arrive in; a counter starts
from the clock (nanoseconds), so one made after a Redis restart never repeats a value a
worker still holds. The writing worker
takes its own new value at once, so its next request sees the change without waiting.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

KEY = "pagegen:n"  # a plain integer in Redis (INCR), not a pickle
RETRY_AFTER_FAILURE = 5.0


class _Listener:
    """One per worker process and Redis: the generations published, by cache key."""

    def __init__(self, location: str, options: dict[str, Any]):
        import redis

        self.pid = os.getpid()
        timeouts = {
            "socket_connect_timeout": options.get("socket_connect_timeout", 0.5),
            "socket_timeout": options.get("socket_timeout", 1),
        }
        self.client = redis.Redis.from_url(location, **timeouts)
        # The listener's own connection: it waits for messages, pinging an idle line so a
        # dead one is noticed within seconds (then reads go to Redis again).
        self.listening = redis.Redis.from_url(
            location, health_check_interval=5, socket_keepalive=True, **timeouts
        )
        self.values: dict[str, int] = {}
        self.epoch = 0  # moves at each (re)subscription; odd: subscribed
        self.failed = False
        self.lock = threading.Lock()
        threading.Thread(target=self._listen, name="pagecache-generation", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                # redis-py leaves pubsub() unannotated
                pubsub = self.listening.pubsub()  # type: ignore[no-untyped-call]
                pubsub.psubscribe("*" + KEY)
                while (pubsub.get_message(timeout=1.0) or {}).get("type") != "psubscribe":
                    pass  # confirmed: every later change reaches this thread
                with self.lock:
                    self.values.clear()  # what was read before may have missed a message
                    self.epoch += 1
                while True:
                    message = pubsub.get_message(timeout=1.0)
                    if message and message["type"] == "pmessage":
                        self._keep(message["channel"].decode(), int(message["data"]))
            except Exception as error:  # Redis gone: every read asks Redis until it is back
                with self.lock:
                    was_listening = self.epoch % 2
                    if was_listening:
                        self.epoch += 1
                    self.values.clear()
                if was_listening or not self.failed:  # once per outage, not every second
                    log.info("page cache listener: %s", error.__class__.__name__)
                self.failed = True
                time.sleep(1.0)

    def _keep(self, key: str, value: int, epoch: int | None = None) -> int:
        with self.lock:
            if epoch is not None and (epoch != self.epoch or not epoch % 2):
                return value  # read before the listener was subscribed: not kept
            value = max(value, self.values.get(key, value))
            self.values[key] = value
            return value

    def read(self, key: str) -> int:
        with self.lock:
            epoch = self.epoch
            if epoch % 2 and key in self.values:
                return self.values[key]
        value = self.client.get(key)
        if value is None or not value.isdigit():
            self.client.set(key, time.time_ns(), nx=value is None)
            value = self.client.get(key)
        assert value is not None  # set just above when missing
        return self._keep(key, int(value), epoch)

    def bump(self, key: str) -> None:
        self.client.set(key, time.time_ns(), nx=True)
        value = self.client.incr(key)
        with self.lock:
            epoch = self.epoch
        self._keep(key, value, epoch)
        self.client.publish(key, value)


_listeners: dict[str, _Listener] = {}
_down_until = 0.0


def _listener() -> _Listener | None:
    conf: dict[str, Any] = settings.CACHES["default"]
    if "Redis" not in conf["BACKEND"]:
        return None
    found = _listeners.get(conf["LOCATION"])
    if found is None or found.pid != os.getpid():  # a forked worker starts its own
        found = _listeners[conf["LOCATION"]] = _Listener(conf["LOCATION"], conf.get("OPTIONS", {}))
    return found


def generation(bump: bool = False) -> int | None:
    """The current generation (after moving it up, with ``bump``); None when the cache
    cannot answer."""
    global _down_until
    if time.monotonic() < _down_until:
        return None
    try:
        listener = _listener()
        if listener is None:  # local memory (tests, a site without Redis)
            cache.add(KEY, time.time_ns(), None)
            return cache.incr(KEY) if bump else cache.get(KEY)
        key = cache.make_key(KEY)
        if bump:
            listener.bump(key)
        return listener.read(key)
    except Exception as error:  # any failure of the cache: serve uncached
        _down_until = time.monotonic() + RETRY_AFTER_FAILURE
        log.warning("page cache unavailable (%s): serving uncached", error.__class__.__name__)
        return None
