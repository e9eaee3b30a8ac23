"""Seat order and homes: balanced over the event, each table's choice with its costs."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.seating import SeatRecord, seat_round
from ww5.tournament import CONTINENTS


def play_rounds(
    tables_each_round: list[list[list[int]]],
    *,
    first_by_roll: bool = False,
    seed: int = 1,
    homes: tuple[str, ...] = CONTINENTS,
) -> list[SeatRecord]:
    history: list[SeatRecord] = []
    for number, tables in enumerate(tables_each_round):
        seated = seat_round(
            tables, history, seed=seed + number, homes=homes, first_by_roll=first_by_roll
        )
        history += [SeatRecord(s.player, s.seat, s.home) for t in seated for s in t.seats]
    return history


def test_each_player_gets_a_seat_and_a_different_continent() -> None:
    (table,) = seat_round([[1, 2, 3, 4, 5, 6]], [], seed=1, homes=CONTINENTS)
    assert sorted(s.player for s in table.seats) == [1, 2, 3, 4, 5, 6]
    assert [s.seat for s in table.seats] == [0, 1, 2, 3, 4, 5]
    assert sorted(s.home for s in table.seats) == sorted(CONTINENTS)


def test_four_players_meeting_four_times_sit_once_in_every_seat() -> None:
    history = play_rounds([[[1, 2, 3, 4]]] * 4)
    assert Counter((r.player, r.seat) for r in history) == {
        (p, s): 1 for p in (1, 2, 3, 4) for s in range(4)
    }


def test_no_one_gets_a_continent_again_while_one_is_left_unplayed() -> None:
    history = play_rounds([[[1, 2, 3, 4]]] * 6)
    assert Counter((r.player, r.home) for r in history) == {
        (p, h): 1 for p in (1, 2, 3, 4) for h in CONTINENTS
    }


def test_the_first_seat_is_spread_over_an_event_of_changing_tables() -> None:
    rng = random.Random(3)
    history: list[SeatRecord] = []
    for number in range(8):
        players = list(range(12))
        rng.shuffle(players)
        tables = [players[0:4], players[4:8], players[8:12]]
        firsts = Counter(r.player for r in history if r.seat == 0)
        for table in seat_round(tables, history, seed=number, homes=CONTINENTS):
            first = table.seats[0].player
            assert firsts[first] == min(firsts[p] for p in (s.player for s in table.seats))
            history += [SeatRecord(s.player, s.seat, s.home) for s in table.seats]
    firsts = Counter(r.player for r in history if r.seat == 0)
    assert sum(firsts.values()) == 24 and set(firsts.values()) <= {1, 2, 3}
    assert Counter(firsts.values())[2] >= 8
    homes = Counter((r.player, r.home) for r in history)
    assert max(homes.values()) <= 2  # 8 games over 6 continents


def test_the_costs_show_the_history_that_chose_each_seat() -> None:
    history = [SeatRecord(1, 0, "europe"), SeatRecord(1, 0, "asia"), SeatRecord(2, 1, "asia")]
    (table,) = seat_round([[1, 2]], history, seed=1, homes=("europe", "asia"))
    by_player = {s.player: s for s in table.seats}
    assert by_player[1].seat == 1 and by_player[2].seat == 0
    assert table.seat_cost == 0
    assert table.home_cost == sum(s.home_before for s in table.seats) == 1
    assert by_player[1].home_before == 1


def test_with_the_start_roll_only_homes_are_balanced() -> None:
    history = play_rounds([[[1, 2, 3, 4]]] * 6, first_by_roll=True)
    assert Counter((r.player, r.home) for r in history) == {
        (p, h): 1 for p in (1, 2, 3, 4) for h in CONTINENTS
    }
    (table,) = seat_round([[1, 2, 3, 4]], history, seed=9, homes=CONTINENTS, first_by_roll=True)
    assert table.first_by_roll and table.seat_cost is None
    assert all(s.seat_before is None for s in table.seats)


def test_the_same_seed_seats_the_same_way() -> None:
    tables = [[1, 2, 3, 4], [5, 6, 7]]
    assert seat_round(tables, [], seed=5, homes=CONTINENTS) == seat_round(
        tables, [], seed=5, homes=CONTINENTS
    )
    assert len({seat_round(tables, [], seed=s, homes=CONTINENTS) for s in range(10)}) > 1


def test_a_table_needs_two_to_six_different_players() -> None:
    with pytest.raises(ValueError):
        seat_round([[1, 1]], [], seed=1, homes=CONTINENTS)
    with pytest.raises(ValueError):
        seat_round([list(range(7))], [], seed=1, homes=CONTINENTS)


@settings(deadline=None, max_examples=60)
@given(
    st.integers(2, 6),
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(CONTINENTS)),
        max_size=40,
    ),
    st.integers(0, 2**32),
)
def test_no_other_homes_or_seats_repeat_less(
    size: int, records: list[tuple[int, int, str]], seed: int
) -> None:
    history = [SeatRecord(p, s % size, h) for p, s, h in records]
    players = list(range(size))
    (table,) = seat_round([players], history, seed=seed, homes=CONTINENTS)
    homes = Counter((r.player, r.home) for r in history)
    seats = Counter((r.player, r.seat) for r in history)
    assert sorted(s.player for s in table.seats) == players
    assert len({s.home for s in table.seats}) == size
    order = [s.player for s in table.seats]
    least_homes = min(
        sum(homes[p, h] for p, h in zip(order, given, strict=True))
        for given in itertools.permutations(CONTINENTS, size)
    )
    assert table.home_cost == least_homes
    firsts = Counter(r.player for r in history if r.seat == 0)
    assert firsts[order[0]] == min(firsts[p] for p in players)
    assert table.seat_cost == sum(seats[p, s] for s, p in enumerate(order))


def test_the_homes_are_the_kinds_to_hand_in_any_names_will_do() -> None:
    roles = ("red", "blue", "green")
    history = play_rounds([[[1, 2, 3]]] * 3, homes=roles)
    assert Counter((r.player, r.home) for r in history) == {
        (p, h): 1 for p in (1, 2, 3) for h in roles
    }


def test_a_kind_without_roles_gets_a_balanced_seat_order_and_no_homes() -> None:
    history = play_rounds([[[1, 2, 3, 4, 5, 6, 7]]] * 7, homes=())
    assert Counter((r.player, r.seat) for r in history) == {
        (p, s): 1 for p in range(1, 8) for s in range(7)
    }
    assert {r.home for r in history} == {""}
    (table,) = seat_round([[1, 2, 3]], history, seed=3, homes=())
    assert table.home_cost == 0 and all(s.home_before == 0 for s in table.seats)


@settings(deadline=None, max_examples=40)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=20), st.integers(0, 2**32)
)
def test_the_homes_change_nothing_of_a_tables_seat_order(
    records: list[tuple[int, int]], seed: int
) -> None:
    history = [SeatRecord(p, s, "") for p, s in records]
    with_homes = seat_round([[0, 1, 2, 3]], history, seed=seed, homes=CONTINENTS)
    without = seat_round([[0, 1, 2, 3]], history, seed=seed, homes=())
    assert [s.player for s in with_homes[0].seats] == [s.player for s in without[0].seats]
    assert with_homes[0].seat_cost == without[0].seat_cost
