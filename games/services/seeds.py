"""Each game's verifiable dice (``games.core.fairdice``): its secret seed, drawn when the
game is made and kept encrypted on its row; the stream every random number of the game
comes from, its counter kept with the move in the move's transaction; and the seed's
reveal when the game ends.

The seed is read only here, by the code that draws numbers: no view, admin page, log or
export has it while the game runs, and the database (and so a backup) holds it encrypted
with a key from the settings (``DICE_SEED_KEYS``; by default one derived from the
site's secret key). Once the game is over, by any road, the seed is public on the row.
"""

from __future__ import annotations

import base64
import hashlib
import random
import secrets
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings

from games.core import fairdice
from games.models import Game, Seat

# The longest words a player may add to the dice.
WORDS_LENGTH = 200


class Recorded(fairdice.Recording):
    """The numbers one change of a game draws from another source than its stream (a
    game made before seeds; tests that set the services' dice), kept as the stream's
    are, with their ranges and the counter of the first."""

    def __init__(self, source: Any, first: int) -> None:
        super().__init__(first - 1)
        self.source = source

    def draw(self, n: int, low: int, high: int) -> int:
        return int(self.source.randint(low, high))


def _fernet() -> MultiFernet:
    return _keys(tuple(getattr(settings, "DICE_SEED_KEYS", ()) or ()), settings.SECRET_KEY)


@lru_cache(maxsize=4)
def _keys(keys: tuple[str, ...], secret: str) -> MultiFernet:
    """The first key encrypts, every key decrypts (a new key first, the old after it,
    while running games' seeds are read again)."""
    if not keys:
        derived = hashlib.sha256(f"ww5-dice-seed-key|{secret}".encode()).digest()
        keys = (base64.urlsafe_b64encode(derived).decode(),)
    return MultiFernet([Fernet(key.encode()) for key in keys])


def seal(game: Game) -> None:
    """Draw the new game's secret seed and publish its commitment (on the saved row)."""
    seed = secrets.token_bytes(fairdice.SEED_BYTES)
    game.dice_seed = _fernet().encrypt(seed).decode()
    game.dice_commitment = fairdice.commitment(str(game.pk), seed)
    game.save(update_fields=["dice_seed", "dice_commitment"])


@lru_cache(maxsize=4096)
def _seed(token: str, keys: tuple[str, ...], secret: str) -> bytes:
    try:
        return _keys(keys, secret).decrypt(token.encode())
    except InvalidToken:
        raise RuntimeError("a game's dice seed cannot be read with DICE_SEED_KEYS") from None


def seed_of(game: Game) -> bytes:
    """The game's seed (only for drawing numbers and its reveal at the end)."""
    keys = tuple(getattr(settings, "DICE_SEED_KEYS", ()) or ())
    return _seed(game.dice_seed, keys, settings.SECRET_KEY)


def words_hash(game: Game, seats: Iterable[Seat]) -> str:
    """``P``: the seats' words combined."""
    return fairdice.players_hash(str(game.pk), [(s.number, s.dice_words) for s in seats])


def stream(game: Game, seats: Iterable[Seat], override: random.Random | None) -> fairdice.Recording:
    """Where the game's next numbers come from: its stream from its counter on (the
    players' words fixed at the first number), ``override`` when tests set the services'
    dice, or the system's generator for a game made before seeds."""
    first = game.dice_drawn + 1
    if override is not None or not game.dice_seed:
        return Recorded(override or random.SystemRandom(), first)
    if not game.dice_players_hash:
        game.dice_players_hash = words_hash(game, seats)
    return fairdice.Stream(seed_of(game), str(game.pk), game.dice_players_hash, game.dice_drawn)


def bot_random(game: Game, move: int, override: random.Random | None) -> random.Random:
    """The source of a bot's choices for the game's move numbered ``move``: from the seed,
    so that anyone can repeat them once it is revealed."""
    if override is not None or not game.dice_seed or not game.dice_players_hash:
        return random.Random((override or random.SystemRandom()).random())
    return random.Random(
        fairdice.bot_seed(seed_of(game), str(game.pk), game.dice_players_hash, move)
    )


def reveal(game: Game) -> None:
    """The game is over: its seed is public (saved with the caller's update)."""
    if game.dice_seed and not game.dice_revealed:
        game.dice_revealed = seed_of(game).hex()


def check_words(text: str) -> str:
    """A player's words for the dice, as kept; ``ValueError`` when too long."""
    words = " ".join(text.split())
    if len(words) > WORDS_LENGTH:
        raise ValueError(f"at most {WORDS_LENGTH} characters of words for the dice")
    return words
