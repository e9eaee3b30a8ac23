"""Splitting a field into tables: the fewest byes, tables near the preferred size."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.core.tables import FOURS_AND_THREES, Split, TableSizes, split_field

WITH_TWOS = TableSizes.with_two_player_tables()


@pytest.mark.parametrize(
    ("players", "split"),
    [
        (0, Split((), 0)),
        (1, Split((), 1)),
        (2, Split((2,), 0, short=True)),
        (3, Split((3,), 0)),
        (4, Split((4,), 0)),
        (5, Split((4,), 1)),
        (6, Split((3, 3), 0)),
        (7, Split((4, 3), 0)),
        (9, Split((3, 3, 3), 0)),
        (10, Split((4, 3, 3), 0)),
        (17, Split((4, 4, 3, 3, 3), 0)),
    ],
)
def test_tables_of_four_are_filled_with_threes(players: int, split: Split) -> None:
    assert split_field(players, FOURS_AND_THREES) == split


def test_two_player_tables_spare_the_bye_of_a_field_of_five() -> None:
    assert split_field(5, WITH_TWOS) == Split((3, 2), 0)


def test_two_player_tables_are_used_only_where_they_spare_a_bye() -> None:
    assert split_field(6, WITH_TWOS) == Split((3, 3), 0)
    assert split_field(10, WITH_TWOS) == Split((4, 3, 3), 0)


def test_a_lone_player_has_a_bye_and_two_players_play_a_short_table() -> None:
    assert split_field(1, WITH_TWOS) == Split((), 1)
    assert split_field(3, TableSizes(4, (4,))) == Split((3,), 0, short=True)


def test_only_tables_of_four_leave_the_remainder_out() -> None:
    assert split_field(7, TableSizes(4, (4,))) == Split((4,), 3)


def test_table_sizes_follow_r3() -> None:
    with pytest.raises(ValueError):
        TableSizes(4, (1, 4))
    with pytest.raises(ValueError):
        TableSizes(5, (3, 4))


@given(st.integers(0, 10_000), st.sampled_from([FOURS_AND_THREES, WITH_TWOS]))
def test_every_player_is_seated_or_has_a_bye(players: int, sizes: TableSizes) -> None:
    split = split_field(players, sizes)
    assert sum(split.tables) + split.byes == players
    assert all(s in sizes.allowed for s in split.tables) or split.short
    assert split.byes <= (1 if sizes is FOURS_AND_THREES else 0) or players < 3
    assert list(split.tables) == sorted(split.tables, reverse=True)
