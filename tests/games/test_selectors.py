"""The read side: one organiser rule, which other apps extend by naming organisers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q

from games import selectors, services
from games.models import Game
from tests.games.factories import LoadedDice, seated_game

pytestmark = pytest.mark.django_db

User = AbstractBaseUser


@pytest.fixture
def named_by_a_tournament(carol: User) -> Iterator[None]:
    """A provider, as a tournament app would register, naming carol for every game."""

    def provider(user: User) -> Q:
        return Q(pk__isnull=False) if user.pk == carol.pk else Q(pk__in=[])

    selectors.register_organisers(provider)
    yield
    selectors._organiser_providers.remove(provider)


def test_a_site_wide_organiser_and_the_creator_organise_a_game_others_do_not(
    dice: LoadedDice, alice: User, bob: User, olga: User
) -> None:
    game = seated_game(dice, [alice, bob])

    assert selectors.can_organise(game, alice) and selectors.can_organise(game, olga)
    assert not selectors.can_organise(game, bob)
    assert not selectors.can_organise(game, None)
    assert set(selectors.organised_games(olga)) == {game}
    assert set(selectors.organised_games(alice)) == {game}
    assert not selectors.organised_games(bob).exists()


def test_staff_alone_organise_nothing(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    game = seated_game(dice, [alice, bob])
    carol.is_staff = True  # let into the admin
    carol.save(update_fields=["is_staff"])

    Game.objects.filter(pk=game.pk).update(is_public=False)
    game.refresh_from_db()

    assert not selectors.can_organise(game, carol)
    assert not selectors.can_see(game, carol)
    assert not selectors.organised_games(carol).exists()
    with pytest.raises(services.GameError, match="only the game's creator or an organiser"):
        services.pause_game(game.pk, carol)


def test_another_app_names_organisers_who_may_then_organise_and_see(
    dice: LoadedDice, alice: User, bob: User, carol: User, named_by_a_tournament: None
) -> None:
    game = seated_game(dice, [alice, bob])
    Game.objects.filter(pk=game.pk).update(is_public=False)
    game.refresh_from_db()

    assert selectors.can_organise(game, carol) and selectors.can_see(game, carol)
    services.pause_game(game.pk, carol)  # the services ask the same rule
    game.refresh_from_db()
    assert game.is_paused


def test_without_the_provider_the_same_player_is_refused(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    game = seated_game(dice, [alice, bob])

    with pytest.raises(services.GameError, match="only the game's creator or an organiser"):
        services.pause_game(game.pk, carol)
