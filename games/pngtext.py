"""The text of every game's mail pictures (World War 5's and RisiKo's): Pillow's bundled
font, the same file in every install of a Pillow version, and a text as that font can
draw it. The font lacks most letters beyond ASCII, and players' names have them ("Zoë",
"José", "Łucja"): each is drawn as its letter without the accent where the font has
that, so that no name shows a "missing" box. Pillow only, no Django."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
MISSING = "\U0010fffd"  # a character no font has: its glyph is the font's "missing" box
PROBE_PX = 20  # the size at which a character's glyph is looked for
# Latin letters that Unicode does not split into a base letter and an accent.
BASE_LETTERS = {
    "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h",
    "ı": "i", "ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th",
}  # fmt: skip


@lru_cache(maxsize=16)
def font(size_px: int) -> Font:
    """Pillow's bundled font at ``size_px`` pixels."""
    return ImageFont.load_default(size=size_px)


@lru_cache(maxsize=1024)
def has_glyph(char: str) -> bool:
    """Whether the font draws ``char``."""
    face = font(PROBE_PX)
    mask = face.getmask(char)
    missing = face.getmask(MISSING)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


@lru_cache(maxsize=1024)
def printable(text: str) -> str:
    """``text`` as the font can draw it: a letter it lacks as its base letter ("Čita" as
    "Cita", "Perù" as "Peru", "Łucja" as "Lucja"), else as "?"; every space as a plain
    space."""
    out = []
    for char in text:
        if char.isspace():
            out.append(" ")
        elif has_glyph(char):
            out.append(char)
        else:
            base = BASE_LETTERS.get(char) or "".join(
                c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
            )
            out.append(base if base and all(map(has_glyph, base)) else "?")
    return "".join(out)


def printable_name(name: str, fallback: str) -> str:
    """A player's name in a picture's legend: ``printable(name)``, or ``fallback`` (the
    player's colour) when the font draws no letter or digit of it (a name in another
    script: "Дмитрий" would be only question marks)."""
    shown = printable(name)
    return shown if any(c.isalnum() for c in shown) else printable(fallback)
