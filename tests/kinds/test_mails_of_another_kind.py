"""The mails and the answers to replies of a game of another kind (secret numbers, a kind
of these tests only: ``tests.kinds.numbers``) say what that kind says, through its hooks:
no World War 5 words and no board picture in its decision mails, reminders, answers or
digests; and while a round is open, no mail and no answer to a player shows another
player's sealed pick."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from games import digests, services
from games.kinds import Position
from games.models import Game
from games.options import GameOptions
from inbound.models import InboundMessage
from inbound.services import handle_message
from mail.models import OutgoingMail
from tests.games.factories import Clock, alice, bob, carol, clock
from tests.kinds.numbers import SecretNumbers
from tests.kinds.registered import registered

__all__ = ["alice", "bob", "carol", "clock"]

pytestmark = pytest.mark.django_db
Outcome = InboundMessage.Outcome

# What only World War 5 says: its map, its actions and rules, its pieces, its picture.
# (The signature "World War 5 by email" is the site's name, in every mail of every game.)
WW5_WORDS = re.compile(
    r"\b(continents?|territor\w*|invade|invasion|retreat\w*|setup placement|R\d\d?|usa|"
    r"colombia|western europe|north america|alaska|scandinavia|eliminat\w*|pieces?)\b"
    r"|'s (small|medium|large)|cid:|<img",
    re.IGNORECASE,
)


class ToldNumbers(SecretNumbers):
    """Secret numbers whose mails list each pick of the round as their reader sees it."""

    def position_lines(
        self, options: Mapping[str, Any], position: Position, names: Mapping[str, str]
    ) -> list[str]:
        return [f"{names.get(p, p)} picked {n}" for p, n in sorted(position["picks"].items())]


@pytest.fixture
def numbers() -> Iterator[SecretNumbers]:
    with registered(SecretNumbers()) as kind:
        yield kind


@pytest.fixture
def told() -> Iterator[ToldNumbers]:
    with registered(ToldNumbers()) as kind:
        yield kind


def started(kind: SecretNumbers, *players: User) -> Game:
    """A game of the kind, its players seated in order, its first round open."""
    seats = [services.TableSeat("", user=player) for player in players]
    options = GameOptions(kind=kind.key, rules={"rounds": 2})
    with transaction.atomic():
        game = services.create_table(options, seats, name="Numbers")
    game.refresh_from_db()
    return game


def mails_to(user: User, game: Game, kind: str | None = None) -> list[OutgoingMail]:
    found = OutgoingMail.objects.filter(to_user=user, thread=f"game-{game.pk}").order_by("id")
    return list(found.filter(kind=kind) if kind else found)


def say(game: Game, user: User, first_line: str) -> str:
    """``user`` replies ``first_line`` to their decision mail; the outcome."""
    mail = mails_to(user, game, "decision")[-1]
    raw = (
        f"From: {user.email}\r\nTo: {mail.reply_to}\r\nSubject: Re: {mail.subject}\r\n"
        f"Message-ID: <{first_line.replace(' ', '.')}.{OutgoingMail.objects.count()}@x>\r\n"
        f"\r\n{first_line}\r\n"
    ).encode()
    return handle_message(raw, transport="pipe").outcome


def text_of(mail: OutgoingMail) -> str:
    return mail.subject + "\n" + mail.body_text + "\n" + mail.body_html


def ww5_words(mail: OutgoingMail) -> list[str]:
    return [m.group(0) for m in WW5_WORDS.finditer(text_of(mail))]


def remind(game: Game) -> None:
    game.refresh_from_db()
    assert game.remind_at is not None
    services.sweep_reminders(game.remind_at)


def digest_of(user: User, game: Game, clock: Clock) -> OutgoingMail:
    since = game.started_at - timedelta(minutes=1)
    until = clock.now() + timedelta(minutes=1)
    digests.queue_digest(user, digests.digest_games(user, since, until), since, until)
    return OutgoingMail.objects.filter(to_user=user, kind="digest").latest("id")


def test_a_decision_mail_and_its_reminder_say_the_kinds_words_and_show_no_picture(
    numbers: SecretNumbers, clock: Clock, alice: User, bob: User
) -> None:
    game = started(numbers, alice, bob)
    [decision] = mails_to(alice, game, "decision")
    assert decision.subject == "[Secret numbers] Numbers: your turn", "named by its game"
    assert decision.inline_kind == "" and decision.inline_spec is None
    assert "waits for your turn (p1)" in decision.body_text
    for n in range(1, 6):
        assert f"pick {n}" in decision.body_text and f"<code>pick {n}</code>" in decision.body_html
    assert "The board" not in decision.body_text + decision.body_html  # the kind has none
    assert ww5_words(decision) == []

    remind(game)
    [reminder] = mails_to(alice, game, "reminder")
    assert "A reminder" in reminder.body_text and reminder.inline_spec is None
    assert ww5_words(reminder) == []


def test_the_answers_to_replies_say_the_kinds_words_and_show_no_picture(
    numbers: SecretNumbers, clock: Clock, alice: User, bob: User
) -> None:
    game = started(numbers, alice, bob)
    for command in ("board", "moves", "help"):
        assert say(game, alice, command) == Outcome.ANSWERED
        answer = mails_to(alice, game, "reply")[-1]
        assert answer.inline_kind == "" and answer.inline_spec is None, command
        assert ww5_words(answer) == [], command
    assert "<code>pick 3</code>" in mails_to(alice, game, "reply")[-2].body_html  # moves
    help_text = mails_to(alice, game, "reply")[-1].body_text
    assert "How replies work" in help_text
    assert '"confirm"' not in help_text, "the kind has no decision to confirm"

    assert say(game, alice, "pick 3") == Outcome.APPLIED
    recorded = mails_to(alice, game, "reply")[-1]
    assert "Your decision was recorded: pick 3." in recorded.body_text
    assert ww5_words(recorded) == []


def test_a_digest_tells_the_moves_in_the_kinds_words(
    numbers: SecretNumbers, clock: Clock, alice: User, bob: User
) -> None:
    game = started(numbers, alice, bob)
    services.submit_move(game.pk, alice, "pick 2", 0)
    digest = digest_of(bob, game, clock)
    assert "alice (p1): pick (sealed)" in digest.body_text
    assert ww5_words(digest) == []


def test_another_players_sealed_pick_shows_in_no_mail_and_no_answer_while_the_round_is_open(
    told: ToldNumbers, clock: Clock, alice: User, bob: User, carol: User
) -> None:
    game = started(told, alice, bob, carol)
    assert say(game, alice, "pick 4") == Outcome.APPLIED
    assert say(game, carol, "pick 2") == Outcome.APPLIED
    for command in ("board", "moves", "help"):
        assert say(game, bob, command) == Outcome.ANSWERED
        assert say(game, carol, command) == Outcome.ANSWERED
    assert say(game, alice, "board") == Outcome.ANSWERED
    remind(game)
    digests = {user.username: digest_of(user, game, clock) for user in (bob, carol)}
    game.refresh_from_db()
    assert game.turn_number == 2 and game.is_active, "bob has not picked: the round is open"

    assert mails_to(bob, game, "reminder"), "bob is reminded of his pick"
    alices_pick = re.compile(r"alice \(p1\)\W+(pick(ed)?\W+)?4\b")
    for user in (bob, carol):
        told_them = [*mails_to(user, game), digests[user.username]]
        for mail in told_them:
            assert not alices_pick.search(text_of(mail)), (user.username, mail.kind)
            assert mail.inline_spec is None
    # What the others see of alice's pick: that she picked, and not what.
    bobs_board = [
        m for m in mails_to(bob, game, "reply") if "Numbers, as it is now." in m.body_text
    ][-1]
    assert "alice (p1) picked sealed" in bobs_board.body_text
    assert "carol (p3) picked sealed" in bobs_board.body_text
    assert "alice (p1): pick (sealed)" in digests["bob"].body_text
    carols_board = [
        m for m in mails_to(carol, game, "reply") if "Numbers, as it is now." in m.body_text
    ]
    assert "carol (p3) picked 2" in carols_board[-1].body_text, "her own pick shows to her"
    # ... and alice sees her own.
    alices_board = mails_to(alice, game, "reply")[-1]
    assert "alice (p1) picked 4" in alices_board.body_text
