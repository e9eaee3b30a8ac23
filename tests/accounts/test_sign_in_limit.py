"""One limit on wrong passwords for every sign-in form, the admin's and the site's,
counted per account and client together (django-axes)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from allauth.account.adapter import get_adapter
from axes.models import AccessAttempt
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F
from django.http import HttpResponse
from django.test import Client, RequestFactory

from tests.accounts.conftest import PASSWORD, MakePlayer
from tests.accounts.hashers import CountingHasher

pytestmark = pytest.mark.django_db

LIMIT = 5
WRONG = "not the password at all"
STRANGER = "203.0.113.9"
OWNER = "198.51.100.7"


@pytest.fixture(autouse=True)
def quick_password_hashes(settings: Any) -> None:
    # These tests sign in dozens of times; a real hash takes a noticeable part of a
    # second each time. The hasher counts what it computes. (Autouse: in place before
    # the players are made.)
    settings.PASSWORD_HASHERS = ["tests.accounts.hashers.CountingHasher"]


def hashes_computed_by(sign_in: Any) -> int:
    """How many password hashes one sign-in computed."""
    CountingHasher.reset()
    sign_in()
    return CountingHasher.computed


def from_address(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def admin_sign_in(client: Client, username: str, password: str) -> HttpResponse:
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password})


def site_sign_in(client: Client, login: str, password: str) -> HttpResponse:
    return client.post("/accounts/login/", {"login": login, "password": password})


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


@pytest.fixture
def olga(django_user_model: type[AbstractBaseUser]) -> AbstractBaseUser:
    """An organiser, who signs in to the admin."""
    return django_user_model.objects.create_superuser("olga", "olga@example.com", PASSWORD)


def test_the_admin_refuses_guesses_past_the_limit_even_the_right_one(
    olga: AbstractBaseUser,
) -> None:
    stranger = from_address(STRANGER)
    for _ in range(LIMIT - 1):
        assert admin_sign_in(stranger, "olga", WRONG).status_code == 200

    last_guess = admin_sign_in(stranger, "olga", WRONG)
    right_password = admin_sign_in(stranger, "olga", PASSWORD)

    assert last_guess.status_code == 429
    assert right_password.status_code == 429
    assert not signed_in(stranger)


def test_the_refusal_page_says_when_to_try_again(olga: AbstractBaseUser) -> None:
    stranger = from_address(STRANGER)
    for _ in range(LIMIT):
        response = admin_sign_in(stranger, "olga", WRONG)

    page = response.content.decode()
    assert "Too many failed sign-ins" in page
    assert "Try again in 15 minutes, after" in page
    assert response["Retry-After"] == str(15 * 60)


def test_the_site_form_has_the_same_limit(alice: AbstractBaseUser) -> None:
    stranger = from_address(STRANGER)
    for _ in range(LIMIT - 1):
        assert site_sign_in(stranger, "alice", WRONG).status_code == 200

    assert site_sign_in(stranger, "alice", WRONG).status_code == 429
    response = site_sign_in(stranger, "alice", PASSWORD)

    assert response.status_code == 429
    assert "Try again in 15 minutes" in response.content.decode()
    assert not signed_in(stranger)


def test_the_admin_and_the_site_count_the_same_failures(alice: AbstractBaseUser) -> None:
    stranger = from_address(STRANGER)
    for _ in range(LIMIT - 1):
        site_sign_in(stranger, "alice", WRONG)

    assert admin_sign_in(stranger, "alice", WRONG).status_code == 429


def test_a_strangers_failures_do_not_lock_the_owner_out_from_elsewhere(
    alice: AbstractBaseUser,
) -> None:
    stranger = from_address(STRANGER)
    for _ in range(LIMIT):
        site_sign_in(stranger, "alice", WRONG)
    assert site_sign_in(stranger, "alice", PASSWORD).status_code == 429

    owner = from_address(OWNER)
    response = site_sign_in(owner, "alice", PASSWORD)

    assert response.status_code == 302
    assert signed_in(owner)


def test_the_owner_signs_in_to_the_admin_while_a_stranger_is_locked_out(
    olga: AbstractBaseUser,
) -> None:
    for _ in range(LIMIT):
        admin_sign_in(from_address(STRANGER), "olga", WRONG)

    owner = from_address(OWNER)
    assert admin_sign_in(owner, "olga", PASSWORD).status_code == 302
    assert signed_in(owner)


@pytest.mark.parametrize(
    "spellings",
    [["alice", "ALICE", "Alice", "aLiCe", "alice@example.com"]],
)
def test_writing_the_name_differently_does_not_buy_more_guesses(
    alice: AbstractBaseUser, spellings: list[str]
) -> None:
    stranger = from_address(STRANGER)
    for login in spellings:
        site_sign_in(stranger, login, WRONG)

    assert site_sign_in(stranger, "ALICE@example.com", PASSWORD).status_code == 429


def test_failures_on_other_accounts_do_not_count_against_this_one(
    make_player: MakePlayer,
) -> None:
    make_player("alice")
    make_player("bob")
    stranger = from_address(STRANGER)
    for _ in range(LIMIT):
        site_sign_in(stranger, "bob", WRONG)

    assert site_sign_in(stranger, "alice", PASSWORD).status_code == 302


def test_signing_in_starts_the_count_again(alice: AbstractBaseUser) -> None:
    client = from_address(OWNER)
    for _ in range(LIMIT - 1):
        site_sign_in(client, "alice", WRONG)
    assert site_sign_in(client, "alice", PASSWORD).status_code == 302
    client.post("/accounts/logout/")

    for _ in range(LIMIT - 1):
        assert site_sign_in(client, "alice", WRONG).status_code == 200


def test_the_lock_ends_once_the_wait_has_passed(alice: AbstractBaseUser) -> None:
    stranger = from_address(STRANGER)
    for _ in range(LIMIT):
        site_sign_in(stranger, "alice", WRONG)

    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=16))

    assert site_sign_in(stranger, "alice", PASSWORD).status_code == 302


# A password hash is made to be slow (PBKDF2 with a million rounds by default): a wrong
# password costs one, never more, and a refused sign-in none.


@pytest.mark.parametrize("login", ["alice", "ALICE", "alice@example.com"])
def test_a_wrong_password_on_the_site_costs_one_hash(alice: AbstractBaseUser, login: str) -> None:
    stranger = from_address(STRANGER)

    assert hashes_computed_by(lambda: site_sign_in(stranger, login, WRONG)) == 1


def test_a_wrong_password_in_the_admin_costs_one_hash(olga: AbstractBaseUser) -> None:
    stranger = from_address(STRANGER)

    assert hashes_computed_by(lambda: admin_sign_in(stranger, "olga", WRONG)) == 1


@pytest.mark.parametrize("login", ["nobody", "nobody@example.com"])
def test_a_name_nobody_has_costs_one_hash_too(alice: AbstractBaseUser, login: str) -> None:
    # The same work as for a real account, so the time taken tells no one which exist.
    stranger = from_address(STRANGER)

    assert hashes_computed_by(lambda: site_sign_in(stranger, login, WRONG)) == 1
    assert hashes_computed_by(lambda: admin_sign_in(stranger, login, WRONG)) == 1


def test_the_right_password_costs_one_hash(alice: AbstractBaseUser) -> None:
    owner = from_address(OWNER)

    assert hashes_computed_by(lambda: site_sign_in(owner, "alice", PASSWORD)) == 1
    assert signed_in(owner)


def test_a_sign_in_past_the_limit_costs_no_hash(
    alice: AbstractBaseUser, olga: AbstractBaseUser
) -> None:
    stranger = from_address(STRANGER)
    for _ in range(LIMIT):
        site_sign_in(stranger, "alice", WRONG)
        admin_sign_in(stranger, "olga", WRONG)

    assert hashes_computed_by(lambda: site_sign_in(stranger, "alice", PASSWORD)) == 0
    assert hashes_computed_by(lambda: admin_sign_in(stranger, "olga", PASSWORD)) == 0
    assert hashes_computed_by(lambda: admin_sign_in(stranger, "alice", WRONG)) == 0


PROXY = "10.0.0.2"


def through_proxy(forwarded_for: str) -> Client:
    """A client whose request reaches the site through one reverse proxy."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for)


