"""Sessions when the cache's Redis stops: signed-in players stay signed in, and a
signed-out session does not come back with the cache.

A private redis-server is the cache (as with CACHE_URL); the test stops it and starts
it again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from tests.conftest import require_program
from tests.integration.helpers import RedisServer
from tests.personas import persona
from ww5site import sessions

pytestmark = pytest.mark.django_db

alice = persona("alice")
bob = persona("bob")

SIGNED_IN_PAGE = "/accounts/profile/"  # anyone else is sent to the sign-in page


@pytest.fixture
def cache_server(tmp_path: Path, settings: Any) -> Iterator[RedisServer]:
    """A Redis of the test's own as the cache, sessions read from it."""
    program = require_program("redis-server", "apt-get install redis-server")
    server = RedisServer(program, tmp_path)
    server.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "ww5site.cache.RedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": "ww5",
        }
    }
    settings.SESSION_ENGINE = "ww5site.sessions"
    sessions.cache_failed_here.clear()
    yield server
    server.stop()
    sessions.cache_failed_here.clear()


def signed_in(user: AbstractBaseUser) -> Client:
    client = Client()
    client.force_login(user)
    return client


def assert_signed_in_as(client: Client, user: AbstractBaseUser) -> None:
    response = client.get(SIGNED_IN_PAGE)
    assert response.status_code == 200
    assert response.wsgi_request.user == user


def session_entries(server: RedisServer) -> list[bytes]:
    return list(server.client().scan_iter(match="ww5:*django.contrib.sessions.cached_db*"))


def test_signed_in_pages_answer_while_the_cache_is_down_and_after(
    cache_server: RedisServer,
    alice: AbstractBaseUser,
    bob: AbstractBaseUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    alices_browser = signed_in(alice)
    assert_signed_in_as(alices_browser, alice)
    assert len(session_entries(cache_server)) == 1

    cache_server.stop()
    with caplog.at_level(logging.WARNING, logger="ww5site.sessions"):
        assert_signed_in_as(alices_browser, alice)
        assert_signed_in_as(alices_browser, alice)
        bobs_browser = signed_in(bob)  # a new session: its key is looked up, then saved
        assert_signed_in_as(bobs_browser, bob)
    assert any("the database answers" in record.message for record in caplog.records)

    cache_server.start()
    assert_signed_in_as(alices_browser, alice)
    assert_signed_in_as(bobs_browser, bob)
    assert_signed_in_as(alices_browser, alice)
    assert len(session_entries(cache_server)) == 2  # cached again


def test_a_session_signed_out_while_the_cache_was_down_stays_signed_out(
    cache_server: RedisServer, alice: AbstractBaseUser
) -> None:
    browser = signed_in(alice)
    assert_signed_in_as(browser, alice)
    cookie = browser.cookies["sessionid"].value

    cache_server.stop(save=True)  # it will come back with alice's session entry
    assert browser.post("/accounts/logout/").status_code == 302
    cache_server.start()
    assert len(session_entries(cache_server)) == 1

    stolen = Client()
    stolen.cookies["sessionid"] = cookie
    response = stolen.get(SIGNED_IN_PAGE)
    assert response.status_code == 302
    assert not response.wsgi_request.user.is_authenticated
    assert session_entries(cache_server) == []
