"""Sign-ins checked at the same time: one client cannot keep the server hashing.

A password hash is made to be slow, and each takes a web worker for its time. While a
client's sign-in to an account is being checked, its next try at that account is
refused at once (429), unhashed: the sign-in limit has seen every earlier failure
before it lets a hash start, however many tries come at once. A client has at most
SIGN_IN_CHECKS_PER_CLIENT sign-ins checked at a time, whichever the accounts, and the
site at most SIGN_IN_CHECKS_AT_ONCE, whichever the clients.

The sign-ins run in threads, each with its own database connection, as in separate
web workers; the hasher holds a sign-in in its password check until the test lets it go.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpResponse
from django.test.utils import CaptureQueriesContext
from django.urls import Resolver404, resolve, set_script_prefix

from accounts.sign_in_checks import SIGN_IN_VIEWS, ProcessLocks, is_sign_in, sign_in_paths
from tests.accounts.conftest import PASSWORD, MakePlayer
from tests.accounts.hashers import HeldHasher
from tests.accounts.test_sign_in_limit import (
    LIMIT,
    OWNER,
    STRANGER,
    WRONG,
    admin_sign_in,
    from_address,
    signed_in,
    site_sign_in,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def held_hashes(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["tests.accounts.hashers.HeldHasher"]
    settings.SIGN_IN_CHECKS_PER_CLIENT = 2
    settings.SIGN_IN_CHECKS_AT_ONCE = 3
    yield
    HeldHasher.let_go()


class InThread(threading.Thread):
    """A request made in a thread of its own, with its own database connection."""

    def __init__(self, request: Callable[[], HttpResponse]) -> None:
        super().__init__(daemon=True)
        self.request = request
        self.response: HttpResponse | None = None

    def run(self) -> None:
        try:
            self.response = self.request()
        finally:
            connection.close()

    def status(self) -> int:
        self.join(timeout=30)
        assert self.response is not None, "the request did not finish"
        return self.response.status_code


def held_sign_ins(*requests: Callable[[], HttpResponse]) -> list[InThread]:
    """Start the sign-ins; returns once each is in the middle of its password check."""
    HeldHasher.hold(len(requests))
    threads = [InThread(request) for request in requests]
    for thread in threads:
        thread.start()
    HeldHasher.wait_until_held(len(threads))
    return threads


def test_a_second_try_while_the_first_is_checked_is_refused_unhashed(
    alice: AbstractBaseUser,
) -> None:
    stranger = from_address(STRANGER)
    (first,) = held_sign_ins(lambda: site_sign_in(from_address(STRANGER), "alice", WRONG))

    second = site_sign_in(stranger, "alice", WRONG)
    in_the_admin = admin_sign_in(stranger, "alice", WRONG)

    assert second.status_code == 429
    assert in_the_admin.status_code == 429
    assert "still being checked" in second.content.decode()
    assert 'href="/accounts/login/"' in second.content.decode()  # back to the same form
    assert second["Retry-After"]
    assert HeldHasher.computed == 0
    HeldHasher.let_go()
    assert first.status() == 200
    assert HeldHasher.computed == 1
    # Refused tries are not failures: only the one checked counts against the limit.
    assert AccessAttempt.objects.get().failures_since_start == 1
    assert site_sign_in(stranger, "alice", PASSWORD).status_code == 302
    assert signed_in(stranger)


def test_others_sign_in_meanwhile(alice: AbstractBaseUser) -> None:
    (guess,) = held_sign_ins(lambda: site_sign_in(from_address(STRANGER), "alice", WRONG))

    owner = from_address(OWNER)
    response = site_sign_in(owner, "alice", PASSWORD)

    assert response.status_code == 302
    assert signed_in(owner)
    HeldHasher.let_go()
    assert guess.status() == 200


# Two sign-ins held in their checks at once write the sign-in limit's table from two
# connections when let go: on PostgreSQL, as in production. SQLite's in-memory test
# database refuses the second writer at once ("database table is locked"), which says
# nothing of the site: these ask for PostgreSQL (skipped without it, failed under CI).


def test_a_client_has_at_most_two_sign_ins_checked_at_once(
    postgres: BaseDatabaseWrapper, make_player: MakePlayer
) -> None:
    for name in ("alice", "bob", "carol"):
        make_player(name)
    first, second = held_sign_ins(
        lambda: site_sign_in(from_address(STRANGER), "alice", WRONG),
        lambda: admin_sign_in(from_address(STRANGER), "bob", WRONG),
    )

    third = site_sign_in(from_address(STRANGER), "carol", WRONG)

    assert third.status_code == 429
    assert HeldHasher.computed == 0
    HeldHasher.let_go()
    assert (first.status(), second.status()) == (200, 200)
    assert site_sign_in(from_address(STRANGER), "carol", WRONG).status_code == 200


def test_the_site_has_at_most_so_many_sign_ins_checked_at_once(
    postgres: BaseDatabaseWrapper, settings: Any, make_player: MakePlayer
) -> None:
    settings.SIGN_IN_CHECKS_AT_ONCE = 2
    for name in ("alice", "bob", "carol"):
        make_player(name)
    first, second = held_sign_ins(
        lambda: site_sign_in(from_address("192.0.2.1"), "alice", WRONG),
        lambda: admin_sign_in(from_address("192.0.2.2"), "bob", WRONG),
    )

    third = site_sign_in(from_address(OWNER), "carol", PASSWORD)

    assert third.status_code == 429
    assert "Many sign-ins are being checked" in third.content.decode()
    assert HeldHasher.computed == 0
    HeldHasher.let_go()
    assert (first.status(), second.status()) == (200, 200)
    assert site_sign_in(from_address(OWNER), "carol", PASSWORD).status_code == 302


def test_sixteen_wrong_passwords_at_once_cost_at_most_the_limits_hashes(
    alice: AbstractBaseUser,
) -> None:
    HeldHasher.hold(0)
    start = threading.Barrier(16)

    def guess() -> HttpResponse:
        client = from_address(STRANGER)
        start.wait(timeout=20)
        return site_sign_in(client, "alice", WRONG)

    threads = [InThread(guess) for _ in range(16)]
    for thread in threads:
        thread.start()
    statuses = [thread.status() for thread in threads]

    assert set(statuses) <= {200, 429}
    assert HeldHasher.computed <= LIMIT
    assert statuses.count(200) == HeldHasher.computed


def test_while_a_sign_in_is_checked_its_slots_are_held_by_its_open_transaction(
    postgres: BaseDatabaseWrapper, alice: AbstractBaseUser
) -> None:
    # Transaction-scoped locks: behind a pooler in transaction mode (PgBouncer) the
    # server connection holding them stays with the sign-in until its transaction ends;
    # a session lock would stay on a connection handed to other clients meanwhile.
    (first,) = held_sign_ins(lambda: site_sign_in(from_address(STRANGER), "alice", WRONG))

    holders = advisory_lock_holders()

    # The account's for the client, one of the client's and one of the site's.
    assert len(holders) == 3
    assert {holder.in_transaction for holder in holders} == {True}
    assert len({holder.pid for holder in holders}) == 1
    HeldHasher.let_go()
    assert first.status() == 200
    assert advisory_lock_holders() == []


def test_the_slots_are_freed_by_the_transactions_end_not_unlocked_one_by_one(
    postgres: BaseDatabaseWrapper, alice: AbstractBaseUser
) -> None:
    HeldHasher.hold(0)

    with CaptureQueriesContext(postgres) as queries:
        assert site_sign_in(from_address(STRANGER), "alice", WRONG).status_code == 200

    advisory = [query["sql"] for query in queries if "advisory" in query["sql"]]
    assert len(advisory) == 3
    assert all(sql.startswith("SELECT pg_try_advisory_xact_lock(") for sql in advisory)


@dataclass(frozen=True)
class Holder:
    pid: int
    in_transaction: bool


def advisory_lock_holders() -> list[Holder]:
    """The server processes holding advisory locks in this database, one per lock, and
    whether each is inside a transaction (seen from another connection)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT l.pid, a.xact_start IS NOT NULL FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        return [Holder(pid, in_transaction) for pid, in_transaction in cursor.fetchall()]


