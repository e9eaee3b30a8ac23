"""Sign-ins checked at the same time: a client cannot keep the web workers hashing.

A password hash is made to be slow (a good part of a second of CPU), and a web worker
is taken for its time. While a client's sign-in to an account is checked, its next try
at the same account is refused at once with a 429 page, before any hash: so the
sign-in limit (django-axes) has counted every earlier failure when it decides on the
next try, and a burst of guesses costs at most the limit's hashes. A client also has at
most SIGN_IN_CHECKS_PER_CLIENT sign-ins checked at once, whichever the accounts, and
the site at most SIGN_IN_CHECKS_AT_ONCE, whichever the clients: a burst, from one
address or from many, cannot take every web worker from the other players' pages.

The slots are PostgreSQL advisory locks, shared by every process and freed by the
server with the connection if a worker dies holding one. On another database (the
local SQLite default, served by one process) they are kept in the process.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.clients import client_address
from accounts.signin import attempted_account

logger = logging.getLogger(__name__)

# The views that check a password to sign in: the site's form and the admin's.
SIGN_IN_VIEWS = frozenset({"account_login", "admin:login"})
RETRY_AFTER_SECONDS = 2


class SignInChecksMiddleware:
    """Claims the client's slots before a sign-in view runs; frees them once it answered
    (the failure counted, if it was one)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            claim: Claim | None = getattr(request, "sign_in_claim", None)
            if claim is not None:
                claim.free()

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = request.resolver_match
        if request.method != "POST" or match is None or match.view_name not in SIGN_IN_VIEWS:
            return None
        claim = Claim.take(request)
        if not isinstance(claim, Claim):
            return busy(request, claim)
        request.sign_in_claim = claim  # type: ignore[attr-defined]
        return None


def busy(request: HttpRequest, taken: str) -> HttpResponse:
    response = render(
        request,
        "account/sign_in_busy.html",
        {"seconds": RETRY_AFTER_SECONDS, "site_busy": taken == SITE},
        status=429,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class Claim:
    """The slots one sign-in holds while it is checked."""

    def __init__(self, locks: Locks, keys: list[int]) -> None:
        self.locks = locks
        self.keys = keys

    @classmethod
    def take(cls, request: HttpRequest) -> Claim | str:
        """The sign-in's slots: its account's for its client, one of its client's and
        one of the site's; else which of those was taken (nothing is held then)."""
        client = client_address(request) or ""
        locks = locks_for_database()
        held: list[int] = []
        wanted = [
            (CLIENT, [lock_key("account", client, attempted_account(request, None))]),
            (CLIENT, slots("client", client, count=settings.SIGN_IN_CHECKS_PER_CLIENT)),
            (SITE, slots("site", count=settings.SIGN_IN_CHECKS_AT_ONCE)),
        ]
        for owner, keys in wanted:
            key = next((key for key in keys if locks.take(key)), None)
            if key is None:
                cls(locks, held).free()
                return owner
            held.append(key)
        return cls(locks, held)

    def free(self) -> None:
        for key in self.keys:
            try:
                self.locks.free(key)
            except Exception as error:  # the connection broke: the server freed them
                logger.warning("a sign-in slot was not freed: %s: %s", type(error).__name__, error)


CLIENT, SITE = "client", "site"  # whose slots were all taken


def slots(*parts: str, count: int) -> list[int]:
    return [lock_key(*parts, str(slot)) for slot in range(count)]


def lock_key(*parts: str) -> int:
    """A signed 64-bit key, as PostgreSQL's advisory locks take, for ``parts``."""
    digest = hashlib.blake2b("\x1f".join(("ww5-sign-in", *parts)).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


class Locks:
    def take(self, key: int) -> bool:
        raise NotImplementedError

    def free(self, key: int) -> None:
        raise NotImplementedError


class AdvisoryLocks(Locks):
    """PostgreSQL's session advisory locks, on this thread's connection; not tied to a
    transaction, so a sign-in's own transactions neither free nor keep them."""

    def take(self, key: int) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
            return bool(cursor.fetchone()[0])

    def free(self, key: int) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


class ProcessLocks(Locks):
    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._taken: set[int] = set()

    def take(self, key: int) -> bool:
        with self._mutex:
            if key in self._taken:
                return False
            self._taken.add(key)
            return True

    def free(self, key: int) -> None:
        with self._mutex:
            self._taken.discard(key)


process_locks = ProcessLocks()
advisory_locks = AdvisoryLocks()


def locks_for_database() -> Locks:
    return advisory_locks if connection.vendor == "postgresql" else process_locks
