"""The hand-written queries on the hot paths give what the ORM's queries give."""

from __future__ import annotations

import warnings
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, connection, models
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.backends import ProfileModelBackend
from accounts.models import Profile
from games import services
from games.models import Game, Move, Seat
from games.services import core
from tests.games import factories
from ww5.engine import legal_actions
from ww5site import rows

pytestmark = pytest.mark.django_db

alice = factories.alice
bob = factories.bob


def fields_of(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def _two_players(alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """A game of alice and bob, read afresh."""
    game = services.create_game(alice, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("locked", [False, True])
def test_seats_are_read_as_the_orm_reads_them(
    locked: bool, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    Profile.objects.filter(user=alice).update(
        display_name="Alice A.", away_until=timezone.now() + timedelta(days=2)
    )
    Profile.objects.filter(user=bob).delete()  # a player without a profile row
    game = services.create_game(alice, seats=3, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    services.add_bot(game.pk, alice, "greedy", home="africa")
    game = Game.objects.get(pk=game.pk)

    with CaptureQueriesContext(connection) as queries:
        if locked:  # a decision's read: the game locked, and its seats in the same query
            game = services.lock_game(game.pk, with_seats=True)
        seats = services.seats_of(game)
        # Everything a decision reads of them, with no further query.
        for seat in seats:
            assert seat.game is game
            if seat.user is not None:
                assert seat.user.email
                getattr(seat.user, "profile", None)
            seat.display_name  # noqa: B018
    # Locked where one query cannot hold two statements (SQLite): the lock, then the seats.
    assert len(queries) == (
        2 if locked and not getattr(connection, "several_statements", False) else 1
    )

    expected = list(Seat.objects.filter(game=game).select_related("user__profile"))
    expected.sort(key=lambda s: s.number)
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in expected]
    assert [s.display_name for s in seats] == ["Alice A.", "bob", "Greedy bot 3"]
    first, second, third = seats
    assert fields_of(first.user) == fields_of(alice)
    assert fields_of(first.user.profile) == fields_of(Profile.objects.get(user=alice))
    assert first.user.profile.user is first.user
    assert not hasattr(second.user, "profile")  # as select_related leaves a missing one
    assert (third.user, third.bot) == (None, "greedy")
    assert not first._state.adding and first._state.db == "default"
    assert fields_of(game) == fields_of(Game.objects.get(pk=game.pk))


def test_a_game_locked_with_its_seats_is_locked_and_a_missing_one_refused(
    alice: AbstractBaseUser,
) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    with CaptureQueriesContext(connection) as queries:
        locked = services.lock_game(game.pk, with_seats=True)
    if getattr(connection, "several_statements", False):
        (sql,) = [query["sql"] for query in queries]
        lock, seats = sql.split("; ")
        assert lock.endswith(" FOR UPDATE") and seats.startswith("SELECT ")
        assert 'FROM "games_seat" s' in seats
    assert [seat.user_id for seat in services.seats_of(locked)] == [alice.pk]

    Seat.objects.filter(game=game).delete()  # a game without seats: its row, no seat
    assert services.seats_of(services.lock_game(game.pk, with_seats=True)) == []
    with pytest.raises(services.GameError, match="there is no such game"):
        services.lock_game(game.pk + 1000, with_seats=True)


def test_the_signed_in_player_is_read_with_the_profile(alice: AbstractBaseUser) -> None:
    Profile.objects.filter(user=alice).update(time_zone="Europe/Paris")

    with CaptureQueriesContext(connection) as queries:
        user = ProfileModelBackend().get_user(alice.pk)
        assert user.profile.time_zone == "Europe/Paris"
    assert len(queries) == 1
    assert fields_of(user) == fields_of(get_user_model().objects.get(pk=alice.pk))
    assert user.profile.user is user


@pytest.mark.parametrize("key", [None, "", "not a number", 987654])
def test_no_player_for_a_key_that_names_nobody(key: Any, alice: AbstractBaseUser) -> None:
    assert ProfileModelBackend().get_user(key) is None


def test_an_inactive_player_is_not_signed_in(alice: AbstractBaseUser) -> None:
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)

    assert ProfileModelBackend().get_user(alice.pk) is None
    assert ProfileModelBackend().get_user(str(alice.pk)) is None


def test_a_move_is_written_as_the_orm_writes_it(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = _two_players(alice, bob)
    seat = services.seats_of(game)[0]
    made = {
        "game": game,
        "seat": seat,
        "action": "pass",
        "dice": [3, 6],
        "events": [{"kind": "naïve", "at": [1, 2]}],
        "source": Move.Source.WEB,
        "player_id": alice.pk,
        "actor": alice,
        "created_at": timezone.now(),
    }
    by_hand = Move(number=101, **made)
    by_orm = Move(number=102, **made)

    with CaptureQueriesContext(connection) as queries:
        rows.insert(by_hand)
    by_orm.save()
    assert len(queries) == 1
    assert by_hand.pk is not None and not by_hand._state.adding
    assert by_hand._state.db == "default"
    written = Move.objects.get(pk=by_hand.pk)
    assert fields_of(written) == fields_of(by_hand)
    assert fields_of(written) | {"id": 0, "number": 0} == fields_of(
        Move.objects.get(pk=by_orm.pk)
    ) | {"id": 0, "number": 0}


def test_a_game_row_is_updated_as_the_orm_updates_it(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    games = []
    for _ in range(3):  # by hand, by the ORM, and a neighbour left alone
        game = services.create_game(alice, home="north-america")
        services.join_game(game.pk, bob, home="europe")
        games.append(Game.objects.get(pk=game.pk))
    hand, orm, neighbour = games
    stored = [hand._meta.get_field(name).attname for name in core.STORED_FIELDS]
    changes: dict[str, Any] = {
        "position": {"naïve": [1, 2], "nested": {"x": None}},
        "turn_number": 7,
        "decision_turn": 7,
        "status": Game.Status.PLAY,
        "deadline": timezone.now() + timedelta(hours=5),
        "remind_at": timezone.now() + timedelta(hours=4),
        "grace_used": True,
        "dice_drawn": 11,
    }
    for game in (hand, orm):
        for name, value in changes.items():
            setattr(game, name, value)
        game.to_move = core.seats_of(game)[1]
        game.name = "not a stored field: left unwritten"

    told: list[tuple[str, int, Any]] = []

    def heard(signal: str) -> Any:
        def receiver(instance: Game, **kwargs: Any) -> None:
            told.append((signal, instance.pk, {k: v for k, v in kwargs.items() if k != "signal"}))

        return receiver

    before, after = heard("pre_save"), heard("post_save")
    pre_save.connect(before, sender=Game)
    post_save.connect(after, sender=Game)
    try:
        with CaptureQueriesContext(connection) as queries:
            rows.update(hand, core.STORED_FIELDS)
        orm.save(update_fields=core.STORED_FIELDS)
    finally:
        pre_save.disconnect(before, sender=Game)
        post_save.disconnect(after, sender=Game)

    assert len(queries) == 1
    # The same signals, with the same arguments, as the ORM's save sends.
    assert [(name, kwargs) for name, pk, kwargs in told if pk == hand.pk] == [
        (name, kwargs) for name, pk, kwargs in told if pk == orm.pk
    ]
    assert [name for name, pk, _ in told if pk == hand.pk] == ["pre_save", "post_save"]
    for game in (hand, orm):  # each row holds what its object held in the stored fields
        row = fields_of(Game.objects.get(pk=game.pk))
        assert {name: row[name] for name in stored} == {
            name: getattr(game, name) for name in stored
        }
        assert row["name"] != game.name  # and nothing else
    assert Game.objects.get(pk=hand.pk).position == changes["position"]
    assert fields_of(Game.objects.get(pk=neighbour.pk)) == fields_of(neighbour)


def test_an_update_of_a_missing_row_fails_as_the_orm_fails(alice: AbstractBaseUser) -> None:
    game = services.create_game(alice, home="north-america")
    gone = Game.objects.get(pk=game.pk)
    gone.pk = 987654

    with pytest.raises(DatabaseError, match="did not affect any rows"):
        rows.update(gone, ["turn_number"])


def _row_of(columns: rows.Columns[Any], pk: Any) -> list[Any]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns.sql} FROM {columns.table} WHERE {columns.column()} = %s", [pk]
        )
        return list(cursor.fetchone())


def test_an_instance_is_made_as_from_db_makes_it(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = services.create_game(alice, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    started = Game.objects.get(pk=game.pk)
    assert started.to_move is not None and started.to_move.user is not None
    action = legal_actions(services.state_of(started))[0]
    services.submit_move(game.pk, started.to_move.user, action, started.turn_number)
    seat = Seat.objects.filter(game=game).first()
    made = {
        Game: game.pk,
        Seat: seat.pk if seat else None,
        Move: Move.objects.filter(game=game).values_list("pk", flat=True).first(),
        get_user_model(): alice.pk,
        Profile: Profile.objects.get(user=alice).pk,
    }
    for model, pk in made.items():
        columns = rows.Columns(model, "")
        assert columns._plain, model
        values = _row_of(columns, pk)
        loaded = columns.load(values)
        assert loaded is not None
        expected = model.objects.get(pk=pk)
        assert type(loaded) is model
        assert fields_of(loaded) == fields_of(expected), model
        assert {k for k in loaded.__dict__ if k != "_state"} == {
            k for k in expected.__dict__ if k != "_state"
        }, model
        assert (loaded._state.adding, loaded._state.db) == (False, expected._state.db)
        assert loaded == expected and loaded.pk == pk


def test_a_loaded_instance_reads_its_relations_and_saves_its_fields(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = services.create_game(alice, home="north-america")
    columns = rows.Columns(Seat, "")
    seat = columns.load(_row_of(columns, Seat.objects.get(game=game).pk))
    assert seat is not None
    assert seat.user == alice and seat.game == game  # the foreign keys, read on demand
    seat.user_id = bob.pk  # the key changed: the cached player goes with it
    assert seat.user == bob
    seat.held = "grow alaska"
    seat.save(update_fields=["held", "user"])
    assert Seat.objects.filter(pk=seat.pk, held="grow alaska", user=bob).exists()


def test_a_receiver_of_an_instances_making_is_heard(alice: AbstractBaseUser) -> None:
    from django.db.models.signals import post_init, pre_init

    heard: list[str] = []

    def before(sender: Any, **kwargs: Any) -> None:
        heard.append("pre_init")

    def after(sender: Any, instance: Any, **kwargs: Any) -> None:
        heard.append(f"post_init {instance.username}")

    columns = rows.Columns(get_user_model(), "")
    values = _row_of(columns, alice.pk)
    pre_init.connect(before, sender=get_user_model())
    post_init.connect(after, sender=get_user_model())
    try:
        loaded = columns.load(values)
    finally:
        pre_init.disconnect(before, sender=get_user_model())
        post_init.disconnect(after, sender=get_user_model())
    assert heard == ["pre_init", f"post_init {alice.username}"]
    assert loaded is not None and fields_of(loaded) == fields_of(alice)


def _moves(game: Game, seat: Seat, numbers: list[int]) -> list[Move]:
    at = timezone.now().replace(microsecond=0)  # the same time for moves made a moment apart
    return [
        Move(
            game=game,
            seat=seat,
            number=number,
            action="pass",
            dice=[place, 6],
            events=[{"kind": "naïve", "at": [place]}],
            source=Move.Source.WEB,
            player_id=seat.user_id,
            created_at=at,
        )
        for place, number in enumerate(numbers, start=1)
    ]


def test_rows_written_together_are_written_as_bulk_create_writes_them(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = _two_players(alice, bob)
    seat = services.seats_of(game)[0]
    by_hand, by_orm = _moves(game, seat, [201, 202]), _moves(game, seat, [301, 302])

    with CaptureQueriesContext(connection) as queries:
        rows.insert_all(by_hand)
    Move.objects.bulk_create(by_orm)
    assert len(queries) == 1
    for made, model in zip(by_hand, by_orm, strict=True):
        assert not made._state.adding and made._state.db == "default"
        written = Move.objects.get(number=made.number)
        assert fields_of(written) | {"id": 0, "number": 0} == fields_of(
            Move.objects.get(pk=model.pk)
        ) | {"id": 0, "number": 0}
        if connection.features.can_return_rows_from_bulk_insert:
            assert made.pk == written.pk
    rows.insert_all([])  # nothing to write: no statement


def test_rows_written_together_leave_a_taken_row_as_it_is(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = _two_players(alice, bob)
    first, second = services.seats_of(game)
    (taken,) = _moves(game, first, [401])
    taken.save()
    again, new = _moves(game, second, [401, 402])  # (game, number) is unique: 401 is taken

    rows.insert_all([again, new], skip_taken=True)
    assert Move.objects.get(game=game, number=401).seat_id == first.pk  # left as it was
    assert Move.objects.get(game=game, number=402).seat_id == second.pk
    assert again.pk is None and new.pk is None  # no key is known for either
    with pytest.raises(DatabaseError):
        rows.insert_all(_moves(game, second, [401]))  # without skip_taken: refused


def test_named_columns_are_read_as_the_orm_reads_them(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = _two_players(alice, bob)
    Move.objects.bulk_create(_moves(game, services.seats_of(game)[0], [1, 2]))
    history = rows.Columns(Move, "", ["action", "events"])

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {history.sql} FROM {history.table} WHERE {history.column('game')} = %s "
            f"ORDER BY {history.column('number')}",
            [game.pk],
        )
        read = [tuple(history.convert(row)) for row in cursor.fetchall()]
    assert read == list(game.moves.order_by("number").values_list("action", "events"))
    assert read[0][1] == [{"kind": "naïve", "at": [1]}]
    with pytest.raises(AssertionError):
        history.load(["pass", "[]"])  # not a whole row: no instance


def _literal(value: Any) -> Any:
    """What the statement holds for ``value``: its SQL text where the backend binds
    values on the client (PostgreSQL's, as the site sets it), else the value and its
    type."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            return cursor.cursor.mogrify("%s", [value])
    return value, type(value)


class Named(models.TextChoices):
    SOME = "some", "Some"


class Numbered(models.IntegerChoices):
    FIVE = 5, "Five"


@pytest.mark.parametrize("add", [True, False])
def test_values_are_prepared_as_the_orm_prepares_them(
    alice: AbstractBaseUser, bob: AbstractBaseUser, add: bool
) -> None:
    """Every field a hot path writes, with a value of each kind it may hold (its plain
    type, None, and those the field's own preparation changes: an enumeration's member,
    a lazy string, a naive time, an integer's text, a boolean for an integer), comes
    out as ``get_db_prep_save(pre_save(...))`` makes it."""
    game = _two_players(alice, bob)
    seat = services.seats_of(game)[0]
    move = Move(game=game, seat=seat, number=1, action="pass", created_at=timezone.now())
    aware = timezone.now()
    naive = aware.replace(tzinfo=None)
    tried = 0
    for instance in (game, seat, move, alice, alice.profile):
        for field in instance._meta.concrete_fields:
            candidates: list[Any] = [None, getattr(instance, field.attname)]
            if isinstance(field, models.CharField | models.TextField):
                candidates += ["naïve 'quoted'", Named.SOME, gettext_lazy("Some")]
            elif isinstance(field, models.BooleanField):
                candidates += [True, False, 1]
            elif isinstance(field, models.IntegerField | models.ForeignKey):
                candidates += [7, -3, 2**40, True, "12", Numbered.FIVE]
            elif isinstance(field, models.DateTimeField):
                candidates += [aware, aware.astimezone(timezone.get_fixed_timezone(-300))]
                if not field.auto_now and not field.auto_now_add:
                    candidates.append(naive)
            for value in candidates:
                if value is None and not field.null and isinstance(field, models.ForeignKey):
                    continue
                setattr(instance, field.attname, value)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)  # a naive time, both ways
                    orm = field.get_db_prep_save(field.pre_save(instance, add), connection)
                    (fast,) = rows.prepared([field], [instance], add, connection)
                if isinstance(field, models.DateTimeField) and (
                    field.auto_now or field.auto_now_add
                ):
                    if field.auto_now or add:  # set on saving: the time now, both ways
                        assert type(fast) is type(orm)
                        continue
                assert _literal(fast) == _literal(orm), (instance, field.name, value)
                tried += 1
    assert tried > 200
