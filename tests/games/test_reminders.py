"""Reminders before a deadline: once per deadline, re-armed when the deadline moves."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.utils import timezone

from games import notify, services
from games.models import Game
from games.services import deadlines
from mail.models import OutgoingMail
from tests.games.factories import LoadedDice, mails_of, seated_game

pytestmark = pytest.mark.django_db

User = AbstractBaseUser
SECOND = timedelta(seconds=1)


def with_email(user: User) -> User:
    user.email = f"{user.get_username()}@example.com"
    user.save(update_fields=["email"])
    return user


@pytest.fixture
def game(dice: LoadedDice, alice: User, bob: User) -> Game:
    """Alice's first setup placement is due; two days per decision."""
    return seated_game(dice, [with_email(alice), with_email(bob)])


def reminders(game: Game) -> list[OutgoingMail]:
    return list(mails_of(game).filter(kind="reminder").order_by("id"))


def test_the_reminder_is_armed_when_a_fifth_of_the_time_is_left(game: Game) -> None:
    assert game.deadline is not None and game.remind_at is not None
    assert game.deadline - game.remind_at == game.decision_time * 0.2


def test_a_reminder_goes_once_when_it_is_due(game: Game, alice: User) -> None:
    assert game.remind_at is not None
    assert services.sweep_reminders(game.remind_at - SECOND) == []

    assert services.sweep_reminders(game.remind_at) == [game.pk]
    assert services.sweep_reminders(game.remind_at + SECOND) == []

    (mail,) = reminders(game)
    assert mail.to_user == alice and "due soon" in mail.subject
    link = mail.body_text.split("http://localhost:8000", 1)[1].split()[0]
    assert Client().get(link).status_code == 200


def test_extending_the_deadline_arms_a_new_reminder(game: Game, alice: User, olga: User) -> None:
    assert game.remind_at is not None
    services.sweep_reminders(game.remind_at)
    services.extend_deadline(game.pk, olga, timedelta(hours=6))
    game.refresh_from_db()

    assert game.remind_at is not None and game.deadline is not None
    assert game.deadline - game.remind_at == game.decision_time * 0.2
    services.sweep_reminders(game.remind_at)
    assert len(reminders(game)) == 2


def test_the_grace_extension_arms_a_new_reminder(game: Game) -> None:
    assert game.deadline is not None and game.remind_at is not None
    services.sweep_reminders(game.remind_at)
    now = game.deadline + SECOND

    assert services.handle_missed_decision(game.pk, now) == "grace"
    game.refresh_from_db()
    assert game.remind_at == now + game.decision_time * 0.8


def test_a_new_decision_arms_its_own_reminder_and_no_old_one_is_sent(
    game: Game, alice: User, bob: User
) -> None:
    from tests.games.factories import play

    play(game, "place small alaska")
    game.refresh_from_db()
    assert game.to_move is not None and game.to_move.user == bob
    assert game.remind_at is not None

    services.sweep_reminders(game.remind_at)
    assert [m.to_user for m in reminders(game)] == [bob]


def test_a_paused_game_is_not_reminded(game: Game, alice: User) -> None:
    assert game.remind_at is not None
    services.pause_game(game.pk, alice)

    assert services.sweep_reminders(game.remind_at + SECOND) == []
    assert reminders(game) == []


def test_reminders_can_be_turned_off(
    settings: Any, dice: LoadedDice, alice: User, bob: User
) -> None:
    settings.REMINDER_LEFT = 0
    game = seated_game(dice, [with_email(alice), with_email(bob)])

    assert game.remind_at is None


def test_a_bots_decision_gets_no_reminder(dice: LoadedDice, alice: User) -> None:
    game = services.create_game(with_email(alice), seats=2, home="north-america")
    dice.load(1, 6)
    services.add_bot(game.pk, alice, "greedy", home="europe")
    Game.objects.filter(pk=game.pk).update(to_move=game.seats.get(bot="greedy"))
    game.refresh_from_db()
    assert game.remind_at is not None

    assert services.sweep_reminders(game.remind_at) == [game.pk]
    assert reminders(game) == []


def test_a_sweep_that_dies_midway_leaves_the_games_it_had_not_reminded_due(
    game: Game, dice: LoadedDice, carol: User, dave: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game's reminder is a transaction of its own: what the sweep did before it
    died stays done, the game it was reminding keeps its reminder, the next sweep sends it."""
    other = seated_game(dice, [with_email(carol), with_email(dave)])
    assert game.remind_at is not None and other.remind_at is not None
    now = max(game.remind_at, other.remind_at)
    queue_reminder_mail = notify.queue_reminder_mail
    calls: list[int] = []

    def dies_at_the_second(due: Game, *args: Any) -> None:
        calls.append(due.pk)
        if len(calls) == 2:
            raise SystemExit("the worker is stopped")
        queue_reminder_mail(due, *args)

    monkeypatch.setattr(notify, "queue_reminder_mail", dies_at_the_second)
    with pytest.raises(SystemExit):
        services.sweep_reminders(now)
    first, second = (Game.objects.get(pk=pk) for pk in calls)

    assert first.remind_at is None and len(reminders(first)) == 1
    assert second.remind_at is not None and reminders(second) == []
    monkeypatch.setattr(notify, "queue_reminder_mail", queue_reminder_mail)
    assert services.sweep_reminders(now) == [second.pk]
    assert len(reminders(second)) == 1 and len(reminders(first)) == 1


@pytest.mark.parametrize("change", ["paused", "moved on", "deadline passed"])
def test_a_game_no_longer_due_when_the_sweep_locks_it_is_not_reminded(
    game: Game, alice: User, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """Between the sweep's read of the due games and its lock of one, a move or an
    organiser may change it: the locked row is asked again."""
    assert game.remind_at is not None and game.deadline is not None
    now = game.remind_at + SECOND
    lock = deadlines.lock_game_unless_held

    def changed_first(game_id: int) -> Game | None:
        if change == "paused":
            services.pause_game(game_id, alice)
        elif change == "moved on":
            Game.objects.filter(pk=game_id).update(remind_at=None)
        else:
            Game.objects.filter(pk=game_id).update(deadline=now - SECOND)
        return lock(game_id)

    monkeypatch.setattr(deadlines, "lock_game_unless_held", changed_first)

    assert services.sweep_reminders(now) == []
    assert reminders(game) == []


@pytest.mark.parametrize("status", [Game.Status.SETUP, Game.Status.PLAY, Game.Status.OVER])
@pytest.mark.parametrize("paused", [False, True])
@pytest.mark.parametrize("remind", [None, -1, 0, 1])
@pytest.mark.parametrize("deadline", [None, -1, 0, 1])
def test_the_sweeps_query_and_its_check_of_a_locked_game_agree(
    game: Game, status: str, paused: bool, remind: int | None, deadline: int | None
) -> None:
    """A due reminder is defined twice, as the sweep's query and as the check of each
    game it locks: both give the same answer for every state of a game (minutes from
    now; 0 is now)."""
    now = timezone.now()

    def at(minutes: int | None) -> Any:
        return None if minutes is None else now + timedelta(minutes=minutes)

    Game.objects.filter(pk=game.pk).update(
        status=status,
        paused_at=now if paused else None,
        remind_at=at(remind),
        deadline=at(deadline),
    )
    game.refresh_from_db()

    by_query = deadlines.reminders_due(now).filter(pk=game.pk).exists()
    assert deadlines.reminder_due(game, now) == by_query
