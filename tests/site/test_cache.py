"""The Redis cache backend (CACHE_URL): Django's, keeping one Redis client per pool, and
answering as an empty cache while its server cannot be reached."""

from __future__ import annotations

import logging
import pickle
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core.cache import caches

import ww5site.cache
from tests.conftest import require_program
from tests.integration.helpers import RedisServer, free_port
from ww5site.cache import RedisCache, failed_here
from ww5site.sessions import SessionStore


@pytest.fixture
def redis_cache(redis_url: str) -> RedisCache:
    # A key prefix of the test's own: the Redis database may be shared.
    return RedisCache(redis_url, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}", "TIMEOUT": 60})


def test_values_go_in_and_out(redis_cache: RedisCache) -> None:
    assert redis_cache.get("missing") is None
    redis_cache.set("answer", {"turn": 42})
    assert redis_cache.get("answer") == {"turn": 42}
    assert redis_cache.add("answer", "other") is False
    redis_cache.delete("answer")
    assert redis_cache.get("answer") is None


def test_keys_with_a_prefix_are_deleted_alone(redis_cache: RedisCache) -> None:
    for key in ("session:a", "session:b", "sessions", "other:session:c"):
        redis_cache.set(key, 1)

    assert redis_cache.delete_prefixed("session:") == 2

    assert redis_cache.get_many(["session:a", "session:b", "sessions", "other:session:c"]) == {
        "sessions": 1,
        "other:session:c": 1,
    }


def test_one_client_serves_every_call(redis_cache: RedisCache) -> None:
    client = redis_cache._cache.get_client()
    redis_cache.set("key", 1)
    redis_cache.get("key")

    assert redis_cache._cache.get_client() is client
    assert redis_cache._cache.get_client(write=True) is client  # one server: one pool
    assert client.connection_pool is redis_cache._cache._get_connection_pool(False)


@pytest.mark.django_db
def test_sessions_are_read_from_it(redis_url: str, settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "ww5site.cache.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        }
    }
    settings.SESSION_ENGINE = "ww5site.sessions"
    store = SessionStore()
    store["player"] = "alice"
    store.save()

    assert isinstance(caches["default"], RedisCache)
    assert caches["default"].get(store.cache_key) == {"player": "alice"}
    assert SessionStore(store.session_key)["player"] == "alice"


@pytest.fixture
def unreachable_cache() -> Iterator[RedisCache]:
    """The cache of a Redis that does not run: nothing listens on its port."""
    cache = RedisCache(f"redis://127.0.0.1:{free_port()}/0", {"KEY_PREFIX": "test"})
    failed_here.clear()
    yield cache
    failed_here.clear()


def test_without_its_server_the_cache_answers_as_an_empty_one(
    unreachable_cache: RedisCache, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="ww5site.cache"):
        assert unreachable_cache.get("key", "default") == "default"
        unreachable_cache.set("key", 1)
        assert unreachable_cache.add("lock", True) is True  # a lock is granted
        assert unreachable_cache.get_many(["key", "other"]) == {}
        assert "key" not in unreachable_cache
        assert unreachable_cache.delete("key") is False
        unreachable_cache.set_many({"a": 1})
        unreachable_cache.delete_many(["a"])
        assert unreachable_cache.touch("key") is False
        with pytest.raises(ValueError):
            unreachable_cache.incr("counter")

    assert failed_here.is_set()
    assert "the cache failed reading a key, going on without it" in caplog.text


def test_without_its_server_deleting_by_prefix_raises(unreachable_cache: RedisCache) -> None:
    # The sessions must know whether the entries are gone.
    with pytest.raises(redis.ConnectionError):
        unreachable_cache.delete_prefixed("session:")


def test_a_cache_that_fails_is_left_alone_for_a_moment_then_tried_again(
    tmp_path: Path,
) -> None:
    server = RedisServer(require_program("redis-server", "apt-get install redis-server"), tmp_path)
    cache = RedisCache(server.url, {"KEY_PREFIX": "test"})
    assert cache.get("key") is None  # fails: not started
    server.start()
    try:
        server.client().set("test:1:key", pickle.dumps("value"))
        assert cache.get("key") is None  # left alone: not asked
        time.sleep(ww5site.cache.RETRY_AFTER_SECONDS)
        assert cache.get("key") == "value"
    finally:
        server.stop()
        failed_here.clear()
