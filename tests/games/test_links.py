"""One-click decision links: a signed link bound to player, game and decision."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from accounts.services import update_profile
from games import links, services
from games.models import Game, Move
from tests.games.factories import LoadedDice, play, seat_of, seated_game, snapshot

pytestmark = pytest.mark.django_db

User = AbstractBaseUser


@pytest.fixture
def game(dice: LoadedDice, alice: User, bob: User) -> Game:
    """Alice (blue, North America) against bob (purple, Europe); alice places first."""
    return seated_game(dice, [alice, bob])


def link_for(game: Game, user: User) -> str:
    url = links.decision_url(game, seat_of(game, user))
    return url.removeprefix("http://localhost:8000")


def text(response: HttpResponse) -> str:
    """The page as a reader sees it (entities such as &#x27; unescaped)."""
    return html.unescape(response.content.decode())


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_link_opens_the_decision_form_without_a_password(game: Game, alice: User) -> None:
    response = Client().get(link_for(game, alice))

    page = text(response)
    assert response.status_code == 200
    assert 'name="action" value="place small alaska"' in page
    assert f'name="turn" value="{game.turn_number}"' in page


def test_the_link_offers_only_the_legal_actions(game: Game, alice: User) -> None:
    page = text(Client().get(link_for(game, alice)))

    offered = {
        line.split('value="')[1].split('"')[0]
        for line in page.splitlines()
        if 'name="action"' in line
    }
    assert offered == {"place small alaska", "place small canada", "place small usa"}


def test_the_link_makes_the_decision_it_was_made_for(game: Game, alice: User) -> None:
    url = link_for(game, alice)
    response = Client().post(url, {"action": "place small canada", "turn": game.turn_number})

    assert response.status_code == 200
    assert "Your decision was recorded" in text(response)
    move = Move.objects.get(game=game)
    assert (move.action, move.seat, move.actor, move.source) == (
        "place small canada",
        seat_of(game, alice),
        alice,
        "link",
    )


def test_the_link_signs_no_one_in_and_grants_nothing_else(game: Game, alice: User) -> None:
    client = Client()
    client.post(link_for(game, alice), {"action": "place small canada", "turn": 0})

    assert client.get("/accounts/profile/").status_code == 302  # to the sign-in page
    response = client.post(f"/games/{game.pk}/move/", {"action": "place small usa", "turn": 1})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Move.objects.count() == 1


def test_a_used_link_stops_working(game: Game, alice: User) -> None:
    url = link_for(game, alice)
    Client().post(url, {"action": "place small canada", "turn": game.turn_number})
    game.refresh_from_db()
    before = snapshot(game)

    again = Client().post(url, {"action": "place small usa", "turn": 0})
    opened = Client().get(url)

    assert again.status_code == opened.status_code == 410
    assert "already been made" in text(opened)
    assert snapshot(game) == before


def test_a_link_made_by_another_path_also_stops_once_the_decision_is_made(
    game: Game, alice: User
) -> None:
    url = link_for(game, alice)
    play(game, "place small alaska")  # alice decided on the site instead

    response = Client().get(url)

    assert response.status_code == 410
    assert "no longer works" in text(response)


def test_an_altered_link_is_refused_and_changes_nothing(game: Game, alice: User) -> None:
    url = link_for(game, alice)
    token = url.rstrip("/").rsplit("/", 1)[1]
    forged = url.replace(token, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
    before = snapshot(game)

    response = Client().post(forged, {"action": "place small canada", "turn": 0})

    assert response.status_code == 400
    assert "altered" in text(response)
    assert snapshot(game) == before


def test_a_link_for_another_game_or_seat_cannot_be_made_by_editing_it(
    game: Game, alice: User
) -> None:
    from django.core import signing

    fake = signing.dumps({"g": game.pk, "s": seat_of(game, alice).pk, "t": 0}, salt="other")
    response = Client().get(f"/games/decide/{fake}/")

    assert response.status_code == 400
    assert not Move.objects.exists()


def test_a_link_expires_at_the_decisions_deadline(game: Game, alice: User) -> None:
    url = link_for(game, alice)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    before = snapshot(game)

    response = Client().post(url, {"action": "place small canada", "turn": 0})

    assert response.status_code == 410
    assert "expired at the decision's deadline" in text(response)
    assert snapshot(game) == before


def test_a_grace_extension_keeps_the_link_working(game: Game, alice: User) -> None:
    url = link_for(game, alice)
    assert game.deadline is not None
    assert services.handle_missed_decision(game.pk, game.deadline + timedelta(seconds=1)) == "grace"

    assert Client().get(url).status_code == 200


def test_another_players_link_is_refused_to_a_signed_in_player(
    game: Game, alice: User, bob: User
) -> None:
    before = snapshot(game)

    response = signed_in(bob).post(
        link_for(game, alice), {"action": "place small canada", "turn": 0}
    )

    assert response.status_code == 403
    assert "another player's decision" in text(response)
    assert snapshot(game) == before


def test_the_player_signed_in_may_use_their_own_link(game: Game, alice: User) -> None:
    response = signed_in(alice).post(
        link_for(game, alice), {"action": "place small usa", "turn": 0}
    )

    assert response.status_code == 200
    assert Move.objects.get().action == "place small usa"


def test_a_link_is_refused_while_the_game_is_paused(game: Game, alice: User, olga: User) -> None:
    url = link_for(game, alice)
    services.pause_game(game.pk, alice)

    response = Client().get(url)

    assert response.status_code == 409
    assert "paused" in text(response)


def test_an_illegal_or_forged_action_through_the_link_is_refused_clearly(
    game: Game, alice: User
) -> None:
    url = link_for(game, alice)
    before = snapshot(game)

    illegal = Client().post(url, {"action": "place large alaska", "turn": 0})
    damaged = Client().post(url, {"action": "place small alaska", "turn": "abc"})

    assert illegal.status_code == damaged.status_code == 400
    assert "not accepted" in text(illegal)
    assert "incomplete or damaged" in text(damaged)
    assert snapshot(game) == before


def test_a_decision_that_eliminates_the_player_needs_confirming_through_the_link_too(
    game: Game, alice: User
) -> None:
    # Blue's only home piece is the large in the USA: moving it abroad empties home (R15).
    position = {
        "board": "original",
        "options": {"setup": "strict", "retreat_into_origin": False},
        "players": [
            {"name": "blue", "home": "north-america"},
            {"name": "purple", "home": "europe"},
        ],
        "phase": "play",
        "to_move": "blue",
        "pieces": {
            "brazil": {"player": "blue", "size": "medium"},
            "colombia": {"player": "blue", "size": "small"},
            "scandinavia": {"player": "purple", "size": "small"},
            "southern-europe": {"player": "purple", "size": "large"},
            "usa": {"player": "blue", "size": "large"},
            "western-europe": {"player": "purple", "size": "medium"},
        },
        "pending": None,
        "eliminated": [],
        "winner": None,
    }
    Game.objects.filter(pk=game.pk).update(
        position=position, status=Game.Status.PLAY, to_move=seat_of(game, alice)
    )
    game.refresh_from_db()
    url = link_for(game, alice)
    before = snapshot(game)

    warned = Client().post(url, {"action": "move usa northwest-africa", "turn": 0})

    assert warned.status_code == 400
    assert "eliminates you (R15)" in text(warned)
    assert snapshot(game) == before

    confirmed = Client().post(
        url, {"action": "move usa northwest-africa", "turn": 0, "confirm_elimination": "on"}
    )

    assert confirmed.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert game.winner == game.seats.exclude(user=alice).get()


def test_times_on_the_link_page_are_in_the_players_zone(game: Game, alice: User) -> None:
    update_profile(alice, "Alice", "Asia/Tokyo", "each")

    page = text(Client().get(link_for(game, alice)))

    assert "Asia/Tokyo" in page and "JST" in page
