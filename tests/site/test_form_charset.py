"""A form POST declared in a character set other than UTF-8: a clear 400, nothing done."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from games import links
from games.models import Game, Move
from tests.games.factories import LoadedDice, alice, bob, dice, seat_of, seated_game

__all__ = ["alice", "bob", "dice"]

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def game(dice: LoadedDice, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    return seated_game(dice, [alice, bob])


def post_decision(game: Game, player: AbstractBaseUser, charset: str) -> tuple[int, str]:
    """Alice's first placement through her decision link, as a browser with the CSRF
    cookie and token would post it, but declared in ``charset``; the status and page."""
    url = links.decision_url(game, seat_of(game, player)).removeprefix("http://localhost:8000")
    browser = Client(enforce_csrf_checks=True)
    browser.get(url)
    token = browser.cookies["csrftoken"].value
    fields = {"csrfmiddlewaretoken": token, "action": "place small canada", "turn": "0"}
    response = browser.generic(
        "POST", url, urlencode(fields).encode(), content_type=f"{FORM}; charset={charset}"
    )
    return response.status_code, response.content.decode()


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", "windows-1252", "bogus"])
def test_a_form_in_another_charset_is_refused_and_changes_nothing(
    game: Game, alice: AbstractBaseUser, charset: str
) -> None:
    status, page = post_decision(game, alice, charset)

    assert status == 400
    assert page == (
        f"This form was sent in the character set “{charset}”: the site reads forms only "
        "in UTF-8. Nothing was changed.\n"
    )
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "utf8"])
def test_a_form_in_utf8_by_any_name_is_read(
    game: Game, alice: AbstractBaseUser, charset: str
) -> None:
    status, page = post_decision(game, alice, charset)

    assert status == 200
    assert "Your decision was recorded" in page
    assert Move.objects.get(game=game).action == "place small canada"
