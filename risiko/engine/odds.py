"""Exact odds of combat (K19–K21), as fractions, for the web form.

:func:`roll_odds` gives the chance of each outcome of one roll; :func:`attack_odds` the
chance of each end of an attack order ``until <k> left`` (``k = 1``: until conquered).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

MAX_DICE = 3


@cache
def roll_odds(attacker_dice: int, defender_dice: int) -> dict[tuple[int, int], Fraction]:
    """{(armies the attacker loses, armies the defender loses): chance} for one roll:
    dice sorted high to low, pairs compared, ties to the defender (K20)."""
    for dice in (attacker_dice, defender_dice):
        if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
            raise ValueError(f"a roll has 1-{MAX_DICE} dice, not {dice!r}")
    counts: dict[tuple[int, int], int] = {}
    for faces in itertools.product(range(1, 7), repeat=attacker_dice + defender_dice):
        attack = sorted(faces[:attacker_dice], reverse=True)
        defend = sorted(faces[attacker_dice:], reverse=True)
        lost = [0, 0]
        for a, d in zip(attack, defend, strict=False):
            lost[0 if a <= d else 1] += 1
        key = (lost[0], lost[1])
        counts[key] = counts.get(key, 0) + 1
    total = 6 ** (attacker_dice + defender_dice)
    return {key: Fraction(n, total) for key, n in sorted(counts.items())}


@dataclass(frozen=True)
class AttackOdds:
    """The ends of an attack order: ``outcomes`` maps (armies left on the origin, armies
    left on the target) to a chance; a target with 0 left was conquered (before the
    move-in)."""

    outcomes: dict[tuple[int, int], Fraction]

    @property
    def conquered(self) -> Fraction:
        return sum((p for (_, t), p in self.outcomes.items() if t == 0), Fraction(0))

    @property
    def held(self) -> Fraction:
        return 1 - self.conquered


def attack_odds(origin: int, target: int, until: int = 1, dice: int = MAX_DICE) -> AttackOdds:
    """The exact chances of an attack ``until <until> left`` (1: until conquered) from an
    origin of ``origin`` armies on a target of ``target``, attacker dice capped at
    ``dice``; the defender rolls min(3, target) (K19)."""
    if origin < 1 or target < 1 or until < 1 or not 1 <= dice <= MAX_DICE:
        raise ValueError("armies are at least 1, until at least 1, dice 1-3")
    return AttackOdds(dict(sorted(_ends(origin, target, until, dice).items())))


@cache
def _ends(origin: int, target: int, until: int, cap: int) -> dict[tuple[int, int], Fraction]:
    if target == 0 or origin <= max(1, until):
        return {(origin, target): Fraction(1)}
    ends: dict[tuple[int, int], Fraction] = {}
    a, d = min(cap, MAX_DICE, origin - 1), min(MAX_DICE, target)
    for (lost_a, lost_d), p in roll_odds(a, d).items():
        for end, q in _ends(origin - lost_a, target - lost_d, until, cap).items():
            ends[end] = ends.get(end, Fraction(0)) + p * q
    return ends
