"""The helper that skips, or under CI fails, tests whose service is missing."""

import socket
from collections.abc import Iterator

import pytest

from tests.conftest import require_service


@pytest.fixture
def listening_address() -> Iterator[tuple[str, int]]:
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server.getsockname()[:2]


@pytest.fixture
def closed_address() -> tuple[str, int]:
    with socket.create_server(("127.0.0.1", 0)) as server:
        return server.getsockname()[:2]


def test_missing_service_skips_and_says_how_to_enable_it(
    closed_address: tuple[str, int],
) -> None:
    with pytest.raises(pytest.skip.Exception, match="start Kafka on 127.0.0.1"):
        require_service("Kafka", closed_address, "start Kafka on 127.0.0.1", environ={})


def test_unconfigured_service_skips() -> None:
    with pytest.raises(pytest.skip.Exception, match="not configured"):
        require_service("Kafka", None, "set KAFKA_URL", environ={"CI": "false"})


def test_missing_service_fails_under_ci(closed_address: tuple[str, int]) -> None:
    with pytest.raises(pytest.fail.Exception, match="start Kafka"):
        require_service("Kafka", closed_address, "start Kafka", environ={"CI": "true"})


def test_answering_service_lets_the_test_run(listening_address: tuple[str, int]) -> None:
    require_service("Kafka", listening_address, "start Kafka", environ={"CI": "true"})
