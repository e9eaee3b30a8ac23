"""Inline pictures: the outbox draws a mail's part with the renderer registered for its
kind when the mail is sent, and knows nothing else of it."""

from __future__ import annotations

from email.message import Message
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from mail import parts
from mail.models import OutgoingMail
from mail.services import queue_mail, send_now

pytestmark = pytest.mark.django_db

SQUARE = b"GIF89a a square"


def draw_square(spec: dict[str, Any]) -> parts.InlinePart:
    return parts.InlinePart(SQUARE + spec["size"].encode(), "gif", "square.gif")


def fail_to_draw(spec: dict[str, Any]) -> parts.InlinePart:
    raise RuntimeError("cannot draw this")


# Kinds of these tests' own, so registering them for the whole run disturbs no other test.
parts.register_inline_part("test-square", draw_square)
parts.register_inline_part("test-broken", fail_to_draw)


def queued(kind: str) -> OutgoingMail:
    mail = queue_mail(
        "alice@example.com",
        "A square",
        "A square, in words.",
        f'<p><img src="cid:{parts.content_id(kind)}" alt="a square"></p>',
        kind="notice",
        inline_part=(kind, {"size": "big"}),
    )
    assert mail is not None
    return mail


def images(message: Any) -> list[Message]:
    return [p for p in message.message().walk() if p.get_content_maintype() == "image"]


def test_a_mails_part_is_drawn_when_sent_and_shown_by_its_content_id(outbox: list) -> None:
    mail = queued("test-square")
    assert (mail.inline_kind, mail.inline_spec) == ("test-square", {"size": "big"})

    assert send_now(mail.pk) == "sent"

    [message] = outbox
    assert message.message().get_content_type() == "multipart/related"
    [image] = images(message)
    assert image.get_content_type() == "image/gif"
    assert image["Content-ID"] == "<test-square@ww5>"
    assert image.get_content_disposition() == "inline"
    assert image.get_filename() == "square.gif"
    assert image.get_payload(decode=True) == SQUARE + b"big"


def test_a_part_that_cannot_be_drawn_leaves_the_mail_without_it(outbox: list) -> None:
    assert send_now(queued("test-broken").pk) == "sent"

    [message] = outbox
    assert images(message) == []
    assert message.body == "A square, in words."


def test_a_part_whose_kind_is_no_longer_drawn_leaves_the_mail_without_it(outbox: list) -> None:
    mail = queued("test-square")
    OutgoingMail.objects.filter(pk=mail.pk).update(inline_kind="test-gone")

    assert send_now(mail.pk) == "sent"

    assert images(outbox[0]) == []


def test_a_mail_with_a_part_no_one_draws_is_refused() -> None:
    with pytest.raises(ValueError, match="test-gone"):
        queued("test-gone")

    assert not OutgoingMail.objects.exists()


@pytest.mark.parametrize("kind", ["", "Square", "a square", "square@ww5", "-square"])
def test_a_kind_is_lowercase_words_fit_for_a_content_id(kind: str) -> None:
    with pytest.raises(ValueError, match="lowercase words"):
        parts.register_inline_part(kind, draw_square)


def test_the_outbox_page_shows_the_part_by_its_address(
    client: Client, olga: AbstractBaseUser, settings: Any
) -> None:
    settings.MAIL_OUTBOX_PAGES = True  # the development outbox
    mail = queued("test-square")
    client.force_login(olga)

    page = client.get(reverse("mail:outbox_detail", args=[mail.pk])).content.decode()
    picture = client.get(reverse("mail:outbox_picture", args=[mail.pk]))

    address = reverse("mail:outbox_picture", args=[mail.pk])
    assert f"http://testserver{address}" in page and "cid:test-square@ww5" not in page
    assert picture["Content-Type"] == "image/gif" and picture.content == SQUARE + b"big"
