"""The transports that feed ``handle_message``: the pipe command, the webhook; the
audit's retention and who sees it in the admin."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import sys
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Game, Move
from inbound.models import InboundMessage
from inbound.services import sweep_inbound
from tests.inbound.helpers import decision_mail, eml, reply_to

pytestmark = pytest.mark.django_db
User = AbstractBaseUser
Outcome = InboundMessage.Outcome


class Stdin:
    def __init__(self, raw: bytes) -> None:
        self.buffer = io.BytesIO(raw)


def test_receive_mail_reads_one_message_on_standard_input(
    duel: Game, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    mail = decision_mail(duel, alice)
    raw = eml("apple_mail.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT=mail.subject)
    monkeypatch.setattr(sys, "stdin", Stdin(raw))
    out = io.StringIO()

    call_command("receive_mail", stdout=out)

    assert out.getvalue().strip() == "applied (answered)"
    assert Move.objects.get(game=duel, number=7).source == Move.Source.EMAIL
    assert InboundMessage.objects.get().transport == "pipe"


def test_receive_mail_takes_the_envelope_recipient(
    duel: Game, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mail server that delivers by the envelope (Bcc, a forward) names the address."""
    mail = decision_mail(duel, alice)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO="x@example.org", SUBJECT="x")
    monkeypatch.setattr(sys, "stdin", Stdin(raw))
    call_command("receive_mail", "--recipient", mail.reply_to, stdout=io.StringIO())
    assert InboundMessage.objects.get().outcome == Outcome.APPLIED


def test_the_sweep_deletes_audit_rows_past_their_retention(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    reply_to(duel, alice)
    reply_to(duel, alice, "plain_text_client.eml")
    old = InboundMessage.objects.order_by("id").first()
    assert old is not None
    InboundMessage.objects.filter(pk=old.pk).update(
        received_at=timezone.now() - timedelta(days=settings.INBOUND_KEEP_DAYS, minutes=1)
    )

    assert sweep_inbound() == 1
    assert not InboundMessage.objects.filter(pk=old.pk).exists()
    assert InboundMessage.objects.count() == 1


def test_staff_see_every_received_mail_and_an_organiser_those_of_their_games(
    duel: Game, alice: User, bob: User, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    reply_to(duel, alice)
    other = services.create_game(bob, seats=2, home="europe")
    stranger_row = InboundMessage.objects.create(message_id="<m@x>", sender="m@x", game=other)
    organiser = django_user_model.objects.create_user("orla", "orla@example.com", is_staff=True)
    Game.objects.filter(pk=duel.pk).update(creator=organiser)
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw")

    client = Client()
    client.force_login(admin)
    page = client.get("/admin/inbound/inboundmessage/").content.decode()
    assert "alice@example.com" in page and "m@x" in page

    client.force_login(organiser)
    page = client.get("/admin/inbound/inboundmessage/").content.decode()
    assert "alice@example.com" in page and "m@x" not in page
    row = client.get(f"/admin/inbound/inboundmessage/{stranger_row.pk}/change/")
    assert row.status_code in (302, 403, 404)


def test_the_webhook_hands_the_message_on(duel: Game, alice: User, settings) -> None:  # type: ignore[no-untyped-def]
    """Mailgun's inbound route, set to post the raw message, through django-anymail:
    checked by basic auth and Mailgun's signature."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:s3cret", "MAILGUN_WEBHOOK_SIGNING_KEY": "key-1"}
    mail = decision_mail(duel, alice)
    raw = eml("outlook_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")
    timestamp, token = str(int(time.time())), "f00dfeed" * 6
    signature = hmac.new(b"key-1", f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    fields = {
        "body-mime": raw.decode("latin-1"),
        "recipient": mail.reply_to,
        "sender": alice.email,
        "timestamp": timestamp,
        "token": token,
        "signature": signature,
    }
    auth = "Basic " + base64.b64encode(b"hook:s3cret").decode()
    client = Client()

    forged = client.post(
        "/anymail/mailgun/inbound/", {**fields, "signature": "0" * 64}, HTTP_AUTHORIZATION=auth
    )
    no_auth = client.post("/anymail/mailgun/inbound/", fields)
    assert (forged.status_code, no_auth.status_code) == (400, 400)
    assert not InboundMessage.objects.exists()

    done = client.post("/anymail/mailgun/inbound/", fields, HTTP_AUTHORIZATION=auth)

    assert done.status_code == 200
    row = InboundMessage.objects.get()
    assert (row.transport, row.outcome) == ("webhook", Outcome.APPLIED)
    assert Move.objects.get(game=duel, number=7).action == "invade usa western-europe"


def test_the_retention_sweep_is_a_periodic_job(settings) -> None:  # type: ignore[no-untyped-def]
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "inbound.tasks.sweep_inbound" in tasks
