"""Queueing: a mail is a row written in the caller's transaction, sent after commit."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from mail.models import OutgoingMail
from mail.services import queue_mail


class Boom(Exception):
    pass


def queue_hello(**extra: object) -> OutgoingMail | None:
    return queue_mail(
        "alice@example.com",
        "Hello",
        "Hello Alice, see https://ww5.example.org/games/1/ now.",
        "<p>Hello Alice</p>",
        kind="test",
        **extra,  # type: ignore[arg-type]
    )


@pytest.mark.django_db(transaction=True)
def test_a_mail_queued_in_a_committed_transaction_is_sent(outbox: list) -> None:
    with transaction.atomic():
        mail = queue_hello()
        assert outbox == []  # not before the commit

    assert [message.subject for message in outbox] == ["Hello"]
    assert mail is not None
    mail.refresh_from_db()
    assert mail.status == OutgoingMail.Status.SENT
    assert mail.sent_at is not None
    assert mail.attempts == 1


@pytest.mark.django_db(transaction=True)
def test_a_mail_queued_in_a_transaction_that_rolls_back_is_never_sent(outbox: list) -> None:
    with pytest.raises(Boom), transaction.atomic():
        queue_hello()
        raise Boom

    assert outbox == []
    assert not OutgoingMail.objects.exists()


@pytest.mark.django_db
def test_a_queued_mail_waits_for_the_commit(
    outbox: list, django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:  # type: ignore[operator]
        mail = queue_hello()

    assert mail is not None and mail.status == OutgoingMail.Status.QUEUED
    assert outbox == []

    for callback in callbacks:
        callback()

    mail.refresh_from_db()
    assert mail.status == OutgoingMail.Status.SENT
    assert len(outbox) == 1


@pytest.mark.django_db
def test_a_dedup_key_gives_one_mail(
    outbox: list, django_capture_on_commit_callbacks: object
) -> None:
    key = "decision:7:12:2"
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        first = queue_hello(dedup_key=key)
        second = queue_hello(dedup_key=key)

    assert first is not None
    assert second is None
    assert OutgoingMail.objects.filter(dedup_key=key).count() == 1
    assert len(outbox) == 1


@pytest.mark.django_db
def test_a_dedup_key_taken_gives_no_second_mail_and_leaves_the_transaction_usable(
    outbox: list,
) -> None:
    key = "decision:7:12:2"
    queue_hello(dedup_key=key)

    with transaction.atomic():
        again = queue_hello(dedup_key=key)
        # The caller's transaction is still usable: the taken key raised nothing.
        other = queue_hello(dedup_key="decision:7:12:3")

    assert again is None
    assert other is not None
    assert OutgoingMail.objects.filter(dedup_key=key).count() == 1
    assert OutgoingMail.objects.count() == 2


@pytest.mark.django_db
def test_mails_without_a_dedup_key_are_never_merged(outbox: list) -> None:
    queue_hello()
    queue_hello()

    assert OutgoingMail.objects.count() == 2


@pytest.mark.django_db
def test_a_mail_queued_without_html_gets_an_html_part_with_its_links(outbox: list) -> None:
    mail = queue_mail(
        "alice@example.com",
        "Hello",
        "Your move: https://ww5.example.org/games/1/ <now>",
        "",
        kind="test",
    )

    assert mail is not None
    assert '<a href="https://ww5.example.org/games/1/"' in mail.body_html
    assert "&lt;now&gt;" in mail.body_html


@pytest.mark.django_db
def test_a_subject_with_a_line_break_is_queued_on_one_line(outbox: list) -> None:
    mail = queue_mail("alice@example.com", "Your\nturn\r\n now", "text", "", kind="test")

    assert mail is not None and mail.subject == "Your turn now"


@pytest.mark.django_db
def test_a_mail_remembers_its_player(outbox: list, alice: AbstractBaseUser) -> None:
    mail = queue_mail(alice.email, "Hello", "text", "", kind="test", to_user=alice)

    assert mail is not None
    assert list(alice.outgoing_mails.all()) == [mail]  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_the_mails_of_a_thread_are_found_by_its_key(outbox: list) -> None:
    first, other, second = (queue_hello(thread=key) for key in ("game-1", "game-2", "game-1"))

    assert list(OutgoingMail.objects.of_thread("game-1")) == [second, first]
    assert list(OutgoingMail.objects.of_thread("game-2")) == [other]