def test_on_another_database_the_slots_are_kept_in_the_process() -> None:
    # The local SQLite default is served by one process.
    locks = ProcessLocks()
    with locks.held() as take:
        assert take(1) and take(2)
        with locks.held() as another_take:
            assert not another_take(1)
            assert take(3)
    with locks.held() as take:
        assert take(1) and take(2) and take(3)


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/login/",
        "/admin/login/",
        "/accounts/login",
        "/accounts/login/x/",
        "/admin/",
        "/accounts/signup/",
        "/games/1/move/",
        "/",
        "/no/such/page/",
    ],
)
def test_a_request_is_a_sign_in_exactly_when_its_path_resolves_to_a_sign_in_view(
    path: str, rf: Any
) -> None:
    try:
        view = resolve(path).view_name
    except Resolver404:
        view = None
    assert is_sign_in(rf.post(path)) == (view in SIGN_IN_VIEWS)
    assert not is_sign_in(rf.get(path))


def test_both_sign_in_views_are_found_by_their_paths_also_when_the_site_is_under_a_prefix() -> None:
    assert {resolve(path).view_name for path in sign_in_paths("ww5site.urls")} == SIGN_IN_VIEWS
    sign_in_paths.cache_clear()
    set_script_prefix("/site/")  # as the WSGI handler sets it for a site served at /site/
    try:
        assert sign_in_paths("ww5site.urls") == {"/accounts/login/", "/admin/login/"}
    finally:
        set_script_prefix("/")
        sign_in_paths.cache_clear()
