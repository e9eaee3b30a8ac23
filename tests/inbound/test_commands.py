"""What a recognised player's reply can do: a move, R15's confirmation, ``board``,
``moves`` and ``help``; and what the decision mail says about replying."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games import replyto, services
from games.models import Game, Move
from inbound.models import InboundMessage
from inbound.services import handle_message
from mail.models import OutgoingMail
from tests.games.factories import STRICT_SETUP, play, seated_game, snapshot
from tests.games.test_pages_support import position, put_position
from tests.inbound.helpers import decision_mail, eml, last_answer
from ww5 import engine

pytestmark = pytest.mark.django_db
User = AbstractBaseUser
Outcome = InboundMessage.Outcome


def say(game: Game, user: User, first_line: str, address: str | None = None) -> str:
    """``user`` replies ``first_line`` to their decision mail; the outcome."""
    mail = decision_mail(game, user)
    raw = (
        f"From: {user.email}\r\nTo: {address or mail.reply_to}\r\nSubject: Re: {mail.subject}\r\n"
        f"Message-ID: <{first_line.replace(' ', '.')}.{OutgoingMail.objects.count()}@x>\r\n"
        f"\r\n{first_line}\r\n\r\n> quoted\r\n"
    ).encode()
    return handle_message(raw, transport="pipe").outcome


def test_the_decision_mail_replies_to_its_own_token_and_says_how(duel: Game, alice: User) -> None:
    mail = decision_mail(duel, alice)
    token = replyto.read_token(replyto.token_of(mail.reply_to) or "")
    seat = duel.seats.get(user=alice)
    assert (token.game_id, token.seat_id, token.turn, token.user_id) == (
        duel.pk,
        seat.pk,
        6,
        alice.pk,
    )
    assert token.for_decision
    assert mail.reply_to.startswith("play+") and mail.reply_to.endswith("@localhost")
    assert len(mail.reply_to.partition("@")[0]) <= 64  # an address's local part
    assert "reply to this mail with your move on the first line" in mail.body_text
    assert 'Reply "board" for the board' in mail.body_text


def test_an_illegal_move_is_refused_with_the_legal_actions(duel: Game, alice: User) -> None:
    before = snapshot(duel)
    assert say(duel, alice, "move usa japan") == Outcome.REFUSED
    assert snapshot(duel) == before
    answer = last_answer(alice.email).body_text
    assert "Your move “move usa japan” was not accepted" in answer
    assert "Nothing was changed" in answer
    assert ".." not in answer  # the reason's own period and the sentence's are one
    for action in engine.legal_actions(services.state_of(duel)):
        assert action in answer
    assert "Legal actions now" not in answer  # listed once, under what alice can do


def test_the_applied_move_is_answered_with_its_dice_and_what_followed(
    duel: Game, alice: User, dice
) -> None:  # type: ignore[no-untyped-def]
    dice.load(6, 6, 6, 1, 1)  # alice's large against bob's large: alice wins
    assert say(duel, alice, "invade usa -> western europe") == Outcome.APPLIED
    move = Move.objects.get(game=duel, number=7)
    assert move.source == Move.Source.EMAIL and move.dice
    answer = last_answer(alice.email).body_text
    assert "Your decision was recorded: Invade Western Europe from USA" in answer
    assert "rolls" in answer  # the dice, in words
    assert "The game now waits for bob" in answer


def test_a_setup_placement_and_a_retreat_in_the_lenient_notation_are_applied(
    dice, alice: User, bob: User
) -> None:  # type: ignore[no-untyped-def]
    game = seated_game(dice, [alice, bob])
    assert say(game, alice, "Place Small  Alaska") == Outcome.APPLIED
    assert Move.objects.get(game=game, number=1).action == "place small alaska"
    play(game, *STRICT_SETUP[1:])
    # alice's large against bob's large: alice wins, bob retreats from Western Europe.
    play(game, "invade usa western-europe @ 6 6 6 1 1", dice=dice)
    game.refresh_from_db()
    assert game.to_move.user_id == bob.pk
    retreats = engine.legal_actions(services.state_of(game))
    assert retreats == ["retreat brazil", "retreat northwest-africa"]

    assert say(game, bob, "retreat scandinavia") == Outcome.REFUSED  # not a retreat now
    assert say(game, bob, "Retreat to Northwest  Africa.") == Outcome.APPLIED

    assert Move.objects.get(game=game, number=8).action == "retreat northwest-africa"
    answer = last_answer(bob.email).body_text
    assert "Your decision was recorded: Retreat to Northwest Africa" in answer


def test_a_decision_that_eliminates_the_player_asks_for_confirm(
    duel: Game, alice: User, bob: User
) -> None:
    put_position(
        duel,
        position(
            {
                "usa": ("blue", "large"),
                "brazil": ("blue", "small"),
                "western-europe": ("purple", "medium"),
                "scandinavia": ("purple", "small"),
            }
        ),
    )
    before = snapshot(duel)

    assert say(duel, alice, "move usa colombia") == Outcome.CONFIRM

    assert snapshot(duel) == before
    asked = last_answer(alice.email)
    assert "eliminates you (R15)" in asked.body_text and "reply “confirm”" in asked.body_text
    assert asked.reply_to == decision_mail(duel, alice).reply_to  # the same decision

    assert say(duel, alice, "confirm") == Outcome.APPLIED

    assert Move.objects.get(game=duel, number=7).action == "move usa colombia"
    duel.refresh_from_db()
    assert duel.status == Game.Status.OVER  # alice left her home: bob wins


def test_confirm_with_nothing_asked_is_refused(duel: Game, alice: User) -> None:
    before = snapshot(duel)
    assert say(duel, alice, "confirm") == Outcome.REFUSED
    assert snapshot(duel) == before
    assert "nothing to confirm" in last_answer(alice.email).body_text


def test_board_answers_the_picture_and_the_board_in_words(duel: Game, alice: User) -> None:
    assert say(duel, alice, "board") == Outcome.ANSWERED
    answer = last_answer(alice.email)
    assert answer.inline_kind == "board" and answer.inline_spec["position"] == duel.position
    assert "USA: alice (blue)'s large" in answer.body_text
    assert 'src="cid:board@ww5"' in answer.body_html
    assert answer.thread == f"game-{duel.pk}"
    assert not Move.objects.filter(game=duel, number=7).exists()


def test_moves_lists_the_legal_actions(duel: Game, alice: User) -> None:
    assert say(duel, alice, "Moves") == Outcome.ANSWERED
    answer = last_answer(alice.email).body_text
    for action in engine.legal_actions(services.state_of(duel)):
        assert action in answer


def test_help_explains_the_replies(duel: Game, alice: User) -> None:
    assert say(duel, alice, "help") == Outcome.ANSWERED
    assert "How replies work" in last_answer(alice.email).body_text


def test_a_game_address_answers_commands_but_takes_no_move(duel: Game, alice: User) -> None:
    seat = duel.seats.get(user=alice)
    address = replyto.reply_address(duel, seat, decision=False)
    before = snapshot(duel)

    assert say(duel, alice, "move usa colombia", address=address) == Outcome.REFUSED
    assert snapshot(duel) == before
    assert "replying to the mail that asks for your decision" in last_answer(alice.email).body_text
    assert say(duel, alice, "board", address=address) == Outcome.ANSWERED


def test_a_reply_with_an_empty_first_line_gets_help(duel: Game, alice: User) -> None:
    mail = decision_mail(duel, alice)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")
    raw = raw.replace(b"move usa colombia\n", b"\n").replace(b"move usa colombia</div>", b"</div>")
    assert handle_message(raw, transport="pipe").outcome == Outcome.REFUSED
    assert "no move in your reply" in last_answer(alice.email).body_text


def test_mails_about_the_game_that_ask_no_decision_reply_to_the_game_address(
    duel: Game, alice: User
) -> None:
    start = OutgoingMail.objects.get(kind="game_start", to_user=alice)
    token = replyto.read_token(replyto.token_of(start.reply_to) or "")
    assert not token.for_decision
    assert (token.game_id, token.user_id) == (duel.pk, alice.pk)
