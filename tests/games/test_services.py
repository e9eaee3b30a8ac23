"""The game services: every write to games, seats and moves, and every refusal.

Each refusal asserts its message and that nothing changed (see ``factories.snapshot``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games import services
from games.models import Game, Move, Seat
from games.options import LONGEST_EXTENSION
from games.services import GameError, NotYourDecision, StaleForm
from games.services.seeds import Recorded
from tests.games.factories import (
    CASUAL_SETUP,
    STRICT_SETUP,
    Clock,
    LoadedDice,
    play,
    seat_of,
    seated_game,
    snapshot,
)
from ww5 import engine
from ww5.engine.bots import BOTS

pytestmark = pytest.mark.django_db


User = AbstractBaseUser
CASUAL = {"setup": "casual"}
THREE_HOMES = ("north-america", "europe", "africa")  # blue, purple, red
CASUAL_SETUP_THREE = (
    CASUAL_SETUP["north-america"],
    CASUAL_SETUP["europe"],
    CASUAL_SETUP["africa"],
)
# Three rounds after a casual setup: purple, then red, leave their home continents.
EVERYONE_BUT_BLUE_LEAVES_HOME = (
    "grow alaska",
    "move scandinavia north-asia",
    "move northeast-africa southwest-australia",
    "grow alaska",
    "move southern-europe southwest-asia",
    "move south-africa argentina",
    "grow canada",
    "move western-europe brazil",  # purple is eliminated
    "move northwest-africa southern-europe",  # red is eliminated: blue wins (R26)
)


@pytest.fixture
def duel(dice: LoadedDice, alice: User, bob: User) -> Game:
    """alice (blue, first) against bob (purple), strict setup, just started."""
    return seated_game(dice, [alice, bob])


@pytest.fixture
def duel_in_play(duel: Game) -> Game:
    """The duel after its strict setup: alice to move."""
    return play(duel, *STRICT_SETUP)


def refused(call: Any, message: str, error: type[Exception] = GameError) -> None:
    with pytest.raises(error) as refusal:
        call()
    assert message in str(refusal.value)


# --- creating ------------------------------------------------------------------------


def test_the_creator_takes_the_first_seat_with_the_home_they_chose(alice: User) -> None:
    game = services.create_game(alice, name=" Friday game ", seats=3, home="europe")

    seat = game.seats.get()
    assert (seat.number, seat.user, seat.home, seat.player_name) == (1, alice, "europe", "purple")
    assert (game.name, game.status, game.seats_wanted, game.creator) == (
        "Friday game",
        Game.Status.OPEN,
        3,
        alice,
    )
    assert game.position is None and game.deadline is None


@pytest.mark.parametrize("seats", [1, 7])
def test_a_game_has_two_to_six_seats(alice: User, seats: int) -> None:
    refused(lambda: services.create_game(alice, seats=seats), "a game has 2 to 6 players")
    assert not Game.objects.exists()


def test_an_unknown_board_is_refused(alice: User) -> None:
    refused(lambda: services.create_game(alice, board="atlantis"), "unknown board 'atlantis'")
    assert not Game.objects.exists()


def test_less_than_a_minute_per_decision_is_refused(alice: User) -> None:
    refused(
        lambda: services.create_game(alice, decision_time=timedelta(seconds=59)),
        "allow at least a minute per decision",
    )
    assert not Game.objects.exists()


def test_less_than_a_minute_for_a_retreat_is_refused(alice: User) -> None:
    refused(
        lambda: services.create_game(alice, retreat_time=timedelta(seconds=30)),
        "per retreat",
    )
    assert not Game.objects.exists()


def test_a_forfeit_needs_at_least_one_missed_decision(alice: User) -> None:
    refused(lambda: services.create_game(alice, missed_limit=0), "at least one missed decision")
    assert not Game.objects.exists()


def test_a_game_keeps_its_retreat_time_and_missed_limit(alice: User) -> None:
    game = services.create_game(
        alice, home="north-america", retreat_time=timedelta(hours=3), missed_limit=5
    )
    assert (game.retreat_time, game.missed_limit) == (timedelta(hours=3), 5)


def test_an_unknown_home_continent_is_refused_and_no_game_is_left(alice: User) -> None:
    refused(
        lambda: services.create_game(alice, home="atlantis"),
        "'atlantis' is not a continent of this board",
    )
    assert not Game.objects.exists() and not Seat.objects.exists()


# --- joining and leaving -------------------------------------------------------------


def test_joining_takes_the_next_seat(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")

    seat = services.join_game(game.pk, bob, home="europe")

    assert (seat.number, seat.user, seat.home) == (2, bob, "europe")
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_a_private_game_needs_its_invite_link(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, is_public=False, home="north-america")
    before = snapshot(game)

    refused(
        lambda: services.join_game(game.pk, bob, home="europe"),
        "this game is private: you need its invite link",
    )
    refused(
        lambda: services.join_game(game.pk, bob, home="europe", invite_token="guess"),
        "this game is private: you need its invite link",
    )
    assert snapshot(game) == before

    services.join_game(game.pk, bob, home="europe", invite_token=game.invite_token)
    assert seat_of(game, bob).number == 2


def test_a_player_cannot_join_twice(alice: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    before = snapshot(game)

    refused(
        lambda: services.join_game(game.pk, alice, home="europe"),
        "you already have a seat in this game",
    )
    assert snapshot(game) == before


def test_a_home_already_taken_is_refused(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="europe")
    before = snapshot(game)

    refused(lambda: services.join_game(game.pk, bob, home="europe"), "Europe is taken")
    assert snapshot(game) == before


def test_players_who_choose_their_homes_must_choose_one(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="europe")
    before = snapshot(game)

    refused(lambda: services.join_game(game.pk, bob), "choose a home continent")
    assert snapshot(game) == before


def test_joining_a_game_that_does_not_exist_is_refused(bob: User) -> None:
    refused(lambda: services.join_game(404, bob, home="europe"), "there is no such game")


@pytest.mark.django_db(transaction=True)  # no test-wide transaction around it
def test_a_game_is_locked_only_inside_a_transaction(alice: User) -> None:
    game = services.create_game(alice, seats=2, home="europe")

    with pytest.raises(TransactionManagementError):
        services.lock_game(game.pk)
    with transaction.atomic():
        locked = services.lock_game(game.pk)
    assert (locked.pk, locked.name, locked.creator_id) == (game.pk, game.name, alice.pk)
    assert locked.created_at == game.created_at


def test_the_last_free_seat_starts_the_game(dice: LoadedDice, alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    dice.load(6, 1)

    services.join_game(game.pk, bob, home="europe")

    game.refresh_from_db()
    assert game.status == Game.Status.SETUP
    assert game.started_at is not None and game.deadline == game.started_at + game.decision_time
    assert game.to_move == seat_of(game, alice)
    assert game.turn_number == 0 and not game.moves.exists()
    assert services.state_of(game).phase == "setup"


def test_a_started_game_cannot_be_joined(duel: Game, carol: User) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.join_game(duel.pk, carol, home="africa"), "this game is no longer open"
    )
    assert snapshot(duel) == before


def test_a_player_can_leave_before_the_start(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    services.join_game(game.pk, bob, home="europe")

    services.leave_game(game.pk, bob)

    assert list(game.seats.values_list("user__username", flat=True)) == ["alice"]


def test_the_creator_cannot_leave_their_game(alice: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    before = snapshot(game)

    refused(lambda: services.leave_game(game.pk, alice), "you created this game: cancel it instead")
    assert snapshot(game) == before


def test_leaving_without_a_seat_is_refused(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    before = snapshot(game)

    refused(lambda: services.leave_game(game.pk, bob), "you have no seat in this game")
    assert snapshot(game) == before


def test_a_started_game_cannot_be_left(duel: Game, bob: User) -> None:
    before = snapshot(duel)

    refused(lambda: services.leave_game(duel.pk, bob), "a game that has started cannot be left")
    assert snapshot(duel) == before


# --- cancelling ----------------------------------------------------------------------


def test_the_creator_cancels_a_game_that_has_not_started(alice: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")

    services.cancel_game(game.pk, alice)

    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


def test_an_organiser_can_cancel_any_open_game(alice: User, olga: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")

    services.cancel_game(game.pk, olga)

    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


def test_only_the_creator_or_an_organiser_can_cancel(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    before = snapshot(game)

    refused(
        lambda: services.cancel_game(game.pk, bob),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(game) == before


def test_a_started_game_cannot_be_cancelled(duel: Game, alice: User) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.cancel_game(duel.pk, alice),
        "only a game that has not started can be cancelled",
    )
    assert snapshot(duel) == before


def test_a_cancelled_game_cannot_be_joined(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    services.cancel_game(game.pk, alice)
    before = snapshot(game)

    refused(lambda: services.join_game(game.pk, bob, home="europe"), "this game is no longer open")
    assert snapshot(game) == before


# --- homes ---------------------------------------------------------------------------


def test_random_homes_are_drawn_at_the_start_whatever_players_asked_for(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    game = services.create_game(alice, seats=3, home_assignment="random", home="europe")
    services.join_game(game.pk, bob, home="europe")
    assert list(game.seats.values_list("home", flat=True)) == ["", ""]

    services.join_game(game.pk, carol)

    game.refresh_from_db()
    homes = list(game.seats.values_list("home", flat=True))
    assert len(set(homes)) == 3 and set(homes) <= set(engine.BOARDS["original"].continents)
    position_homes = {p["name"]: p["home"] for p in game.position["players"]}
    assert position_homes == {s.player_name: s.home for s in game.seats.all()}


def test_random_homes_follow_the_dice(alice: User, bob: User, dice: LoadedDice) -> None:
    # drawn as the engines shuffle (Fisher–Yates from the end), from the game's dice
    expected = Recorded(LoadedDice(), 1).sample(list(engine.BOARDS["original"].continents), 2)
    game = services.create_game(alice, seats=2, home_assignment="random")

    services.join_game(game.pk, bob)

    assert list(game.seats.values_list("home", flat=True)) == expected


def test_an_assigned_game_waits_full_for_its_homes(alice: User, bob: User, carol: User) -> None:
    game = services.create_game(alice, seats=2, home_assignment="assigned", home="europe")

    services.join_game(game.pk, bob, home="africa")

    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    assert list(game.seats.values_list("home", flat=True)) == ["", ""]
    before = snapshot(game)
    refused(lambda: services.join_game(game.pk, carol), "this game is full")
    assert snapshot(game) == before


def test_the_organiser_assigns_homes_and_starts_the_game(
    dice: LoadedDice, alice: User, bob: User, olga: User
) -> None:
    game = services.create_game(alice, seats=2, home_assignment="assigned")
    services.join_game(game.pk, bob)

    services.assign_home(game.pk, olga, seat_of(game, alice).pk, "asia")
    services.assign_home(game.pk, olga, seat_of(game, bob).pk, "australia")
    services.assign_home(game.pk, olga, seat_of(game, bob).pk, "africa")  # changed her mind
    dice.load(1, 6)
    services.start_game(game.pk, olga)

    game.refresh_from_db()
    assert game.status == Game.Status.SETUP
    assert [(p["name"], p["home"]) for p in game.position["players"]] == [
        ("red", "africa"),
        ("yellow", "asia"),
    ]


def test_an_assigned_game_cannot_start_while_a_seat_has_no_home(
    alice: User, bob: User, olga: User
) -> None:
    game = services.create_game(alice, seats=2, home_assignment="assigned")
    services.join_game(game.pk, bob)
    services.assign_home(game.pk, olga, seat_of(game, alice).pk, "asia")
    before = snapshot(game)

    refused(lambda: services.start_game(game.pk, olga), "still without a home continent: bob")
    assert snapshot(game) == before


def test_only_an_organiser_assigns_homes(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=2, home_assignment="assigned")
    services.join_game(game.pk, bob)
    before = snapshot(game)

    refused(
        lambda: services.assign_home(game.pk, bob, seat_of(game, bob).pk, "asia"),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(game) == before


def test_assigning_a_taken_home_is_refused_and_keeps_the_old_one(
    alice: User, bob: User, olga: User
) -> None:
    game = services.create_game(alice, seats=2, home_assignment="assigned")
    services.join_game(game.pk, bob)
    services.assign_home(game.pk, olga, seat_of(game, alice).pk, "asia")
    services.assign_home(game.pk, olga, seat_of(game, bob).pk, "africa")
    before = snapshot(game)

    refused(
        lambda: services.assign_home(game.pk, olga, seat_of(game, bob).pk, "asia"), "Asia is taken"
    )
    assert snapshot(game) == before


def test_assigning_a_home_to_another_games_seat_is_refused(
    alice: User, bob: User, olga: User
) -> None:
    game = services.create_game(alice, seats=2, home_assignment="assigned")
    other = services.create_game(bob, seats=2, home_assignment="assigned")
    before = snapshot(game), snapshot(other)

    refused(
        lambda: services.assign_home(game.pk, olga, seat_of(other, bob).pk, "asia"),
        "there is no such seat in this game",
    )
    assert (snapshot(game), snapshot(other)) == before


def test_homes_are_fixed_once_the_game_has_started(duel: Game, olga: User, bob: User) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.assign_home(duel.pk, olga, seat_of(duel, bob).pk, "asia"),
        "homes are fixed once the game has started",
    )
    assert snapshot(duel) == before


# --- starting: the R5 roll -----------------------------------------------------------


def test_the_start_roll_is_recorded_and_the_highest_roller_moves_first(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    dice.load(2, 5)

    services.join_game(game.pk, bob, home="europe")

    game.refresh_from_db()
    assert game.start_record == [
        {"type": "start_roll", "rolls": {"blue": 2, "purple": 5}},
        {"type": "first_player", "player": "purple"},
    ]
    assert game.to_move == seat_of(game, bob)
    assert [p["name"] for p in game.position["players"]] == ["purple", "blue"]


def test_players_tied_for_the_highest_roll_roll_again_and_turns_follow_seat_order(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    dice.load(6, 6, 1, 3, 4)

    services.join_game(game.pk, carol, home="south-america")

    game.refresh_from_db()
    assert game.start_record == [
        {"type": "start_roll", "rolls": {"blue": 6, "purple": 6, "green": 1}},
        {"type": "start_roll", "rolls": {"blue": 3, "purple": 4}},
        {"type": "first_player", "player": "purple"},
    ]
    assert [p["name"] for p in game.position["players"]] == ["purple", "green", "blue"]


def test_the_organiser_starts_a_game_before_it_is_full(
    dice: LoadedDice, alice: User, bob: User, olga: User
) -> None:
    game = services.create_game(alice, seats=4, home="north-america")
    services.join_game(game.pk, bob, home="europe")

    services.start_game(game.pk, olga)

    game.refresh_from_db()
    assert (game.status, game.seats_wanted) == (Game.Status.SETUP, 2)


def test_a_game_needs_two_players_to_start(alice: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    before = snapshot(game)

    refused(lambda: services.start_game(game.pk, alice), "a game needs at least two players")
    assert snapshot(game) == before


def test_only_the_creator_or_an_organiser_starts_a_game(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    before = snapshot(game)

    refused(
        lambda: services.start_game(game.pk, bob),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(game) == before


def test_a_started_game_cannot_be_started_again(duel: Game, alice: User) -> None:
    before = snapshot(duel)

    refused(lambda: services.start_game(duel.pk, alice), "this game has already started")
    assert snapshot(duel) == before


# --- setup ---------------------------------------------------------------------------


def test_strict_setup_is_one_placement_at_a_time_smalls_then_mediums_then_larges(
    duel: Game, alice: User, bob: User
) -> None:
    waits_for = []
    for number, text in enumerate(STRICT_SETUP, start=1):
        waits_for.append(duel.to_move.user.username)
        duel = play(duel, text)
        assert duel.turn_number == number

    assert waits_for == ["alice", "bob"] * 3
    assert [m.action for m in duel.moves.all()] == list(STRICT_SETUP)
    assert duel.status == Game.Status.PLAY and duel.to_move == seat_of(duel, alice)


def test_strict_setup_refuses_a_medium_before_every_small_is_placed(
    duel: Game, alice: User
) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.submit_move(duel.pk, alice, "place medium canada", 0),
        "strict setup places all smalls now",
    )
    assert snapshot(duel) == before


def test_in_strict_setup_the_next_placement_is_the_other_players(duel: Game, alice: User) -> None:
    duel = play(duel, "place small alaska")
    before = snapshot(duel)

    refused(
        lambda: services.submit_move(duel.pk, alice, "place medium canada", 1),
        "it is not your decision: the game waits for bob",
        NotYourDecision,
    )
    assert snapshot(duel) == before


def test_casual_setup_places_all_three_pieces_in_one_decision(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = seated_game(dice, [alice, bob], first=1, **CASUAL)

    game = play(game, CASUAL_SETUP["europe"])
    assert game.status == Game.Status.SETUP and game.to_move == seat_of(game, alice)
    game = play(game, "P L usa, M canada, S alaska.")

    assert game.status == Game.Status.PLAY and game.to_move == seat_of(game, bob)
    assert game.moves.last().action == CASUAL_SETUP["north-america"]
    assert game.position["pieces"]["usa"] == {"player": "blue", "size": "large"}


def test_play_starts_with_the_first_player_after_setup(duel: Game, alice: User) -> None:
    duel = play(duel, *STRICT_SETUP)

    last = duel.moves.last()
    assert last.events[-1] == {"type": "play_starts", "player": "blue"}
    assert duel.position["phase"] == "play" and duel.to_move == seat_of(duel, alice)


# --- decisions -----------------------------------------------------------------------


def test_a_move_is_logged_with_who_what_dice_events_when_and_how(duel: Game, alice: User) -> None:
    start = timezone.now()

    decision = services.submit_move(duel.pk, alice, "P S Alaska", 0, source=Move.Source.EMAIL)

    move = Move.objects.get(game=duel)
    assert decision.move == move and decision.duplicate is False
    assert (move.number, move.seat, move.actor, move.source) == (
        1,
        seat_of(duel, alice),
        alice,
        "email",
    )
    assert move.action == "place small alaska"
    assert move.dice == []
    assert move.events == [{"type": "place", "player": "blue", "pieces": {"alaska": "small"}}]
    assert start <= move.created_at <= timezone.now()


def test_the_new_position_and_deadline_are_stored_with_the_move(
    duel: Game, alice: User, bob: User
) -> None:
    services.submit_move(duel.pk, alice, "place small alaska", 0)

    duel.refresh_from_db()
    move = duel.moves.get()
    assert duel.turn_number == 1 and duel.to_move == seat_of(duel, bob)
    assert duel.position["pieces"] == {"alaska": {"player": "blue", "size": "small"}}
    assert duel.deadline == move.created_at + duel.decision_time


def test_an_invade_records_the_dice_it_rolled(
    duel_in_play: Game, dice: LoadedDice, alice: User
) -> None:
    game = play(duel_in_play, "grow alaska", "move western-europe northwest-africa")
    dice.load(3, 3, 2, 5, 5, 1)

    services.submit_move(game.pk, alice, "attack USA > northwest africa", game.turn_number)

    move = game.moves.last()
    assert move.action == "invade usa northwest-africa"
    assert move.dice == [3, 3, 2, 5, 5, 1]
    combat = next(e for e in move.events if e["type"] == "combat")
    assert (combat["attacker_total"], combat["defender_total"]) == (8, 11)
    assert combat["winner"] == "defender"


def test_a_move_out_of_turn_is_refused_and_changes_nothing(duel_in_play: Game, bob: User) -> None:
    before = snapshot(duel_in_play)

    refused(
        lambda: services.submit_move(duel_in_play.pk, bob, "grow scandinavia", 6),
        "it is not your decision: the game waits for alice",
        NotYourDecision,
    )
    assert snapshot(duel_in_play) == before


def test_someone_without_a_seat_cannot_move(duel_in_play: Game, carol: User) -> None:
    before = snapshot(duel_in_play)

    refused(
        lambda: services.submit_move(duel_in_play.pk, carol, "grow alaska", 6),
        "you have no seat in this game",
        NotYourDecision,
    )
    assert snapshot(duel_in_play) == before


def test_a_stale_form_is_refused_and_changes_nothing(
    duel_in_play: Game, alice: User, bob: User
) -> None:
    game = play(duel_in_play, "grow alaska", "grow scandinavia", "grow alaska")
    before = snapshot(game)  # bob decides move 10; his form is from before move 7

    refused(
        lambda: services.submit_move(game.pk, bob, "grow scandinavia", 6),
        "the game has moved on since this form was made: nothing was changed",
        StaleForm,
    )
    assert snapshot(game) == before


def test_a_form_from_the_future_is_refused_as_stale(duel_in_play: Game, alice: User) -> None:
    before = snapshot(duel_in_play)

    refused(
        lambda: services.submit_move(duel_in_play.pk, alice, "grow alaska", 99),
        "the game has moved on since this form was made",
        StaleForm,
    )
    assert snapshot(duel_in_play) == before


def test_a_double_submit_returns_the_recorded_move_as_a_duplicate(
    duel_in_play: Game, alice: User
) -> None:
    first = services.submit_move(duel_in_play.pk, alice, "grow alaska", 6)
    after_first = snapshot(duel_in_play)

    again = services.submit_move(duel_in_play.pk, alice, "grow alaska", 6)

    assert again.duplicate is True and again.move == first.move
    assert snapshot(duel_in_play) == after_first


def test_a_second_tab_with_another_action_for_a_decided_turn_gets_the_recorded_move(
    duel_in_play: Game, alice: User
) -> None:
    first = services.submit_move(duel_in_play.pk, alice, "grow alaska", 6)
    after_first = snapshot(duel_in_play)

    other_tab = services.submit_move(duel_in_play.pk, alice, "grow canada", 6)

    assert other_tab.duplicate is True and other_tab.move == first.move
    assert other_tab.move.action == "grow alaska"
    assert snapshot(duel_in_play) == after_first


def test_an_illegal_move_is_refused_with_the_engines_reason_and_the_legal_actions(
    duel_in_play: Game, alice: User
) -> None:
    before = snapshot(duel_in_play)

    refused(
        lambda: services.submit_move(duel_in_play.pk, alice, "grow usa", 6),
        "grow usa: ",
    )
    with pytest.raises(GameError) as refusal:
        services.submit_move(duel_in_play.pk, alice, "build canada", 6)
    assert "Legal actions now:" in str(refusal.value) and "grow alaska" in str(refusal.value)
    assert snapshot(duel_in_play) == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<script>alert(1)</script>", "'<script' is not a verb"),
        ("move usa mars", "'mars' is not a territory"),
        ("forfeit purple", "'forfeit' is not a verb"),
        ("grow alaska; grow canada", "Legal actions now:"),
        ("", "Legal actions now:"),
    ],
)
def test_forged_text_is_refused_and_changes_nothing(
    duel_in_play: Game, alice: User, text: str, message: str
) -> None:
    before = snapshot(duel_in_play)

    refused(lambda: services.submit_move(duel_in_play.pk, alice, text, 6), message)
    assert snapshot(duel_in_play) == before


def test_a_game_that_has_not_started_takes_no_moves(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    before = snapshot(game)

    refused(
        lambda: services.submit_move(game.pk, alice, "place small alaska", 0),
        "this game is waiting for players",
        NotYourDecision,
    )
    assert snapshot(game) == before


def test_a_pending_retreat_is_the_defenders_decision(
    duel_in_play: Game, dice: LoadedDice, alice: User, bob: User
) -> None:
    game = play(duel_in_play, "move usa colombia", "move western-europe brazil")
    game = play(game, "invade colombia brazil @ 6 6 6 1 1 1", dice=dice)

    options = game.position["pending"]["retreat"]["options"]
    assert options == ["argentina", "south-africa", "usa", "western-europe"]
    assert game.to_move == seat_of(game, bob)
    before = snapshot(game)
    refused(
        lambda: services.submit_move(game.pk, alice, "grow alaska", game.turn_number),
        "it is not your decision: the game waits for bob",
        NotYourDecision,
    )
    assert snapshot(game) == before

    game = play(game, "retreat to south africa")
    assert game.moves.last().action == "retreat south-africa"
    assert game.position["pieces"]["brazil"] == {"player": "blue", "size": "large"}
    assert game.to_move == seat_of(game, bob)  # the turn passes from alice, the attacker


# --- organisers: moving for a player -------------------------------------------------


def test_an_organiser_makes_the_decision_of_the_player_the_game_waits_for(
    duel_in_play: Game, olga: User, alice: User
) -> None:
    move = services.move_on_behalf(duel_in_play.pk, olga, "grow alaska")

    assert (move.seat, move.actor, move.source, move.action) == (
        seat_of(duel_in_play, alice),
        olga,
        "admin",
        "grow alaska",
    )
    duel_in_play.refresh_from_db()
    assert duel_in_play.turn_number == 7


def test_only_an_organiser_moves_for_a_player(duel_in_play: Game, bob: User) -> None:
    before = snapshot(duel_in_play)

    refused(
        lambda: services.move_on_behalf(duel_in_play.pk, bob, "grow alaska"),
        "only an organiser can move for a player",
    )
    assert snapshot(duel_in_play) == before


def test_an_organisers_illegal_move_is_refused(duel_in_play: Game, olga: User) -> None:
    before = snapshot(duel_in_play)

    refused(lambda: services.move_on_behalf(duel_in_play.pk, olga, "grow usa"), "grow usa: ")
    assert snapshot(duel_in_play) == before


def test_an_organisers_stale_form_is_refused(duel_in_play: Game, olga: User) -> None:
    game = play(duel_in_play, "grow alaska")
    before = snapshot(game)

    refused(
        lambda: services.move_on_behalf(game.pk, olga, "grow alaska", turn_number=6),
        "the game has moved on since this form was made",
        StaleForm,
    )
    assert snapshot(game) == before


def test_no_one_can_be_moved_for_in_a_game_that_waits_for_no_decision(
    alice: User, olga: User
) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    before = snapshot(game)

    refused(
        lambda: services.move_on_behalf(game.pk, olga, "place small alaska"),
        "this game waits for no decision",
    )
    assert snapshot(game) == before


def test_a_player_whose_decision_the_organiser_made_gets_a_stale_form_not_a_duplicate(
    duel_in_play: Game, olga: User, alice: User
) -> None:
    services.move_on_behalf(duel_in_play.pk, olga, "grow alaska")
    before = snapshot(duel_in_play)

    refused(
        lambda: services.submit_move(duel_in_play.pk, alice, "grow canada", 6),
        "the game has moved on",
        StaleForm,
    )
    assert snapshot(duel_in_play) == before


# --- organisers: forfeits ------------------------------------------------------------


def test_an_organiser_forfeits_a_player_and_the_last_one_standing_wins(
    duel_in_play: Game, olga: User, alice: User, bob: User
) -> None:
    move = services.forfeit_seat(duel_in_play.pk, olga, seat_of(duel_in_play, bob).pk, "admin")

    assert (move.action, move.seat, move.actor, move.dice) == (
        "forfeit purple",
        seat_of(duel_in_play, bob),
        olga,
        [],
    )
    assert [e["type"] for e in move.events] == ["forfeit", "eliminated", "win"]
    duel_in_play.refresh_from_db()
    assert duel_in_play.status == Game.Status.OVER
    assert duel_in_play.winner == seat_of(duel_in_play, alice)
    assert (seat_of(duel_in_play, alice).rank, seat_of(duel_in_play, bob).rank) == (1, 2)
    assert duel_in_play.to_move is None and duel_in_play.deadline is None


def test_the_timeout_policy_forfeits_a_seat_without_an_organiser(
    duel_in_play: Game, bob: User
) -> None:
    move = services.forfeit_seat(duel_in_play.pk, None, seat_of(duel_in_play, bob).pk, "timeout")

    assert (move.source, move.actor) == ("timeout", None)


def test_only_an_organiser_forfeits_a_player(duel_in_play: Game, bob: User, alice: User) -> None:
    before = snapshot(duel_in_play)

    refused(
        lambda: services.forfeit_seat(duel_in_play.pk, bob, seat_of(duel_in_play, alice).pk, "web"),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(duel_in_play) == before


def test_no_one_forfeits_during_setup(duel: Game, olga: User, bob: User) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.forfeit_seat(duel.pk, olga, seat_of(duel, bob).pk, "admin"),
        "a player can forfeit only during play, not in setup",
    )
    assert snapshot(duel) == before


def test_a_player_already_out_cannot_forfeit(
    dice: LoadedDice, alice: User, bob: User, carol: User, olga: User
) -> None:
    game = seated_game(dice, [alice, bob, carol], homes=THREE_HOMES, **CASUAL)
    game = play(game, *CASUAL_SETUP_THREE)
    services.forfeit_seat(game.pk, olga, seat_of(game, carol).pk, "admin")
    before = snapshot(game)

    refused(
        lambda: services.forfeit_seat(game.pk, olga, seat_of(game, carol).pk, "admin"),
        "red is already out of the game",
    )
    assert snapshot(game) == before


def test_a_finished_or_abandoned_game_has_no_forfeits(
    duel_in_play: Game, olga: User, bob: User
) -> None:
    services.abandon_game(duel_in_play.pk, olga)
    before = snapshot(duel_in_play)

    refused(
        lambda: services.forfeit_seat(duel_in_play.pk, olga, seat_of(duel_in_play, bob).pk, "x"),
        "this game is abandoned",
    )
    assert snapshot(duel_in_play) == before


def test_a_seat_of_another_game_cannot_be_forfeited(
    duel_in_play: Game, dice: LoadedDice, carol: User, dave: User, olga: User
) -> None:
    other = seated_game(dice, [carol, dave])
    before = snapshot(duel_in_play)

    refused(
        lambda: services.forfeit_seat(duel_in_play.pk, olga, seat_of(other, dave).pk, "admin"),
        "there is no such seat in this game",
    )
    assert snapshot(duel_in_play) == before


# --- organisers: pausing and deadlines -----------------------------------------------


def test_a_paused_game_refuses_moves(duel_in_play: Game, olga: User, alice: User) -> None:
    services.pause_game(duel_in_play.pk, olga)
    before = snapshot(duel_in_play)

    refused(
        lambda: services.submit_move(duel_in_play.pk, alice, "grow alaska", 6),
        "this game is paused by an organiser",
        NotYourDecision,
    )
    assert snapshot(duel_in_play) == before


def test_resuming_moves_the_deadline_on_by_the_time_the_game_was_paused(
    clock: Clock, duel_in_play: Game, olga: User, alice: User
) -> None:
    deadline = duel_in_play.deadline
    services.pause_game(duel_in_play.pk, olga)
    duel_in_play.refresh_from_db()
    assert duel_in_play.paused_at == clock.now()

    clock.advance(timedelta(hours=3, minutes=20))
    services.resume_game(duel_in_play.pk, olga)

    duel_in_play.refresh_from_db()
    assert duel_in_play.deadline == deadline + timedelta(hours=3, minutes=20)
    assert duel_in_play.paused_at is None
    services.submit_move(duel_in_play.pk, alice, "grow alaska", 6)
    assert duel_in_play.moves.count() == 7


def test_only_a_running_game_can_be_paused(alice: User, duel: Game, olga: User) -> None:
    open_game = services.create_game(alice, seats=3, home="north-america")
    services.pause_game(duel.pk, olga)
    before = snapshot(open_game), snapshot(duel)

    refused(lambda: services.pause_game(open_game.pk, olga), "only a running game can be paused")
    refused(lambda: services.pause_game(duel.pk, olga), "only a running game can be paused")
    assert (snapshot(open_game), snapshot(duel)) == before


def test_a_game_that_is_not_paused_cannot_be_resumed(duel: Game, olga: User) -> None:
    before = snapshot(duel)

    refused(lambda: services.resume_game(duel.pk, olga), "this game is not paused")
    assert snapshot(duel) == before


def test_only_an_organiser_pauses_and_resumes(duel: Game, bob: User, olga: User) -> None:
    before = snapshot(duel)
    refused(
        lambda: services.pause_game(duel.pk, bob),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(duel) == before

    services.pause_game(duel.pk, olga)
    paused = snapshot(duel)
    refused(
        lambda: services.resume_game(duel.pk, bob),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(duel) == paused


def test_an_organiser_extends_the_deadline(duel: Game, olga: User) -> None:
    deadline = duel.deadline

    services.extend_deadline(duel.pk, olga, timedelta(days=1))

    duel.refresh_from_db()
    assert duel.deadline == deadline + timedelta(days=1)


@pytest.mark.parametrize("extra", [timedelta(0), timedelta(hours=-1)])
def test_an_extension_must_be_positive(duel: Game, olga: User, extra: timedelta) -> None:
    before = snapshot(duel)

    refused(lambda: services.extend_deadline(duel.pk, olga, extra), "an extension must be positive")
    assert snapshot(duel) == before


def test_an_extension_past_the_longest_at_once_is_refused_by_the_service_too(
    duel: Game, olga: User
) -> None:
    # Point 8: a duration an organiser types is bounded in the service, not only in the
    # admin's form, so no caller saves a deadline the site cannot add to.
    before = snapshot(duel)

    for extra in (LONGEST_EXTENSION + timedelta(seconds=1), timedelta(days=999_999_999)):
        refused(
            lambda extra=extra: services.extend_deadline(duel.pk, olga, extra),
            "an extension is at most 365 days at once",
        )
    assert snapshot(duel) == before
    services.extend_deadline(duel.pk, olga, LONGEST_EXTENSION)  # the longest is allowed
    duel.refresh_from_db()
    assert duel.deadline == before["deadline"] + LONGEST_EXTENSION


def test_a_game_without_a_running_deadline_cannot_be_extended(alice: User, olga: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    before = snapshot(game)

    refused(
        lambda: services.extend_deadline(game.pk, olga, timedelta(days=1)),
        "this game has no deadline running",
    )
    assert snapshot(game) == before


def test_only_an_organiser_extends_a_deadline(duel: Game, bob: User) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.extend_deadline(duel.pk, bob, timedelta(days=1)),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(duel) == before


# --- organisers: replacing and abandoning --------------------------------------------


def test_a_replacement_takes_over_the_seat_with_its_pieces_and_colour(
    duel_in_play: Game, olga: User, bob: User, carol: User
) -> None:
    game = play(duel_in_play, "grow alaska")
    seat = seat_of(game, bob)
    before = snapshot(game)

    services.replace_player(game.pk, olga, seat.pk, carol)

    seat.refresh_from_db()
    assert (seat.user, seat.number, seat.home, seat.player_name) == (carol, 2, "europe", "purple")
    after = snapshot(game)
    assert {k: v for k, v in after.items() if k != "seats"} == {
        k: v for k, v in before.items() if k != "seats"
    }
    refused(
        lambda: services.submit_move(game.pk, bob, "grow scandinavia", 7),
        "you have no seat in this game",
        NotYourDecision,
    )
    services.submit_move(game.pk, carol, "grow scandinavia", 7)
    assert game.moves.last().seat == seat


def test_a_player_who_already_has_a_seat_cannot_replace_another(
    duel: Game, olga: User, alice: User, bob: User
) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.replace_player(duel.pk, olga, seat_of(duel, bob).pk, alice),
        "alice already has a seat in this game",
    )
    assert snapshot(duel) == before


def test_a_seat_of_another_game_cannot_be_given_away(
    duel: Game, carol: User, dave: User, olga: User
) -> None:
    other = services.create_game(carol, seats=2, home="asia")
    before = snapshot(duel), snapshot(other)

    refused(
        lambda: services.replace_player(duel.pk, olga, seat_of(other, carol).pk, dave),
        "there is no such seat in this game",
    )
    assert (snapshot(duel), snapshot(other)) == before


def test_only_an_organiser_replaces_a_player(duel: Game, bob: User, carol: User) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.replace_player(duel.pk, bob, seat_of(duel, bob).pk, carol),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(duel) == before


def test_players_of_a_finished_game_cannot_be_replaced(
    duel_in_play: Game, olga: User, bob: User, carol: User
) -> None:
    services.forfeit_seat(duel_in_play.pk, olga, seat_of(duel_in_play, bob).pk, "admin")
    before = snapshot(duel_in_play)

    refused(
        lambda: services.replace_player(
            duel_in_play.pk, olga, seat_of(duel_in_play, bob).pk, carol
        ),
        "this game is finished",
    )
    assert snapshot(duel_in_play) == before


def test_abandoning_stops_the_game(duel_in_play: Game, olga: User, alice: User) -> None:
    services.abandon_game(duel_in_play.pk, olga)

    duel_in_play.refresh_from_db()
    assert duel_in_play.status == Game.Status.ABANDONED
    assert duel_in_play.to_move is None and duel_in_play.deadline is None
    assert duel_in_play.finished_at is not None
    before = snapshot(duel_in_play)
    refused(
        lambda: services.submit_move(duel_in_play.pk, alice, "grow alaska", 6),
        "this game is abandoned",
        NotYourDecision,
    )
    refused(
        lambda: services.move_on_behalf(duel_in_play.pk, olga, "grow alaska"),
        "this game waits for no decision",
    )
    assert snapshot(duel_in_play) == before


def test_only_an_organiser_abandons_a_game(duel: Game, bob: User) -> None:
    before = snapshot(duel)

    refused(
        lambda: services.abandon_game(duel.pk, bob),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(duel) == before


def test_a_finished_game_cannot_be_abandoned(duel_in_play: Game, olga: User, bob: User) -> None:
    services.forfeit_seat(duel_in_play.pk, olga, seat_of(duel_in_play, bob).pk, "admin")
    before = snapshot(duel_in_play)

    refused(lambda: services.abandon_game(duel_in_play.pk, olga), "this game is already finished")
    assert snapshot(duel_in_play) == before


# --- the end: winners and ranks (R24-R28, R31) ---------------------------------------


@pytest.fixture
def three(dice: LoadedDice, alice: User, bob: User, carol: User) -> Game:
    """alice (blue, first), bob (purple), carol (red), after a casual setup."""
    game = seated_game(dice, [alice, bob, carol], homes=THREE_HOMES, **CASUAL)
    return play(game, *CASUAL_SETUP_THREE)


def ranks(game: Game) -> dict[str, int | None]:
    return {s.user.username: s.rank for s in game.seats.all()}


def test_a_full_game_ends_with_its_winner_ranked_first(
    duel: Game, dice: LoadedDice, alice: User, bob: User
) -> None:
    greedy = BOTS["greedy"]
    for _ in range(500):
        duel.refresh_from_db()
        if duel.status == Game.Status.OVER:
            break
        action = greedy(services.state_of(duel), dice)
        services.submit_move(duel.pk, duel.to_move.user, action, duel.turn_number)

    assert duel.status == Game.Status.OVER
    assert duel.winner is not None and duel.winner.rank == 1
    assert sorted(ranks(duel).values()) == [1, 2]
    assert duel.to_move is None and duel.deadline is None and duel.finished_at is not None
    assert duel.moves.count() == duel.turn_number
    assert duel.moves.last().events[-1]["type"] == "win"
    assert duel.position["winner"] == duel.winner.player_name


def test_players_still_in_the_game_rank_together_after_the_winner(three: Game) -> None:
    game = play(
        three,
        *(
            "move usa brazil",
            "move scandinavia north-asia",
            "move northeast-africa southwest-asia",
            "move canada usa",
            "move north-asia scandinavia",
            "move southwest-asia northeast-africa",
            "move usa colombia",
            "move scandinavia north-asia",
            "move northeast-africa southwest-asia",
            "build usa",
            "move north-asia scandinavia",
            "move southwest-asia northeast-africa",
            "move brazil argentina",
            "move scandinavia north-asia",
            "move northeast-africa southwest-asia",
            "move usa brazil",  # blue holds South America (R25)
        ),
    )

    assert game.status == Game.Status.OVER and game.winner.user.username == "alice"
    assert ranks(game) == {"alice": 1, "bob": 2, "carol": 2}


def test_the_later_a_player_is_eliminated_the_better_they_rank(three: Game) -> None:
    game = play(three, *EVERYONE_BUT_BLUE_LEAVES_HOME)

    assert game.winner.user.username == "alice"
    assert ranks(game) == {"alice": 1, "carol": 2, "bob": 3}


def test_players_eliminated_together_tie(three: Game, dice: LoadedDice) -> None:
    game = play(
        three,
        "move canada north-asia",
        "move southern-europe southwest-asia",
        "grow northeast-africa",
        "move alaska southeast-asia",
        "move scandinavia canada",
        "grow northeast-africa",
        "invade usa western-europe @ 6 6 6 1 1 1",  # out of blue's last home territory
        "retreat brazil",  # out of purple's: both are eliminated at once (R24)
        dice=dice,
    )

    assert game.moves.last().events[-2:] == [
        {"type": "eliminated", "players": ["blue", "purple"]},
        {"type": "win", "player": "red", "reason": "last_player"},
    ]
    assert ranks(game) == {"carol": 1, "alice": 2, "bob": 2}


def test_an_r24_draw_has_no_winner_and_both_players_share_first_place(
    duel_in_play: Game, dice: LoadedDice
) -> None:
    game = play(
        duel_in_play,
        "move canada north-asia",
        "move southern-europe northeast-africa",
        "move alaska southeast-asia",
        "move scandinavia canada",
        "invade usa western-europe @ 6 6 6 1 1 1",
        "retreat brazil",
        dice=dice,
    )

    assert game.status == Game.Status.OVER and game.winner is None
    assert game.position["winner"] is None and game.position["pieces"] == {}
    assert game.moves.last().events[-1] == {"type": "draw", "players": ["blue", "purple"]}
    assert ranks(game) == {"alice": 1, "bob": 1}


def test_r31_a_forfeiter_ranks_below_a_player_eliminated_earlier_in_play(
    three: Game, olga: User, carol: User
) -> None:
    game = play(three, *EVERYONE_BUT_BLUE_LEAVES_HOME[:8])  # purple is out; red to move

    services.forfeit_seat(game.pk, olga, seat_of(game, carol).pk, "admin")

    game.refresh_from_db()
    assert game.winner.user.username == "alice"
    assert ranks(game) == {"alice": 1, "bob": 2, "carol": 3}


def test_r31_of_two_forfeiters_the_later_ranks_better(
    three: Game, olga: User, bob: User, carol: User
) -> None:
    services.forfeit_seat(three.pk, olga, seat_of(three, bob).pk, "admin")
    services.forfeit_seat(three.pk, olga, seat_of(three, carol).pk, "admin")

    three.refresh_from_db()
    assert three.winner.user.username == "alice"
    assert ranks(three) == {"alice": 1, "carol": 2, "bob": 3}


def test_a_finished_game_takes_no_more_moves(duel_in_play: Game, olga: User, bob: User) -> None:
    services.forfeit_seat(duel_in_play.pk, olga, seat_of(duel_in_play, bob).pk, "admin")
    duel_in_play.refresh_from_db()
    before = snapshot(duel_in_play)

    refused(
        lambda: services.submit_move(
            duel_in_play.pk, duel_in_play.winner.user, "grow alaska", duel_in_play.turn_number
        ),
        "this game is finished",
        NotYourDecision,
    )
    assert snapshot(duel_in_play) == before


# --- bots ----------------------------------------------------------------------------


def test_a_game_against_bots_waits_only_for_the_human(
    dice: LoadedDice,
    alice: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    dice.seed(1)  # dice with which the game lasts the twelve decisions below
    game = services.create_game(alice, seats=3, home="north-america")
    services.add_bot(game.pk, alice, "greedy", home="europe")
    dice.load(1, 6, 2)  # the greedy bot starts; then the random bot, then alice
    with django_capture_on_commit_callbacks(execute=True):
        services.add_bot(game.pk, alice, "random", home="asia")  # the game starts

    game.refresh_from_db()
    assert [m.seat.bot for m in game.moves.all()] == ["greedy", "random"]
    assert game.to_move == seat_of(game, alice)
    for _ in range(12):
        mine = game.turn_number + 1
        action = BOTS["greedy"](services.state_of(game), dice)
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_move(game.pk, alice, action, game.turn_number)

        game.refresh_from_db()
        assert game.to_move == seat_of(game, alice)
        # Every decision since alice's is a bot's; there may be none, as after a retreat
        # of alice's the turn can pass straight back to her (R8a).
        assert all(m.source == Move.Source.BOT for m in game.moves.filter(number__gt=mine))
    assert game.moves.filter(source=Move.Source.WEB).count() == 12
    assert game.moves.filter(source=Move.Source.BOT).count() >= 12


def test_an_organiser_cannot_move_for_a_player_in_a_paused_game(alice: User, olga: User) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    services.join_game(game.pk, olga, home="europe")
    services.pause_game(game.pk, alice)
    game.refresh_from_db()
    before = snapshot(game)

    refused(lambda: services.move_on_behalf(game.pk, olga, "place small alaska"), "paused")
    assert snapshot(game) == before


def test_bots_wait_while_the_game_is_paused_and_play_on_when_it_resumes(
    dice: LoadedDice,
    alice: User,
    olga: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    dice.load(6, 1)
    services.add_bot(game.pk, alice, "greedy", home="europe")
    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        services.submit_move(game.pk, alice, "place small alaska", 0)
    services.pause_game(game.pk, olga)
    for callback in after_commit:  # the bots' task runs only once the game is paused
        callback()
    game.refresh_from_db()
    assert game.to_move.bot == "greedy" and game.moves.count() == 1

    with django_capture_on_commit_callbacks(execute=True):
        services.resume_game(game.pk, olga)
    game.refresh_from_db()
    assert game.to_move == seat_of(game, alice) and game.moves.count() == 2


def test_an_unknown_bot_is_refused(alice: User) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    before = snapshot(game)

    refused(lambda: services.add_bot(game.pk, alice, "genius", home="europe"), "unknown bot")
    assert snapshot(game) == before


def test_only_the_creator_or_an_organiser_adds_bots(alice: User, bob: User) -> None:
    game = services.create_game(alice, seats=3, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    before = snapshot(game)

    refused(
        lambda: services.add_bot(game.pk, bob, "greedy", home="asia"),
        "only the game's creator or an organiser can do that",
    )
    assert snapshot(game) == before


# --- reading -------------------------------------------------------------------------


def test_a_private_game_is_seen_by_its_players_organisers_and_invitees(
    alice: User, bob: User, carol: User, olga: User
) -> None:
    game = services.create_game(alice, seats=3, is_public=False, home="north-america")
    services.join_game(game.pk, bob, home="europe", invite_token=game.invite_token)

    assert services.can_see(game, alice) and services.can_see(game, bob)
    assert services.can_see(game, olga)
    assert not services.can_see(game, carol)
    assert services.can_see(game, carol, invite_token=game.invite_token)
    assert not services.can_see(game, None)


def test_seat_for_finds_the_users_seat(duel: Game, alice: User, carol: User) -> None:
    assert services.seat_for(duel, alice) == seat_of(duel, alice)
    assert services.seat_for(duel, carol) is None
    assert services.seat_for(duel, None) is None
