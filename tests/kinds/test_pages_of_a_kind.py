"""The game pages of a kind that is not World War 5 (secret numbers, of these tests only,
whose state is a plain dict): the game page, its live fragment, the replay, the decision
link's page and the finished list show the game through the kind's hooks and its own
template (``secret_numbers/position.html``, in this folder's templates); and another
player's sealed pick never shows to a player or a spectator while the game runs, on any
of them nor in the record, and shows to everyone once it is over."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games import links, services
from games.models import Game
from games.options import GameOptions
from tests.games.factories import alice, bob, carol
from tests.kinds.numbers import SEALED, SecretNumbers
from tests.kinds.registered import registered

__all__ = ["alice", "bob", "carol"]

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).parent / "templates"
ALICES = "picked 4"  # alice's pick, as the kind's template shows it
ALICES_MOVE = "alice (p1): pick 4"  # and her move, as the log says it


@pytest.fixture(autouse=True)
def numbers(settings: Any) -> Iterator[SecretNumbers]:
    """Secret numbers registered, and its templates found (changing the setting makes
    Django start its template engines afresh)."""
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": [*engine["DIRS"], TEMPLATES]}]
    with registered(SecretNumbers()) as kind:
        yield kind


@pytest.fixture
def game(numbers: SecretNumbers, alice: User, bob: User, carol: User) -> Game:
    """Alice, bob and carol play two rounds; alice has picked 4, sealed from the others,
    and the game waits for bob and carol."""
    seats = []
    for user in (alice, bob, carol):
        user.email = ""  # the kind has no mails of its own here
        user.save()
        seats.append(services.TableSeat("", user=user))
    options = GameOptions(kind=numbers.key, rules={"rounds": 2})
    with transaction.atomic():
        made = services.create_table(options, seats, name="Numbers")
    services.submit_move(made.pk, alice, "pick 4", 0)
    made.refresh_from_db()
    assert made.status == Game.Status.PLAY and made.turn_number == 1
    return made


def page(user: User | None, url: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def pages(game: Game) -> dict[str, str]:
    pk = game.pk
    return {
        "game": reverse("games:detail", args=[pk]),
        "live": reverse("games:live", args=[pk]),
        "replay": reverse("games:replay", args=[pk]) + f"?step={game.turn_number}",
    }


def record(user: User | None, game: Game) -> dict[str, Any]:
    return json.loads(page(user, reverse("games:record", args=[game.pk])))


def finish(game: Game, alice: User, bob: User, carol: User) -> Game:
    """Every pick of the game's two rounds after alice's first."""
    services.submit_move(game.pk, bob, "pick 2", 0)
    services.submit_move(game.pk, carol, "pick 1", 0)
    for user, number in ((alice, 5), (bob, 3), (carol, 3)):
        game.refresh_from_db()
        services.submit_move(game.pk, user, f"pick {number}", game.turn_number)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    return game


def test_the_game_page_shows_the_position_through_the_kinds_template(
    game: Game, alice: User, bob: User
) -> None:
    shown = page(bob, pages(game)["game"])

    assert '<h2 id="board-heading">The picks</h2>' in shown
    assert '<section id="live-board"' in shown and '<section id="live-position"' in shown
    assert "Round 1 of 2" in shown and "p2 scored 0" in shown
    assert f"p1 picked {SEALED}" in shown, "bob sees that alice has picked"
    assert '<h2 id="decision-heading">Your decision</h2>' in shown
    assert "<legend>Your choices</legend>" in shown, "a group without rules names none"
    for number in range(1, 6):
        assert f'value="pick {number}"' in shown, "bob's choices, in the kind's default words"
    assert 'data-label="Colour"' not in shown, "no colours nor homes: the kind has no roles"
    assert "alice (p1): pick (sealed)" in shown, "the log names the move, not the pick"


def test_the_live_fragment_swaps_in_the_kinds_parts(game: Game, bob: User) -> None:
    shown = page(bob, pages(game)["live"] + "?v=stale&d=stale")

    board = '<section id="live-board" class="board-first" aria-labelledby="board-heading"'
    assert board + ' hx-swap-oob="true">' in shown
    assert '<h2 id="board-heading">The picks</h2>' in shown
    assert 'id="live-position" aria-label="The position in words" hx-swap-oob="true"' in shown
    assert 'id="decision-area" hx-swap-oob="true"' in shown
    assert f"p1 picked {SEALED}" in shown


def test_the_replay_shows_each_step_through_the_kinds_template(game: Game, bob: User) -> None:
    start = page(bob, reverse("games:replay", args=[game.pk]) + "?step=0")
    after = page(bob, pages(game)["replay"])

    assert "The board at this step" in start and "No pick yet this round." in start
    assert "alice (p1): pick (sealed)" in after and f"p1 picked {SEALED}" in after


def test_the_decision_links_page_shows_the_players_choices_and_what_they_may_see(
    game: Game, bob: User
) -> None:
    seat = game.seats.get(user=bob)
    url = links.decision_url(game, seat).split("localhost:8000", 1)[-1]

    shown = page(None, url)

    assert 'value="pick 3"' in shown and f"p1 picked {SEALED}" in shown
    assert ALICES not in shown and ALICES_MOVE not in shown


def test_a_sealed_pick_shows_to_its_player_alone_while_the_game_runs(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    for reader in (bob, carol, None):
        for name, url in pages(game).items():
            shown = page(reader, url)
            assert ALICES not in shown and ALICES_MOVE not in shown, (reader, name)
        moves = record(reader, game)["moves"]
        assert moves[0]["action"] == f"pick ({SEALED})" and moves[0]["events"] == []
        assert moves[0]["position"]["picks"] == {"p1": SEALED}
        assert "pick 4" not in json.dumps(moves) and 4 not in moves[0]["position"]["picks"].values()
    mine = page(alice, pages(game)["game"])
    assert ALICES in mine and ALICES_MOVE in mine
    assert record(alice, game)["moves"][0]["position"]["picks"] == {"p1": 4}


def test_every_pick_shows_to_everyone_once_the_game_is_over(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    finish(game, alice, bob, carol)
    first = reverse("games:replay", args=[game.pk]) + "?step=1"

    for reader in (bob, carol, None):
        assert ALICES_MOVE in page(reader, pages(game)["game"]), reader
        assert ALICES in page(reader, first), reader
        moves = record(reader, game)["moves"]
        assert moves[0]["action"] == "pick 4"
        assert moves[0]["position"]["picks"] == {"p1": 4}


def test_the_finished_list_names_the_options_in_the_kinds_words(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    finish(game, alice, bob, carol)
    Game.objects.filter(pk=game.pk).update(is_public=True)

    shown = page(None, reverse("games:finished"))

    assert "Numbers" in shown and "Secret numbers: rounds: 2" in shown
