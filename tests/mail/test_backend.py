"""Django's own mail (allauth's) is written into the outbox like every other mail."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail
from django.test import Client

from mail.models import OutgoingMail

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture
def send_on_commit(django_capture_on_commit_callbacks: object) -> object:
    return lambda: django_capture_on_commit_callbacks(execute=True)  # type: ignore[operator]


def sign_up(client: Client, username: str = "carol") -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302, response.content.decode()


def test_the_sign_up_confirmation_mail_is_written_into_the_outbox(
    client: Client, outbox: list, django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:  # type: ignore[operator]
        sign_up(client)

    mail = OutgoingMail.objects.get()
    assert (mail.kind, mail.to_address, mail.status) == ("account", "carol@example.com", "queued")
    assert mail.subject.startswith("[World War 5] ")
    assert "/accounts/confirm-email/" in mail.body_text
    assert "/accounts/confirm-email/" in mail.body_html
    assert outbox == []  # written, not yet sent

    for callback in callbacks:
        callback()

    [message] = outbox
    assert message.subject == mail.subject
    assert message.alternatives[0][1] == "text/html"
    mail.refresh_from_db()
    assert mail.status == "sent"


def test_the_password_reset_mail_goes_through_the_outbox(
    client: Client, outbox: list, send_on_commit: object, django_user_model: object
) -> None:
    django_user_model.objects.create_user(  # type: ignore[attr-defined]
        username="dave", email="dave@example.com", password=PASSWORD
    )

    with send_on_commit():  # type: ignore[operator]
        client.post("/accounts/password/reset/", {"email": "dave@example.com"})

    mail = OutgoingMail.objects.get()
    assert (mail.kind, mail.to_address, mail.status) == ("account", "dave@example.com", "sent")
    assert "/accounts/password/reset/key/" in mail.body_text
    assert len(outbox) == 1


def test_each_recipient_of_a_django_mail_gets_a_mail_of_their_own(
    outbox: list, send_on_commit: object
) -> None:
    message = django_mail.EmailMessage(
        "Server news",
        "The server restarts at noon.",
        to=["alice@example.com"],
        cc=["bob@example.com"],
        bcc=["olga@example.com"],
    )

    with send_on_commit():  # type: ignore[operator]
        assert message.send() == 1

    assert sorted(OutgoingMail.objects.values_list("to_address", flat=True)) == [
        "alice@example.com",
        "bob@example.com",
        "olga@example.com",
    ]
    assert sorted(sent.to[0] for sent in outbox) == sorted(
        ["alice@example.com", "bob@example.com", "olga@example.com"]
    )
    assert all(sent.cc == [] and sent.bcc == [] for sent in outbox)


def test_an_html_only_django_mail_gets_a_text_part(outbox: list) -> None:
    message = django_mail.EmailMessage(
        "News", "<p>The server <b>restarts</b> at noon.</p>", to=["alice@example.com"]
    )
    message.content_subtype = "html"

    message.send()

    mail = OutgoingMail.objects.get()
    assert mail.body_text == "The server restarts at noon."
    assert mail.body_html == "<p>The server <b>restarts</b> at noon.</p>"
