"""A Swiss that allows tables of 3 and 4 avoids a repeat before it keeps the preferred
size: four repeat-free tables of 3 beat three tables of 4 with repeats. Its costs say
what they count (``repeats``: earlier meetings; ``repeated_pairs``: pairs), and it
claims "proven fewest" only when no table sizes could do better."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import events
from tests.tournaments.test_pairing import partitions
from tournaments.core.pairing import SwissSettings, pair_swiss
from tournaments.core.results import GameResult, Result, meetings
from tournaments.core.tables import TableSizes, split_field, table_splits

THREES_AND_FOURS = SwissSettings(TableSizes(4, (3, 4)))
TRIANGLES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11)]


def _met_across_triangles() -> list[Result]:
    """Twelve players who have met everyone but the two others of their triangle."""
    group = {p: i for i, t in enumerate(TRIANGLES) for p in t}
    return [
        GameResult.ranked(1, [a, b])
        for a, b in itertools.combinations(range(12), 2)
        if group[a] != group[b]
    ]


def test_four_repeat_free_tables_of_three_beat_three_tables_of_four_with_repeats() -> None:
    history = _met_across_triangles()

    pairing = pair_swiss(list(range(12)), {}, history, seed=1, settings=THREES_AND_FOURS)

    assert sorted(t.players for t in pairing.tables) == TRIANGLES
    assert pairing.costs.repeats == pairing.costs.repeated_pairs == 0
    assert pairing.costs.table_sizes == (3, 3, 3, 3)
    assert pairing.costs.fewest_repeats_proven and pairing.costs.proven_best
    # Plain top-down tables of 4 would have seated players who met before.
    assert pairing.costs.top_down_repeats > 0


def test_with_no_repeat_anywhere_the_preferred_size_is_kept() -> None:
    pairing = pair_swiss(list(range(12)), {}, [], seed=1, settings=THREES_AND_FOURS)

    assert pairing.costs.table_sizes == (4, 4, 4) and pairing.costs.size_distance == 0
    assert pairing.costs.proven_best


def test_repeats_count_meetings_and_repeated_pairs_count_pairs() -> None:
    history: list[Result] = [GameResult.ranked(r, [1, 2]) for r in (1, 2)]

    pairing = pair_swiss([1, 2, 3], {}, history, seed=1, settings=THREES_AND_FOURS)

    assert pairing.costs.repeats == 2  # 1 and 2 met twice
    assert pairing.costs.repeated_pairs == 1


def test_the_splits_of_a_field_come_closest_to_the_preferred_size_first() -> None:
    sizes = TableSizes(4, (3, 4))

    assert table_splits(12, sizes) == ((4, 4, 4), (3, 3, 3, 3))
    assert table_splits(10, sizes) == ((4, 3, 3),)
    assert table_splits(12, sizes)[0] == split_field(12, sizes).tables


def _all_seatings(players: list[int], sizes: TableSizes) -> Iterator[list[tuple[int, ...]]]:
    for split in table_splits(len(players), sizes):
        yield from partitions(players, list(split))


@settings(deadline=None, max_examples=40)
@given(events(most=10), st.integers(0, 2**32))
def test_proven_fewest_means_no_table_sizes_seat_fewer_repeats(
    event: tuple[list[int], list[Result]], seed: int
) -> None:
    players, history = event
    pairing = pair_swiss(players, {}, history, seed=seed, settings=THREES_AND_FOURS)
    seated = [p for p in players if p not in pairing.byes]
    met = meetings(history)

    def repeats(tables: list[tuple[int, ...]]) -> int:
        return sum(
            met.get(a, {}).get(b, 0) for t in tables for a, b in itertools.combinations(t, 2)
        )

    if pairing.costs.short_table:  # too few for an allowed table: one table anyway
        seatings: list[list[tuple[int, ...]]] = [[tuple(seated)]]
    else:
        seatings = list(_all_seatings(seated, THREES_AND_FOURS.tables))
    fewest = min((repeats(p) for p in seatings), default=0)
    assert pairing.costs.repeats >= fewest
    if pairing.costs.fewest_repeats_proven:
        assert pairing.costs.repeats == fewest
    assert pairing.costs.repeated_pairs == sum(
        1
        for t in pairing.tables
        for a, b in itertools.combinations(t.players, 2)
        if met.get(a, {}).get(b)
    )
