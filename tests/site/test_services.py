"""Integration tests against the real PostgreSQL and Redis (see tests/conftest.py)."""

import redis
from django.db.backends.base.base import BaseDatabaseWrapper


def test_database_is_postgresql_and_answers_a_query(postgres: BaseDatabaseWrapper) -> None:
    assert postgres.vendor == "postgresql"
    with postgres.cursor() as cursor:
        cursor.execute("SELECT 1 + 1")
        assert cursor.fetchone() == (2,)


def test_redis_answers_ping(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    try:
        assert client.ping() is True
    finally:
        client.close()
