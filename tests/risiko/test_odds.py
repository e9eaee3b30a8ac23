"""Exact combat odds for the web form (K19–K21), as fractions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from risiko.engine import attack_odds, roll_odds


def test_one_die_against_one_ties_to_the_defender() -> None:
    """K20: 15 of 36 rolls are strictly higher."""
    assert roll_odds(1, 1) == {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)}


def test_three_dice_against_two_are_the_known_odds() -> None:
    """K19, K20: the classic 2890 / 2611 / 2275 out of 7776."""
    assert roll_odds(3, 2) == {
        (0, 2): Fraction(2890, 7776),
        (1, 1): Fraction(2611, 7776),
        (2, 0): Fraction(2275, 7776),
    }


@pytest.mark.parametrize("a", [1, 2, 3])
@pytest.mark.parametrize("d", [1, 2, 3])
def test_every_roll_distribution_adds_up_and_loses_min_dice_armies(a: int, d: int) -> None:
    odds = roll_odds(a, d)
    assert sum(odds.values()) == 1
    assert all(lost_a + lost_d == min(a, d) for lost_a, lost_d in odds)


def test_two_armies_against_one_conquer_five_times_in_twelve() -> None:
    """K21: the origin rolls one die until it conquers or is down to 1."""
    odds = attack_odds(2, 1)
    assert odds.outcomes == {(1, 1): Fraction(7, 12), (2, 0): Fraction(5, 12)}
    assert odds.conquered == Fraction(5, 12)


def test_until_n_left_stops_at_n_and_every_distribution_adds_up() -> None:
    """K21: no roll is made while the origin holds N or fewer."""
    odds = attack_odds(10, 6, until=4)
    assert sum(odds.outcomes.values()) == 1
    assert all(t == 0 or o <= 4 for o, t in odds.outcomes)
    # the last roll, from 5 armies, may cost up to 3 of them
    assert all(o >= 2 for o, _ in odds.outcomes)
    assert attack_odds(10, 6, until=1).conquered > odds.conquered


def test_fewer_dice_lower_the_odds() -> None:
    """K19: a cap on the attacker's dice."""
    assert attack_odds(8, 4, dice=1).conquered < attack_odds(8, 4).conquered


def test_bad_numbers_are_refused() -> None:
    with pytest.raises(ValueError):
        roll_odds(4, 1)
    with pytest.raises(ValueError):
        attack_odds(0, 1)
