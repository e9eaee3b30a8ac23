"""The site with its cache's Redis down: every page still answers, none with a 500.

gunicorn with production settings and CACHE_URL pointing at a private redis-server:
one that was never started (nothing listens on its port), and one killed in the middle
of a run. Signing up, signing in on the site and in the admin, a wrong password, a page
view and a move all answer as with the cache up: the cache's users (allauth's rate
limits and their locks, the sessions, anything else) take a failed cache operation for
a miss, a no-op or a lock granted, and say so in a warning.
"""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection

from games.models import Game, Move
from tests.conftest import require_program
from tests.games.factories import LoadedDice, dice, seated_game
from tests.integration.helpers import (
    RedisServer,
    SmtpSink,
    WebServer,
    database_url,
    gunicorn_server,
    manage,
)
from tests.integration.test_production_server import production_env
from ww5.engine import legal_actions, load_position

__all__ = ["dice"]

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Browser:
    """A visitor over plain HTTP who keeps every cookie, the production ones marked
    Secure included (there is no TLS in front of gunicorn here)."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict[str, str] | None = None) -> Any:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            fields = {**fields, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            response.text = response.read().decode(errors="replace")
        finally:
            conn.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        assert response.status < 500, f"{method} {path}: {response.status}\n{self.errors()}"
        return response

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def post(self, path: str, fields: dict[str, str]) -> Any:
        if "csrftoken" not in self.cookies:
            self.get("/accounts/login/")  # its form sets the CSRF cookie
        return self.request("POST", path, fields)

    def errors(self) -> str:
        return self.server.stderr()


@pytest.fixture
def cache_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A private redis-server, not started: nothing listens on its port yet."""
    server = RedisServer(require_program("redis-server", "apt-get install redis-server"), tmp_path)
    yield server
    server.stop()


@pytest.fixture
def site(
    postgres: Any, sink: SmtpSink, cache_redis: RedisServer, tmp_path: Path
) -> Iterator[WebServer]:
    """gunicorn, production settings (after collectstatic), its cache at the private
    Redis."""
    env = production_env(
        DATABASE_URL=database_url(connection.settings_dict),
        CACHE_URL=cache_redis.url,
        EMAIL_PORT=str(sink.port),
        EMAIL_USE_TLS="0",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
    )
    manage("collectstatic", "--noinput", env=env)  # the pages link the hashed files
    server = gunicorn_server(env, tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def players(django_user_model: Any) -> dict[str, AbstractBaseUser]:
    made = {}
    for name, staff in (("alice", False), ("bob", False), ("olga", True)):
        user = django_user_model.objects.create_user(
            name, f"{name}@example.com", PASSWORD, is_staff=staff, is_superuser=staff
        )
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        made[name] = user
    return made


@pytest.fixture
def game(dice: LoadedDice, players: dict[str, AbstractBaseUser]) -> Game:
    return seated_game(dice, [players["alice"], players["bob"]])  # alice moves first


def sign_up(site: WebServer, username: str) -> None:
    browser = Browser(site)
    response = browser.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status == 302, response.text
    assert "/accounts/confirm-email/" in response.headers["Location"]


def sign_in(site: WebServer, login: str, password: str = PASSWORD) -> tuple[Browser, Any]:
    browser = Browser(site)
    return browser, browser.post("/accounts/login/", {"login": login, "password": password})


def admin_sign_in(site: WebServer, username: str) -> Browser:
    browser = Browser(site)
    response = browser.post(
        "/admin/login/?next=/admin/", {"username": username, "password": PASSWORD}
    )
    assert response.status == 302 and response.headers["Location"] == "/admin/"
    assert "Site administration" in browser.get("/admin/").text
    return browser


def play_a_move(browser: Browser, game: Game) -> None:
    game.refresh_from_db()
    action = legal_actions(load_position(game.position))[0]
    moves = Move.objects.count()
    response = browser.post(
        f"/games/{game.pk}/move/", {"action": action, "turn": str(game.turn_number)}
    )
    assert response.status == 302, response.text
    assert Move.objects.count() == moves + 1


def everything_answers(site: WebServer, newcomer: str) -> Browser:
    """Sign-up, a wrong password, sign-in in the admin and on the site, a page; the
    browser signed in as alice."""
    sign_up(site, newcomer)
    _, wrong = sign_in(site, "alice", "not the password at all")
    assert wrong.status == 200 and "not correct" in wrong.text
    admin_sign_in(site, "olga")
    alice, response = sign_in(site, "alice")
    assert response.status == 302, response.text
    lobby = alice.get("/games/")
    assert lobby.status == 200 and "alice" in lobby.text
    return alice


def test_a_cache_that_never_started_costs_no_page(site: WebServer, game: Game) -> None:
    alice = everything_answers(site, "carol")
    play_a_move(alice, game)

    assert "the cache failed" in site.stderr()


def test_a_cache_killed_mid_run_costs_no_page(
    site: WebServer, cache_redis: RedisServer, game: Game
) -> None:
    cache_redis.start()
    alice, response = sign_in(site, "alice")
    assert response.status == 302
    assert alice.get("/games/").status == 200
    assert cache_redis.client().dbsize() > 0  # the cache was in use

    cache_redis.kill()
    play_a_move(alice, game)  # still signed in
    everything_answers(site, "carol")

    assert "the cache failed" in site.stderr()
