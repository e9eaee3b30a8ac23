"""When two names are one name to the players who read them.

Display names and usernames are compared by a key: Unicode NFKC (so "Ａlice" in
full-width letters is "Alice"), case-folded (so "ALICE" and "Straße"/"STRASSE" match),
with white space collapsed. Pure functions: the profile model stores the key, and a
unique constraint on it keeps two players from one name.
"""

from __future__ import annotations

import unicodedata

# How games name bot seats ("Greedy bot 2": games.models.Seat.Bot's labels and the seat
# number). A player named so would pass for a bot; a test keeps this list in step.
BOT_NAMES = ("Greedy bot", "Random bot")


def name_key(name: str) -> str:
    """The name as it is compared: NFKC, case-folded, single spaces, no spaces at the ends."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def _letters_and_digits(name: str) -> str:
    return "".join(character for character in name_key(name) if character.isalnum())


def reads_as_a_bot(name: str) -> bool:
    """Whether the name reads as a bot seat's: "Greedy bot", "random-bot 3", "RandomBot#7"."""
    letters = _letters_and_digits(name)
    for bot in BOT_NAMES:
        bot_letters = _letters_and_digits(bot)
        if letters.startswith(bot_letters):
            number = letters[len(bot_letters) :]
            if not number or number.isdigit():
                return True
    return False
