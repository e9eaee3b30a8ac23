"""An organiser replaces a player: links bound to the player, the new player mailed at
once, the players told, and every earlier move kept under the player who made it."""

from __future__ import annotations

import html
import json

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games import links, services
from games.models import Game, GameEvent, Move
from mail.models import OutgoingMail
from tests.games.factories import LoadedDice, play, seat_of, seated_game, snapshot

pytestmark = pytest.mark.django_db

User = AbstractBaseUser


@pytest.fixture
def game(dice: LoadedDice, alice: User, bob: User) -> Game:
    """alice (blue) against bob (purple); alice has placed, bob is to place."""
    return play(seated_game(dice, [alice, bob]), "place small alaska")


def path_of(url: str) -> str:
    return url.removeprefix("http://localhost:8000")


def text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def test_a_replaced_players_link_no_longer_decides_for_the_seat(
    game: Game, bob: User, carol: User, olga: User
) -> None:
    old_link = path_of(links.decision_url(game, seat_of(game, bob)))
    services.replace_player(game.pk, olga, seat_of(game, bob).pk, carol)
    before = snapshot(game)

    opened = Client().get(old_link)
    posted = Client().post(old_link, {"action": "place small scandinavia", "turn": 1})

    assert opened.status_code == posted.status_code == 410
    assert "does not hold this seat any more" in text(posted)
    assert snapshot(game) == before


def test_the_new_player_gets_the_decision_mail_at_once_and_its_link_works(
    game: Game, bob: User, carol: User, olga: User
) -> None:
    services.replace_player(game.pk, olga, seat_of(game, bob).pk, carol)

    (mail,) = OutgoingMail.objects.filter(kind="decision", to_user=carol)
    link = next(url for url in mail.links if "/games/decide/" in url)
    response = Client().post(path_of(link), {"action": "place small scandinavia", "turn": 1})

    assert response.status_code == 200
    move = Move.objects.get(game=game, number=2)
    assert (move.actor, move.player, move.source) == (carol, carol, Move.Source.LINK)


def test_the_turn_comes_from_the_link_not_from_the_posted_form(game: Game, bob: User) -> None:
    link = path_of(links.decision_url(game, seat_of(game, bob)))

    response = Client().post(link, {"action": "place small scandinavia", "turn": 99})

    assert response.status_code == 200
    assert Move.objects.get(game=game, number=2).action == "place small scandinavia"


def test_a_link_bound_to_another_player_is_refused_even_for_the_right_seat(
    game: Game, bob: User, carol: User
) -> None:
    from django.core import signing

    seat = seat_of(game, bob)
    forged = signing.dumps(
        {"g": game.pk, "s": seat.pk, "t": game.turn_number, "u": carol.pk}, salt=links.SALT
    )

    response = Client().get(reverse("games:decide", args=[forged]))

    assert response.status_code == 410
    assert not Move.objects.filter(game=game, number=2).exists()


def test_the_players_are_told_of_the_replacement(
    game: Game, alice: User, bob: User, carol: User, olga: User
) -> None:
    services.replace_player(game.pk, olga, seat_of(game, bob).pk, carol, reason="bob is ill")

    notices = OutgoingMail.objects.filter(kind="notice")
    assert {m.to_user for m in notices} == {alice, bob, carol}
    for mail in notices:
        assert "carol takes over the seat of bob (purple)." in mail.body_text
        assert "bob is ill" in mail.body_text


def test_earlier_moves_stay_the_replaced_players_in_the_log_and_the_record(
    game: Game, alice: User, bob: User, carol: User, olga: User
) -> None:
    play(game, "place small scandinavia")  # bob's move
    services.replace_player(game.pk, olga, seat_of(game, bob).pk, carol)
    play(game, "place medium canada", "place medium southern-europe")  # carol's move

    bob_move, carol_move = Move.objects.filter(game=game, seat__home="europe").order_by("number")
    assert (bob_move.player, carol_move.player) == (bob, carol)

    page = text(Client().get(reverse("games:detail", args=[game.pk])))
    log = page[page.index('<table class="log') :]
    assert "bob (purple) places a small in Scandinavia." in log
    assert "carol takes over the seat of bob (purple)." in log
    assert "carol (purple) places a medium in Southern Europe." in log
    assert log.index("Scandinavia") < log.index("takes over") < log.index("Southern Europe")

    record = json.loads(Client().get(reverse("games:record", args=[game.pk])).content)
    by = {move["number"]: move["by"] for move in record["moves"]}
    assert by[2] == "bob (purple)" and by[4] == "carol (purple)"


def test_a_replacement_is_kept_as_a_game_event(
    game: Game, bob: User, carol: User, olga: User
) -> None:
    services.replace_player(game.pk, olga, seat_of(game, bob).pk, carol)

    event = GameEvent.objects.get(game=game)
    assert (event.kind, event.actor, event.after_move) == ("replace", olga, 1)
    assert event.data == {"before": "bob", "after": "carol"}
