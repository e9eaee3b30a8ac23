"""Real races on PostgreSQL: the games' periodic jobs run by two beats at once (or one
job run twice in a row) remind, tell the digest, restart the bots and apply a missed
decision's policy exactly once."""

from __future__ import annotations

import threading
from datetime import timedelta
from functools import partial
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from accounts.models import Profile
from accounts.services import update_profile
from games import digests, notify, services
from games.models import Game, Move
from mail.models import OutgoingMail
from tests.games.factories import LoadedDice, seated_game
from tests.personas import make_user
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)

User = AbstractBaseUser
SECOND = timedelta(seconds=1)
GAMES = 12


@pytest.fixture
def players(postgres: BaseDatabaseWrapper, django_user_model: type[User]) -> list[User]:
    return [make_user(django_user_model, f"racer{n}") for n in range(2 * GAMES)]


@pytest.fixture
def duels(dice: LoadedDice, players: list[User]) -> list[Game]:
    """Twelve duels, each waiting for its first player's first placement."""
    return [seated_game(dice, players[2 * n : 2 * n + 2]) for n in range(GAMES)]


def test_two_reminder_sweeps_at_once_remind_each_player_once(duels: list[Game]) -> None:
    now = max(game.remind_at for game in duels if game.remind_at) + SECOND

    outcomes = race([partial(services.sweep_reminders, now) for _ in range(2)])

    assert [o.error for o in outcomes] == [None, None]
    first, second = (set(o.value) for o in outcomes)
    assert not first & second and first | second == {game.pk for game in duels}
    reminded = OutgoingMail.objects.filter(kind="reminder").values_list("to_user", flat=True)
    assert sorted(reminded) == sorted(game.to_move.user_id for game in duels)
    assert services.sweep_reminders(now + SECOND) == []  # and again: nothing


def lockable_at_once(game_id: int) -> bool:
    """Whether another connection locks the game's row at once (NOWAIT), or finds it
    held by a transaction still open."""
    answer: list[bool] = []

    def lock() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update(nowait=True).filter(pk=game_id).exists()
            answer.append(True)
        except DatabaseError as error:
            assert isinstance(error.__cause__, psycopg.errors.LockNotAvailable), error
            answer.append(False)
        finally:
            connection.close()

    other = threading.Thread(target=lock)  # a thread of its own: a connection of its own
    other.start()
    other.join(timeout=30)
    assert answer, "the other connection never answered"
    return answer[0]


def test_a_reminded_game_is_not_locked_while_the_next_reminder_is_rendered(
    duels: list[Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game's reminder commits on its own: while the sweep renders a reminder, the
    game reminded just before it is free (a move in it need not wait), and only the game
    whose reminder is being rendered is held."""
    now = max(game.remind_at for game in duels if game.remind_at) + SECOND
    rendered: list[int] = []
    seen: list[tuple[bool, bool]] = []  # (the previous game free, this one free)
    queue_reminder_mail = notify.queue_reminder_mail

    def rendering(game: Game, *args: Any) -> None:
        if rendered:
            seen.append((lockable_at_once(rendered[-1]), lockable_at_once(game.pk)))
        rendered.append(game.pk)
        queue_reminder_mail(game, *args)

    monkeypatch.setattr(notify, "queue_reminder_mail", rendering)

    reminded = services.sweep_reminders(now)

    assert reminded == rendered and sorted(reminded) == sorted(game.pk for game in duels)
    assert seen == [(True, False)] * (GAMES - 1)
    assert OutgoingMail.objects.filter(kind="reminder").count() == GAMES


def test_two_digest_sweeps_at_once_send_each_digest_once(
    dice: LoadedDice, players: list[User]
) -> None:
    for user in players:
        update_profile(user, "", "UTC", "digest")
    for n in range(GAMES):  # each player has a game to be told of: it started
        seated_game(dice, players[2 * n : 2 * n + 2])
    now = max(Profile.objects.values_list("digest_due_at", flat=True)) + SECOND

    outcomes = race([partial(digests.sweep_digests, now) for _ in range(2)])

    assert [o.error for o in outcomes] == [None, None]
    first, second = (set(o.value) for o in outcomes)
    assert not first & second and first | second == {user.pk for user in players}
    told = OutgoingMail.objects.filter(kind="digest").values_list("to_user", flat=True)
    assert sorted(told) == sorted(user.pk for user in players)
    assert digests.sweep_digests(now + SECOND) == []


def test_two_missed_decision_tasks_at_once_grant_one_grace(duels: list[Game]) -> None:
    """The task of a claim and a redelivered one, say, for the same missed decision."""
    game = duels[0]
    assert game.deadline is not None
    now = game.deadline + SECOND

    outcomes = race([partial(services.handle_missed_decision, game.pk, now) for _ in range(3)])

    assert [o.error for o in outcomes] == [None] * 3
    assert sorted(o.value for o in outcomes) == ["grace", "nothing due", "nothing due"]
    game.refresh_from_db()
    assert game.grace_used and game.deadline > now
    assert OutgoingMail.objects.filter(kind="missed").count() == 1

    later = game.deadline + SECOND
    outcomes = race([partial(services.handle_missed_decision, game.pk, later) for _ in range(3)])

    assert sorted(o.value for o in outcomes) == ["nothing due", "nothing due", "timeout move"]
    assert game.moves.filter(source=Move.Source.TIMEOUT).count() == 1
    assert game.seats.get(number=1).missed == 0  # a setup placement is never counted


def test_two_bot_sweeps_at_once_play_each_bot_decision_once(
    postgres: BaseDatabaseWrapper, players: list[User]
) -> None:
    """Games of bots only whose jobs were lost: both sweeps restart them (in-process
    here, so each runs their bots at once), and every decision is made once."""
    games = []
    for user in players[:4]:
        game = services.create_game(user, seats=3, home="north-america")
        services.add_bot(game.pk, user, "random", "europe")
        services.add_bot(game.pk, user, "greedy", "asia")
        game.seats.filter(user=user).update(user=None, bot="random")
        games.append(game)
    later = timezone.now() + timedelta(minutes=5)

    outcomes = race([partial(services.sweep_bots, later) for _ in range(2)])

    assert [o.error for o in outcomes] == [None, None]
    for game in games:
        numbers = list(game.moves.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 2
        game.refresh_from_db()
        assert services.rebuild_position(game)  # the log replays to the stored position
