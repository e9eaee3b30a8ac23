"""Seat effect: win share by seat with Wilson intervals."""

from __future__ import annotations

import pytest

from ratings.core.seats import seat_effect, wilson


def test_wilson_interval_of_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_seat_effect_counts_sole_wins_by_seat_and_table_size() -> None:
    games = [[1, 2, 3], [2, 1, 3], [1, 2, 3], [1, 1, 3], [1, 2]]
    shares = {(s.players, s.seat): s for s in seat_effect(games)}
    assert shares[3, 1].games == 4 and shares[3, 1].wins == 2
    assert shares[3, 2].wins == 1 and shares[3, 3].wins == 0
    assert shares[2, 1].wins == 1 and shares[2, 1].expected == 0.5
    assert shares[3, 1].low < 0.5 < shares[3, 1].high
