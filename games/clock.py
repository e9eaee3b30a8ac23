"""A player's clock: how declared absences stop it.

Pure functions over times. ``away`` is a list of (start, end) periods in which the
clock stands still; they may overlap and come in any order.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

Period = tuple[datetime, datetime]
ZERO = timedelta(0)


def merged(away: Iterable[Period]) -> list[Period]:
    """The periods in order, overlapping or touching ones joined, empty ones dropped."""
    out: list[Period] = []
    for start, end in sorted(p for p in away if p[1] > p[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def deadline(start: datetime, allowed: timedelta, away: Iterable[Period] = ()) -> datetime:
    """When a clock started at ``start`` with ``allowed`` time runs out, standing still
    while its player is away."""
    at, left = start, max(allowed, ZERO)
    for a, b in merged(away):
        if b <= at:
            continue
        if a > at:
            run = min(left, a - at)
            at, left = at + run, left - run
            if left == ZERO:
                return at
        at = max(at, b)
    return at + left


def running(start: datetime, end: datetime, away: Iterable[Period] = ()) -> timedelta:
    """How long the clock ran between ``start`` and ``end``: the time minus the time away."""
    if end <= start:
        return ZERO
    stopped = sum(
        (min(b, end) - max(a, start) for a, b in merged(away) if a < end and b > start),
        ZERO,
    )
    return end - start - stopped
