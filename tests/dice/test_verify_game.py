"""``manage.py verify_game ID`` runs tools/verify_dice.py's checks on everyone's record of a
game, and refuses (exit status 2) a game whose seed is still secret: one not started or
still in play."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.management import call_command
from django.core.management.base import CommandError

from games import services
from games.management.commands.verify_game import TOOL, verifier
from games.models import Game
from tests.dice.test_verifier import RECORD, TOTAL
from tests.personas import persona

alice = persona("alice")
bob = persona("bob")


def refusal(game: int) -> CommandError:
    out = StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("verify_game", str(game), stdout=out)
    assert out.getvalue() == ""  # no check ran
    return refused.value


def test_the_command_runs_the_players_script_itself() -> None:
    tool = verifier()

    assert tool.__file__ == str(TOOL) and TOOL.parts[-2:] == ("tools", "verify_dice.py")
    assert tool.verify(RECORD)[-1] == (
        f"verified: commitment, players' words, {TOTAL} numbers #1–#{TOTAL}, 2 sealed commitments"
    )


@pytest.mark.django_db
def test_an_unknown_game_is_refused() -> None:
    refused = refusal(999_999)

    assert refused.returncode == 2 and str(refused) == "there is no game 999999"


@pytest.mark.django_db
def test_a_game_waiting_for_players_is_refused(alice: AbstractBaseUser) -> None:
    game = services.create_game(alice, seats=2, home="north-america")

    refused = refusal(game.pk)

    assert refused.returncode == 2
    assert str(refused) == f"game {game.pk} has not started: it has no record"


@pytest.mark.django_db
def test_a_game_in_play_is_refused_its_seed_being_secret(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    game = Game.objects.get(pk=game.pk)
    assert game.is_active

    refused = refusal(game.pk)

    assert refused.returncode == 2
    assert str(refused) == (
        f"game {game.pk} is not over ({game.get_status_display()}): "
        "its seed stays secret until it ends"
    )
