"""Combat odds (R16-R17) against the table in ``shared/ww5/board.md``."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from ww5.engine import combat_odds

SIZES = ("small", "medium", "large")
# board.md, "Combat odds": attacker (row) against defender (column).
TABLE = {
    ("small", "small"): Fraction(5, 12),
    ("small", "medium"): Fraction(5, 54),
    ("small", "large"): Fraction(5, 432),
    ("medium", "small"): Fraction(181, 216),
    ("medium", "medium"): Fraction(575, 1296),
    ("medium", "large"): Fraction(197, 1296),
    ("large", "small"): Fraction(1261, 1296),
    ("large", "medium"): Fraction(1009, 1296),
    ("large", "large"): Fraction(3527, 7776),
}
PAIRS = list(itertools.product(SIZES, SIZES))


def brute_force(attacker_pips: int, defender_pips: int) -> Fraction:
    """Roll every die combination; the attacker needs a strictly greater total (R17)."""
    wins = total = 0
    for roll in itertools.product(range(1, 7), repeat=attacker_pips + defender_pips):
        total += 1
        wins += sum(roll[:attacker_pips]) > sum(roll[attacker_pips:])
    return Fraction(wins, total)


@pytest.mark.parametrize(("attacker", "defender"), PAIRS)
def test_combat_odds_match_the_published_table(attacker: str, defender: str) -> None:
    odds = combat_odds(attacker, defender)
    assert isinstance(odds, Fraction)
    assert odds == TABLE[attacker, defender]


@pytest.mark.parametrize(("attacker", "defender"), PAIRS)
def test_combat_odds_accept_sizes_as_pips(attacker: str, defender: str) -> None:
    pips = SIZES.index(attacker) + 1, SIZES.index(defender) + 1
    assert combat_odds(*pips) == TABLE[attacker, defender]
    assert combat_odds(attacker, pips[1]) == TABLE[attacker, defender]


@pytest.mark.parametrize(("attacker", "defender"), PAIRS)
def test_combat_odds_agree_with_enumerating_every_roll(attacker: str, defender: str) -> None:
    pips = SIZES.index(attacker) + 1, SIZES.index(defender) + 1
    assert combat_odds(attacker, defender) == brute_force(*pips)


def test_the_table_is_the_brute_force_enumeration() -> None:
    for (attacker, defender), odds in TABLE.items():
        assert brute_force(SIZES.index(attacker) + 1, SIZES.index(defender) + 1) == odds


def test_a_bigger_attacker_never_has_worse_odds() -> None:
    for defender in SIZES:
        column = [combat_odds(attacker, defender) for attacker in SIZES]
        assert column == sorted(column)
    for attacker in SIZES:
        row = [combat_odds(attacker, defender) for defender in SIZES]
        assert row == sorted(row, reverse=True)


def test_equal_sizes_favour_the_defender_because_ties_go_to_the_defender() -> None:
    assert all(combat_odds(size, size) < Fraction(1, 2) for size in SIZES)


@pytest.mark.parametrize("bad", ["huge", "Small", "s", 0, 4, -1, None, "3"])
def test_combat_odds_refuse_anything_but_a_size(bad: object) -> None:
    with pytest.raises(ValueError, match="small, medium or large"):
        combat_odds(bad, "small")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="small, medium or large"):
        combat_odds("small", bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("good", "bad"), [(1, True), (2, 2.0)])
def test_combat_odds_refuse_a_bool_or_float_even_after_the_equal_pips(
    good: int, bad: object
) -> None:
    combat_odds(good, "small")
    with pytest.raises(ValueError, match="small, medium or large"):
        combat_odds(bad, "small")  # type: ignore[arg-type]
