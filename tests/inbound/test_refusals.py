"""Messages that must change nothing: forged or altered tokens, strangers, tokens of
decisions already made, expired or for a seat the player no longer holds; replayed
messages; unreadable and huge ones. Answers go only to the player a genuine token
names, at their own address: a message without one is never answered."""

from __future__ import annotations

import base64
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games import replyto, services
from games.models import Game, Move
from inbound.models import InboundMessage
from inbound.services import handle_message
from mail.models import OutgoingMail
from tests.games.factories import snapshot
from tests.inbound.helpers import answers_to, decision_mail, eml, last_answer, reply_to

pytestmark = pytest.mark.django_db
User = AbstractBaseUser
Outcome = InboundMessage.Outcome
MALLORY = "mallory@example.net"


def tells_nothing_of(game: Game, text: str, *names: str) -> None:
    assert str(game) not in text and f"game-{game.pk}" not in text
    assert "board" not in text.lower() and "colombia" not in text.lower()
    for name in names:
        assert name not in text


def altered(address: str) -> str:
    """The reply address with one character of its token's signature changed."""
    local, _, domain = address.partition("@")
    last = local[-1]
    return f"{local[:-1]}{'a' if last != 'a' else 'b'}@{domain}"


def test_a_forged_token_is_refused_changes_nothing_and_is_not_answered(
    duel: Game, alice: User
) -> None:
    """Its From may be anyone's: an answer to it would be mail sent in the site's name to
    whomever the forger chose."""
    before = snapshot(duel)
    address = altered(decision_mail(duel, alice).reply_to)

    handled = reply_to(duel, alice, address=address)

    assert (handled.outcome, handled.answered) == (Outcome.REJECTED, False)
    assert snapshot(duel) == before
    assert answers_to(alice.email) == []
    assert InboundMessage.objects.get().error == "a reply token that is not valid"


def test_a_token_with_altered_numbers_is_refused(duel: Game, alice: User, bob: User) -> None:
    """Pointing a valid signature at bob's seat does not make it bob's token."""
    token = replyto.token_of(decision_mail(duel, alice).reply_to)
    assert token is not None
    kind, game, seat, turn, user, issued, signature = token.split(".")
    bob_seat = duel.seats.get(user=bob)
    forged = ".".join([kind, game, replyto._base36(bob_seat.pk), turn, user, issued, signature])
    with pytest.raises(replyto.BadToken):
        replyto.read_token(forged)
    handled = reply_to(duel, alice, address=f"play+{forged}@localhost")
    assert handled.outcome == Outcome.REJECTED
    assert not Move.objects.filter(game=duel, number=7).exists()


def test_a_strangers_reply_with_a_real_token_is_refused_and_its_player_told(
    duel: Game, alice: User
) -> None:
    before = snapshot(duel)

    handled = reply_to(duel, alice, sender=MALLORY)

    assert handled.outcome == Outcome.REJECTED
    assert snapshot(duel) == before
    assert answers_to(MALLORY) == []
    [notice] = answers_to(alice.email)
    assert notice.to_user_id == alice.pk and notice.inline_kind == ""
    assert MALLORY in notice.body_text and "was not read" in notice.body_text
    assert "Nothing was changed" in notice.body_text
    assert "Re:" not in notice.subject  # the forger's subject is not repeated
    audit = InboundMessage.objects.get()
    assert audit.error == "sender is not the token's player"
    assert audit.game_id == duel.pk and audit.user_id is None  # its organisers see it


def test_a_reply_without_a_token_is_refused_and_not_answered(duel: Game, alice: User) -> None:
    handled = reply_to(duel, alice, address="play@localhost")
    assert (handled.outcome, handled.answered) == (Outcome.REJECTED, False)
    assert InboundMessage.objects.get().error == "no reply token"
    assert not OutgoingMail.objects.filter(kind="reply").exists()


def test_forged_mail_from_made_up_addresses_queues_no_mail_at_all(duel: Game, alice: User) -> None:
    """200 forged messages from 151 made-up addresses: no token, a made-up token, an
    altered one; each audited, none answered."""
    real = decision_mail(duel, alice).reply_to
    targets = ["play@localhost", "play+d.1.2.6.3.tozcxb.mpcsvp3l27kie227@localhost", altered(real)]
    before = snapshot(duel)

    for n in range(200):
        sender = f"victim{n % 151}@example.org"
        handled = reply_to(duel, alice, sender=sender, address=targets[n % 3])
        assert (handled.outcome, handled.answered) == (Outcome.REJECTED, False)

    assert snapshot(duel) == before
    assert InboundMessage.objects.count() == 200
    assert not OutgoingMail.objects.filter(kind="reply").exists()


