"""No reader of a game bypasses its kind's view: a kind that hides the whole board and
every move's dice and events until the end ("blindfold" World War 5, a kind of these
tests only) shows no piece and no roll on the game page, its live fragment, the replay,
the decision link's page, the record JSON, the mails and their board picture, the answer
to a reply asking for the board, the digest, or the admin (to an organiser who does not
play); and shows them to a superuser, and to everyone once the game is over."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import digests, links, services
from games.kinds import Event, Position, Viewer
from games.models import Game
from inbound import answers
from mail.models import OutgoingMail
from tests.games.factories import (
    STRICT_SETUP,
    LoadedDice,
    alice,
    bob,
    carol,
    dice,
    olga,
    play,
    seated_game,
)
from tests.kinds.registered import registered
from ww5.kind import WorldWar5

__all__ = ["alice", "bob", "carol", "dice", "olga"]

pytestmark = pytest.mark.django_db

PIECE = 'class="piece"'  # a piece drawn on the web board
HOLDING = re.compile(r"'s (small|medium|large)")  # a piece in the board's lines of a mail
ROLL = "3 + 3 + 2 = 8"  # the attack's roll, in words


class Blindfold(WorldWar5):
    """World War 5 in which no one sees the board, nor any roll, until the game ends."""

    key = "ww5-blindfold"
    name = "Blindfold World War 5"
    hides_nothing = False

    def view(self, position: Position, viewer: Viewer) -> Position:
        if viewer.everything:
            return position
        first = position["players"][0]["name"]
        return {
            **position,
            "phase": "setup",
            "to_move": first,
            "pieces": {},
            "pending": None,
            "eliminated": [],
            "winner": None,
        }

    def events_for(self, events: Any, viewer: Viewer) -> list[dict[str, Any]]:
        return list(events) if viewer.everything else []

    def dice_for(
        self, dice: list[int], player: str, viewer: Viewer, events: Sequence[Event] = ()
    ) -> list[int]:
        return dice if viewer.everything else []


@pytest.fixture(autouse=True)
def blindfold() -> Iterator[Blindfold]:
    with registered(Blindfold()) as kind:
        yield kind


@pytest.fixture
def game(dice: LoadedDice, alice: User, bob: User) -> Game:
    """A blindfold duel in play: alice's attack on bob has been rolled (3 3 2 against
    5 5 1: it failed), and it is bob's decision."""
    made = seated_game(dice, [alice, bob])
    Game.objects.filter(pk=made.pk).update(kind=Blindfold.key)
    made = play(made, *STRICT_SETUP, "grow alaska", "move western-europe northwest-africa")
    made = play(made, "invade usa northwest-africa @ 3 3 2 5 5 1", dice=dice)
    assert made.is_active and made.kind == Blindfold.key
    assert made.position["pieces"], "the stored position holds the pieces"
    return made


def page(user: User | None, url: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def urls(game: Game) -> list[str]:
    pk = game.pk
    steps = game.turn_number
    return [
        reverse("games:detail", args=[pk]),
        reverse("games:live", args=[pk]),
        reverse("games:replay", args=[pk]) + f"?step={steps}",
    ]


def record(user: User | None, game: Game) -> dict[str, Any]:
    return json.loads(page(user, reverse("games:record", args=[game.pk])))


def shows_pieces_or_rolls(text: str) -> bool:
    return PIECE in text or ROLL in text or bool(HOLDING.search(text))


def test_players_and_spectators_see_no_piece_and_no_roll_on_the_pages(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    for reader in (alice, bob, carol, None):
        for url in urls(game):
            assert not shows_pieces_or_rolls(page(reader, url)), (reader, url)


def test_the_record_of_a_game_in_play_is_the_readers_record(
    game: Game, alice: User, carol: User
) -> None:
    for reader in (alice, carol, None):
        shown = record(reader, game)
        assert shown["moves"], "the moves are listed"
        assert all(move["position"]["pieces"] == {} for move in shown["moves"])
        assert all(move["events"] == [] and move["dice"] == [] for move in shown["moves"])


def test_the_decision_link_shows_its_player_what_they_may_see(game: Game, bob: User) -> None:
    game.refresh_from_db()
    assert game.to_move is not None and game.to_move.user == bob
    url = links.decision_url(game, game.to_move)
    assert not shows_pieces_or_rolls(page(bob, url.split("localhost:8000", 1)[-1]))


def test_mails_and_their_board_pictures_hide_what_the_kind_hides(game: Game) -> None:
    mails = OutgoingMail.objects.filter(thread=f"game-{game.pk}")
    assert mails.filter(kind="decision").exists()
    for mail in mails:
        assert not shows_pieces_or_rolls(mail.body_text + mail.body_html), mail.subject
        if mail.inline_spec:
            assert mail.inline_spec["position"]["pieces"] == {}, mail.subject


def test_the_answer_asking_for_the_board_hides_it(game: Game, bob: User) -> None:
    seat = game.seats.get(user=bob)
    mail = answers.queue_answer(
        answers.Answer(["The board:"], board=True, moves=True),
        key=f"board:{game.pk}",
        to=bob.email,
        subject="board",
        user=bob,
        game=game,
        seat=seat,
    )
    assert mail is not None
    assert not shows_pieces_or_rolls(mail.body_text + mail.body_html)
    assert mail.inline_spec["position"]["pieces"] == {}


def test_the_digest_hides_the_rolls(game: Game, alice: User) -> None:
    attack = game.moves.get(number=game.turn_number)
    since = attack.created_at - timedelta(microseconds=1)
    told = digests.digest_games(alice, since, timezone.now() + timedelta(minutes=1))
    lines = [line for entry in told for line in entry["moves"]]
    assert lines and "invade" in attack.action, "the digest tells of the attack"
    assert not any(ROLL in line for line in lines)


def test_the_admin_shows_an_organiser_what_a_spectator_sees_and_a_superuser_all(
    game: Game, olga: User, django_user_model: Any
) -> None:
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1234")
    game_page = reverse("admin:games_game_change", args=[game.pk])
    move = game.moves.get(number=game.turn_number)
    move_page = reverse("admin:games_move_change", args=[move.pk])
    moves_list = reverse("admin:games_move_changelist")
    organiser = page(olga, game_page)
    assert "&quot;pieces&quot;: {}" in organiser and "&quot;size&quot;" not in organiser
    assert "[3, 3, 2, 5, 5, 1]" not in page(olga, move_page) + page(olga, moves_list)
    everything = page(root, game_page)
    assert "&quot;size&quot;" in everything
    assert "[3, 3, 2, 5, 5, 1]" in page(root, move_page)


def test_everything_shows_to_everyone_once_the_game_is_over(
    game: Game, olga: User, alice: User, carol: User
) -> None:
    services.abandon_game(game.pk, olga, reason="the players agreed to stop")
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    for reader in (alice, carol, None):
        assert PIECE in page(reader, reverse("games:detail", args=[game.pk]))
        shown = record(reader, game)
        assert shown["moves"][-1]["position"]["pieces"]
        assert shown["moves"][-1]["dice"] == [3, 3, 2, 5, 5, 1]
