"""A board picture's PNG with a palette made for it: the colours the picture paints stay
exact, and its smoothed edges get the rest of the palette. Shared by every game's mail
pictures (World War 5's and RisiKo's); Pillow only, no Django."""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image

RGB = tuple[int, int, int]
PALETTE_SIZE = 256
# An adaptive palette entry this close (squared distance) to a painted colour is left
# out: a colour is at most 3 * 3**2 = 27 away from its cache cell's corner.
CLOSE = 4 * 27


def palette(image: Image.Image, painted: Iterable[RGB]) -> list[RGB]:
    """A palette for ``image``: the painted colours exactly, then the smoothed edges.

    Pillow maps a colour to the palette entry nearest the corner of the 4×4×4 cell the
    colour falls in, so an adaptive entry too close to a painted colour could take that
    colour's pixels: such entries are left out, and the painted colours come first,
    which wins ties.
    """
    exact = sorted(set(painted))[:PALETTE_SIZE]
    adaptive = image.quantize(PALETTE_SIZE, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = adaptive.getpalette() or []
    chosen = list(exact)
    seen = set(exact)
    for i in range(0, len(flat), 3):
        if len(chosen) == PALETTE_SIZE:
            break
        r, g, b = flat[i : i + 3]
        if (r, g, b) in seen:
            continue
        seen.add((r, g, b))
        if all((r - er) ** 2 + (g - eg) ** 2 + (b - eb) ** 2 >= CLOSE for er, eg, eb in exact):
            chosen.append((r, g, b))
    return chosen


def encode(image: Image.Image, painted: Iterable[RGB], compress_level: int) -> bytes:
    """PNG bytes of a true-colour picture, with a palette made for it (``palette``)."""
    holder = Image.new("P", (1, 1))
    holder.putpalette([v for color in palette(image, painted) for v in color])
    out = io.BytesIO()
    image.quantize(palette=holder, dither=Image.Dither.NONE).save(
        out, "PNG", compress_level=compress_level
    )
    return out.getvalue()
