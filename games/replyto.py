"""Reply addresses: where a player's answer to a game's mail goes (its Reply-To).

A "your decision" mail replies to ``play+<token>@<REPLY_DOMAIN>``. The token binds one
player, one seat, one game and one decision (the game's turn number when the mail was
written), and the time it was made; it is signed with the site's key, so an altered
token is refused. Other mails about a game (its start, an attack) carry a game token,
which binds the player, seat and game but no decision: a reply to it may ask for the
board or the legal actions, never make a move.

The token keeps to lower-case letters, digits and dots (numbers in base 36, a base-32
HMAC), so mail servers that change the case of an address's local part, or limit it to
64 characters, leave it whole.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from email.utils import getaddresses

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

from games.models import Game, Seat

SALT = "ww5.games.reply-address"
DECISION, GAME = "d", "g"
# 80 bits of HMAC-SHA256: guessing one is out of reach.
SIGNATURE_LENGTH = 16
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


class BadToken(ValueError):
    """Not a token the site made: altered, cut short, or made up."""


@dataclass(frozen=True)
class ReplyToken:
    kind: str  # DECISION or GAME
    game_id: int
    seat_id: int
    turn: int  # the decision's turn number (0 for a game token)
    user_id: int
    issued: int  # seconds since the epoch

    @property
    def for_decision(self) -> bool:
        return self.kind == DECISION


def _base36(number: int) -> str:
    if number < 0:
        raise ValueError("a token holds no negative number")
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = DIGITS[digit] + digits
        if not number:
            return digits


def _signature(payload: str) -> str:
    digest = salted_hmac(SALT, payload, algorithm="sha256").digest()
    return base64.b32encode(digest).decode().lower()[:SIGNATURE_LENGTH]


def make_token(game: Game, seat: Seat, *, decision: bool = True, issued: int | None = None) -> str:
    """A token for ``seat``'s player in ``game``: for the decision due now, or
    (``decision`` False) for the game only."""
    assert seat.user_id is not None, "a seat without a player gets no mail"
    issued = int(time.time()) if issued is None else issued
    turn = game.turn_number if decision else 0
    fields = [DECISION if decision else GAME, game.pk, seat.pk, turn, seat.user_id, issued]
    payload = ".".join(f if isinstance(f, str) else _base36(f) for f in fields)
    return f"{payload}.{_signature(payload)}"


def read_token(token: str) -> ReplyToken:
    """The token's fields, once its signature is checked; BadToken otherwise."""
    token = token.strip().lower()
    payload, _, signature = token.rpartition(".")
    parts = payload.split(".")
    if len(parts) != 6 or parts[0] not in (DECISION, GAME) or len(token) > 120:
        raise BadToken("not a reply token")
    if not constant_time_compare(signature, _signature(payload)):
        raise BadToken("the token's signature does not match")
    try:
        numbers = [int(part, 36) for part in parts[1:]]
    except ValueError:
        raise BadToken("not a reply token") from None
    return ReplyToken(parts[0], *numbers)


def reply_address(game: Game, seat: Seat, *, decision: bool = True) -> str:
    """The Reply-To of a mail to ``seat``'s player about ``game`` (see ``make_token``)."""
    token = make_token(game, seat, decision=decision)
    return f"{settings.REPLY_LOCAL_PART}+{token}@{settings.REPLY_DOMAIN}"


def is_reply_address(address: str) -> bool:
    """Whether the address is one of the site's reply addresses (token or not)."""
    local, _, domain = address.strip().lower().rpartition("@")
    prefix = settings.REPLY_LOCAL_PART.lower()
    return domain == settings.REPLY_DOMAIN.lower() and (
        local == prefix or local.startswith(prefix + "+")
    )


def token_of(address: str) -> str | None:
    """The token in a reply address (``play+<token>@domain``); None in any other."""
    if not is_reply_address(address):
        return None
    local = address.strip().lower().rpartition("@")[0]
    _, plus, token = local.partition("+")
    return token if plus and token else None


def tokens_in(addresses: list[str]) -> list[str]:
    """The tokens of the reply addresses among ``addresses`` (header values allowed:
    ``Name <play+…@domain>, …``), each once, in order."""
    found: list[str] = []
    for _, address in getaddresses(addresses):
        token = token_of(address)
        if token is not None and token not in found:
            found.append(token)
    return found
