"""A move's row goes with the game's UPDATE in one query (``rows.insert``'s
``with_next``, the backend's ``write_later``): written before any other statement, sent
at the commit, dropped by a rollback, and failing the statement it goes with."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Game, Move
from tests.conftest import POSTGRES_HOW_TO, postgres_address, require_service
from tests.games import factories
from ww5site import rows

alice = factories.alice
bob = factories.bob


dice = factories.dice


@pytest.fixture
def game(dice: factories.LoadedDice, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """A started game of alice and bob."""
    return factories.seated_game(dice, [alice, bob])


def _move(game: Game, number: int) -> Move:
    seat = services.seats_of(game)[0]
    return Move(
        game=game,
        seat=seat,
        number=number,
        action="pass",
        dice=[1, 2],
        events=[{"kind": "naïve"}],
        source=Move.Source.WEB,
        player_id=seat.user_id,
        created_at=timezone.now(),
    )


def _fields(move: Move) -> dict[str, Any]:
    return {f.attname: getattr(move, f.attname) for f in Move._meta.concrete_fields}


@pytest.mark.django_db
def test_the_row_goes_with_the_games_update_in_one_query(
    postgres: BaseDatabaseWrapper, game: Game
) -> None:
    move = _move(game, 1)
    with transaction.atomic():
        with CaptureQueriesContext(connection) as held:
            assert rows.insert(move, with_next=True)
        assert len(held) == 0 and move.pk is None  # nothing sent yet
        game.turn_number = 1
        with CaptureQueriesContext(connection) as sent:
            rows.update(game, ["turn_number"])
        assert len(sent) == 1
        assert sent[0]["sql"].startswith('INSERT INTO "games_move"')
        assert '; UPDATE "games_game"' in sent[0]["sql"]
        assert move.pk is not None and not move._state.adding
    assert _fields(Move.objects.get(pk=move.pk)) == _fields(move)
    assert Game.objects.get(pk=game.pk).turn_number == 1


@pytest.mark.django_db
def test_any_other_statement_sends_it_first(postgres: BaseDatabaseWrapper, game: Game) -> None:
    move = _move(game, 1)
    with transaction.atomic():
        rows.insert(move, with_next=True)
        with CaptureQueriesContext(connection) as sent:
            assert Move.objects.filter(game=game).count() == 1  # the ORM sees the row
        assert [q["sql"].split()[0] for q in sent] == ["INSERT", "SELECT"]
        assert move.pk == Move.objects.get(game=game).pk
        second = _move(game, 2)
        rows.insert(second, with_next=True)
        third = _move(game, 3)
        rows.insert(third, with_next=True)  # a second held write sends the first
        assert second.pk is not None and third.pk is None
    assert third.pk is not None  # the commit (here, the savepoint's release) sent it
    assert sorted(Move.objects.filter(game=game).values_list("number", flat=True)) == [1, 2, 3]


@pytest.mark.django_db
def test_a_rollback_to_a_savepoint_drops_it(postgres: BaseDatabaseWrapper, game: Game) -> None:
    move = _move(game, 1)
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            rows.insert(move, with_next=True)
            raise RuntimeError("the decision is refused")
        assert Move.objects.filter(game=game).count() == 0
        assert move.pk is None
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_failing_row_fails_the_statement_it_goes_with(
    postgres: BaseDatabaseWrapper, game: Game
) -> None:
    _move(game, 1).save()
    again = _move(game, 1)  # (game, number) is unique: taken
    game.turn_number = 5
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(again, with_next=True)
        rows.update(game, ["turn_number"])
    assert again.pk is None
    assert Game.objects.get(pk=game.pk).turn_number == 0  # the UPDATE went with it


@pytest.fixture
def committing(transactional_db: None) -> BaseDatabaseWrapper:
    """The connection, each transaction of the test committed for real."""
    require_service("PostgreSQL", postgres_address(), POSTGRES_HOW_TO)
    return connection


def test_the_commit_sends_it(committing: BaseDatabaseWrapper, game: Game) -> None:
    move = _move(game, 1)
    with CaptureQueriesContext(connection) as sent, transaction.atomic():
        rows.insert(move, with_next=True)
    assert [q["sql"].split()[0] for q in sent] == ["BEGIN", "INSERT", "COMMIT"]
    assert move.pk is not None
    assert _fields(Move.objects.get(pk=move.pk)) == _fields(move)


def test_a_rollback_drops_it(committing: BaseDatabaseWrapper, game: Game) -> None:
    move = _move(game, 1)
    with pytest.raises(RuntimeError), transaction.atomic():
        rows.insert(move, with_next=True)
        raise RuntimeError("the decision is refused")
    assert getattr(connection, "later", None) is None
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(turn_number=1)  # sends nothing held
    assert not Move.objects.filter(game=game).exists() and move.pk is None


def test_outside_a_transaction_it_is_written_at_once(
    committing: BaseDatabaseWrapper, game: Game
) -> None:
    move = _move(game, 1)
    with CaptureQueriesContext(connection) as sent:
        rows.insert(move, with_next=True)
    assert [q["sql"].split()[0] for q in sent] == ["INSERT"]
    assert move.pk is not None and Move.objects.filter(pk=move.pk).exists()


@pytest.mark.django_db
def test_a_backend_that_cannot_hold_it_writes_it_at_once(game: Game) -> None:
    """Django's own backends (SQLite for a newcomer) have no ``write_later``."""
    move = _move(game, 1)
    with transaction.atomic():
        with CaptureQueriesContext(connection) as sent:
            rows.insert(move, with_next=True)
        held = hasattr(connection, "write_later")
        assert held == (connection.vendor == "postgresql")
        assert len(sent) == (0 if held else 1)
        assert (move.pk is None) == held
    assert move.pk is not None
