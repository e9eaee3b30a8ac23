"""What players are told: an organiser's actions (with the reason) and a resignation
are mailed to the players and shown in the game log."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from accounts.services import update_profile
from games import services
from games.models import Game, GameEvent, Move
from mail.models import OutgoingMail
from tests.games.factories import (
    STRICT_SETUP,
    STRICT_SETUP_OF_THREE,
    LoadedDice,
    mails_of,
    play,
    seat_of,
    seated_game,
    snapshot,
)

pytestmark = pytest.mark.django_db

User = AbstractBaseUser


@pytest.fixture
def trio(dice: LoadedDice, alice: User, bob: User, carol: User) -> Game:
    """alice (blue), bob (purple) and carol (green) in play; alice to move."""
    return play(seated_game(dice, [alice, bob, carol]), *STRICT_SETUP_OF_THREE)


def notices(game: Game) -> dict[str, list[OutgoingMail]]:
    """The notice mails of the game, by recipient's username."""
    told: dict[str, list[OutgoingMail]] = {}
    for mail in mails_of(game).filter(kind="notice").order_by("id"):
        told.setdefault(mail.to_user.get_username(), []).append(mail)
    return told


def log_of(game: Game, viewer: User) -> str:
    client = Client()
    client.force_login(viewer)
    page = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())
    return page[page.index('<table class="log') :]


@pytest.mark.parametrize(
    ("act", "words"),
    [
        (lambda g, by: services.pause_game(g.pk, by, "a server move"), "paused the game"),
        (
            lambda g, by: services.extend_deadline(g.pk, by, timedelta(hours=5), "a server move"),
            "extended alice (blue)'s deadline by 5 hours",
        ),
        (
            lambda g, by: services.forfeit_seat(
                g.pk, by, seat_of(g, g.creator).pk, "admin", "a server move"
            ),
            "made alice (blue) forfeit the game (R31)",
        ),
        (lambda g, by: services.abandon_game(g.pk, by, "a server move"), "abandoned the game"),
    ],
)
def test_an_organisers_action_is_mailed_with_its_reason_and_logged(
    trio: Game, olga: User, carol: User, act: object, words: str
) -> None:
    act(trio, olga)  # type: ignore[operator]

    told = notices(trio)
    assert set(told) == {"alice", "bob", "carol"}
    for (mail,) in told.values():
        assert f"The organiser olga {words}" in mail.body_text
        assert "The organiser's reason: a server move" in mail.body_text
    log = log_of(trio, carol)
    assert f"The organiser olga {words}" in log and "Reason: a server move" in log


def test_resume_is_told_too(trio: Game, olga: User) -> None:
    services.pause_game(trio.pk, olga)
    services.resume_game(trio.pk, olga)

    kinds = list(GameEvent.objects.filter(game=trio).values_list("kind", flat=True))
    assert kinds == ["pause", "resume"]
    assert all(len(mails) == 2 for mails in notices(trio).values())


def test_a_player_who_wants_only_decisions_hears_only_what_concerns_them(
    trio: Game, olga: User, bob: User
) -> None:
    update_profile(bob, "", "UTC", "decisions")

    services.pause_game(trio.pk, olga)  # concerns alice, whose decision is pending
    services.resume_game(trio.pk, olga)
    services.forfeit_seat(trio.pk, olga, seat_of(trio, bob).pk, "admin")

    told = notices(trio)
    assert len(told["bob"]) == 1 and "made bob (purple) forfeit" in told["bob"][0].body_text
    assert len(told["alice"]) == 3


def test_a_player_resigns_from_the_game_page_after_confirming(
    trio: Game, bob: User, alice: User
) -> None:
    client = Client()
    client.force_login(bob)
    url = reverse("games:resign", args=[trio.pk])
    before = snapshot(trio)

    unconfirmed = client.post(url, {})
    assert unconfirmed.status_code == 400
    assert snapshot(trio) == before

    done = client.post(url, {"confirm": "on"})

    assert done.status_code == 302
    trio.refresh_from_db()
    assert trio.position["eliminated"] == ["purple"]
    move = trio.moves.order_by("number").last()
    assert (move.action, move.actor, move.player) == ("forfeit purple", bob, bob)
    told = notices(trio)
    assert "bob (purple) resigned" in told["alice"][0].body_text
    assert set(told) == {"alice", "bob", "carol"}
    assert "bob (purple) resigned" in log_of(trio, alice)


def test_the_game_page_offers_resigning_only_in_play(
    dice: LoadedDice, alice: User, bob: User, trio: Game
) -> None:
    in_setup = seated_game(dice, [alice, bob])

    assert f'action="/games/{trio.pk}/resign/"' in log_page(trio, alice)
    assert "/resign/" not in log_page(in_setup, alice)
    with pytest.raises(services.GameError, match="only during play"):
        services.resign(in_setup.pk, alice)


def log_page(game: Game, viewer: User) -> str:
    client = Client()
    client.force_login(viewer)
    return client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_the_last_resignation_ends_the_game_and_the_result_follows_the_notice(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    duel = play(seated_game(dice, [alice, bob]), *STRICT_SETUP)

    services.resign(duel.pk, bob)

    duel.refresh_from_db()
    assert duel.status == Game.Status.OVER and duel.winner == seat_of(duel, alice)
    kinds = list(
        mails_of(duel)
        .filter(to_user=alice, kind__in=["notice", "game_over"])
        .order_by("id")
        .values_list("kind", flat=True)
    )
    assert kinds == ["notice", "game_over"]
    assert Move.objects.filter(game=duel, action="forfeit purple").count() == 1
