"""The development outbox pages and the unsubscribe link."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from accounts.models import Profile
from accounts.services import profile_for
from mail import services
from mail.models import OutgoingMail
from mail.services import queue_mail

pytestmark = pytest.mark.django_db

EACH, DECISIONS = Profile.Notify.EACH, Profile.Notify.DECISIONS


@pytest.fixture
def mail(outbox: list) -> OutgoingMail:
    queued = queue_mail(
        "alice@example.com",
        "Confirm your address",
        "Confirm here: http://testserver/accounts/confirm-email/abc/\nThanks.",
        '<p>Confirm <a href="http://testserver/accounts/confirm-email/abc/">here</a>'
        '<script>alert("x")</script></p>',
        kind="account",
    )
    assert queued is not None
    return queued


# --- the outbox ----------------------------------------------------------------------


@pytest.fixture
def outbox_pages(settings: Any) -> None:
    """The development outbox turned on (as DEBUG does by default)."""
    settings.MAIL_OUTBOX_PAGES = True


def test_the_outbox_lists_each_mail_and_its_links(
    client: Client, olga: AbstractBaseUser, mail: OutgoingMail, outbox_pages: None
) -> None:
    client.force_login(olga)

    page = client.get("/mail/outbox/").content.decode()

    assert "alice@example.com" in page
    assert f'href="/mail/outbox/{mail.pk}/">Confirm your address</a>' in page
    assert '<a href="http://testserver/accounts/confirm-email/abc/">' in page
    assert "Queued" in page and "account" in page


def test_while_debugging_anyone_sees_the_outbox(
    client: Client, settings: object, mail: OutgoingMail
) -> None:
    settings.DEBUG = True  # type: ignore[attr-defined]

    response = client.get("/mail/outbox/")

    assert response.status_code == 200
    assert "Confirm your address" in response.content.decode()


def test_a_failed_mail_shows_its_attempts_and_error(
    client: Client, olga: AbstractBaseUser, mail: OutgoingMail, outbox_pages: None
) -> None:
    OutgoingMail.objects.filter(pk=mail.pk).update(
        status=OutgoingMail.Status.FAILED, attempts=6, last_error="SMTPDataError: refused"
    )
    client.force_login(olga)

    page = client.get("/mail/outbox/").content.decode()

    assert "Failed" in page and "<td>6</td>" in page and "SMTPDataError: refused" in page


@pytest.mark.parametrize("path", ["/mail/outbox/", "/mail/outbox/{pk}/"])
def test_the_outbox_does_not_exist_for_staff_in_production(
    client: Client, olga: AbstractBaseUser, mail: OutgoingMail, path: str
) -> None:
    """Staff, superusers included, read no one's mail there: a password reset's link
    would give them the account."""
    client.force_login(olga)

    response = client.get(path.format(pk=mail.pk))

    assert response.status_code == 404
    assert "Confirm your address" not in response.content.decode()


def test_the_outbox_pages_follow_their_setting_over_debug(
    client: Client, mail: OutgoingMail, settings: Any
) -> None:
    settings.DEBUG, settings.MAIL_OUTBOX_PAGES = True, False
    assert client.get("/mail/outbox/").status_code == 404
    settings.DEBUG, settings.MAIL_OUTBOX_PAGES = False, True
    assert client.get("/mail/outbox/").status_code == 200


@pytest.mark.parametrize("path", ["/mail/outbox/", "/mail/outbox/{pk}/"])
def test_the_outbox_does_not_exist_for_players_in_production(
    client: Client, alice: AbstractBaseUser, mail: OutgoingMail, path: str
) -> None:
    url = path.format(pk=mail.pk)

    assert client.get(url).status_code == 404
    client.force_login(alice)
    response = client.get(url)
    assert response.status_code == 404
    assert "Confirm your address" not in response.content.decode()


def _queue(to: str, subject: str, thread: str = "") -> OutgoingMail:
    mail = queue_mail(to, subject, "text", "", kind="decision", thread=thread)
    assert mail is not None
    return mail


def test_the_outbox_shows_older_mails_a_page_at_a_time(
    client: Client, olga: AbstractBaseUser, outbox: list, outbox_pages: None
) -> None:
    for number in range(1, 121):
        _queue("alice@example.com", f"Mail number {number}.")
    client.force_login(olga)

    first = client.get("/mail/outbox/").content.decode()
    third = client.get("/mail/outbox/?page=3").content.decode()

    assert "Mail number 120." in first and "Mail number 71." in first
    assert "Mail number 70." not in first
    assert 'href="?page=2" rel="next">Older</a>' in first
    assert "Mail number 1." in third and "Mail number 21." not in third
    assert "Page 3 of 3" in third


def test_the_outbox_lists_only_the_mails_to_an_address(
    client: Client, olga: AbstractBaseUser, outbox: list, outbox_pages: None
) -> None:
    _queue("alice@example.com", "For Alice")
    _queue("bob@example.com", "For Bob")
    client.force_login(olga)

    page = client.get("/mail/outbox/?to=BOB@").content.decode()

    assert "For Bob" in page and "For Alice" not in page
    assert "1 mail matches the filter" in page


def test_the_outbox_lists_only_a_games_mails_and_its_pages_keep_the_filter(
    client: Client, olga: AbstractBaseUser, outbox: list, outbox_pages: None
) -> None:
    for number in range(1, 56):
        _queue("alice@example.com", f"Game 7, turn {number}.", thread="game-7")
    _queue("alice@example.com", "Game 17 starts", thread="game-17")
    _queue("alice@example.com", "The tournament starts", thread="tournament-7")
    client.force_login(olga)

    page = client.get("/mail/outbox/?game=7").content.decode()

    assert "Game 7, turn 55." in page
    assert "Game 17 starts" not in page and "The tournament starts" not in page
    assert "55 mails match the filter" in page
    assert 'href="?game=7&amp;page=2" rel="next">' in page
    assert 'href="?game=7" title="Only this game\'s mails">game-7</a>' in page
    assert "Game 7, turn 1." in client.get("/mail/outbox/?game=7&page=2").content.decode()


@pytest.mark.parametrize("query", ["game=seven", "game=-1", "to=" + "a" * 400])
def test_a_malformed_outbox_filter_is_refused_plainly(
    client: Client, olga: AbstractBaseUser, mail: OutgoingMail, query: str, outbox_pages: None
) -> None:
    client.force_login(olga)

    response = client.get(f"/mail/outbox/?{query}")

    assert response.status_code == 400
    page = response.content.decode()
    assert "not one the outbox understands" in page and "Confirm your address" not in page


def test_a_mail_shows_its_text_with_clickable_links_and_its_html_sandboxed(
    client: Client, olga: AbstractBaseUser, mail: OutgoingMail, outbox_pages: None
) -> None:
    client.force_login(olga)

    page = client.get(f"/mail/outbox/{mail.pk}/").content.decode()

    assert '<a href="http://testserver/accounts/confirm-email/abc/"' in page
    assert mail.message_id.replace("<", "&lt;").replace(">", "&gt;") in page
    assert 'sandbox="allow-popups allow-popups-to-escape-sandbox"' in page
    srcdoc = page.split('srcdoc="', 1)[1].split('"', 1)[0]
    assert "<script>" not in srcdoc  # escaped in the attribute: the page runs none of it
    assert html.unescape(srcdoc).endswith(mail.body_html)


def test_a_mail_shows_the_key_of_its_thread(
    client: Client, olga: AbstractBaseUser, outbox_pages: None
) -> None:
    mail = queue_mail(
        "alice@example.com", "Your turn", "text", "", kind="decision", thread="game-7"
    )
    assert mail is not None
    client.force_login(olga)

    page = client.get(f"/mail/outbox/{mail.pk}/").content.decode()

    assert "<th>Thread</th><td><code>game-7</code></td>" in page
    assert "<code>&lt;game-7@localhost&gt;</code>" in page


def test_an_unknown_mail_is_not_found(
    client: Client, olga: AbstractBaseUser, outbox_pages: None
) -> None:
    client.force_login(olga)

    assert client.get("/mail/outbox/999/").status_code == 404


# --- unsubscribing -------------------------------------------------------------------


def unsubscribe_path(user: AbstractBaseUser) -> str:
    return services.unsubscribe_url(user).removeprefix("http://localhost:8000")


def notify(user: AbstractBaseUser) -> str:
    return Profile.objects.get(user=user).notify


def test_the_unsubscribe_link_is_absolute_on_the_site_url(
    settings: object, alice: AbstractBaseUser
) -> None:
    settings.SITE_URL = "https://ww5.example.org"  # type: ignore[attr-defined]

    url = services.unsubscribe_url(alice)

    assert url.startswith("https://ww5.example.org/mail/unsubscribe/")
    assert url.endswith("/")


def test_opening_the_unsubscribe_link_only_asks(client: Client, alice: AbstractBaseUser) -> None:
    response = client.get(unsubscribe_path(alice))

    page = response.content.decode()
    assert response.status_code == 200
    assert "alice" in page
    assert 'method="post"' in page
    assert notify(alice) == EACH


def test_confirming_keeps_only_the_mails_about_the_players_decisions(
    client: Client, alice: AbstractBaseUser
) -> None:
    profile = profile_for(alice)
    profile.display_name, profile.time_zone = "Alice A.", "Europe/Paris"
    profile.save()

    response = client.post(unsubscribe_path(alice))

    assert response.status_code == 200
    assert "/accounts/profile/" in response.content.decode()
    profile.refresh_from_db()
    assert (profile.notify, profile.display_name, profile.time_zone) == (
        DECISIONS,
        "Alice A.",
        "Europe/Paris",
    )


def test_the_one_click_unsubscribe_needs_no_csrf_token(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        unsubscribe_path(alice),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200
    assert notify(alice) == DECISIONS
    assert notify(bob) == EACH


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_altered_unsubscribe_link_is_refused_and_changes_nothing(
    client: Client, alice: AbstractBaseUser, bob: AbstractBaseUser, method: str
) -> None:
    token = services.unsubscribe_token(alice)
    forged = token.replace(f"{alice.pk}:", f"{bob.pk}:", 1)  # alice's signature, bob's id

    for altered in (forged, token[:-1] + ("A" if token[-1] != "A" else "B")):
        response = getattr(client, method)(f"/mail/unsubscribe/{altered}/")

        assert response.status_code == 400
        assert "this unsubscribe link is not valid" in response.content.decode()
        assert "Nothing was changed" in response.content.decode()
    assert (notify(alice), notify(bob)) == (EACH, EACH)


def test_a_token_from_another_signer_is_refused(client: Client, alice: AbstractBaseUser) -> None:
    from django.core import signing

    other = signing.Signer(salt="accounts.something-else").sign(str(alice.pk))

    assert client.post(f"/mail/unsubscribe/{other}/").status_code == 400
    assert notify(alice) == EACH


def test_the_unsubscribe_link_of_a_deleted_player_is_refused(
    client: Client, alice: AbstractBaseUser
) -> None:
    path = unsubscribe_path(alice)
    alice.delete()

    response = client.post(path)

    assert response.status_code == 400
    assert "no longer exists" in response.content.decode()
