"""Password hashers for the sign-in tests: quick, and counting the hashes they compute.

Registered in PASSWORD_HASHERS by the tests that use them, so every password Django
checks or sets goes through them, as through the site's own hasher.
"""

from __future__ import annotations

import threading
from typing import Any

from django.contrib.auth.hashers import MD5PasswordHasher


class CountingHasher(MD5PasswordHasher):
    """MD5 (quick), counting every hash computed: a password checked, or the stand-in
    hash for a name that matches nobody. ``verify`` computes through ``encode``."""

    algorithm = "counting_md5"
    _lock = threading.Lock()
    computed = 0

    def encode(self, password: str, salt: str) -> str:
        with CountingHasher._lock:
            CountingHasher.computed += 1
        return super().encode(password, salt)

    @classmethod
    def reset(cls) -> None:
        with cls._lock:
            cls.computed = 0


class HeldHasher(CountingHasher):
    """Counts, and holds each hash while ``hold`` is set: a sign-in stays in the middle of
    its password check until the test lets it go. ``started`` tells when one got there."""

    hold = threading.Event()
    started = threading.Semaphore(0)
    released = threading.Event()

    def encode(self, password: str, salt: str) -> str:
        if HeldHasher.hold.is_set():
            HeldHasher.started.release()
            HeldHasher.released.wait(timeout=30)
        return super().encode(password, salt)

    @classmethod
    def holding(cls, **_: Any) -> None:
        cls.reset()
        cls.released.clear()
        cls.started = threading.Semaphore(0)
        cls.hold.set()

    @classmethod
    def let_go(cls) -> None:
        cls.hold.clear()
        cls.released.set()
