"""Sign-ins checked at the same time: a client cannot keep the web workers hashing.

A password hash is made to be slow (a good part of a second of CPU), and a web worker
is taken for its time. While a client's sign-in to an account is checked, its next try
at the same account is refused at once with a 429 page, before any hash: so the
sign-in limit (django-axes) has counted every earlier failure when it decides on the
next try, and a burst of guesses costs at most the limit's hashes. A client also has at
most SIGN_IN_CHECKS_PER_CLIENT sign-ins checked at once, whichever the accounts, and
the site at most SIGN_IN_CHECKS_AT_ONCE, whichever the clients: a burst, from one
address or from many, cannot take every web worker from the other players' pages.

The slots are PostgreSQL advisory locks, taken by a transaction that spans the sign-in,
so that the failure the sign-in counts is committed as its slots are freed. They are
transaction-scoped: the transaction's end frees them (a worker that dies holding some
ends it, as the server rolls it back with the connection), and a pooler in transaction
mode (PgBouncer) keeps the one server connection that holds them for the whole sign-in.
On another database (the local SQLite default, served by one process) they are kept in
the process, with no transaction around the sign-in: SQLite would hold its one write
lock for the hash.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import get_script_prefix, reverse

from accounts.clients import client_address
from accounts.signin import attempted_account

# The views that check a password to sign in: the site's form and the admin's.
SIGN_IN_VIEWS = frozenset({"account_login", "admin:login"})
RETRY_AFTER_SECONDS = 2


class SignInChecksMiddleware:
    """Holds the client's slots while a sign-in view answers (the failure counted, if it
    was one); refuses the sign-in at once when they are taken."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_sign_in(request):
            return self.get_response(request)
        with slots_held(request) as taken:
            if taken is None:
                return self.get_response(request)
        return busy(request, taken)


def is_sign_in(request: HttpRequest) -> bool:
    if request.method != "POST":
        return False
    urlconf = getattr(request, "urlconf", None) or settings.ROOT_URLCONF
    return request.path_info in sign_in_paths(urlconf)


@functools.lru_cache(maxsize=16)
def sign_in_paths(urlconf: str) -> frozenset[str]:
    """The paths of SIGN_IN_VIEWS under ``urlconf``, as a request's ``path_info`` has
    them. Their patterns take no arguments, so a path is a sign-in's exactly when it is
    one of these: every request asks, and a set look-up spares it the URL resolver."""
    prefix = get_script_prefix()
    return frozenset("/" + reverse(name, urlconf)[len(prefix) :] for name in SIGN_IN_VIEWS)


def busy(request: HttpRequest, taken: str) -> HttpResponse:
    response = render(
        request,
        "account/sign_in_busy.html",
        {"seconds": RETRY_AFTER_SECONDS, "site_busy": taken == SITE},
        status=429,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


CLIENT, SITE = "client", "site"  # whose slots were all taken


@contextmanager
def slots_held(request: HttpRequest) -> Iterator[str | None]:
    """Holds the sign-in's slots while the block runs, yielding None: its account's for
    its client, one of its client's and one of the site's. Else yields whose slots were
    all taken (CLIENT or SITE); then none is held past the block."""
    client = client_address(request) or ""
    wanted = [
        (CLIENT, [lock_key("account", client, attempted_account(request, None))]),
        (CLIENT, slots("client", client, count=settings.SIGN_IN_CHECKS_PER_CLIENT)),
        (SITE, slots("site", count=settings.SIGN_IN_CHECKS_AT_ONCE)),
    ]
    with locks_for_database().held() as take:
        for owner, keys in wanted:
            if not any(take(key) for key in keys):
                yield owner
                return
        yield None


def slots(*parts: str, count: int) -> list[int]:
    return [lock_key(*parts, str(slot)) for slot in range(count)]


def lock_key(*parts: str) -> int:
    """A signed 64-bit key, as PostgreSQL's advisory locks take, for ``parts``."""
    digest = hashlib.blake2b("\x1f".join(("ww5-sign-in", *parts)).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


Take = Callable[[int], bool]


class Locks:
    def held(self) -> AbstractContextManager[Take]:
        """A span of work, yielding ``take(key)``: whether the lock was free, and is now
        held until the span ends."""
        raise NotImplementedError


class AdvisoryLocks(Locks):
    """PostgreSQL's transaction-scoped advisory locks, on this thread's connection: the
    span is a transaction (a savepoint inside one), and its end frees them.

    Never a session lock (``pg_try_advisory_lock``): behind a pooler in transaction mode
    it would stay on whichever server connection ran the statement, held for whatever
    client runs there next, and its unlock would go to another one."""

    @contextmanager
    def held(self) -> Iterator[Take]:
        with transaction.atomic():
            yield self.take

    @staticmethod
    def take(key: int) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [key])
            return bool(cursor.fetchone()[0])


class ProcessLocks(Locks):
    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._taken: set[int] = set()

    @contextmanager
    def held(self) -> Iterator[Take]:
        mine: list[int] = []

        def take(key: int) -> bool:
            with self._mutex:
                if key in self._taken:
                    return False
                self._taken.add(key)
            mine.append(key)
            return True

        try:
            yield take
        finally:
            with self._mutex:
                self._taken.difference_update(mine)


process_locks = ProcessLocks()
advisory_locks = AdvisoryLocks()


def locks_for_database() -> Locks:
    return advisory_locks if connection.vendor == "postgresql" else process_locks
