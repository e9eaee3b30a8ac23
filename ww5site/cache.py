"""Django's Redis cache, with one Redis client per connection pool instead of one per
call: building a ``redis.Redis`` fills its table of some two hundred reply parsers,
and Django's own backend builds one for every cache read and write (each session read
on every request). The clients share the pools' connections, as before."""

from __future__ import annotations

import re
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._clients[index] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient

    def delete_prefixed(self, prefix: str) -> int:
        """Delete every key that starts with ``prefix`` (made into a cache key as
        ``delete`` would); how many there were. Found with SCAN, which never blocks the
        server the way KEYS would."""
        client = self._cache.get_client(write=True)
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.make_and_validate_key(prefix)) + "*"
        keys = list(client.scan_iter(match=pattern, count=500))
        deleted = 0
        for start in range(0, len(keys), 500):
            deleted += client.delete(*keys[start : start + 500])
        return deleted
