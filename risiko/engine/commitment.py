"""K38 commitments for sealed decisions (a sealed placement; a war's two halves).

On a valid sealed submission the server draws a fresh 16-byte nonce ``r`` (from its own
secure source: the engine has no randomness of its own) and mails the sender
``H = SHA-256("risiko-sealed-v1|" + game id + "|" + decision id + "|" + player + "|" +
canonical action + "|" + hex(r))``; at the reveal everyone can recompute every ``H``.
"""

from __future__ import annotations

import hashlib
import hmac

PREFIX = "risiko-sealed-v1"
NONCE_BYTES = 16
PLACEMENT_DECISION = "placement"


def war_decision(move_number: int) -> str:
    """The decision id of a war: ``war-<n>``, n the move number of its attack."""
    return f"war-{move_number}"


def _nonce_hex(nonce: bytes | str) -> str:
    if isinstance(nonce, bytes):
        if len(nonce) != NONCE_BYTES:
            raise ValueError(f"a nonce is {NONCE_BYTES} bytes, not {len(nonce)}")
        return nonce.hex()
    if len(nonce) != 2 * NONCE_BYTES or any(c not in "0123456789abcdef" for c in nonce):
        raise ValueError(f"a nonce is {2 * NONCE_BYTES} lower-case hex digits")
    return nonce


def commitment(game: str, decision: str, player: str, action: str, nonce: bytes | str) -> str:
    """The hex digest ``H`` committing ``player`` to the canonical ``action``."""
    text = "|".join((PREFIX, game, decision, player, action, _nonce_hex(nonce)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify_commitment(
    digest: str, game: str, decision: str, player: str, action: str, nonce: bytes | str
) -> bool:
    """Whether a revealed action and nonce give the commitment sent before the reveal."""
    try:
        expected = commitment(game, decision, player, action, nonce)
    except ValueError:
        return False
    return hmac.compare_digest(expected, digest.lower())
