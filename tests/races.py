"""Real races for the PostgreSQL tests: calls in threads of their own, each with its own
database connection, released together."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None


def race(calls: list[Callable[[], Any]]) -> list[Outcome]:
    """Run every call in its own thread, all released at the same moment."""
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def run(index: int) -> None:
        try:
            connection.ensure_connection()  # this thread's own connection, opened first
            barrier.wait(timeout=30)
            outcomes[index].value = calls[index]()
        except BaseException as error:  # reported to the test, never lost in a thread
            outcomes[index].error = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a racing call never finished"
    return outcomes


def waiting_for_a_lock() -> int:
    """How many of the database's sessions wait for a lock now."""
    with connection.cursor() as cursor:
        # Within a transaction the activity view is a snapshot, until cleared.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        (count,) = cursor.fetchone()
    return int(count)


def start_waiting(call: Callable[[], Any]) -> tuple[threading.Thread, Outcome]:
    """Start ``call`` in a thread of its own (with its own connection), and return once
    it waits for a lock, one the caller holds: the thread and its outcome, to be joined
    after the caller lets the lock go."""
    outcome = Outcome()

    def run() -> None:
        try:
            outcome.value = call()
        except BaseException as error:  # reported to the test, never lost in a thread
            outcome.error = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 20
    while waiting_for_a_lock() == 0:
        assert thread.is_alive(), f"the call ended without waiting for the lock: {outcome}"
        assert time.monotonic() < deadline, "the call never waited for the lock"
        time.sleep(0.02)
    return thread, outcome
