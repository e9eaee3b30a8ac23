"""Deadlines: the sweep that claims missed decisions, and the missed-decision policy.

Every call passes ``now`` itself, so each test sets the moment the sweep or the task
runs. A sweep registers its tasks to run after commit; inside a test's transaction they
run only where the test captures them with ``django_capture_on_commit_callbacks``.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper

from games import services, tasks
from games.models import Game, Move
from games.services import CLAIM_EXPIRES, GameError
from tests.games.factories import (
    CASUAL_SETUP,
    STRICT_SETUP,
    Clock,
    LoadedDice,
    mails_of,
    play,
    seat_of,
    seated_game,
    snapshot,
)
from ww5 import engine

pytestmark = pytest.mark.django_db


User = AbstractBaseUser
SECOND = timedelta(seconds=1)
MINUTE = timedelta(minutes=1)
HOURLY = {"decision_time": timedelta(hours=1)}


@pytest.fixture
def duel(dice: LoadedDice, alice: User, bob: User) -> Game:
    """alice (blue, first) against bob (purple), strict setup, just started."""
    return seated_game(dice, [alice, bob])


@pytest.fixture
def duel_in_play(duel: Game) -> Game:
    """The duel after its strict setup: alice to move (turn 6)."""
    return play(duel, *STRICT_SETUP)


@pytest.fixture
def retreat(duel_in_play: Game, dice: LoadedDice) -> Game:
    """alice has invaded brazil: bob (purple) must choose where his piece retreats."""
    game = play(duel_in_play, "move usa colombia", "move western-europe brazil")
    return play(game, "invade colombia brazil @ 6 6 6 1 1 1", dice=dice)


def deadline_of(game: Game) -> datetime:
    game.refresh_from_db()
    assert game.deadline is not None, "the game has no deadline running"
    return game.deadline


def handle(game: Game, now: datetime | None = None) -> str:
    """The task's work, by default a second after the pending decision's deadline."""
    return services.handle_missed_decision(game.pk, now=now or deadline_of(game) + SECOND)


def let_both_deadlines_pass(game: Game) -> str:
    """The decision's deadline passes (grace), then the grace's too: what came of it."""
    assert handle(game) == "grace"
    done = handle(game)
    game.refresh_from_db()
    return done


def set_missed_limit(game: Game, limit: int) -> None:
    # Arranged directly: no service changes this game option.
    Game.objects.filter(pk=game.pk).update(missed_limit=limit)


def decide(game: Game) -> Move:
    """The player the game waits for makes a legal decision in time (not an invasion)."""
    game.refresh_from_db()
    assert game.to_move is not None and game.to_move.user is not None
    legal = engine.legal_actions(services.state_of(game))
    action = next((a for a in legal if not a.startswith("invade")), legal[0])
    move = services.submit_move(game.pk, game.to_move.user, action, game.turn_number).move
    game.refresh_from_db()
    return move


def claims() -> dict[int, datetime | None]:
    return dict(Game.objects.values_list("pk", "deadline_claimed_at"))


# --- the sweep -----------------------------------------------------------------------


def test_the_sweep_claims_exactly_the_running_games_past_their_deadline(
    dice: LoadedDice, alice: User, bob: User, carol: User, dave: User, olga: User
) -> None:
    claimed_earlier = seated_game(dice, [carol, alice], **HOURLY)
    earlier = deadline_of(claimed_earlier)
    assert services.sweep_deadlines(now=earlier) == [claimed_earlier.pk]
    in_setup = seated_game(dice, [alice, bob], **HOURLY)
    in_play = play(seated_game(dice, [carol, dave], **HOURLY), *STRICT_SETUP)
    not_yet = seated_game(dice, [alice, carol])  # two days for each decision
    paused = seated_game(dice, [bob, carol], **HOURLY)
    services.pause_game(paused.pk, olga)
    finished = play(seated_game(dice, [bob, dave], **HOURLY), *STRICT_SETUP)
    services.forfeit_seat(finished.pk, olga, seat_of(finished, dave).pk, "admin")
    waiting = services.create_game(alice, seats=3, home="north-america", **HOURLY)
    now = max(deadline_of(in_setup), deadline_of(in_play), deadline_of(paused)) + MINUTE
    assert deadline_of(not_yet) > now
    before = snapshot(in_play)

    claimed = services.sweep_deadlines(now=now)

    assert sorted(claimed) == sorted([in_setup.pk, in_play.pk])
    assert claims() == {
        claimed_earlier.pk: earlier,  # claimed under five minutes ago: its task may still run
        in_setup.pk: now,
        in_play.pk: now,
        not_yet.pk: None,
        paused.pk: None,
        finished.pk: None,
        waiting.pk: None,
    }
    assert snapshot(in_play) == before  # claiming decides nothing: the task does


def test_the_sweep_claims_at_most_its_limit_the_longest_overdue_first(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    first = seated_game(dice, [alice, bob], **HOURLY)
    second = seated_game(dice, [bob, alice], **HOURLY)
    now = deadline_of(second) + MINUTE

    assert services.sweep_deadlines(now=now, limit=1) == [first.pk]
    assert services.sweep_deadlines(now=now, limit=1) == [second.pk]


def test_a_second_sweep_right_after_claims_nothing(duel: Game) -> None:
    now = deadline_of(duel) + SECOND
    assert services.sweep_deadlines(now=now) == [duel.pk]

    assert services.sweep_deadlines(now=now) == []
    assert services.sweep_deadlines(now=now + CLAIM_EXPIRES) == []
    assert claims() == {duel.pk: now}


def test_a_claim_older_than_claim_expires_is_claimed_again(duel: Game) -> None:
    now = deadline_of(duel) + SECOND
    services.sweep_deadlines(now=now)  # its task never ran: a worker died
    later = now + CLAIM_EXPIRES + SECOND

    assert services.sweep_deadlines(now=later) == [duel.pk]
    assert claims() == {duel.pk: later}


def test_after_commit_each_claimed_game_goes_to_the_missed_decision_task(
    clock: Clock,
    dice: LoadedDice,
    alice: User,
    bob: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = seated_game(dice, [alice, bob])  # started at the test clock's time
    clock.at = deadline_of(game) + SECOND

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        swept = tasks.sweep_deadlines.delay()

    # the sweep's hand-off to the task, then the send of the mail that task queued
    assert swept.get() == 1 and len(callbacks) == 2
    assert mails_of(game).filter(kind="missed", to_user=alice).count() == 1
    game.refresh_from_db()  # the task ran at the clock's time: the player's grace
    assert game.grace_used is True and game.deadline_claimed_at is None
    assert game.deadline == clock.at + game.decision_time
    assert tasks.handle_missed_decision.delay(game.pk).get() == "nothing due"


# --- the policy ----------------------------------------------------------------------


def test_a_missed_decision_first_gets_one_grace_of_the_full_decision_time(
    duel_in_play: Game, alice: User
) -> None:
    now = deadline_of(duel_in_play) + SECOND
    services.sweep_deadlines(now=now)
    before = snapshot(duel_in_play)

    assert handle(duel_in_play, now) == "grace"

    after = snapshot(duel_in_play)
    assert after["deadline"] == now + duel_in_play.decision_time
    assert after == {**before, "deadline": after["deadline"]}  # no move: the same position
    assert duel_in_play.grace_used is True and duel_in_play.deadline_claimed_at is None
    assert seat_of(duel_in_play, alice).missed == 0


def test_when_the_grace_passes_too_the_greedy_bot_decides_for_the_player(
    duel_in_play: Game, alice: User, bob: User
) -> None:
    assert handle(duel_in_play) == "grace"
    legal = engine.legal_actions(services.state_of(duel_in_play))
    now = deadline_of(duel_in_play) + SECOND
    assert services.sweep_deadlines(now=now) == [duel_in_play.pk]

    assert handle(duel_in_play, now) == "timeout move"

    move = duel_in_play.moves.get(number=7)
    assert (move.seat, move.source, move.actor) == (seat_of(duel_in_play, alice), "timeout", None)
    assert move.action in legal
    assert (seat_of(duel_in_play, alice).missed, seat_of(duel_in_play, bob).missed) == (1, 0)
    duel_in_play.refresh_from_db()
    assert duel_in_play.turn_number == 7 and duel_in_play.to_move == seat_of(duel_in_play, bob)
    # bob's decision is a fresh one: its full time from now, its own grace, no claim.
    assert duel_in_play.deadline == now + duel_in_play.decision_time
    assert duel_in_play.grace_used is False and duel_in_play.deadline_claimed_at is None
    assert services.rebuild_position(duel_in_play) is True
    assert handle(duel_in_play) == "grace"


def test_a_player_who_reaches_the_missed_limit_forfeits_and_the_game_ends(
    duel_in_play: Game, alice: User, bob: User
) -> None:
    set_missed_limit(duel_in_play, 2)
    assert let_both_deadlines_pass(duel_in_play) == "timeout move"  # alice's first miss
    while duel_in_play.to_move != seat_of(duel_in_play, alice):
        decide(duel_in_play)  # bob plays in time
    assert handle(duel_in_play) == "grace"
    now = deadline_of(duel_in_play) + SECOND

    assert handle(duel_in_play, now) == "forfeit"

    move = duel_in_play.moves.order_by("number").last()
    assert (move.action, move.seat, move.source, move.actor) == (
        "forfeit blue",
        seat_of(duel_in_play, alice),
        "timeout",
        None,
    )
    duel_in_play.refresh_from_db()
    assert duel_in_play.position["eliminated"] == ["blue"]
    assert duel_in_play.status == Game.Status.OVER and duel_in_play.finished_at == now
    assert duel_in_play.winner == seat_of(duel_in_play, bob)
    assert duel_in_play.to_move is None and duel_in_play.deadline is None
    assert (seat_of(duel_in_play, bob).rank, seat_of(duel_in_play, alice).rank) == (1, 2)
    assert seat_of(duel_in_play, alice).missed == 2
    assert services.rebuild_position(duel_in_play) is True


def test_a_forfeit_for_missed_decisions_leaves_the_others_playing_on(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    game = seated_game(dice, [alice, bob, carol], setup="casual")
    game = play(
        game, *(CASUAL_SETUP[home] for home in ("north-america", "europe", "south-america"))
    )
    set_missed_limit(game, 1)
    assert handle(game) == "grace"
    now = deadline_of(game) + SECOND

    assert handle(game, now) == "forfeit"

    game.refresh_from_db()
    assert game.moves.order_by("number").last().action == "forfeit blue"
    assert game.position["eliminated"] == ["blue"]
    assert all(piece["player"] != "blue" for piece in game.position["pieces"].values())
    assert game.status == Game.Status.PLAY and game.to_move == seat_of(game, bob)
    assert game.deadline == now + game.decision_time and game.grace_used is False
    assert [seat.rank for seat in game.seats.all()] == [None, None, None]  # ranked at the end


def test_a_missed_setup_placement_is_played_by_the_bot_never_forfeited(
    duel: Game, alice: User
) -> None:
    set_missed_limit(duel, 1)

    for _ in (1, 2):  # alice misses two placements: they would be past her limit
        assert let_both_deadlines_pass(duel) == "timeout move"
        move = duel.moves.order_by("number").last()
        assert (move.seat, move.source) == (seat_of(duel, alice), "timeout")
        assert move.action.startswith("place ")
        assert seat_of(duel, alice).missed == 0  # only missed turns in play count
        decide(duel)  # bob places in time

    duel.refresh_from_db()
    assert duel.status == Game.Status.SETUP
    assert not duel.moves.filter(action__startswith="forfeit").exists()


def test_a_missed_retreat_is_the_bots_retreat_within_the_retreat_time(
    retreat: Game, bob: User
) -> None:
    invasion = retreat.moves.order_by("number").last()
    assert deadline_of(retreat) == invasion.created_at + retreat.retreat_time  # 12 hours
    options = retreat.position["pending"]["retreat"]["options"]
    set_missed_limit(retreat, 1)
    now = deadline_of(retreat) + SECOND
    assert handle(retreat, now) == "grace"
    assert deadline_of(retreat) == now + retreat.retreat_time
    now = deadline_of(retreat) + SECOND

    assert handle(retreat, now) == "timeout move"  # a missed retreat is never a forfeit

    move = retreat.moves.order_by("number").last()
    assert (move.seat, move.source) == (seat_of(retreat, bob), "timeout")
    assert move.action.split() in [["retreat", option] for option in options]
    retreat.refresh_from_db()
    assert retreat.position["pending"] is None and retreat.status == Game.Status.PLAY
    assert seat_of(retreat, bob).missed == 0  # only missed turns count towards the limit
    # The turn passes from alice, the attacker: bob's own turn has the full decision time.
    assert retreat.to_move == seat_of(retreat, bob)
    assert retreat.deadline == now + retreat.decision_time


def test_a_decision_made_after_the_claim_leaves_the_task_nothing_to_do(
    duel_in_play: Game, alice: User
) -> None:
    now = deadline_of(duel_in_play)  # the sweep runs the moment the deadline passes
    assert services.sweep_deadlines(now=now) == [duel_in_play.pk]
    play(duel_in_play, "grow alaska")  # alice decides just after: bob's time starts later
    before = snapshot(duel_in_play)
    assert before["deadline"] > now

    assert handle(duel_in_play, now) == "nothing due"

    assert snapshot(duel_in_play) == before
    assert duel_in_play.deadline_claimed_at is None and duel_in_play.grace_used is False
    assert seat_of(duel_in_play, alice).missed == 0


def test_running_the_task_twice_applies_the_policy_once(
    duel_in_play: Game, alice: User, bob: User
) -> None:
    now = deadline_of(duel_in_play) + SECOND
    assert [handle(duel_in_play, now), handle(duel_in_play, now)] == ["grace", "nothing due"]
    assert deadline_of(duel_in_play) == now + duel_in_play.decision_time

    now = deadline_of(duel_in_play) + SECOND
    assert [handle(duel_in_play, now), handle(duel_in_play, now)] == [
        "timeout move",
        "nothing due",
    ]

    assert duel_in_play.moves.count() == 7
    assert (seat_of(duel_in_play, alice).missed, seat_of(duel_in_play, bob).missed) == (1, 0)
    duel_in_play.refresh_from_db()
    assert duel_in_play.grace_used is False


def test_a_game_that_ended_after_its_claim_is_left_alone(
    duel_in_play: Game, olga: User, bob: User
) -> None:
    now = deadline_of(duel_in_play) + SECOND
    services.sweep_deadlines(now=now)
    services.forfeit_seat(duel_in_play.pk, olga, seat_of(duel_in_play, bob).pk, "admin")
    before = snapshot(duel_in_play)

    assert handle(duel_in_play, now) == "nothing due"
    assert snapshot(duel_in_play) == before


def test_the_task_for_a_game_that_does_not_exist_is_refused(duel_in_play: Game) -> None:
    before = snapshot(duel_in_play)

    with pytest.raises(GameError, match="there is no such game"):
        services.handle_missed_decision(duel_in_play.pk + 1000, now=duel_in_play.deadline)
    assert snapshot(duel_in_play) == before


# --- organisers: pause, resume, extend -------------------------------------------------


def test_a_paused_game_is_not_claimed_and_resuming_shifts_its_deadline(
    clock: Clock, dice: LoadedDice, alice: User, bob: User, olga: User
) -> None:
    game = seated_game(dice, [alice, bob])  # started at the test clock's time
    deadline = deadline_of(game)
    clock.advance(timedelta(hours=1))
    services.pause_game(game.pk, olga)
    clock.advance(timedelta(days=3))  # paused past its deadline

    assert services.sweep_deadlines(now=clock.now()) == []

    services.resume_game(game.pk, olga)
    assert deadline_of(game) == deadline + timedelta(days=3)
    assert services.sweep_deadlines(now=clock.now()) == []
    assert services.sweep_deadlines(now=deadline + timedelta(days=3)) == [game.pk]


def test_a_game_paused_after_its_claim_is_left_alone_and_its_claim_cleared(
    duel_in_play: Game, olga: User
) -> None:
    now = deadline_of(duel_in_play) + SECOND
    assert services.sweep_deadlines(now=now) == [duel_in_play.pk]
    services.pause_game(duel_in_play.pk, olga)
    before = snapshot(duel_in_play)

    assert handle(duel_in_play, now) == "nothing due"

    assert snapshot(duel_in_play) == before
    assert duel_in_play.deadline_claimed_at is None and duel_in_play.grace_used is False


def test_extending_the_deadline_clears_the_claim(duel_in_play: Game, olga: User) -> None:
    deadline = deadline_of(duel_in_play)
    now = deadline + SECOND
    assert services.sweep_deadlines(now=now) == [duel_in_play.pk]

    services.extend_deadline(duel_in_play.pk, olga, timedelta(days=1))

    assert claims() == {duel_in_play.pk: None}
    assert deadline_of(duel_in_play) == deadline + timedelta(days=1)
    assert handle(duel_in_play, now) == "nothing due"
    assert duel_in_play.moves.count() == 6 and duel_in_play.grace_used is False
    assert services.sweep_deadlines(now=now) == []
    later = deadline + timedelta(days=1, seconds=1)
    assert services.sweep_deadlines(now=later) == [duel_in_play.pk]


# --- PostgreSQL: racing sweeps -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_racing_claim_each_due_game_exactly_once(
    postgres: BaseDatabaseWrapper,
    dice: LoadedDice,
    alice: User,
    bob: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handed: list[int] = []  # the ids each committed sweep hands to the policy's task
    monkeypatch.setattr(tasks.handle_missed_decision, "delay", handed.append)
    games = [seated_game(dice, [alice, bob], **HOURLY) for _ in range(50)]
    now = max(deadline_of(game) for game in games) + MINUTE
    barrier = threading.Barrier(2)
    swept: list[list[int]] = [[], []]
    errors: list[BaseException] = []

    def sweep(index: int) -> None:
        try:
            connection.ensure_connection()  # this thread's own connection, opened first
            barrier.wait(timeout=30)
            swept[index] = services.sweep_deadlines(now=now)
        except BaseException as error:  # reported to the test, never lost in a thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert errors == [] and not any(thread.is_alive() for thread in threads)
    assert not set(swept[0]) & set(swept[1])
    assert sorted(swept[0] + swept[1]) == sorted(game.pk for game in games)
    assert sorted(handed) == sorted(game.pk for game in games)
    assert set(claims().values()) == {now}
