"""Django's Redis cache, made to survive its server going away, and with one Redis
client per connection pool instead of one per call.

A cache is an aid, never the truth: with its Redis unreachable (stopped, killed, a
network fault) every operation of Django's backend raised, and each page that touched
the cache was a 500 — every sign-in among them, since allauth's rate limits take a lock
in it. Here a failed operation is logged as a warning and answers as an empty cache
would: a read is a miss, a write or a delete does nothing, and ``add`` (allauth's lock)
is granted. After a failure the server is left alone for ``RETRY_AFTER_SECONDS``, so a
Redis that does not answer at all costs each page at most one connection timeout. The
rate limits kept in the cache count nothing meanwhile. ``failed_here`` records that the
cache failed in this process: the sessions (``ww5site.sessions``) then delete the
entries it may hold from before once it answers again.

A ``redis.Redis`` fills a table of some two hundred reply parsers when built, and
Django's own backend builds one for every cache read and write (each session read on
every request): the clients here are built once per pool and share its connections.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

logger = logging.getLogger(__name__)
T = TypeVar("T")

# What a server gone away raises (a refused or cut connection, a timeout).
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
RETRY_AFTER_SECONDS = 2.0

# Set once the cache failed in this process; the sessions take it down once they have
# deleted what the cache may hold from before.
failed_here = threading.Event()
# Per server: until when (time.monotonic()) it is left alone after a failure. Shared by
# the threads' cache instances.
_resting: dict[str, float] = {}


class ReusingRedisCacheClient(RedisCacheClient):
    def __init__(self, servers: Any, **options: Any) -> None:
        # redis-py's own default retries a refused connection three times with growing
        # pauses, over four seconds: once at once (a pooled connection the server
        # closed), then the cache is taken as down. Short timeouts for a server that
        # does not answer at all. (The cache's OPTIONS may say otherwise.)
        options.setdefault("retry", Retry(NoBackoff(), 1))
        options.setdefault("socket_connect_timeout", 1)
        options.setdefault("socket_timeout", 2)
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}
        self._where = ",".join(servers)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._clients[index] = self._client(connection_pool=pool)
        return client

    def answered(self) -> None:
        """The server answered an operation that does not fall back: no more rest."""
        _resting.pop(self._where, None)

    def _or(self, what: str, fallback: Callable[[], T], operation: Callable[[], T]) -> T:
        """``operation()``; ``fallback()`` instead while the server rests or if it fails."""
        if time.monotonic() < _resting.get(self._where, 0.0):
            return fallback()
        try:
            return operation()
        except UNREACHABLE as error:
            _resting[self._where] = time.monotonic() + RETRY_AFTER_SECONDS
            failed_here.set()
            logger.warning(
                "the cache failed %s, going on without it: %s: %s",
                what,
                type(error).__name__,
                error,
            )
            return fallback()

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        # A lock taken with add (allauth's rate limits) is granted.
        return self._or(
            "adding a key", lambda: True, lambda: RedisCacheClient.add(self, key, value, timeout)
        )

    def get(self, key: Any, default: Any) -> Any:
        return self._or(
            "reading a key", lambda: default, lambda: RedisCacheClient.get(self, key, default)
        )

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        self._or(
            "writing a key", lambda: None, lambda: RedisCacheClient.set(self, key, value, timeout)
        )

    def touch(self, key: Any, timeout: Any) -> bool:
        return self._or(
            "touching a key", lambda: False, lambda: RedisCacheClient.touch(self, key, timeout)
        )

    def delete(self, key: Any) -> bool:
        return self._or("deleting a key", lambda: False, lambda: RedisCacheClient.delete(self, key))

    def get_many(self, keys: Any) -> dict[Any, Any]:
        return self._or("reading keys", dict, lambda: RedisCacheClient.get_many(self, keys))

    def has_key(self, key: Any) -> bool:
        return self._or(
            "looking a key up", lambda: False, lambda: RedisCacheClient.has_key(self, key)
        )

    def incr(self, key: Any, delta: int) -> Any:
        def missing() -> Any:
            raise ValueError(f"Key {key!r} not found.")  # as Django says of a missing key

        return self._or("counting", missing, lambda: RedisCacheClient.incr(self, key, delta))

    def set_many(self, data: Any, timeout: Any) -> list[Any]:
        return self._or(
            "writing keys", list, lambda: RedisCacheClient.set_many(self, data, timeout)
        )

    def delete_many(self, keys: Any) -> None:
        self._or("deleting keys", lambda: None, lambda: RedisCacheClient.delete_many(self, keys))

    def clear(self) -> bool:
        return self._or("clearing", lambda: False, lambda: RedisCacheClient.clear(self))


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient

    def delete_prefixed(self, prefix: str) -> int:
        """Delete every key that starts with ``prefix`` (made into a cache key as
        ``delete`` would); how many there were. Found with SCAN, which never blocks the
        server the way KEYS would. Unlike the other operations it raises when the
        server cannot be reached: its caller must know whether the keys are gone."""
        client = self._cache.get_client(write=True)
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.make_and_validate_key(prefix)) + "*"
        keys = list(client.scan_iter(match=pattern, count=500))
        deleted = 0
        for start in range(0, len(keys), 500):
            deleted += client.delete(*keys[start : start + 500])
        self._cache.answered()
        return deleted
