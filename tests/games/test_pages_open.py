"""An open game's page: joining, leaving, starting, cancelling, bots, assigned homes,
and private games (invite links)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from accounts.services import update_profile
from games import services
from games.models import Game, Seat
from tests.games import test_pages_support as support
from tests.games.test_pages_support import client_for, messages_of

pytestmark = pytest.mark.django_db

alice, bob, carol, olga = support.alice, support.bob, support.carol, support.olga


@pytest.fixture
def game(alice: AbstractBaseUser) -> Game:
    """Alice's open public game for three, homes chosen in join order."""
    return support.open_game(alice, seats=3)


def post(client: Client, name: str, game: Game, **data: Any) -> Any:
    return client.post(reverse(f"games:{name}", args=[game.pk]), data, follow=True)


def seats_of(game: Game) -> list[tuple[str, str, str]]:
    return [
        (s.user.username if s.user else "", s.bot, s.home)
        for s in game.seats.select_related("user").order_by("number")
    ]


def status_of(game: Game) -> str:
    game.refresh_from_db()
    return game.status


# --- joining and leaving -------------------------------------------------------------


def test_a_player_joins_with_a_free_home(game: Game, bob: AbstractBaseUser) -> None:
    response = post(client_for(bob), "join", game, home="europe")

    assert messages_of(response) == ["You joined “Blue against purple”."]
    assert seats_of(game)[-1] == ("bob", "", "europe")


def test_the_join_form_offers_only_the_free_homes(game: Game, bob: AbstractBaseUser) -> None:
    content = client_for(bob).get(reverse("games:detail", args=[game.pk])).content.decode()

    assert 'value="europe"' in content
    assert '<option value="north-america">' not in content
    assert "Join this game" in content


def test_joining_without_a_home_when_homes_are_chosen_is_refused(
    game: Game, bob: AbstractBaseUser
) -> None:
    response = post(client_for(bob), "join", game)

    assert any("choose a free home continent" in m for m in messages_of(response))
    assert len(seats_of(game)) == 1


def test_joining_with_a_taken_home_is_refused(game: Game, bob: AbstractBaseUser) -> None:
    response = post(client_for(bob), "join", game, home="north-america")

    assert any("choose a free home continent" in m for m in messages_of(response))
    assert len(seats_of(game)) == 1


def test_joining_twice_is_refused(game: Game, bob: AbstractBaseUser) -> None:
    post(client_for(bob), "join", game, home="europe")

    response = post(client_for(bob), "join", game, home="asia")

    assert any("you already have a seat in this game" in m for m in messages_of(response))
    assert len(seats_of(game)) == 2


def test_the_last_seat_starts_the_game(alice: AbstractBaseUser, bob: AbstractBaseUser) -> None:
    two = support.open_game(alice)

    response = post(client_for(bob), "join", two, home="europe")

    assert status_of(two) == Game.Status.SETUP
    content = response.content.decode()
    assert "Start roll:" in content
    assert "Your decision" in content or "The game waits for" in content


