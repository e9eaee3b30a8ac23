"""The lobby and the new-game form."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.games import test_pages_support as support
from tests.games.test_pages_support import client_for, messages_of

pytestmark = pytest.mark.django_db

alice, bob, carol = support.alice, support.bob, support.carol

LOBBY = reverse("games:lobby")
CREATE = reverse("games:create")


def form_data(**changes: Any) -> dict[str, Any]:
    data = {
        "name": "Friday night",
        "seats": "3",
        "board": "pyramid-arcade",
        "setup": "casual",
        "home_assignment": "choose",
        "home": "africa",
        "decision_hours": "12",
        "retreat_hours": "2",
        "missed_limit": "4",
        "time_control": "fixed",
        "bank_hours": "120",
        "increment_hours": "24",
        "absence_pauses_clock": "on",
        "is_public": "on",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


# --- the lobby -----------------------------------------------------------------------


def test_anyone_sees_the_open_public_games_with_their_seats_board_setup_and_creator(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    services.create_game(alice, name="Open table", seats=3, home="asia", setup="casual")
    services.create_game(bob, name="Secret table", is_public=False, home="europe")

    content = Client().get(LOBBY).content.decode()

    assert "Open table" in content
    assert "1 of 3" in content
    assert "World War 5: Original (2008), casual setup (R19)" in content
    assert "Alice" in content
    assert "Secret table" not in content


def test_the_viewer_sees_their_own_games_and_whose_decision_it_is(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = support.started_game(alice, bob)
    private = services.create_game(bob, name="Bob private table", is_public=False, home="asia")

    mine = client_for(alice).get(LOBBY).content.decode()
    theirs = client_for(bob).get(LOBBY).content.decode()

    assert str(game) in mine and "Your decision" in mine
    assert "Waiting for Alice" in theirs
    assert str(private) in theirs and str(private) not in mine


def test_recent_finished_public_games_are_listed(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = support.started_game(alice, bob, name="Finished one")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)

    content = Client().get(LOBBY).content.decode()

    assert "Recently finished" in content
    assert reverse("games:replay", args=[game.pk]) in content


def test_the_games_in_play_and_the_finished_ones_count_their_players(
    alice: AbstractBaseUser, bob: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    playing = support.started_game(alice, bob, name="Duel in play")
    done = support.started_game(carol, bob, name="Duel over")
    Game.objects.filter(pk=done.pk).update(status=Game.Status.OVER, finished_at=done.started_at)
    services.create_game(carol, name="Waiting table", seats=4, home="asia")

    lobby = Client().get(LOBBY).content.decode()
    finished = Client().get(reverse("games:finished")).content.decode()

    def row(content: str, name: str) -> str:
        return content.split(name, 1)[1].split("</tr>", 1)[0]

    assert "<td>2</td>" in row(lobby, "Duel in play")
    assert '<td data-label="Players">2</td>' in row(lobby, "Duel over")
    assert '<td data-label="Seats">1 of 4</td>' in row(lobby, "Waiting table")
    assert ">2<" in row(finished, "Duel over")
    assert str(playing) in lobby


def test_an_empty_lobby_says_so() -> None:
    content = Client().get(LOBBY).content.decode()

    assert "No public game is waiting for players." in content
    assert "Sign in" in content


# --- the new-game form ---------------------------------------------------------------


def test_creating_a_game_needs_a_signed_in_player() -> None:
    response = Client().get(CREATE)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_an_anonymous_post_to_create_makes_no_game() -> None:
    response = Client().post(CREATE, form_data())

    assert response.status_code == 302
    assert Game.objects.count() == 0


def test_the_form_warns_about_five_and_six_players_and_labels_the_house_variant(
    alice: AbstractBaseUser,
) -> None:
    content = client_for(alice).get(CREATE).content.decode()

    assert "expect a long game" in content
    assert "no one can win until someone is eliminated" in content
    assert "never used in rated or tournament play" in content
    assert 'name="retreat_into_origin"' in content
    assert 'value="strict" selected' in content


def test_a_new_game_is_created_with_the_chosen_options_and_opens_its_page(
    alice: AbstractBaseUser,
) -> None:
    response = client_for(alice).post(CREATE, form_data())

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:detail", args=[game.pk])
    assert (game.name, game.seats_wanted, game.options["board"], game.options["setup"]) == (
        "Friday night",
        3,
        "pyramid-arcade",
        "casual",
    )
    assert game.decision_time == timedelta(hours=12)
    assert game.is_public and not game.options["retreat_into_origin"]
    assert game.seats.get().home == "africa"


def test_a_private_game_with_the_house_variant_and_random_homes(
    alice: AbstractBaseUser,
) -> None:
    client_for(alice).post(
        CREATE,
        form_data(is_public=None, retreat_into_origin="on", home_assignment="random", home=None),
    )

    game = Game.objects.get()
    assert not game.is_public
    assert game.options["retreat_into_origin"]
    assert game.home_assignment == "random"
    assert game.seats.get().home == ""


def test_six_players_are_allowed_with_a_warning(alice: AbstractBaseUser) -> None:
    response = client_for(alice).post(CREATE, form_data(seats="6"), follow=True)

    assert Game.objects.get().seats_wanted == 6
    assert any("no one can win until someone is eliminated" in m for m in messages_of(response))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"decision_hours": "0.01"}, "Allow at least a minute"),
        ({"retreat_hours": "0.01"}, "Allow at least a minute (0.017 hours) for a retreat."),
        ({"missed_limit": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"home": ""}, "Players choose their homes: choose yours."),
        ({"seats": "7"}, "Select a valid choice."),
        ({"board": "moon"}, "Select a valid choice."),
        ({"home_assignment": "bribe"}, "Select a valid choice."),
        ({"time_control": "hourglass"}, "Select a valid choice."),
        ({"time_control": "bank", "bank_hours": "0"}, "A time bank holds at least a minute"),
        ({"increment_hours": "-1"}, "Ensure this value is greater than or equal to 0."),
    ],
)
def test_bad_input_shows_the_form_again_with_the_problem_and_makes_no_game(
    alice: AbstractBaseUser, changes: dict[str, str], message: str
) -> None:
    response = client_for(alice).post(CREATE, form_data(**changes))

    assert response.status_code == 200
    assert message in response.content.decode()
    assert Game.objects.count() == 0


def test_the_game_keeps_the_retreat_time_and_missed_limit_chosen_on_the_form(
    alice: AbstractBaseUser,
) -> None:
    response = client_for(alice).post(CREATE, form_data(), follow=True)

    game = Game.objects.get()
    assert (game.retreat_time, game.missed_limit) == (timedelta(hours=2), 4)
    page = response.content.decode()
    assert "2 hours per retreat" in page and "forfeit after 4 missed turns" in page


def test_a_time_bank_game_keeps_its_bank_and_increment_and_shows_each_players_bank(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    data = form_data(
        seats="2", time_control="bank", bank_hours="72", increment_hours="6", home="europe"
    )
    response = client_for(alice).post(CREATE, data, follow=True)

    game = Game.objects.get()
    assert (game.time_control, game.bank_time, game.increment) == (
        "bank",
        timedelta(hours=72),
        timedelta(hours=6),
    )
    assert "a time bank of 3 days each, plus 6 hours per decision" in response.content.decode()
    services.join_game(game.pk, bob, home="asia")
    page = client_for(bob).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Time bank" in page and page.count('<td class="bank" data-label="Time bank">3 days') == 2


def test_a_game_can_let_absences_leave_the_clock_running(alice: AbstractBaseUser) -> None:
    response = client_for(alice).post(CREATE, form_data(absence_pauses_clock=None), follow=True)

    assert Game.objects.get().absence_pauses_clock is False
    assert "absences do not stop the clock" in response.content.decode()


def test_a_minute_is_enough_time_per_decision(alice: AbstractBaseUser) -> None:
    client_for(alice).post(CREATE, form_data(decision_hours="0.017"))

    assert Game.objects.get().decision_time >= timedelta(minutes=1)


def test_the_create_page_takes_get_and_post_only(alice: AbstractBaseUser) -> None:
    response = client_for(alice).put(CREATE, form_data())

    assert response.status_code == 405
    assert Game.objects.count() == 0


def test_the_lobby_refuses_a_post() -> None:
    assert Client().post(LOBBY).status_code == 405
