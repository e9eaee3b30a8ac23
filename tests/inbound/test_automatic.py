"""Messages a program sent: out-of-office replies and bounces are recognised and never
answered; a bounce marks its failed address, and the site tells its player."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from accounts.services import profile_for
from games.models import Game
from inbound.models import InboundMessage
from inbound.services import handle_message
from mail.models import OutgoingMail
from tests.games.factories import snapshot
from tests.inbound.helpers import decision_mail, eml, reply_to

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
    mail = decision_mail(duel, alice)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")
    raw = header.encode() + b"\n" + raw

    assert handle_message(raw, transport="pipe").outcome == Outcome.AUTO_REPLY
    assert not OutgoingMail.objects.filter(kind="reply").exists()


def bounce_of(game: Game, user: User, **values: str) -> bytes:
    """The bounce of the site's latest decision mail to ``user``, to the site's address."""
    values.setdefault("ORIGINAL_ID", decision_mail(game, user).message_id)
    return eml("bounce.eml", FROM=user.email, REPLY_TO="ww5@localhost", SUBJECT="x", **values)


def test_a_bounce_marks_the_address_failing_and_is_never_answered(duel: Game, alice: User) -> None:
    before = snapshot(duel)

    handled = handle_message(bounce_of(duel, alice), transport="pipe")

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
    handle_message(bounce_of(duel, alice), transport="pipe")
    client = Client()
    client.force_login(alice)

    page = client.get("/games/").content.decode()
    assert "came back undelivered" in page

    done = client.post("/accounts/mail-works/", {"next": "/games/"})
    assert done.status_code == 302 and done["Location"] == "/games/"
    assert profile_for(alice).mail_failing_since is None
    assert "came back undelivered" not in client.get("/games/").content.decode()


def test_the_notice_goes_back_only_to_the_site(duel: Game, alice: User) -> None:
    handle_message(bounce_of(duel, alice), transport="pipe")
    client = Client()
    client.force_login(alice)
    done = client.post("/accounts/mail-works/", {"next": "https://evil.example.net/"})
    assert done["Location"] == "/accounts/profile/"


def test_a_bounce_without_a_mail_of_the_sites_marks_no_one(duel: Game, alice: User) -> None:
    """Anyone can write a bounce naming a player: without the Message-ID of a mail the
    site sent, it flags nothing."""
    handled = handle_message(
        bounce_of(duel, alice, ORIGINAL_ID="<made-up@localhost>"), transport="pipe"
    )

    assert handled.outcome == Outcome.BOUNCE
    assert profile_for(alice).mail_failing_since is None
    assert "players marked: 0" in InboundMessage.objects.get().error


def test_a_bounce_of_another_players_mail_does_not_mark_the_address_it_names(
    duel: Game, alice: User, bob: User
) -> None:
    """bob has the Message-ID of a mail the site sent him: a bounce of it that names
    alice's address does not mark her."""
    bobs = OutgoingMail.objects.filter(to_user=bob).latest("id")

    handle_message(bounce_of(duel, alice, ORIGINAL_ID=bobs.message_id), transport="pipe")

    assert profile_for(alice).mail_failing_since is None
    assert profile_for(bob).mail_failing_since is None