def test_a_full_game_refuses_another_player(
    alice: AbstractBaseUser, bob: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    two = support.started_game(alice, bob)

    response = post(client_for(carol), "join", two, home="asia")

    assert any("this game is no longer open" in m for m in messages_of(response))
    assert len(seats_of(two)) == 2


def test_a_player_leaves_an_open_game(game: Game, bob: AbstractBaseUser) -> None:
    services.join_game(game.pk, bob, home="europe")

    response = post(client_for(bob), "leave", game)

    assert messages_of(response) == ["You left “Blue against purple”."]
    assert seats_of(game) == [("alice", "", "north-america")]


def test_the_creator_cannot_leave_but_cancels(game: Game, alice: AbstractBaseUser) -> None:
    response = post(client_for(alice), "leave", game)

    assert any("you created this game: cancel it instead" in m for m in messages_of(response))
    assert len(seats_of(game)) == 1


def test_leaving_a_game_without_a_seat_is_refused(game: Game, carol: AbstractBaseUser) -> None:
    response = post(client_for(carol), "leave", game)

    assert any("you have no seat in this game" in m for m in messages_of(response))
    assert len(seats_of(game)) == 1


# --- the creator's controls ----------------------------------------------------------


def test_the_creator_starts_a_game_before_it_is_full(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    services.join_game(game.pk, bob, home="europe")

    response = post(client_for(alice), "start", game)

    assert messages_of(response) == ["The game has started: setup begins."]
    assert status_of(game) == Game.Status.SETUP


def test_only_the_creator_starts_a_game(game: Game, bob: AbstractBaseUser) -> None:
    services.join_game(game.pk, bob, home="europe")

    response = post(client_for(bob), "start", game)

    assert any("only the game's creator or an organiser" in m for m in messages_of(response))
    assert status_of(game) == Game.Status.OPEN


def test_a_game_with_one_player_cannot_start(game: Game, alice: AbstractBaseUser) -> None:
    response = post(client_for(alice), "start", game)

    assert any("a game needs at least two players" in m for m in messages_of(response))
    assert status_of(game) == Game.Status.OPEN


def test_cancelling_asks_first_with_a_box_the_browser_requires(
    game: Game, alice: AbstractBaseUser
) -> None:
    content = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()

    start = content.index('class="cancel-game"')
    form = content[start : content.index("</form>", start)]
    assert '<input type="checkbox" name="sure" required>' in form
    assert "Yes, cancel this game for everyone" in form


def test_a_cancel_without_the_box_ticked_changes_nothing(
    game: Game, alice: AbstractBaseUser
) -> None:
    response = post(client_for(alice), "cancel", game)

    assert messages_of(response) == [
        "Refused: tick “Yes, cancel this game for everyone” to cancel it. Nothing was changed."
    ]
    assert status_of(game) == Game.Status.OPEN


def test_the_creator_cancels_an_open_game(game: Game, alice: AbstractBaseUser) -> None:
    response = post(client_for(alice), "cancel", game, sure="on")

    assert messages_of(response) == ["The game was cancelled."]
    assert status_of(game) == Game.Status.CANCELLED
    assert "This game was cancelled before it started." in response.content.decode()


def test_another_player_cannot_cancel(game: Game, bob: AbstractBaseUser) -> None:
    response = post(client_for(bob), "cancel", game, sure="on")

    assert any("only the game's creator or an organiser" in m for m in messages_of(response))
    assert status_of(game) == Game.Status.OPEN


def test_a_started_game_cannot_be_cancelled(alice: AbstractBaseUser, bob: AbstractBaseUser) -> None:
    two = support.started_game(alice, bob)

    response = post(client_for(alice), "cancel", two, sure="on")

    assert any("only a game that has not started" in m for m in messages_of(response))
    assert status_of(two) == Game.Status.SETUP


def test_the_creator_adds_a_greedy_bot_with_a_home(game: Game, alice: AbstractBaseUser) -> None:
    response = post(client_for(alice), "add_bot", game, bot="greedy", home="asia")

    assert messages_of(response) == ["Greedy bot 2 took a seat."]
    assert seats_of(game)[-1] == ("", "greedy", "asia")


def test_a_bot_of_an_unknown_kind_is_refused(game: Game, alice: AbstractBaseUser) -> None:
    response = post(client_for(alice), "add_bot", game, bot="genius", home="asia")

    assert any("the bot form is not complete" in m for m in messages_of(response))
    assert len(seats_of(game)) == 1


def test_only_the_creator_adds_bots(game: Game, carol: AbstractBaseUser) -> None:
    response = post(client_for(carol), "add_bot", game, bot="random", home="asia")

    assert any("only the game's creator or an organiser" in m for m in messages_of(response))
    assert len(seats_of(game)) == 1


def test_the_creator_sees_the_controls_and_others_do_not(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    url = reverse("games:detail", args=[game.pk])
    mine = client_for(alice).get(url).content.decode()
    theirs = client_for(bob).get(url).content.decode()

    for control in ("games:add_bot", "games:cancel"):
        action = reverse(control, args=[game.pk])
        assert action in mine and action not in theirs
    assert reverse("games:join", args=[game.pk]) in theirs


@pytest.fixture
def assigned(alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Alice's game for three with homes assigned by her; bob has joined."""
    game = services.create_game(alice, seats=3, home_assignment="assigned")
    services.join_game(game.pk, bob)
    return game


def test_the_creator_assigns_homes_then_starts(
    assigned: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    client = client_for(alice)
    seats = list(assigned.seats.order_by("number"))

    post(client, "assign_home", assigned, seat=seats[0].pk, home="asia")
    response = post(client, "assign_home", assigned, seat=seats[1].pk, home="africa")
    post(client, "start", assigned)

    assert messages_of(response) == ["The home continent was assigned."]
    assert [home for _, _, home in seats_of(assigned)] == ["asia", "africa"]
    assert status_of(assigned) == Game.Status.SETUP


def test_a_refusal_ending_with_a_name_gets_one_full_stop(
    assigned: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    update_profile(bob, "Bob B.", "UTC", "each")

    response = post(client_for(alice), "start", assigned)

    assert messages_of(response) == [
        "Refused: still without a home continent: Alice, Bob B. Nothing was changed."
    ]


def test_assigning_homes_is_the_creators_job(assigned: Game, bob: AbstractBaseUser) -> None:
    seat = assigned.seats.get(user=bob)

    response = post(client_for(bob), "assign_home", assigned, seat=seat.pk, home="asia")

    assert any("only the game's creator or an organiser" in m for m in messages_of(response))
    assert Seat.objects.get(pk=seat.pk).home == ""


def test_assigning_a_seat_of_another_game_is_refused(
    assigned: Game, alice: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    other = services.create_game(carol, home="asia")

    response = post(
        client_for(alice), "assign_home", assigned, seat=other.seats.get().pk, home="europe"
    )

    assert any("choose a seat and a continent" in m for m in messages_of(response))
    assert other.seats.get().home == "asia"


def test_the_assign_form_shows_in_assigned_mode_only(
    assigned: Game, game: Game, alice: AbstractBaseUser
) -> None:
    client = client_for(alice)

    assert reverse("games:assign_home", args=[assigned.pk]) in (
        client.get(reverse("games:detail", args=[assigned.pk])).content.decode()
    )
    assert reverse("games:assign_home", args=[game.pk]) not in (
        client.get(reverse("games:detail", args=[game.pk])).content.decode()
    )


@pytest.mark.parametrize("name", ["join", "leave", "start", "cancel", "add_bot", "assign_home"])
def test_every_open_game_action_needs_sign_in_and_a_post(
    game: Game, alice: AbstractBaseUser, name: str
) -> None:
    url = reverse(f"games:{name}", args=[game.pk])

    anonymous = Client().post(url, {"home": "europe", "bot": "greedy"})
    wrong_method = client_for(alice).get(url)

    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("account_login"))
    assert wrong_method.status_code == 405
    assert status_of(game) == Game.Status.OPEN
    assert len(seats_of(game)) == 1


# --- private games -------------------------------------------------------------------


@pytest.fixture
def private(alice: AbstractBaseUser) -> Game:
    return support.open_game(alice, name="Invitation only", is_public=False)


def _pages(game: Game) -> list[str]:
    return [
        reverse("games:detail", args=[game.pk]),
        reverse("games:replay", args=[game.pk]),
        reverse("games:record", args=[game.pk]),
    ]


def test_a_private_game_is_not_found_by_strangers_or_anonymous_visitors(
    private: Game, carol: AbstractBaseUser
) -> None:
    for client in (Client(), client_for(carol)):
        for url in _pages(private):
            assert client.get(url).status_code == 404
    assert "Invitation only" not in Client().get(reverse("games:lobby")).content.decode()


def test_a_stranger_cannot_join_a_private_game_without_the_invite(
    private: Game, carol: AbstractBaseUser
) -> None:
    response = client_for(carol).post(reverse("games:join", args=[private.pk]), {"home": "asia"})

    assert response.status_code == 404
    assert len(seats_of(private)) == 1


def test_the_creator_sees_the_invite_link(private: Game, alice: AbstractBaseUser) -> None:
    content = client_for(alice).get(reverse("games:detail", args=[private.pk])).content.decode()

    assert reverse("games:invite", args=[private.invite_token]) in content


def test_the_invite_link_shows_the_private_game_and_lets_the_guest_join(
    private: Game, carol: AbstractBaseUser
) -> None:
    client = client_for(carol)

    response = client.get(reverse("games:invite", args=[private.invite_token]))
    joined = post(client, "join", private, home="asia")

    assert response.status_code == 302
    assert response["Location"] == reverse("games:detail", args=[private.pk])
    assert client.get(response["Location"]).status_code == 200
    assert "You joined “Invitation only”." in messages_of(joined)
    assert seats_of(private)[-1] == ("carol", "", "asia")
    assert reverse("games:invite", args=[private.invite_token]) not in joined.content.decode()


def test_an_anonymous_visitor_with_the_invite_link_sees_the_game(private: Game) -> None:
    client = Client()

    client.get(reverse("games:invite", args=[private.invite_token]))

    assert client.get(reverse("games:detail", args=[private.pk])).status_code == 200


def test_a_wrong_invite_token_is_not_found(private: Game) -> None:
    response = Client().get(reverse("games:invite", args=["not-the-token"]))

    assert response.status_code == 404


def test_an_invite_to_one_game_does_not_open_another(
    private: Game, alice: AbstractBaseUser
) -> None:
    other = support.open_game(alice, name="Another secret", is_public=False, home="asia")
    client = Client()

    client.get(reverse("games:invite", args=[private.invite_token]))

    assert client.get(reverse("games:detail", args=[other.pk])).status_code == 404


def test_staff_see_private_games(private: Game, olga: AbstractBaseUser) -> None:
    response = client_for(olga).get(reverse("games:detail", args=[private.pk]))

    assert response.status_code == 200
