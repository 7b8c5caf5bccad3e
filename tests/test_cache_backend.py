"""The cache's Redis backend (config/cache.py) makes one Redis client per connection pool:
Django's made one per call, whose set-up cost as much as the call's round trip."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

from config.cache import RedisCache


def test_every_call_to_one_pool_gets_the_same_client():
    backend = RedisCache("redis://127.0.0.1:6379/0", {})  # (no connection is made here)
    assert isinstance(backend, DjangoRedisCache)  # (what the API's rate count looks for)
    inner = backend._cache
    assert inner.get_client(write=True) is inner.get_client(write=True)
    assert inner.get_client("key") is inner.get_client("other")


def test_two_servers_keep_their_own_clients():
    backend = RedisCache("redis://127.0.0.1:6379/0,redis://127.0.0.1:6379/1", {})
    inner = backend._cache
    writer, reader = inner.get_client(write=True), inner.get_client(write=False)
    assert writer.connection_pool is inner._get_connection_pool(True)
    assert reader.connection_pool is inner._get_connection_pool(False)
