"""Messages a program sent: out-of-office replies and bounces are recognised and never
answered; a bounce marks its failed address, and the site tells its player."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from accounts.services import profile_for
from games.models import Game
from inbound.models import InboundMessage
from mail.models import OutgoingMail
from tests.games.factories import snapshot
from tests.inbound.helpers import reply_to

pytestmark = pytest.mark.django_db
User = AbstractBaseUser
Outcome = InboundMessage.Outcome


@pytest.mark.parametrize("fixture", ["out_of_office.eml", "out_of_office_subject_only.eml"])
def test_an_out_of_office_reply_is_never_answered_nor_applied(
    duel: Game, alice: User, fixture: str
) -> None:
    before = snapshot(duel)

    handled = reply_to(duel, alice, fixture)

    assert handled.outcome == Outcome.AUTO_REPLY and not handled.answered
    assert snapshot(duel) == before
    assert not OutgoingMail.objects.filter(kind="reply").exists()


@pytest.mark.parametrize(
    "header",
    [
        "Precedence: bulk",
        "Precedence: junk",
        "Precedence: list",
        "X-Autoreply: yes",
        "Auto-Submitted: auto-generated",
        "List-Id: <games.lists.example.org>",
        "Return-Path: <>",
    ],
)
def test_each_mark_of_an_automatic_message_is_recognised(
    duel: Game, alice: User, header: str
) -> None:
    from inbound.services import handle_message
    from tests.inbound.helpers import decision_mail, eml

    mail = decision_mail(duel, alice)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")
    raw = header.encode() + b"\n" + raw

    assert handle_message(raw, transport="pipe").outcome == Outcome.AUTO_REPLY
    assert not OutgoingMail.objects.filter(kind="reply").exists()


def test_a_bounce_marks_the_address_failing_and_is_never_answered(duel: Game, alice: User) -> None:
    before = snapshot(duel)

    handled = reply_to(duel, alice, "bounce.eml")

    assert handled.outcome == Outcome.BOUNCE and not handled.answered
    assert snapshot(duel) == before
    assert not OutgoingMail.objects.filter(kind="reply").exists()
    profile = profile_for(alice)
    assert profile.mail_failing_since is not None
    assert "bounced" in profile.mail_failing_reason
    assert alice.email in InboundMessage.objects.get().error


def test_the_site_tells_a_player_whose_mail_bounced_until_they_say_it_works(
    duel: Game, alice: User
) -> None:
    reply_to(duel, alice, "bounce.eml")
    client = Client()
    client.force_login(alice)

    page = client.get("/games/").content.decode()
    assert "came back undelivered" in page

    done = client.post("/accounts/mail-works/", {"next": "/games/"})
    assert done.status_code == 302 and done["Location"] == "/games/"
    assert profile_for(alice).mail_failing_since is None
    assert "came back undelivered" not in client.get("/games/").content.decode()


def test_the_notice_goes_back_only_to_the_site(duel: Game, alice: User) -> None:
    reply_to(duel, alice, "bounce.eml")
    client = Client()
    client.force_login(alice)
    done = client.post("/accounts/mail-works/", {"next": "https://evil.example.net/"})
    assert done["Location"] == "/accounts/profile/"