def test_the_same_message_delivered_twice_is_applied_once(duel: Game, alice: User) -> None:
    mail = decision_mail(duel, alice)
    raw = eml(
        "gmail_top_posted.eml",
        FROM=alice.email,
        REPLY_TO=mail.reply_to,
        SUBJECT=mail.subject,
        MESSAGE_ID="<CAF=replayed@mail.gmail.com>",
    )

    first = handle_message(raw, transport="pipe")
    second = handle_message(raw, transport="listener")

    assert (first.outcome, second.outcome) == (Outcome.APPLIED, "duplicate")
    assert Move.objects.filter(game=duel).count() == 7
    assert InboundMessage.objects.count() == 1
    assert len(answers_to(alice.email)) == 1


def test_a_second_reply_for_one_decision_is_told_it_was_already_decided(
    duel: Game, alice: User
) -> None:
    first = reply_to(duel, alice, "gmail_top_posted.eml")  # move usa colombia
    second = reply_to(duel, alice, "plain_text_client.eml")  # grow canada, same token

    assert (first.outcome, second.outcome) == (Outcome.APPLIED, Outcome.ALREADY)
    assert [m.action for m in Move.objects.filter(game=duel, number__gt=6)] == ["move usa colombia"]
    answer = last_answer(alice.email)
    assert "already made: Move from USA to Colombia" in answer.body_text
    assert "was not applied" in answer.body_text


def test_a_token_for_a_decision_made_on_the_web_is_already_decided(duel: Game, alice: User) -> None:
    mail = decision_mail(duel, alice)
    services.submit_move(duel.pk, alice, "grow alaska", 6)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")

    assert handle_message(raw, transport="pipe").outcome == Outcome.ALREADY
    assert Move.objects.get(game=duel, number=7).action == "grow alaska"
    assert not Move.objects.filter(game=duel, number=8).exists()


def test_a_reply_to_an_old_decision_mail_points_to_the_decision_due_now(
    duel: Game, alice: User
) -> None:
    old = decision_mail(duel, alice)
    services.submit_move(duel.pk, alice, "grow alaska", 6)
    services.submit_move(duel.pk, duel.seats.exclude(user=alice).get().user, "grow scandinavia", 7)
    before = snapshot(duel)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=old.reply_to, SUBJECT="x")

    assert handle_message(raw, transport="pipe").outcome == Outcome.ALREADY

    assert snapshot(duel) == before
    answer = last_answer(alice.email).body_text
    assert "already made: Grow the piece in Alaska" in answer
    assert "reply to this mail, or to the one that asks for it" in answer
    assert "mail follows" not in answer  # it was sent before this reply came

    # The answer replies to the decision due now, as the mail that asks for it does.
    address = last_answer(alice.email).reply_to
    assert address != old.reply_to
    token = replyto.read_token(replyto.token_of(address) or "")
    duel.refresh_from_db()
    assert token.for_decision and token.turn == duel.turn_number == 8
    again = eml("plain_text_client.eml", FROM=alice.email, REPLY_TO=address, SUBJECT="x")
    assert handle_message(again, transport="pipe").outcome == Outcome.APPLIED
    assert Move.objects.get(game=duel, number=9).action == "grow canada"