@pytest.fixture
def behind_one_proxy(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1


def test_behind_a_proxy_clients_are_told_apart_by_the_forwarded_header(
    behind_one_proxy: None, alice: AbstractBaseUser
) -> None:
    stranger = through_proxy(STRANGER)
    for _ in range(LIMIT):
        site_sign_in(stranger, "alice", WRONG)
    assert site_sign_in(stranger, "alice", PASSWORD).status_code == 429

    owner = through_proxy(OWNER)
    assert site_sign_in(owner, "alice", PASSWORD).status_code == 302
    assert signed_in(owner)


def test_behind_a_proxy_addresses_the_client_adds_to_the_header_are_not_believed(
    behind_one_proxy: None, alice: AbstractBaseUser
) -> None:
    # The proxy appends the address it heard from; whatever stands before it, the
    # client wrote.
    for forged in range(LIMIT):
        site_sign_in(through_proxy(f"192.0.2.{forged}, {STRANGER}"), "alice", WRONG)

    assert site_sign_in(through_proxy(STRANGER), "alice", PASSWORD).status_code == 429


def test_behind_two_proxies_the_client_is_the_second_entry_from_the_right(
    settings: Any, alice: AbstractBaseUser
) -> None:
    settings.TRUSTED_PROXY_COUNT = 2
    outer_proxy = "10.0.0.1"
    for forged in range(LIMIT):
        header = f"192.0.2.{forged}, {STRANGER}, {outer_proxy}"
        site_sign_in(through_proxy(header), "alice", WRONG)

    locked = through_proxy(f"{STRANGER}, {outer_proxy}")
    owner = through_proxy(f"{OWNER}, {outer_proxy}")
    assert site_sign_in(locked, "alice", PASSWORD).status_code == 429
    assert site_sign_in(owner, "alice", PASSWORD).status_code == 302


def test_without_a_proxy_setting_the_forwarded_header_is_ignored(alice: AbstractBaseUser) -> None:
    # Otherwise a stranger would dodge the limit by sending a new address with each guess.
    for forged in range(LIMIT):
        client = Client(REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_FOR=f"192.0.2.{forged}")
        site_sign_in(client, "alice", WRONG)

    client = Client(REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_FOR=OWNER)
    assert site_sign_in(client, "alice", PASSWORD).status_code == 429


def test_the_client_header_can_be_another_one(settings: Any, alice: AbstractBaseUser) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    settings.CLIENT_IP_HEADER = "X-Real-IP"
    for _ in range(LIMIT):
        stranger = Client(REMOTE_ADDR=PROXY, HTTP_X_REAL_IP=STRANGER, HTTP_X_FORWARDED_FOR=OWNER)
        site_sign_in(stranger, "alice", WRONG)

    owner = Client(REMOTE_ADDR=PROXY, HTTP_X_REAL_IP=OWNER, HTTP_X_FORWARDED_FOR=STRANGER)
    assert site_sign_in(owner, "alice", PASSWORD).status_code == 302


def test_allauths_rate_limits_count_the_same_client(behind_one_proxy: None) -> None:
    request = RequestFactory().post(
        "/accounts/password/reset/",
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=f"192.0.2.1, {STRANGER}",
    )

    assert get_adapter().get_client_ip(request) == STRANGER
