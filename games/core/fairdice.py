"""Dice players can verify: every random number of a game comes from a stream that the
server commits to before the first roll and reveals after the end.

Version ``ww5-dice/1``. The texts below are UTF-8; ``H(x)`` is the SHA-256 hex digest of
``x``; ``game`` is the game's id as decimal text.

- **Seed.** 32 random bytes drawn for the game; ``seed`` below is their lowercase hex.
- **Commitment**, published when the game is made:
  ``H("ww5-dice/1|commit|<game>|<seed>")``.
- **Players' words.** Each seat may add words before the first number is drawn; their
  combined hash, published with the first number, is
  ``P = H("ww5-dice/1|players|<game>" + "|<seat>=<H(words)>" for each seat, in seat
  order)``, a seat without words hashing the empty text.
- **Number n** (n = 1, 2, … in the order drawn, the game's counter) in ``[low, high]``:
  ``span = high - low + 1``, ``bits = (span - 1).bit_length()``; for ``j = 0, 1, …``
  take ``d = HMAC-SHA256(key=seed bytes, msg="ww5-dice/1|<game>|<P>|<n>|<j>")``, read it
  as a 256-bit big-endian integer, keep its top ``bits`` bits as ``x``; the first
  ``x < span`` gives ``low + x``. (Rejection sampling: no value is likelier than
  another.)
- **Bots.** A bot's choices for the move numbered m come from Python's
  ``random.Random(int.from_bytes(HMAC-SHA256(seed, "ww5-dice/1|<game>|<P>|bot|<m>"),
  "big"))``; they use no counter.

This module is pure (the standard library only) and is the one the site draws with;
``tools/verify_dice.py`` repeats it standalone for players.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

VERSION = "ww5-dice/1"
SEED_BYTES = 32


def digest(text: str) -> str:
    """``H(text)``: the SHA-256 hex digest of the UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commitment(game: str, seed: bytes) -> str:
    """The commitment published when the game is made."""
    return digest(f"{VERSION}|commit|{game}|{seed.hex()}")


def players_hash(game: str, words: Iterable[tuple[int, str]]) -> str:
    """``P``: the players' words (seat number, words) combined, in seat order."""
    parts = "".join(f"|{seat}={digest(text)}" for seat, text in sorted(words))
    return digest(f"{VERSION}|players|{game}{parts}")


def number(seed: bytes, game: str, players: str, n: int, low: int, high: int) -> int:
    """Number ``n`` of the game's stream, in ``[low, high]``."""
    if high < low:
        raise ValueError(f"an empty range: {low}..{high}")
    span = high - low + 1
    bits = (span - 1).bit_length()
    j = 0
    while True:
        message = f"{VERSION}|{game}|{players}|{n}|{j}".encode()
        x = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest(), "big")
        x >>= 256 - bits
        if x < span:
            return low + x
        j += 1


def bot_seed(seed: bytes, game: str, players: str, move: int) -> int:
    """The seed of a bot's choices for the move numbered ``move``."""
    message = f"{VERSION}|{game}|{players}|bot|{move}".encode()
    return int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest(), "big")


class Recording:
    """Numbers from the game's counter ``drawn + 1`` on, as a dice source (``randint``)
    that keeps what it gave (``rolled``) and each number's range (``ranges``), and
    shuffles as the engines do (``sample``); where each number comes from is
    ``draw``'s."""

    def __init__(self, drawn: int) -> None:
        self.first = drawn + 1
        self.rolled: list[int] = []
        self.ranges: list[tuple[int, int]] = []

    @property
    def drawn(self) -> int:
        """The game's counter after these numbers."""
        return self.first - 1 + len(self.rolled)

    def draw(self, n: int, low: int, high: int) -> int:
        """Number ``n`` of the game, in ``[low, high]``."""
        raise NotImplementedError

    def randint(self, a: int, b: int) -> int:
        value = self.draw(self.drawn + 1, a, b)
        self.rolled.append(value)
        self.ranges.append((a, b))
        return value

    def sample(self, items: list[str], k: int) -> list[str]:
        """``k`` of ``items`` in a random order (Fisher–Yates from the end, as the
        engines shuffle): a game's random seat roles."""
        a = list(items)
        for i in range(len(a) - 1, 0, -1):
            j = self.randint(0, i)
            a[i], a[j] = a[j], a[i]
        return a[:k]


class Stream(Recording):
    """A game's own numbers (``number``) from ``drawn + 1`` on."""

    def __init__(self, seed: bytes, game: str, players: str, drawn: int) -> None:
        super().__init__(drawn)
        self._seed, self.game, self.players = seed, game, players

    def draw(self, n: int, low: int, high: int) -> int:
        return number(self._seed, self.game, self.players, n, low, high)
