"""A name shows one player: display names are unique as players read them (case, width
and spacing aside), are never another account's username nor a bot's name, and a new
username is never another player's display name."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client

from accounts.models import Profile
from accounts.names import reads_as_a_bot
from accounts.services import display_name, update_profile
from games.models import Seat
from tests.accounts.conftest import PASSWORD, MakePlayer
from tests.races import race

pytestmark = pytest.mark.django_db

PROFILE = "/accounts/profile/"


def save_display_name(player: AbstractBaseUser, name: str):
    client = Client()
    client.force_login(player)
    return client.post(
        PROFILE, {"display_name": name, "time_zone": "UTC", "notify": "each"}, follow=True
    )


def stored_name(player: AbstractBaseUser) -> str:
    return Profile.objects.get(user=player).display_name


@pytest.mark.parametrize("copy", ["The Baron", "the baron", "THE  BARON ", "ＴＨＥ ＢＡＲＯＮ"])
def test_a_display_name_cannot_copy_another_players(
    alice: AbstractBaseUser, bob: AbstractBaseUser, copy: str
) -> None:
    update_profile(bob, "The Baron", "UTC", "each")

    response = save_display_name(alice, copy)

    assert f"“{copy.strip()}” is already another player&#x27;s display name" in (
        response.content.decode()
    )
    assert stored_name(alice) == ""


@pytest.mark.parametrize("copy", ["bob", "BOB", "Ｂｏｂ"])
def test_a_display_name_cannot_be_another_accounts_username(
    alice: AbstractBaseUser, bob: AbstractBaseUser, copy: str
) -> None:
    response = save_display_name(alice, copy)

    assert f"“{copy}” is another player&#x27;s username: choose another." in (
        response.content.decode()
    )
    assert stored_name(alice) == ""
    assert display_name(alice) == "alice"


def test_a_player_may_show_their_own_username_differently(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    response = save_display_name(alice, "ALICE")

    assert "Your profile is saved." in response.content.decode()
    assert stored_name(alice) == "ALICE"


def test_saving_the_profile_again_keeps_ones_own_display_name(alice: AbstractBaseUser) -> None:
    save_display_name(alice, "The Baron")

    response = save_display_name(alice, "the Baron")

    assert "Your profile is saved." in response.content.decode()
    assert stored_name(alice) == "the Baron"


def test_a_display_name_given_up_is_free_for_another_player(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    save_display_name(bob, "The Baron")
    save_display_name(bob, "")

    save_display_name(alice, "The Baron")

    assert stored_name(alice) == "The Baron"


@pytest.mark.parametrize(
    "bot_name",
    ["Greedy bot", "Greedy bot 2", "random bot 3", "RANDOM BOT", "Random-Bot #7", "greedybot12"],
)
def test_a_display_name_cannot_pass_for_a_bot(alice: AbstractBaseUser, bot_name: str) -> None:
    response = save_display_name(alice, bot_name)

    assert f"“{bot_name}” reads as a bot&#x27;s name" in response.content.decode()
    assert stored_name(alice) == ""


@pytest.mark.parametrize("name", ["Greedy Bob", "Random botanist", "Bot", "Greedy bot fan"])
def test_names_near_a_bots_are_allowed(alice: AbstractBaseUser, name: str) -> None:
    save_display_name(alice, name)

    assert stored_name(alice) == name


@pytest.mark.parametrize("bot", [bot for bot in Seat.Bot if bot])
def test_every_kind_of_bot_seat_has_a_name_no_player_may_take(bot: Seat.Bot) -> None:
    seat = Seat(bot=bot, number=3)

    assert reads_as_a_bot(seat.display_name)


def test_an_organiser_cannot_give_a_player_another_players_name_in_the_admin(
    django_user_model, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    organiser = django_user_model.objects.create_superuser("org", "org@example.com", "pw")
    client = Client()
    client.force_login(organiser)
    profile = Profile.objects.get(user=alice)

    response = client.post(
        f"/admin/accounts/profile/{profile.pk}/change/",
        {"display_name": "Bob", "time_zone": "UTC", "notify": "each"},
    )

    assert response.status_code == 200
    assert "is another player&#x27;s username" in response.content.decode()
    assert stored_name(alice) == ""


def test_the_database_refuses_two_profiles_one_name(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    first = Profile.objects.get(user=alice)
    first.display_name = "The Baron"
    first.save()
    second = Profile.objects.get(user=bob)
    second.display_name = "the  BARON"

    with pytest.raises(IntegrityError), transaction.atomic():
        second.save()


def sign_up(username: str):
    return Client().post(
        "/accounts/signup/",
        {
            "username": username,
            "email": "newcomer@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


@pytest.mark.parametrize("username", ["baron", "BARON"])
def test_a_new_username_cannot_be_another_players_display_name(
    alice: AbstractBaseUser, django_user_model, username: str
) -> None:
    update_profile(alice, "Baron", "UTC", "each")

    response = sign_up(username)

    assert response.status_code == 200
    assert f"“{username}” is another player&#x27;s display name: choose another username." in (
        response.content.decode()
    )
    assert not django_user_model.objects.filter(email="newcomer@example.com").exists()


@pytest.mark.parametrize("username", ["greedy_bot_2", "RandomBot"])
def test_a_new_username_cannot_pass_for_a_bot(django_user_model, username: str) -> None:
    response = sign_up(username)

    assert response.status_code == 200
    assert f"“{username}” reads as a bot&#x27;s name" in response.content.decode()
    assert not django_user_model.objects.filter(email="newcomer@example.com").exists()


def test_a_new_username_unlike_any_name_signs_up(django_user_model) -> None:
    assert sign_up("newcomer").status_code == 302
    assert django_user_model.objects.filter(username="newcomer").exists()


@pytest.mark.django_db(transaction=True)
def test_two_players_saving_one_name_at_once_do_not_both_get_it(
    postgres: BaseDatabaseWrapper, make_player: MakePlayer
) -> None:
    players = [make_player(name) for name in ("alice", "bob", "carol", "dave")]

    outcomes = race(
        [lambda p=player: update_profile(p, "The Baron", "UTC", "each") for player in players]
    )

    refusals = [o.error for o in outcomes if o.error is not None]
    assert len(refusals) == 3
    assert all(isinstance(error, ValidationError) for error in refusals)
    assert all(
        "is already another player's display name" in error.messages[0] for error in refusals
    )
    assert Profile.objects.filter(display_name="The Baron").count() == 1
