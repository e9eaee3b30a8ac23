"""The commitment to an event's seed: published when the event is made, before anyone
registers, so that once the seed is revealed (when round 1 is paired) anyone can check
that every pairing, seating and draw of the event followed a seed chosen beforehand.

``H("ww5-event-seed/1|<event id>|<seed as decimal text>")``, the SHA-256 digest of the
UTF-8 text in lowercase hex (the README's "An event's draws")."""

from __future__ import annotations

import hashlib

VERSION = "ww5-event-seed/1"


def commitment(event: int, seed: int) -> str:
    """The commitment to ``seed`` for the event with id ``event``."""
    return hashlib.sha256(f"{VERSION}|{event}|{seed}".encode()).hexdigest()
