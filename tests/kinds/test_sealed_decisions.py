"""A decision several players make at once, each sealed from the others until all are in:
the services take each player's decision in any order (from a form made since the
decision began), keep one deadline for all, remind, grant the grace, decide for those who
miss it and count it against them, let bots decide, and end the game by its kind's
finishing order. The game is a kind of these tests only (``tests.kinds.numbers``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from games import seen, selectors, services
from games.errors import NotYourDecision, StaleForm
from games.kinds import EVERYONE
from games.models import Game, Move
from games.options import GameOptions
from tests.games.factories import Clock, alice, bob, carol, clock
from tests.kinds.numbers import SEALED, SecretNumbers
from tests.kinds.registered import registered

__all__ = ["alice", "bob", "carol", "clock"]

pytestmark = pytest.mark.django_db

DAY_HALF = timedelta(hours=12)


@pytest.fixture(autouse=True)
def numbers() -> Iterator[SecretNumbers]:
    with registered(SecretNumbers()) as kind:
        yield kind


def started(numbers: SecretNumbers, clock: Clock, *players: User | str, rounds: int = 2) -> Game:
    """A game of secret numbers started as an event's or a ladder's table is: users take
    seats in order; a string seats a bot of that name."""
    seats = []
    for player in players:
        if isinstance(player, str):
            seats.append(services.TableSeat("", bot=player))
        else:
            player.email = ""  # the kind has no mails of its own here
            player.save()
            seats.append(services.TableSeat("", user=player))
    options = GameOptions(kind=numbers.key, rules={"rounds": rounds})
    with transaction.atomic():  # the bots play after this test's own first step
        game = services.create_table(options, seats, name="Numbers")
    game.refresh_from_db()
    return game


def deciding(game: Game) -> set[str]:
    game.refresh_from_db()
    return {seat.player_name for seat in selectors.waiting_seats(game)}


def test_every_player_decides_at_once_in_any_order(
    numbers: SecretNumbers, clock: Clock, alice: User, bob: User, carol: User
) -> None:
    game = started(numbers, clock, alice, bob, carol)
    assert game.status == Game.Status.PLAY and game.to_move is None
    assert deciding(game) == {"p1", "p2", "p3"}
    deadline = game.deadline
    assert deadline is not None

    clock.advance(DAY_HALF)
    services.submit_move(game.pk, bob, "pick 4", 0)  # bob first, from the decision's form
    assert deciding(game) == {"p1", "p3"}
    assert game.deadline == deadline, "the same decision: its deadline stands"
    with pytest.raises(NotYourDecision, match="the game waits for alice and carol"):
        services.submit_move(game.pk, bob, "pick 5", game.turn_number)

    services.submit_move(game.pk, alice, "pick 4", 0)  # a form made when it began
    services.submit_move(game.pk, carol, "pick 2", 0)
    game.refresh_from_db()
    reveal = game.moves.get(number=3).events[-1]
    assert reveal == {"type": "reveal", "picks": {"p2": 4, "p1": 4, "p3": 2}, "scorer": "p3"}
    assert deciding(game) == {"p1", "p2", "p3"}, "round 2: everyone decides again"
    assert game.decision_turn == 3 and game.deadline == clock.now() + game.decision_time
    with pytest.raises(StaleForm):
        services.submit_move(game.pk, alice, "pick 1", 2)  # made before this decision


def test_a_pick_is_sealed_from_the_others_until_all_are_in(
    numbers: SecretNumbers, clock: Clock, alice: User, bob: User
) -> None:
    game = started(numbers, clock, alice, bob)
    services.submit_move(game.pk, alice, "pick 5", 0)
    game.refresh_from_db()
    for_bob = seen.position(game, seen.viewer_of(game, bob))
    for_alice = seen.position(game, seen.viewer_of(game, alice))
    assert for_bob is not None and for_bob["picks"] == {"p1": SEALED}
    assert for_alice is not None and for_alice["picks"] == {"p1": 5}
    pick = seen.moves(game, seen.viewer_of(game, bob))[0]
    assert (pick.action, pick.events) == ("pick (sealed)", [])
    mine = seen.moves(game, seen.viewer_of(game, alice))[0]
    assert mine.action == "pick 5" and mine.events[0]["number"] == 5


def test_at_the_deadline_the_grace_then_a_default_for_each_who_missed(
    numbers: SecretNumbers, clock: Clock, alice: User, bob: User, carol: User
) -> None:
    game = started(numbers, clock, alice, bob, carol)
    services.submit_move(game.pk, bob, "pick 3", 0)
    game.refresh_from_db()
    clock.at = game.deadline + DAY_HALF / 12

    assert services.handle_missed_decision(game.pk) == "grace"
    game.refresh_from_db()
    assert deciding(game) == {"p1", "p3"} and game.grace_used
    clock.at = game.deadline + DAY_HALF / 12

    assert services.handle_missed_decision(game.pk) == "timeout move"
    game.refresh_from_db()
    timeouts = game.moves.filter(source=Move.Source.TIMEOUT)
    assert sorted(timeouts.values_list("seat__number", "action")) == [(1, "pick 1"), (3, "pick 1")]
    missed = dict(game.seats.values_list("number", "missed"))
    assert missed == {1: 1, 2: 0, 3: 1}
    assert game.moves.last().events[-1]["scorer"] == "p2"
    assert deciding(game) == {"p1", "p2", "p3"} and not game.grace_used


def test_bots_decide_beside_people_and_the_game_ends_in_its_own_order(
    numbers: SecretNumbers, clock: Clock, alice: User
) -> None:
    game = started(numbers, clock, alice, "random", rounds=2)
    services.play_bot_turns(game.pk)  # as after the commit that started it
    assert deciding(game) == {"p1"}, "the bot has picked; alice has not"
    services.submit_move(game.pk, alice, "pick 5", 0)
    services.play_bot_turns(game.pk)
    game.refresh_from_db()
    services.submit_move(game.pk, alice, "pick 5", game.turn_number)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    reveals = [
        m.events[-1] for m in game.moves.order_by("number") if m.events[-1]["type"] == "reveal"
    ]
    assert len(reveals) == 2
    points = {"p1": 0, "p2": 0}
    for reveal in reveals:
        if reveal["scorer"]:
            points[reveal["scorer"]] += 1
    ranks = dict(game.seats.values_list("number", "rank"))
    best = max(points.values())
    assert ranks == {
        1: 1 if points["p1"] == best else 2,
        2: 1 if points["p2"] == best else 2,
    }
    shown = seen.moves(game, seen.viewer_of(game, None))
    assert all("sealed" not in move.action for move in shown), "all is public at the end"
    record = seen.game_record(game, EVERYONE)
    assert record["kind"] == numbers.key and record["options"] == {"rounds": 2}
    assert record["initial_position"]["round"] == 1
    assert record["moves"][-1]["position"] == game.position, "the log replays to the end"


def test_a_forfeit_at_the_limit_leaves_the_others_deciding(
    numbers: SecretNumbers, clock: Clock, alice: User, bob: User, carol: User
) -> None:
    game = started(numbers, clock, alice, bob, carol, rounds=3)
    Game.objects.filter(pk=game.pk).update(missed_limit=1)
    services.submit_move(game.pk, alice, "pick 2", 0)
    services.submit_move(game.pk, bob, "pick 3", 0)
    game.refresh_from_db()
    clock.at = game.deadline + DAY_HALF
    services.handle_missed_decision(game.pk)  # the grace
    game.refresh_from_db()
    clock.at = game.deadline + DAY_HALF

    assert services.handle_missed_decision(game.pk) == "forfeit"
    game.refresh_from_db()
    assert game.moves.last().action == "forfeit p3"
    assert game.moves.last().events[-1]["picks"] == {"p1": 2, "p2": 3}
    assert deciding(game) == {"p1", "p2"} and game.status == Game.Status.PLAY


def test_a_game_of_another_kind_is_opened_joined_and_started_in_the_lobby(
    numbers: SecretNumbers, clock: Clock, alice: User, bob: User
) -> None:
    for user in (alice, bob):
        user.email = ""  # the kind has no mails of its own here
        user.save()
    options = GameOptions(kind=numbers.key, rules={"rounds": 1})
    with pytest.raises(services.GameError, match="a game has 2 to 4 players"):
        services.create_game(alice, options, seats=5)
    game = services.create_game(alice, options, seats=3)
    services.join_game(game.pk, bob)  # no home to choose: the kind has no seat roles
    with pytest.raises(services.GameError, match="unknown bot 'greedy'"):
        services.add_bot(game.pk, alice, "greedy")
    services.add_bot(game.pk, alice, "random")  # the last seat starts the game
    game.refresh_from_db()
    assert game.kind == numbers.key and game.status == Game.Status.PLAY
    assert game.start_record == [] and game.position["players"] == ["p1", "p2", "p3"]
    assert deciding(game) == {"p1", "p2", "p3"}
