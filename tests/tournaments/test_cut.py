"""Top cut and elimination in pods: seeds spread over the tables, the best of each
table advancing to one final table, ties at the cut line settled by the standings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.cut import advancing, elimination_plan, elimination_round, top_cut
from tournaments.core.results import GameResult, Order, Result
from tournaments.core.standings import WIN_ONLY, Entrant, Standings, compute_standings
from tournaments.core.tables import TableSizes

THREES = TableSizes(3, (3,))


def seeds_of(players: range) -> list[int]:
    return list(players)


def test_a_top_twelve_at_tables_of_three_is_seeded_one_five_nine() -> None:
    round = elimination_round(seeds_of(range(1, 13)), THREES)
    assert [pod.seeds for pod in round.tables] == [(1, 5, 9), (2, 6, 10), (3, 7, 11), (4, 8, 12)]
    assert not round.final and round.byes == ()


def test_a_top_sixteen_at_tables_of_four_is_seeded_one_five_nine_thirteen() -> None:
    round = elimination_round(seeds_of(range(1, 17)))
    assert round.tables[0].seeds == (1, 5, 9, 13)
    assert round.tables[3].seeds == (4, 8, 12, 16)


def test_the_smaller_tables_go_to_the_top_seeds() -> None:
    round = elimination_round(seeds_of(range(1, 11)))
    assert [pod.seeds for pod in round.tables] == [(1, 4, 7), (2, 5, 8), (3, 6, 9, 10)]


def test_the_pod_winners_meet_at_the_final_table() -> None:
    first = elimination_round(seeds_of(range(1, 17)))
    orders: list[Order] = [tuple((p,) for p in reversed(pod.players)) for pod in first.tables]
    winners = advancing(first, orders)
    assert winners == (13, 14, 15, 16)  # each table's lowest seed won; best seed first
    final = elimination_round(winners)
    assert final.final and final.tables[0].players == (13, 14, 15, 16)
    champion = advancing(final, [((15,), (13, 14), (16,))])
    assert champion == (15,)


def test_a_tie_at_the_advancing_line_goes_to_the_better_seed() -> None:
    round = elimination_round(seeds_of(range(1, 9)))
    assert [pod.seeds for pod in round.tables] == [(1, 3, 5, 7), (2, 4, 6, 8)]
    orders: list[Order] = [((5, 7), (1,), (3,)), ((8,), (2,), (4,), (6,))]
    assert advancing(round, orders) == (5, 8)


def test_byes_go_to_the_top_seeds_when_the_field_cannot_be_split() -> None:
    round = elimination_round(seeds_of(range(1, 6)), TableSizes(4, (4,)))
    assert round.byes == (1,)
    assert round.tables[0].players == (2, 3, 4, 5)
    assert advancing(round, [((3,), (2,), (4,), (5,))]) == (1, 3)


def test_two_advance_from_each_table_until_the_final() -> None:
    assert elimination_plan(64) == (64, 16, 4)
    assert elimination_plan(32, advance=2) == (32, 16, 8, 4)
    assert elimination_plan(5, TableSizes(4, (4,))) == (5, 2)
    round = elimination_round(seeds_of(range(1, 9)))
    orders: list[Order] = [tuple((p,) for p in pod.players) for pod in round.tables]
    assert advancing(round, orders, advance=2) == (1, 2, 3, 4)


def test_as_many_advance_as_sit_at_a_table_is_refused() -> None:
    with pytest.raises(ValueError):
        elimination_plan(12, advance=3)


def cut_standings(seed: int = 1, withdrawn: frozenset[int] = frozenset()) -> Standings:
    """1 and 2 clear; 3, 4 and 5 one win each; 5 also lost a game, so out-finished a
    smaller share; 3 and 4 beat one winless player each, so only the draw parts them."""
    history: list[Result] = [
        GameResult.ranked(1, [1, 5]),
        GameResult.ranked(1, [2, 13]),
        GameResult.ranked(1, [3, 8]),
        GameResult.ranked(1, [4, 9]),
        GameResult.ranked(2, [5, 10]),
        GameResult.ranked(2, [1, 11]),
        GameResult.ranked(2, [2, 14]),
        GameResult.ranked(3, [1, 12]),
        GameResult.ranked(3, [2, 15]),
    ]
    entrants = [Entrant(p, withdrawn=p in withdrawn) for p in range(1, 16)]
    return compute_standings(entrants, history, WIN_ONLY, seed=seed)


def test_a_tie_on_points_at_the_cut_line_is_broken_by_the_tie_breaks() -> None:
    standings = cut_standings()
    three, four, five = (standings.line(p) for p in (3, 4, 5))
    assert three.points == four.points == five.points == 5
    assert three.outfinished_share == four.outfinished_share == 1 > five.outfinished_share
    cut = top_cut(standings, 4)
    assert cut.cut_line is not None
    assert cut.cut_line.first_out.player == 5
    assert cut.cut_line.decided_by == "outfinished"
    assert set(cut.seeded) == {1, 2, 3, 4}


def test_a_tie_on_every_tie_break_at_the_cut_line_is_broken_by_the_seeded_draw() -> None:
    made = {}
    for seed in range(12):
        cut = top_cut(cut_standings(seed), 3)
        assert cut.cut_line is not None and cut.cut_line.decided_by == "draw"
        made[seed] = cut.seeded[-1]
        assert cut == top_cut(cut_standings(seed), 3)
    assert set(made.values()) == {3, 4}


def test_withdrawn_players_are_passed_over_for_the_cut() -> None:
    cut = top_cut(cut_standings(withdrawn=frozenset({1})), 4)
    assert cut.seeded == (2, *cut.seeded[1:3], 5) and set(cut.seeded[1:3]) == {3, 4}
    assert cut.first_round.final  # four fit at one table


@settings(deadline=None, max_examples=60)
@given(
    st.integers(2, 80),
    st.sampled_from([TableSizes(), THREES, TableSizes(4, (4,)), TableSizes(4, (2, 3, 4))]),
    st.integers(1, 2),
    st.randoms(use_true_random=False),
)
def test_an_elimination_follows_its_published_plan_to_one_champion(
    players: int, sizes: TableSizes, advance: int, rng: random.Random
) -> None:
    if advance >= min(sizes.allowed):
        return
    plan = elimination_plan(players, sizes, advance)
    left = list(range(1, players + 1))
    played = []
    while len(left) > 1:
        played.append(len(left))
        round = elimination_round(left, sizes)
        seated = [p for pod in round.tables for p in pod.players]
        assert sorted(seated + list(round.byes)) == sorted(left)
        assert round.final or all(len(pod.players) in sizes.allowed for pod in round.tables)
        orders: list[Order] = []
        for pod in round.tables:
            order = list(pod.players)
            rng.shuffle(order)
            orders.append(tuple((p,) for p in order))
        left = list(advancing(round, orders, advance))
    assert tuple(played) == plan
