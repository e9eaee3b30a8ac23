"""Round robin: a schedule published up front, pairs meeting as evenly as the field
allows, byes spread."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.roundrobin import Schedule, round_robin
from tournaments.core.tables import FOURS_AND_THREES, TableSizes, split_field

TWOS = TableSizes(2, (2,))
THREES = TableSizes(3, (3,))


def every_round_seats_everyone_once(schedule: Schedule, players: list[int]) -> bool:
    return all(
        sorted([p for t in r.tables for p in t] + list(r.byes)) == sorted(players)
        for r in schedule.rounds
    )


@pytest.mark.parametrize("n", [4, 5, 8, 9])
def test_two_player_tables_meet_every_pair_exactly_once(n: int) -> None:
    players = list(range(1, n + 1))
    schedule = round_robin(players, seed=1, sizes=TWOS)
    assert len(schedule.rounds) == (n - 1 if n % 2 == 0 else n)
    assert schedule.fewest_meetings == schedule.most_meetings == 1
    assert every_round_seats_everyone_once(schedule, players)
    assert {byes for _, byes in schedule.byes} == ({0} if n % 2 == 0 else {1})


def test_nine_players_at_tables_of_three_meet_everyone_once_in_four_rounds() -> None:
    players = list(range(1, 10))
    schedule = round_robin(players, seed=1, sizes=THREES)
    assert len(schedule.rounds) == 4
    assert schedule.fewest_meetings == schedule.most_meetings == 1


def test_eight_players_at_tables_of_four_meet_equally_over_seven_rounds() -> None:
    schedule = round_robin(list(range(8)), seed=1, rounds=7)
    assert schedule.fewest_meetings == schedule.most_meetings == 3


def test_six_players_get_the_most_even_schedule_there_is() -> None:
    """Checked against every choice of four rounds of two tables of three."""
    players = list(range(6))
    schedule = round_robin(players, seed=1, rounds=4)
    splits = []
    for mates in itertools.combinations(range(1, 6), 2):
        first = (0, *mates)
        splits.append((first, tuple(p for p in players if p not in first)))

    def evenness(rounds: tuple[tuple[tuple[int, ...], ...], ...]) -> tuple[int, int]:
        met = Counter(pair for r in rounds for t in r for pair in itertools.combinations(t, 2))
        counts = [met[pair] for pair in itertools.combinations(players, 2)]
        return counts.count(0), max(counts) - min(counts)

    best = min(evenness(c) for c in itertools.combinations_with_replacement(splits, 4))
    got = evenness(tuple(r.tables for r in schedule.rounds))
    assert got == best


def test_the_default_number_of_rounds_lets_every_pair_meet() -> None:
    for n in (5, 7, 10, 12):
        schedule = round_robin(list(range(n)), seed=2, attempts=4)
        assert schedule.fewest_meetings >= 1, n


def test_byes_are_spread_over_the_field() -> None:
    schedule = round_robin(list(range(1, 6)), seed=1, rounds=5)
    assert dict(schedule.byes) == dict.fromkeys(range(1, 6), 1)


def test_the_schedule_is_reproducible_from_its_seed() -> None:
    players = list(range(10))
    assert round_robin(players, seed=7, attempts=2) == round_robin(players, seed=7, attempts=2)


def test_a_round_robin_is_for_small_fields() -> None:
    with pytest.raises(ValueError):
        round_robin(list(range(17)), seed=1)


@settings(deadline=None, max_examples=25)
@given(
    st.integers(2, 11),
    st.integers(1, 5),
    st.sampled_from([FOURS_AND_THREES, TWOS, TableSizes.with_two_player_tables()]),
    st.integers(0, 2**32),
)
def test_every_round_seats_each_player_once_with_byes_spread(
    n: int, rounds: int, sizes: TableSizes, seed: int
) -> None:
    players = list(range(n))
    schedule = round_robin(players, seed=seed, rounds=rounds, sizes=sizes, attempts=1)
    assert len(schedule.rounds) == rounds
    assert every_round_seats_everyone_once(schedule, players)
    split = split_field(n, sizes)
    for r in schedule.rounds:
        assert sorted(len(t) for t in r.tables) == sorted(split.tables)
    byes = [count for _, count in schedule.byes]
    assert max(byes) - min(byes) <= 1
    assert sum(m.times for m in schedule.meetings) == rounds * sum(
        s * (s - 1) // 2 for s in split.tables
    )
