"""The mails a game sends: one "your decision" prompt per decision, and the result."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.services import update_profile
from games import notify, services
from games.models import Game
from mail.models import OutgoingMail
from tests.games.factories import (
    STRICT_SETUP,
    LoadedDice,
    mails_of,
    play,
    seat_of,
    seated_game,
)

pytestmark = pytest.mark.django_db

User = AbstractBaseUser


def decision_mails(game: Game) -> list[OutgoingMail]:
    return list(mails_of(game).filter(kind="decision").order_by("id"))


def link_in(mail: OutgoingMail) -> str:
    found = re.search(r"http://localhost:8000(/games/decide/[^\s]+/)", mail.body_text)
    assert found, mail.body_text
    return found.group(1)


def with_email(user: User) -> User:
    user.email = f"{user.get_username()}@example.com"
    user.save(update_fields=["email"])
    return user


@pytest.fixture
def game(dice: LoadedDice, alice: User, bob: User) -> Game:
    return seated_game(dice, [with_email(alice), with_email(bob)])


def test_the_player_whose_decision_it_is_gets_one_mail_with_a_working_link(
    game: Game, alice: User
) -> None:
    (mail,) = decision_mails(game)

    assert mail.to_user == alice and mail.to_address == "alice@example.com"
    assert "your setup placement" in mail.subject and str(game) in mail.subject
    page = Client().get(link_in(mail))
    assert page.status_code == 200
    assert 'value="place small alaska"' in page.content.decode()


def test_each_decision_brings_its_own_single_prompt(game: Game, alice: User, bob: User) -> None:
    play(game, "place small alaska", "place small scandinavia")

    mails = decision_mails(game)
    assert [m.to_user for m in mails] == [alice, bob, alice]
    assert len({m.dedup_key for m in mails}) == 3


def test_a_decision_is_never_prompted_twice(game: Game, alice: User) -> None:
    from games import notify

    game.refresh_from_db()
    seats = services.seats_of(game)
    notify.queue_decision_mail(game, seat_of(game, alice), services.state_of(game), seats)

    assert len(decision_mails(game)) == 1


def test_a_decision_and_its_prompt_read_the_players_once(
    game: Game, alice: User, bob: User
) -> None:
    play(game, *STRICT_SETUP[:3])

    with CaptureQueriesContext(connection) as queries:
        services.submit_move(game.pk, bob, "place medium southern-europe", 3)

    players = [
        q["sql"] for q in queries if re.search(r"games_seat|auth_user|accounts_profile", q["sql"])
    ]
    assert len(players) == 1, players  # the seats, with their players and profiles
    assert [m.to_user for m in decision_mails(game)][-1] == alice


def test_the_prompt_shows_the_board_the_moves_since_and_the_legal_actions(
    game: Game, alice: User
) -> None:
    play(game, *STRICT_SETUP, "grow alaska")  # then it is purple's turn, then blue's
    play(game, "grow scandinavia")

    mail = decision_mails(game)[-1]
    assert mail.to_user == alice and "your turn" in mail.subject
    text = mail.body_text
    assert "Since your last decision:" in text and "grow" in text.lower()
    assert "North America — Alaska: " in text
    assert "invade canada scandinavia" in text and "chance to win" in text
    assert "Make your decision" in html.unescape(mail.body_html)


def test_bots_get_no_mail(dice: LoadedDice, alice: User) -> None:
    game = services.create_game(with_email(alice), seats=2, home="north-america")
    dice.load(1, 6)  # the bot starts; it places at once, then alice is prompted
    services.add_bot(game.pk, alice, "greedy", home="europe")

    assert {m.to_user for m in decision_mails(game)} <= {alice}


def test_everyone_who_wants_each_event_hears_the_result(game: Game, alice: User, bob: User) -> None:
    update_profile(bob, "Bob", "UTC", "decisions")
    play(game, *STRICT_SETUP)
    services.forfeit_seat(game.pk, alice, seat_of(game, bob).pk, source="admin")

    (result,) = mails_of(game).filter(kind="game_over")
    assert result.to_user == alice
    assert "game over" in result.subject
    assert "1. " in result.body_text and "won" in result.body_text


def test_the_deadline_in_the_prompt_is_in_the_players_zone(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    update_profile(with_email(alice), "Alice", "America/New_York", "each")
    game = seated_game(dice, [alice, with_email(bob)])

    (mail,) = decision_mails(game)
    assert "(America/New_York)" in mail.body_text
    assert re.search(r"Deadline: .* E[SD]T \(America/New_York\)", mail.body_text)


def test_a_deadline_in_utc_names_the_zone_once_in_the_prompt(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    update_profile(with_email(alice), "Alice", "UTC", "each")
    game = seated_game(dice, [alice, with_email(bob)])

    (mail,) = decision_mails(game)
    assert re.search(
        r"Deadline: \d+ \w+ \d{4} \d\d:\d\d UTC, .* from this mail\.\n", mail.body_text
    )
    assert "UTC (UTC)" not in mail.body_text and "UTC (UTC)" not in mail.body_html


def test_everyone_hears_that_the_game_has_started_and_who_begins(
    game: Game, alice: User, bob: User
) -> None:
    mails = mails_of(game).filter(kind="game_start")

    assert {m.to_user for m in mails} == {alice, bob}
    assert all("has started" in m.subject and "goes first" in m.body_text for m in mails)


def test_the_start_mail_names_each_players_home_continent(game: Game) -> None:
    mail = mails_of(game).filter(kind="game_start").first()

    assert mail is not None
    for body in (mail.body_text, mail.body_html):
        assert "(blue), home North America" in body and "(purple), home Europe" in body
        assert "north-america" not in body


def test_a_missed_decision_tells_the_player_what_was_done(game: Game, alice: User) -> None:
    assert game.deadline is not None
    services.handle_missed_decision(game.pk, game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.deadline is not None
    services.handle_missed_decision(game.pk, game.deadline + timedelta(seconds=1))

    grace, timeout = mails_of(game).filter(kind="missed").order_by("id")
    assert grace.to_user == timeout.to_user == alice
    assert "one grace extension" in grace.body_text
    assert "A bot decided for you: Place your small in" in timeout.body_text
    assert "Your setup placement in" in timeout.body_text
    assert "does not count towards the 3 missed turns" in timeout.body_text
    assert "missed 1 of" not in timeout.body_text


def test_a_timeout_forfeit_tells_the_player(game: Game, alice: User) -> None:
    play(game, *STRICT_SETUP)
    Game.objects.filter(pk=game.pk).update(missed_limit=1, grace_used=True)
    game.refresh_from_db()
    assert game.deadline is not None

    assert services.handle_missed_decision(game.pk, game.deadline + timedelta(seconds=1)) == (
        "forfeit"
    )

    (mail,) = mails_of(game).filter(kind="missed")
    assert mail.to_user == alice and "forfeited" in mail.body_text


def test_a_mail_to_someone_without_a_profile_gives_times_in_the_sites_zone(settings) -> None:
    settings.TIME_ZONE = "Europe/Paris"
    deadline = datetime(2030, 1, 15, 17, 30, tzinfo=UTC)

    context = {"deadline": deadline, "what": "grace"}

    _, text, html_part = notify.render_mail("missed", context, AnonymousUser())

    assert "the new deadline is 15 Jan 2030 18:30 CET (Europe/Paris)." in text
    assert "18:30 CET (Europe/Paris)" in html_part