def test_a_reply_after_the_deadline_is_refused(duel: Game, alice: User) -> None:
    Game.objects.filter(pk=duel.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    before = snapshot(duel)

    assert reply_to(duel, alice).outcome == Outcome.REFUSED

    assert snapshot(duel) == before
    assert "after this decision's deadline" in last_answer(alice.email).body_text


def test_an_expired_token_is_refused(duel: Game, alice: User, settings) -> None:  # type: ignore[no-untyped-def]
    settings.REPLY_TOKEN_DAYS = 0
    mail = decision_mail(duel, alice)
    later = timezone.now() + timedelta(minutes=5)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")

    handled = handle_message(raw, transport="pipe", now=later)

    assert handled.outcome == Outcome.REJECTED
    assert "expired" in last_answer(alice.email).body_text
    assert not Move.objects.filter(game=duel, number=7).exists()


def test_a_replaced_players_token_is_refused(
    duel: Game, alice: User, olga: User, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    mail = decision_mail(duel, alice)
    carol = django_user_model.objects.create_user("carol", "carol@example.com")
    services.replace_player(duel.pk, olga, duel.seats.get(user=alice).pk, carol, reason="away")
    before = snapshot(duel)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")

    handled = handle_message(raw, transport="pipe")

    assert handled.outcome == Outcome.REJECTED
    assert snapshot(duel) == before
    tells_nothing_of(duel, last_answer(alice.email).body_text, "carol", "bob")


def test_a_huge_message_is_not_read_and_its_sender_is_told(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    padding = base64.encodebytes(b"\0" * settings.INBOUND_MAX_BYTES).decode()
    before = snapshot(duel)

    handled = reply_to(duel, alice, "huge.eml", PADDING=padding)

    assert handled.outcome == Outcome.TOO_LARGE
    assert snapshot(duel) == before
    assert "larger than the site accepts" in last_answer(alice.email).body_text
    assert InboundMessage.objects.get().size > settings.INBOUND_MAX_BYTES


def test_malformed_mime_changes_nothing_and_is_audited(duel: Game, alice: User) -> None:
    before = snapshot(duel)
    handled = reply_to(duel, alice, "malformed_mime.eml")
    assert handled.outcome in (Outcome.REFUSED, Outcome.MALFORMED)
    assert snapshot(duel) == before
    assert InboundMessage.objects.get().outcome == handled.outcome


@pytest.mark.parametrize(
    "raw", [b"", b"\x00\xff\xfe garbage", b"not a header line at all\n\nbody"], ids=str
)
def test_bytes_that_are_no_message_are_audited_and_never_answered(duel: Game, raw: bytes) -> None:
    before = snapshot(duel)
    handled = handle_message(raw, transport="pipe")
    assert handled.outcome in (Outcome.MALFORMED, Outcome.REJECTED)
    assert snapshot(duel) == before
    assert not OutgoingMail.objects.filter(kind="reply").exists()


def test_a_player_is_told_of_mail_to_their_reply_address_once_an_hour(
    duel: Game, alice: User
) -> None:
    """No flood of notices to the player, whoever sends to their address."""
    outcomes = [
        reply_to(duel, alice, "gmail_top_posted.eml", sender=f"{who}@example.net").outcome
        for who in ("mallory", "trent", "mallory")
    ]

    assert outcomes == [Outcome.REJECTED] * 3
    assert len(answers_to(alice.email)) == 1
    assert answers_to("mallory@example.net") == answers_to("trent@example.net") == []
    assert InboundMessage.objects.filter(error__contains="told within the hour").count() == 2


def test_a_huge_message_without_a_genuine_token_is_not_answered(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    padding = base64.encodebytes(b"\0" * settings.INBOUND_MAX_BYTES).decode()

    handled = reply_to(duel, alice, "huge.eml", PADDING=padding, address="play@localhost")

    assert (handled.outcome, handled.answered) == (Outcome.TOO_LARGE, False)
    assert not OutgoingMail.objects.filter(kind="reply").exists()


def test_a_player_over_the_hourly_limit_is_told_once_then_not_answered(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.INBOUND_PER_SENDER_PER_HOUR = 2
    before = snapshot(duel)

    outcomes = [reply_to(duel, alice, "plain_text_client.eml").outcome for _ in "abcde"]

    # The first reply's move, then replies to a decision already made, which count.
    assert outcomes == [Outcome.APPLIED, Outcome.ALREADY, Outcome.ALREADY] + [Outcome.LIMITED] * 2
    assert len(answers_to(alice.email)) == 4
    assert "hourly limit" in last_answer(alice.email).body_text
    assert InboundMessage.objects.filter(outcome=Outcome.LIMITED, user=alice).count() == 2
    assert before != snapshot(duel)  # the first reply's move stood; the limit undoes nothing


def test_mail_forged_in_a_players_name_never_uses_up_their_limit(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.INBOUND_PER_SENDER_PER_HOUR = 2
    for _ in range(5):  # alice's address, but no token of hers
        forged = reply_to(duel, alice, address="play@localhost")
        assert forged.outcome == Outcome.REJECTED

    handled = reply_to(duel, alice, "gmail_top_posted.eml")

    assert handled.outcome == Outcome.APPLIED
    assert duel.moves.filter(source=Move.Source.EMAIL).count() == 1


def test_a_fault_while_handling_is_recorded_and_changes_nothing(
    duel: Game, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message that makes the handler fail is audited as unreadable, once: a retry by
    the transport would fail the same way."""
    from inbound import answers

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the answer cannot be written")

    monkeypatch.setattr(answers, "queue_answer", broken)
    before = snapshot(duel)

    handled = reply_to(duel, alice)

    assert handled.outcome == Outcome.MALFORMED
    assert snapshot(duel) == before  # the move was rolled back with the failed answer
    assert InboundMessage.objects.get().error == "RuntimeError: the answer cannot be written"


def test_a_player_whose_reply_met_a_fault_is_told_nothing_was_changed(
    duel: Game, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move is rolled back with the answer that failed: its player must not wait
    for it, believing it made."""
    from inbound import answers

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the move cannot be described")

    monkeypatch.setattr(answers, "move_lines", broken)
    before = snapshot(duel)

    handled = reply_to(duel, alice)

    assert handled.outcome == Outcome.MALFORMED and handled.answered
    assert snapshot(duel) == before
    answer = last_answer(alice.email)
    assert "could not be handled" in answer.body_text
    assert "nothing was changed" in answer.body_text
    tells_nothing_of(duel, answer.body_text, "bob")
    row = InboundMessage.objects.get()
    assert (row.error, row.answer_id) == ("RuntimeError: the move cannot be described", answer.pk)
