"""Password hashers for the sign-in tests: quick, and counting the hashes they compute.

Registered in PASSWORD_HASHERS by the tests that use them, so every password Django
checks or sets goes through them, as through the site's own hasher.
"""

from __future__ import annotations

import threading

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

    @staticmethod
    def reset() -> None:
        with CountingHasher._lock:
            CountingHasher.computed = 0  # one count, read through every subclass


class HeldHasher(CountingHasher):
    """Counts, and holds the next ``hold(count)`` hashes until ``let_go()``: those sign-ins
    stay in the middle of their password check meanwhile. ``wait_until_held`` returns once
    that many have got there."""

    _to_hold = 0
    _held = threading.Semaphore(0)
    _go_on = threading.Event()

    def encode(self, password: str, salt: str) -> str:
        with CountingHasher._lock:
            holding = HeldHasher._to_hold > 0
            if holding:
                HeldHasher._to_hold -= 1
        if holding:
            HeldHasher._held.release()
            HeldHasher._go_on.wait(timeout=30)
        return super().encode(password, salt)

    @classmethod
    def hold(cls, count: int) -> None:
        cls.reset()
        cls._go_on.clear()
        cls._held = threading.Semaphore(0)
        cls._to_hold = count

    @classmethod
    def wait_until_held(cls, count: int) -> None:
        for _ in range(count):
            assert cls._held.acquire(timeout=20), "a sign-in to reach its password check"

    @classmethod
    def let_go(cls) -> None:
        cls._to_hold = 0
        cls._go_on.set()
