"""Django's Redis cache, with one Redis client per connection pool.

Django's client makes a new ``redis.Redis`` for every call, and its set-up (its table of
reply callbacks) cost as much as the call's round trip: about a tenth of an entrant page's
build after a round's release, which makes three calls (docs/performance.md). The pool is
shared and thread-safe, and a client holds no state of its own between commands, so one
client per pool does what a new one per call did.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class _Client(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            # (a pool is kept for the client's life: its id is never reused meanwhile)
            make = self._client  # type: ignore[attr-defined]
            client = self._clients[id(pool)] = make(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _Client
