"""The inbound webhook: off until its secret is set, a clear 4xx for a provider that is
not configured, and Mailgun's signatures neither stale nor replayed."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core import checks
from django.test import Client
from django.utils import timezone

from games.models import Game, Move
from inbound.models import InboundMessage, WebhookSignature
from inbound.services import note_webhook_signature, sweep_inbound
from tests.games.factories import snapshot
from tests.inbound.helpers import decision_mail, eml

pytestmark = pytest.mark.django_db
User = AbstractBaseUser
Outcome = InboundMessage.Outcome
SECRET = "hook:s3cret"
AUTH = "Basic " + base64.b64encode(SECRET.encode()).decode()
KEY = "key-1"
URL = "/anymail/mailgun/inbound_mime/"


def signed(timestamp: int, token: str, key: str = KEY) -> dict[str, str]:
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return {"timestamp": str(timestamp), "token": token, "signature": signature}


def mailgun_post(
    game: Game, user: User, fixture: str = "outlook_top_posted.eml", **sig: Any
) -> dict[str, str]:
    mail = decision_mail(game, user)
    raw = eml(fixture, FROM=user.email, REPLY_TO=mail.reply_to, SUBJECT="x")
    fields = {"body-mime": raw.decode("latin-1"), "recipient": mail.reply_to, "sender": user.email}
    return {**fields, **(sig or signed(int(time.time()), "f00dfeed" * 6))}


@pytest.fixture
def configured(settings) -> None:  # type: ignore[no-untyped-def]
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": KEY}


def test_without_its_secret_the_webhook_refuses_every_post(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": KEY}
    before = snapshot(duel)

    for url in (URL, "/anymail/postmark/inbound/", "/anymail/sendgrid/inbound/"):
        response = Client().post(url, mailgun_post(duel, alice))
        assert response.status_code == 403, url
        assert b"ANYMAIL_WEBHOOK_SECRET" in response.content

    assert snapshot(duel) == before
    assert not InboundMessage.objects.exists()


def test_check_deploy_says_the_webhook_is_off_without_its_secret(settings) -> None:  # type: ignore[no-untyped-def]
    settings.ANYMAIL = {}
    deploy = checks.run_checks(include_deployment_checks=True)
    assert "inbound.W001" in [message.id for message in deploy]

    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    deploy = checks.run_checks(include_deployment_checks=True)
    assert "inbound.W001" not in [message.id for message in deploy]


def test_start_up_says_the_webhook_is_off_without_its_secret_in_production(settings) -> None:  # type: ignore[no-untyped-def]
    settings.ANYMAIL = {}
    settings.DEBUG = False
    assert "inbound.W001" in [message.id for message in checks.run_checks()]


def test_a_mailgun_post_without_a_signing_key_is_a_clear_4xx(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    before = snapshot(duel)

    response = Client().post(URL, mailgun_post(duel, alice), HTTP_AUTHORIZATION=AUTH)

    assert 400 <= response.status_code < 500
    assert b"MAILGUN_WEBHOOK_SIGNING_KEY" in response.content
    assert snapshot(duel) == before and not InboundMessage.objects.exists()


def test_a_mailgun_post_missing_its_signature_fields_is_a_400(
    duel: Game, alice: User, configured: None
) -> None:
    fields = mailgun_post(duel, alice)
    del fields["signature"]
    response = Client().post(URL, fields, HTTP_AUTHORIZATION=AUTH)
    assert response.status_code == 400
    assert not InboundMessage.objects.exists()


def test_a_stale_mailgun_signature_is_refused(duel: Game, alice: User, configured: None) -> None:
    day_old = signed(int(time.time()) - 86400, "0123abcd" * 6)
    before = snapshot(duel)

    response = Client().post(URL, mailgun_post(duel, alice, **day_old), HTTP_AUTHORIZATION=AUTH)

    assert response.status_code == 400
    assert b"timestamp" in response.content
    assert snapshot(duel) == before and not InboundMessage.objects.exists()


def test_a_replayed_mailgun_signature_with_another_body_is_refused(
    duel: Game, alice: User, bob: User, configured: None
) -> None:
    signature = signed(int(time.time()), "feedf00d" * 6)
    client = Client()
    first = client.post(URL, mailgun_post(duel, alice, **signature), HTTP_AUTHORIZATION=AUTH)
    assert first.status_code == 200
    assert Move.objects.get(game=duel, number=7).source == Move.Source.EMAIL
    before = snapshot(duel)

    replayed = client.post(
        URL, mailgun_post(duel, bob, "plain_text_client.eml", **signature), HTTP_AUTHORIZATION=AUTH
    )

    assert replayed.status_code == 400
    assert b"already" in replayed.content
    assert snapshot(duel) == before
    assert InboundMessage.objects.count() == 1


def test_the_sweep_forgets_signatures_too_old_to_be_accepted_again(settings) -> None:  # type: ignore[no-untyped-def]
    now = timezone.now()
    window = timedelta(seconds=settings.INBOUND_WEBHOOK_MAX_AGE_SECONDS)
    note_webhook_signature("old", now - 2 * window - timedelta(seconds=1))
    note_webhook_signature("recent", now - window)

    sweep_inbound(now)

    assert list(WebhookSignature.objects.values_list("token", flat=True)) == ["recent"]


@pytest.mark.parametrize("provider", ["postmark", "mailjet", "sparkpost"])
@pytest.mark.parametrize(
    ("body", "content_type"),
    [(b"{not json", "application/json"), (b"a=b", "application/x-www-form-urlencoded")],
    ids=["broken JSON", "a form of nothing"],
)
def test_a_post_that_is_not_what_the_provider_sends_is_a_400(
    configured: None, provider: str, body: bytes, content_type: str
) -> None:
    client = Client(raise_request_exception=False)
    response = client.post(
        f"/anymail/{provider}/inbound/", body, content_type=content_type, HTTP_AUTHORIZATION=AUTH
    )
    assert response.status_code == 400
    assert b"not a post" in response.content
    assert not InboundMessage.objects.exists()
