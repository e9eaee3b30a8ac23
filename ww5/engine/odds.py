"""Exact combat odds (R16–R17), by enumerating the dice."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from .board import SIZE_NAMES


@cache
def _totals(dice: int) -> dict[int, int]:
    """How many of the 6**dice equally likely rolls give each total."""
    counts = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    return counts


def _pips(size: int | str) -> int:
    if isinstance(size, str) and size in SIZE_NAMES:
        return SIZE_NAMES.index(size) + 1
    if isinstance(size, int) and not isinstance(size, bool) and 1 <= size <= 3:
        return size
    raise ValueError(f"a size is small, medium or large (or 1-3 pips), not {size!r}")


def combat_odds(attacker_size: int | str, defender_size: int | str) -> Fraction:
    """The exact chance that the attacker's total is strictly greater (ties: defender)."""
    return _odds(_pips(attacker_size), _pips(defender_size))


@cache
def _odds(a: int, d: int) -> Fraction:
    attack, defend = _totals(a), _totals(d)
    wins = sum(aw * dw for at, aw in attack.items() for dt, dw in defend.items() if at > dt)
    return Fraction(wins, 6 ** (a + d))
