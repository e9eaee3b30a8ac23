"""A move against a bot while the broker (Redis) is down: the move is committed and
answered as accepted, and once the broker is back the periodic bot sweep has the bot
play its turn, with no missed decision held against it.

The site runs under gunicorn with a Redis server of the test's own as its broker,
stopped before the move and started again afterwards, with a real Celery worker and beat.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.urls import reverse

from games import links, services
from games.models import Game, Move
from tests.conftest import require_program
from tests.games.factories import LoadedDice
from tests.integration.helpers import (
    CeleryProcesses,
    MailReader,
    RedisServer,
    WebServer,
    database_url,
    decision_form,
    gunicorn_server,
    subprocess_env,
    wait_until,
)
from tests.personas import persona

pytestmark = pytest.mark.django_db(transaction=True)

alice = persona("alice")


@pytest.fixture
def broker(postgres: Any, tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis server of this test's own, running."""
    program = require_program("redis-server", "apt-get install redis-server")
    server = RedisServer(program, tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def environment(broker: RedisServer) -> dict[str, str]:
    """The site's environment: the test database, the test's own broker."""
    return subprocess_env(
        DATABASE_URL=database_url(connection.settings_dict),
        REDIS_URL=broker.url,
        CACHE_URL="",
        DJANGO_DEBUG="1",
        DJANGO_SECRET_KEY=django_settings.SECRET_KEY,
        PERIODIC_JOBS_EVERY="1",
        BOT_STALLED_SECONDS="1",
    )


@pytest.fixture
def web(environment: dict[str, str], tmp_path: Path) -> Iterator[WebServer]:
    server = gunicorn_server(environment, tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def against_a_bot(alice: Any) -> Game:
    """alice (blue) against a greedy bot; alice places first."""
    dice = LoadedDice()
    dice.load(6, 1)
    real = services.use_dice(dice)
    try:
        game = services.create_game(alice, seats=2, home="north-america")
        services.add_bot(game.pk, alice, "greedy", "europe")
    finally:
        services.use_dice(real)
    game.refresh_from_db()
    assert game.to_move is not None and game.to_move.user == alice
    return game


def test_a_move_against_a_bot_is_kept_while_the_broker_is_down_and_the_bot_plays_later(
    against_a_bot: Game,
    broker: RedisServer,
    web: WebServer,
    environment: dict[str, str],
    tmp_path: Path,
) -> None:
    game = against_a_bot
    assert game.to_move is not None
    url = web.url + reverse("games:decide", args=[links.token_for(game, game.to_move)])
    reader = MailReader()
    form = decision_form(reader.get(url))
    broker.stop()

    done = reader.post(form.action, {**form.hidden, "action": "place small alaska"})

    assert done.status == 200, web.stderr()
    assert "Your decision was recorded" in done.text
    game.refresh_from_db()
    bot = game.seats.get(bot="greedy")
    assert Move.objects.filter(game=game).count() == 1
    assert game.to_move_id == bot.pk  # the bot's job could not be handed over

    broker.start()
    celery = CeleryProcesses(tmp_path, environment)
    try:
        celery.start_worker("worker1")
        celery.start_beat()
        wait_until(
            lambda: Move.objects.filter(game=game, seat=bot).exists(),
            30,
            lambda: f"the bot sweep to have the bot play:\n{celery.logs()}",
            every=0.2,
        )
    finally:
        celery.stop_all()
    move = Move.objects.get(game=game, seat=bot)
    bot.refresh_from_db()
    assert move.source == Move.Source.BOT
    assert bot.missed == 0
