"""The Redis cache backend (CACHE_URL): Django's, keeping one Redis client per pool."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.cache import caches

from ww5site.cache import RedisCache
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
