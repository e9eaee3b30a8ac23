"""Delivery to a real SMTP server on localhost (aiosmtpd), as in production."""

from __future__ import annotations

import email
import email.policy
from email.message import Message

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from games import services as games
from games.notify import thread_for
from mail import services
from mail.models import OutgoingMail
from mail.services import queue_mail
from tests.mail.conftest import Recorder, free_port, point_smtp_at

pytestmark = pytest.mark.django_db

Status = OutgoingMail.Status


@pytest.fixture
def send_on_commit(django_capture_on_commit_callbacks: object) -> object:
    return lambda: django_capture_on_commit_callbacks(execute=True)  # type: ignore[operator]


def received(recorder: Recorder) -> list[Message]:
    return [
        email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        for envelope in recorder.envelopes
    ]


def part(message: Message, content_type: str) -> str:
    [found] = [p for p in message.walk() if p.get_content_type() == content_type]
    return found.get_payload(decode=True).decode()  # type: ignore[union-attr]


def test_mails_reach_the_smtp_server_with_their_parts_and_headers(
    smtp_server: Recorder, send_on_commit: object, alice: AbstractBaseUser
) -> None:
    game = games.create_game(alice)
    url = services.unsubscribe_url(alice)

    with send_on_commit():  # type: ignore[operator]
        mails = [
            queue_mail(
                alice.email,
                f"Your turn, move {number}",
                f"Move {number}: https://ww5.example.org/games/{game.pk}/",
                f"<p>Move {number}</p>",
                kind="decision",
                to_user=alice,
                thread=thread_for(game),
                unsubscribe_url=url,
            )
            for number in (1, 2)
        ]

    assert [envelope.rcpt_tos for envelope in smtp_server.envelopes] == [[alice.email]] * 2
    assert [envelope.mail_from for envelope in smtp_server.envelopes] == ["ww5@localhost"] * 2
    first, second = received(smtp_server)
    assert first["Subject"] == "Your turn, move 1"
    assert first.get_content_type() == "multipart/alternative"
    assert part(first, "text/plain").startswith("Move 1: https://ww5.example.org/games/")
    assert part(first, "text/html") == "<p>Move 1</p>"
    root = f"<game-{game.pk}@localhost>"
    for message, mail in zip((first, second), mails, strict=True):
        assert mail is not None
        assert message["Message-ID"] == mail.message_id
        assert message["In-Reply-To"] == message["References"] == root
        # Folded onto a line of its own (the link is long); unfolded, it is the link.
        assert message["List-Unsubscribe"].strip() == f"<{url}>"
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert set(OutgoingMail.objects.values_list("status", flat=True)) == {Status.SENT}


def test_a_recipient_the_server_refuses_for_good_fails_the_mail(
    smtp_server: Recorder, send_on_commit: object
) -> None:
    smtp_server.refuse = "550 5.1.1 No such user"

    with send_on_commit():  # type: ignore[operator]
        mail = queue_mail("nobody@example.com", "Hello", "text", "", kind="test")

    assert mail is not None
    mail.refresh_from_db()
    assert mail.status == Status.FAILED
    assert "No such user" in mail.last_error
    assert smtp_server.envelopes == []


def test_a_recipient_the_server_refuses_for_now_is_retried(
    smtp_server: Recorder, send_on_commit: object
) -> None:
    smtp_server.refuse = "451 4.3.0 Try again later"

    with send_on_commit():  # type: ignore[operator]
        mail = queue_mail("alice@example.com", "Hello", "text", "", kind="test")

    assert mail is not None
    mail.refresh_from_db()
    assert (mail.status, mail.attempts) == (Status.RETRY, 1)
    assert "Try again later" in mail.last_error

    smtp_server.refuse = ""
    assert services.send_now(mail.pk, now=mail.next_attempt_at) == "sent"
    assert len(smtp_server.envelopes) == 1


def test_a_server_that_does_not_answer_is_retried(settings: object, send_on_commit: object) -> None:
    point_smtp_at(settings, free_port())  # nothing listens there

    with send_on_commit():  # type: ignore[operator]
        mail = queue_mail("alice@example.com", "Hello", "text", "", kind="test")

    assert mail is not None
    mail.refresh_from_db()
    assert mail.status == Status.RETRY
    assert "ConnectionRefusedError" in mail.last_error


def test_the_sign_up_confirmation_reaches_the_smtp_server(
    smtp_server: Recorder, send_on_commit: object, client: Client
) -> None:
    password = "correct horse battery staple"

    with send_on_commit():  # type: ignore[operator]
        client.post(
            "/accounts/signup/",
            {
                "username": "carol",
                "email": "carol@example.com",
                "password1": password,
                "password2": password,
            },
        )

    [message] = received(smtp_server)
    assert message["To"] == "carol@example.com"
    assert message["Subject"].startswith("[World War 5] ")
    assert "/accounts/confirm-email/" in part(message, "text/plain")
    assert "/accounts/confirm-email/" in part(message, "text/html")
