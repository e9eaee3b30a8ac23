"""Through PgBouncer in transaction mode: nothing the site needs outlives a transaction.

bin/test runs the integration tests a second time through PgBouncer in transaction mode
(DATABASE_POOLER=pgbouncer, .ci/pgbouncer.ini). Such a pooler hands each transaction,
and each statement outside one, to whichever server connection is free, the one
released last first (PgBouncer's default): what a client leaves on its connection
between two transactions (a session's advisory lock, a server-side cursor) is on a
connection that the next client may get, while its own next statement may run on
another. Here another client, a thread with its own database connection as another web
worker has, takes that connection in between.

On PostgreSQL reached directly these tests pass whatever the site leaves on its
connection; through the pooler they fail on a session lock or a server-side cursor.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction

from tests.accounts.hashers import HeldHasher
from tests.accounts.test_sign_in_at_once import InThread, held_sign_ins
from tests.accounts.test_sign_in_limit import STRANGER, WRONG, from_address, site_sign_in

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


class AnotherClientsTransaction:
    """A transaction of another client, open on its own connection until ``end()``:
    behind the pooler it holds the server connection released last."""

    def __init__(self) -> None:
        self._opened = threading.Event()
        self._end = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> AnotherClientsTransaction:
        self._thread.start()
        assert self._opened.wait(timeout=30), "the other client's transaction did not open"
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._end.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                self._opened.set()
                self._end.wait(timeout=30)
        finally:
            connection.close()


def test_a_queryset_read_in_pieces_survives_another_client_taking_its_connection(
    postgres: Any, django_user_model: type[AbstractBaseUser]
) -> None:
    names = [f"player{number}" for number in range(5)]
    for name in names:
        django_user_model.objects.create_user(username=name, password=None)
    rows = (
        django_user_model.objects.order_by("username")
        .values_list("username", flat=True)
        .iterator(chunk_size=1)
    )

    first = next(rows)
    # A server-side cursor would stay on the connection the other client now holds.
    with AnotherClientsTransaction():
        rest = list(rows)

    assert [first, *rest] == names


@pytest.fixture
def held_hashes(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["tests.accounts.hashers.HeldHasher"]
    yield
    HeldHasher.let_go()


def test_a_sign_in_being_checked_holds_its_slots_whichever_connection_the_next_try_gets(
    postgres: Any, django_user_model: type[AbstractBaseUser], held_hashes: None
) -> None:
    django_user_model.objects.create_user(username="alice", password=PASSWORD)
    (first,) = held_sign_ins(lambda: site_sign_in(from_address(STRANGER), "alice", WRONG))

    # A session lock would stay on the connection its statement ran on, released to
    # the pool at once, where this try's statements run next: taken again, not refused.
    second = site_sign_in(from_address(STRANGER), "alice", WRONG)

    assert second.status_code == 429
    HeldHasher.let_go()
    assert first.status() == 200
    # And the slots are free again, on whichever connections the next tries get.
    tries = [
        InThread(lambda: site_sign_in(from_address(STRANGER), "alice", PASSWORD)),
        InThread(lambda: site_sign_in(from_address("192.0.2.1"), "alice", WRONG)),
    ]
    statuses = []
    with AnotherClientsTransaction():
        for sign_in in tries:
            sign_in.start()
            statuses.append(sign_in.status())
    assert statuses == [302, 200]
