"""The outbox in the admin: read-only, with an action to send failed mails again."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser, Permission
from django.test import Client

from mail.models import OutgoingMail
from mail.services import queue_mail

pytestmark = pytest.mark.django_db

Status = OutgoingMail.Status
CHANGELIST = "/admin/mail/outgoingmail/"


@pytest.fixture
def failed(outbox: list) -> OutgoingMail:
    mail = queue_mail("alice@example.com", "Your turn", "text", "", kind="decision")
    assert mail is not None
    OutgoingMail.objects.filter(pk=mail.pk).update(
        status=Status.FAILED, attempts=6, last_error="SMTPServerDisconnected: gone"
    )
    return mail


@pytest.fixture
def sent(outbox: list) -> OutgoingMail:
    mail = queue_mail("bob@example.com", "Welcome", "text", "", kind="account")
    assert mail is not None
    OutgoingMail.objects.filter(pk=mail.pk).update(status=Status.SENT, attempts=1)
    return mail


def test_staff_list_the_outbox_filtered_by_status_and_kind(
    client: Client, olga: AbstractBaseUser, failed: OutgoingMail, sent: OutgoingMail
) -> None:
    client.force_login(olga)

    everything = client.get(CHANGELIST).content.decode()
    only_failed = client.get(CHANGELIST, {"status__exact": "failed"}).content.decode()
    only_accounts = client.get(CHANGELIST, {"kind": "account"}).content.decode()

    assert "alice@example.com" in everything and "bob@example.com" in everything
    assert "alice@example.com" in only_failed and "bob@example.com" not in only_failed
    assert "bob@example.com" in only_accounts and "alice@example.com" not in only_accounts


def test_staff_find_the_mails_of_a_thread(
    client: Client, olga: AbstractBaseUser, sent: OutgoingMail
) -> None:
    queue_mail("carol@example.com", "Your turn", "text", "", kind="decision", thread="game-7")
    client.force_login(olga)

    found = client.get(CHANGELIST, {"q": "game-7"}).content.decode()

    assert "carol@example.com" in found and "bob@example.com" not in found
    assert ">game-7</td>" in found


def test_nobody_edits_or_deletes_a_mail_in_the_admin(
    client: Client, olga: AbstractBaseUser, failed: OutgoingMail
) -> None:
    client.force_login(olga)
    change = f"{CHANGELIST}{failed.pk}/change/"

    page = client.get(change).content.decode()
    posted = client.post(change, {"subject": "Changed"})

    assert 'name="_save"' not in page
    assert posted.status_code == 403
    assert client.post(f"{CHANGELIST}{failed.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get(f"{CHANGELIST}add/").status_code == 403
    failed.refresh_from_db()
    assert failed.subject == "Your turn"


def test_the_requeue_action_sends_failed_mails_again_and_leaves_sent_ones(
    client: Client,
    olga: AbstractBaseUser,
    failed: OutgoingMail,
    sent: OutgoingMail,
    outbox: list,
    django_capture_on_commit_callbacks: object,
) -> None:
    client.force_login(olga)

    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = client.post(
            CHANGELIST,
            {"action": "requeue", "_selected_action": [failed.pk, sent.pk]},
            follow=True,
        )

    page = response.content.decode()
    assert "1 mail queued to be sent again." in page
    assert "1 left alone" in page
    failed.refresh_from_db()
    assert (failed.status, failed.attempts) == (Status.SENT, 1)
    assert [message.to for message in outbox] == [["alice@example.com"]]


def test_staff_who_may_only_view_mails_cannot_requeue_them(
    client: Client, django_user_model: object, failed: OutgoingMail
) -> None:
    viewer = django_user_model.objects.create_user(  # type: ignore[attr-defined]
        username="vera", password=None, is_staff=True
    )
    viewer.user_permissions.add(Permission.objects.get(codename="view_outgoingmail"))
    client.force_login(viewer)

    listing = client.get(CHANGELIST)
    client.post(CHANGELIST, {"action": "requeue", "_selected_action": [failed.pk]})

    assert listing.status_code == 200
    assert 'value="requeue"' not in listing.content.decode()
    failed.refresh_from_db()
    assert failed.status == Status.FAILED
