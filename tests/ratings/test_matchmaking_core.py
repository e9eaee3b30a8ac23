"""Forming ladder tables (ratings.core.matchmaking): close in rating, recent opponents
avoided, no one waiting beyond the limit while a table can be formed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.core.matchmaking import Rules, Waiting, form_tables

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
FOURS = Rules((4,), timedelta(hours=24), 200.0)
THREE_OR_FOUR = Rules((4, 3), timedelta(hours=24), 200.0)


def _w(key: int, rating: float, hours: float = 1, recent: set[int] | None = None) -> Waiting:
    return Waiting(key, rating, NOW - timedelta(hours=hours), frozenset(recent or ()))


def test_players_close_in_rating_sit_together() -> None:
    waiting = [_w(k, r) for k, r in enumerate([1000, 1010, 1500, 1020, 1510, 1030, 1520, 1530])]
    tables = form_tables(waiting, FOURS, NOW)
    assert sorted(tables) == [(0, 1, 3, 5), (2, 4, 6, 7)]


def test_players_far_apart_wait_until_one_is_overdue() -> None:
    waiting = [_w(0, 1000), _w(1, 1100), _w(2, 1300), _w(3, 1500)]
    assert form_tables(waiting, FOURS, NOW) == []
    waiting[3] = _w(3, 1500, hours=25)
    assert form_tables(waiting, FOURS, NOW) == [(0, 1, 2, 3)]


def test_an_overdue_player_of_three_or_four_gets_a_table_of_three() -> None:
    waiting = [_w(0, 1000, hours=30), _w(1, 1010), _w(2, 1020)]
    assert form_tables(waiting, THREE_OR_FOUR, NOW) == [(0, 1, 2)]
    assert form_tables(waiting[1:], THREE_OR_FOUR, NOW) == []  # no one overdue: wait for 4


def test_the_same_table_is_not_formed_twice_in_a_row_when_others_wait() -> None:
    last = {0: {1, 2, 3}, 1: {0, 2, 3}, 2: {0, 1, 3}, 3: {0, 1, 2}}
    waiting = [_w(k, 1000 + k, recent=last.get(k)) for k in range(8)]
    tables = form_tables(waiting, FOURS, NOW)
    assert len(tables) == 2
    for table in tables:
        assert len(set(table) & {0, 1, 2, 3}) <= 2  # every table mixes the two groups


def test_the_same_table_again_only_when_no_one_else_waits() -> None:
    last = {0: {1, 2, 3}, 1: {0, 2, 3}, 2: {0, 1, 3}, 3: {0, 1, 2}}
    waiting = [_w(k, 1000 + k, hours=30, recent=last[k]) for k in range(4)]
    assert form_tables(waiting, FOURS, NOW) == [(0, 1, 2, 3)]
    fresh = [_w(k, 1000 + k, recent=last[k]) for k in range(4)]
    assert form_tables(fresh, FOURS, NOW) == []  # not overdue: they wait for others


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(800, 2000), st.integers(0, 60), st.sets(st.integers(0, 40))),
        max_size=40,
    ),
    st.sampled_from([(2,), (3,), (4,), (4, 3)]),
)
def test_each_player_is_seated_once_and_no_overdue_player_is_left_while_a_table_can_form(
    players: list[tuple[int, int, set[int]]], sizes: tuple[int, ...]
) -> None:
    rules = Rules(sizes, timedelta(hours=24), 150.0)
    waiting = [_w(k, r, h, recent) for k, (r, h, recent) in enumerate(players)]
    tables = form_tables(waiting, rules, NOW)
    seated = [k for t in tables for k in t]
    assert len(seated) == len(set(seated))
    assert all(len(t) in sizes for t in tables)
    left = [w for w in waiting if w.key not in set(seated)]
    if any(NOW - w.since >= rules.max_wait for w in left):
        assert len(left) < min(sizes)
