"""Real races on PostgreSQL: threads, each with its own connection, released together.

The services lock the game row (``select_for_update``) before every change, so racing
requests run one after the other and each later one sees what the earlier did. SQLite
has no row locks, so these tests need PostgreSQL (the ``postgres`` fixture skips
without it, and fails under CI).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.signals import post_save
from django.utils import timezone

from games import services
from games.models import Game, Move
from games.services import Decision, GameError, StaleForm
from tests.games.factories import STRICT_SETUP, LoadedDice, make_user, play, seated_game
from tests.races import Outcome, race, start_waiting
from ww5 import engine

pytestmark = pytest.mark.django_db(transaction=True)


User = AbstractBaseUser
MOVED_ON = "the game has moved on since this form was made: nothing was changed"


@pytest.fixture
def duel(
    postgres: BaseDatabaseWrapper,
    dice: LoadedDice,
    alice: User,
    bob: User,
) -> Game:
    """alice (blue) against bob (purple) after the strict setup: alice to move (turn 6)."""
    return play(seated_game(dice, [alice, bob]), *STRICT_SETUP)


def test_twenty_identical_submissions_are_applied_exactly_once(duel: Game, alice: User) -> None:
    expected = engine.dump_position(engine.apply_action(services.state_of(duel), "grow alaska")[0])

    outcomes = race(
        [partial(services.submit_move, duel.pk, alice, "grow alaska", 6) for _ in range(20)]
    )

    assert [o.error for o in outcomes] == [None] * 20
    decisions: list[Decision] = [o.value for o in outcomes]
    assert sorted(d.duplicate for d in decisions) == [False] + [True] * 19
    assert Move.objects.filter(game=duel).count() == 7
    applied = Move.objects.get(game=duel, number=7)
    assert {d.move.pk for d in decisions} == {applied.pk}
    duel.refresh_from_db()
    assert duel.turn_number == 7 and duel.position == expected
    assert services.rebuild_position(duel) is True


# Five decisions in a row: who decides, the player's action, the organiser's. Both
# actions of a round are legal whichever of the earlier rounds' actions was applied.
ROUNDS = [
    ("alice", "grow alaska", "grow canada"),
    ("bob", "grow scandinavia", "grow southern-europe"),
    ("alice", "move usa brazil", "move usa colombia"),
    ("bob", "move western-europe northwest-africa", "move southern-europe northeast-africa"),
    ("alice", "move alaska north-asia", "build usa"),
]


def test_a_player_and_an_organiser_racing_for_one_decision_give_one_move_and_one_refusal(
    duel: Game, alice: User, bob: User, olga: User
) -> None:
    users = {"alice": alice, "bob": bob}
    for turn, (name, own, organisers) in enumerate(ROUNDS, start=6):
        user = users[name]

        outcomes = race(
            [
                partial(services.submit_move, duel.pk, user, own, turn),
                partial(services.move_on_behalf, duel.pk, olga, organisers, turn_number=turn),
            ]
        )

        accepted = [o.value for o in outcomes if o.error is None]
        refusals = [o.error for o in outcomes if o.error is not None]
        assert len(accepted) == 1 and len(refusals) == 1, refusals
        assert isinstance(refusals[0], StaleForm) and MOVED_ON in str(refusals[0])
        assert Move.objects.filter(game=duel).count() == turn + 1
        move = Move.objects.get(game=duel, number=turn + 1)
        if isinstance(accepted[0], Decision):  # the player's went through
            assert accepted[0].duplicate is False
            assert (move.action, move.actor, move.source) == (own, user, "web")
        else:
            assert (move.action, move.actor, move.source) == (organisers, olga, "admin")
    duel.refresh_from_db()
    assert duel.turn_number == 11 and services.rebuild_position(duel) is True


def test_two_tabs_sending_different_actions_for_one_turn_apply_only_one(
    duel: Game, alice: User
) -> None:
    outcomes = race(
        [
            partial(services.submit_move, duel.pk, alice, "grow alaska", 6),
            partial(services.submit_move, duel.pk, alice, "grow canada", 6),
        ]
    )

    # The later tab is told that its turn was already decided, and by which move: the
    # service reports it as a duplicate carrying the recorded move, not its own action.
    assert [o.error for o in outcomes] == [None, None]
    applied, other = sorted((o.value for o in outcomes), key=lambda d: d.duplicate)
    assert (applied.duplicate, other.duplicate) == (False, True)
    assert other.move.pk == applied.move.pk
    assert Move.objects.filter(game=duel).count() == 7
    move = Move.objects.get(game=duel, number=7)
    assert move.action in ("grow alaska", "grow canada")
    duel.refresh_from_db()
    sizes = {t: duel.position["pieces"][t]["size"] for t in ("alaska", "canada")}
    if move.action == "grow alaska":
        assert sizes == {"alaska": "medium", "canada": "medium"}
    else:
        assert sizes == {"alaska": "small", "canada": "large"}
    assert duel.turn_number == 7 and services.rebuild_position(duel) is True


@pytest.mark.parametrize(
    ("home_assignment", "refusal", "status"),
    [
        ("choose", "this game is no longer open", Game.Status.SETUP),
        ("assigned", "this game is full", Game.Status.OPEN),
    ],
)
def test_five_players_racing_for_the_last_seat_one_gets_it(
    postgres: BaseDatabaseWrapper,
    dice: LoadedDice,
    alice: User,
    django_user_model: Any,
    home_assignment: str,
    refusal: str,
    status: str,
) -> None:
    game = services.create_game(
        alice, seats=2, home="north-america", home_assignment=home_assignment
    )
    names = ["bob", "carol", "dave", "erin", "frank"]
    homes = ["europe", "south-america", "africa", "asia", "australia"]
    racers = [make_user(django_user_model, name) for name in names]

    outcomes = race(
        [
            partial(services.join_game, game.pk, user, home=home)
            for user, home in zip(racers, homes, strict=True)
        ]
    )

    seated = [o.value for o in outcomes if o.error is None]
    errors = [o.error for o in outcomes if o.error is not None]
    assert len(seated) == 1 and len(errors) == 4
    assert all(type(e) is GameError and str(e) == refusal for e in errors)
    game.refresh_from_db()
    assert game.seats.count() == 2
    assert list(game.seats.values_list("user", flat=True)) == [alice.pk, seated[0].user_id]
    assert game.status == status
    if status == Game.Status.SETUP:  # started once: one roll, one first player
        assert [e["type"] for e in game.start_record].count("first_player") == 1
        assert game.turn_number == 0 and not game.moves.exists()
    else:
        assert game.start_record == [] and game.position is None


def test_an_absence_declared_while_a_move_makes_the_decision_due_moves_its_deadline(
    duel: Game, alice: User, bob: User, request: pytest.FixtureRequest
) -> None:
    """alice's move makes bob's decision due while bob declares tomorrow away: the
    declaration waits for the move, then moves the deadline the move has just set."""
    stored, go = threading.Event(), threading.Event()
    deadlines: list[Any] = []

    def hold_the_move(instance: Game, update_fields: Any = None, **kwargs: Any) -> None:
        if update_fields and "deadline" in update_fields and not stored.is_set():
            deadlines.append(instance.deadline)
            stored.set()  # the move's game row is written, not yet committed
            assert go.wait(timeout=30)

    post_save.connect(hold_the_move, sender=Game, dispatch_uid="hold-the-move")
    request.addfinalizer(lambda: post_save.disconnect(dispatch_uid="hold-the-move", sender=Game))
    tomorrow = (timezone.now() + timedelta(days=1)).date()
    outcomes = [Outcome(), Outcome()]

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            outcomes[index].value = call()
        except BaseException as error:
            outcomes[index].error = error
        finally:
            connection.close()

    move = threading.Thread(
        target=run, args=(0, partial(services.submit_move, duel.pk, alice, "grow alaska", 6))
    )
    move.start()
    assert stored.wait(timeout=30)
    declaration = threading.Thread(
        target=run, args=(1, partial(services.declare_absence, bob, tomorrow, tomorrow))
    )
    declaration.start()
    declaration.join(timeout=1.0)
    waited = declaration.is_alive()  # it waits for the move's lock on the game
    go.set()
    move.join(timeout=30)
    declaration.join(timeout=30)

    assert [o.error for o in outcomes] == [None, None]
    assert waited
    game = Game.objects.get(pk=duel.pk)
    assert game.to_move is not None and game.to_move.user_id == bob.pk
    [set_by_the_move] = deadlines
    assert game.deadline == set_by_the_move + timedelta(days=1)


def test_two_different_submissions_through_one_link_are_told_what_was_recorded(
    duel: Game, alice: User
) -> None:
    """Both submissions pass the link's check, then wait for the game's lock, held here
    until both wait: the first is applied, the second told what was recorded instead."""
    from django.test import Client

    from games import links
    from tests.integration.helpers import wait_until

    url = links.decision_url(duel, duel.seats.get(user=alice)).removeprefix("http://localhost:8000")
    held, release = threading.Event(), threading.Event()

    def hold_the_game() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=duel.pk)
                held.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_game)
    holder.start()
    held.wait(timeout=10)
    results: dict[str, Any] = {}

    def submit(action: str) -> None:
        try:
            results[action] = Client().post(url, {"action": action, "turn": 6})
        finally:
            connection.close()

    submitters = [
        threading.Thread(target=submit, args=(a,)) for a in ("grow alaska", "grow canada")
    ]
    for thread in submitters:
        thread.start()
    wait_until(lambda: waiting_for_locks() >= 2, 10, "both submissions to wait for the lock")
    release.set()
    for thread in [holder, *submitters]:
        thread.join(timeout=30)

    applied = Move.objects.get(game=duel, number=7).action
    recorded = {
        "grow alaska": "Grow the piece in Alaska",
        "grow canada": "Grow the piece in Canada",
    }
    pages = {action: response.content.decode() for action, response in results.items()}
    loser = next(action for action in pages if action != applied)
    assert all(response.status_code == 200 for response in results.values())
    assert f"Your decision was recorded: {recorded[applied]}." in pages[applied]
    assert (
        f"already recorded: {recorded[applied]}. This submission was not applied." in (pages[loser])
    )
    assert recorded[loser] not in pages[loser]
    assert Move.objects.filter(game=duel).count() == 7


def waiting_for_locks() -> int:
    """How many sessions of this test database wait for a lock now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


def test_seats_read_with_the_lock_are_as_the_holder_committed_them(duel: Game) -> None:
    """A decision waiting for the game's lock reads the seats once it has it: it sees
    what the holder of the lock committed to them, not the seats as they were when it
    began to wait."""

    def decide() -> list[tuple[str, str]]:
        with transaction.atomic():
            game = services.lock_game(duel.pk, with_seats=True)
            return [(seat.player_name, seat.held) for seat in services.seats_of(game)]

    with transaction.atomic():
        game = services.lock_game(duel.pk)
        thread, waited = start_waiting(decide)
        game.seats.filter(number=2).update(held="grow scandinavia")
    thread.join(timeout=30)

    assert not thread.is_alive() and waited.error is None
    seen = waited.value
    assert seen == [("blue", ""), ("purple", "grow scandinavia")]
