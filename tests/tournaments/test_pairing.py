"""Swiss in pods: tables by standing, no repeat opponents while a repeat-free pairing
exists, byes to the lowest standing never twice, reproducible from the seed."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import events, play, swiss_event
from tournaments.core.pairing import SwissSettings, pair_swiss, recommended_rounds
from tournaments.core.results import Bye, GameResult, Result, bye_counts, meetings
from tournaments.core.standings import FIVE_THREE_TWO_ONE, Entrant, compute_standings
from tournaments.core.tables import TableSizes, split_field

WITH_TWOS = SwissSettings(TableSizes.with_two_player_tables())
FLAT = dict.fromkeys(range(100), 0.0)


def seated(pairing_tables: Sequence[Sequence[int]]) -> list[int]:
    return [p for t in pairing_tables for p in t]


def test_recommended_rounds_grow_with_the_log_of_the_field_by_table_size() -> None:
    assert [recommended_rounds(n) for n in (0, 1, 2, 4, 5, 16, 17, 64, 1000, 10_000)] == [
        0, 0, 2, 2, 3, 3, 4, 4, 6, 8
    ]  # fmt: skip
    assert recommended_rounds(8, TableSizes(2, (2,))) == 4


def test_the_first_round_seats_consecutive_standings_top_down() -> None:
    pairing = pair_swiss(list(range(1, 11)), {}, [], seed=1)
    assert [t.players for t in pairing.tables] == [(1, 2, 3, 4), (5, 6, 7), (8, 9, 10)]
    assert pairing.byes == ()
    assert pairing.costs.repeats == 0
    assert pairing.costs.proven_best


def test_players_do_not_meet_again_when_a_repeat_free_pairing_exists() -> None:
    players = list(range(1, 17))
    history: list[Result] = [GameResult.ranked(1, players[i : i + 4]) for i in (0, 4, 8, 12)]
    pairing = pair_swiss(players, {}, history, seed=1)
    assert pairing.costs.top_down_repeats == 24
    assert pairing.costs.repeats == 0
    met = meetings(history)
    for table in pairing.tables:
        for a, b in itertools.combinations(table.players, 2):
            assert b not in met.get(a, {})


def test_when_every_pairing_repeats_the_fewest_repeats_are_proven() -> None:
    history: list[Result] = [GameResult.ranked(1, [1, 2, 3, 4]), GameResult.ranked(1, [5, 6, 7, 8])]
    pairing = pair_swiss([1, 2, 3, 4, 5, 6, 7, 8], {}, history, seed=1)
    assert pairing.costs.repeats == 4  # any table of 4 holds two of one earlier table
    assert pairing.costs.fewest_repeats_proven


def test_unavoidable_repeats_are_kept_fewest_and_shown() -> None:
    history: list[Result] = [GameResult.ranked(1, [1, 2, 3, 4])]
    pairing = pair_swiss([1, 2, 3, 4], {}, history, seed=1)
    (table,) = pairing.tables
    assert table.repeats == 6 == pairing.costs.repeats
    assert {(r.first, r.second, r.times_met) for r in table.repeated_pairs} == {
        (a, b, 1) for a, b in itertools.combinations([1, 2, 3, 4], 2)
    }
    assert pairing.costs.fewest_repeats_proven


def test_a_pair_that_met_twice_counts_two_repeats() -> None:
    history: list[Result] = [GameResult.ranked(r, [1, 2]) for r in (1, 2)]
    pairing = pair_swiss([1, 2], {}, history, seed=1, settings=WITH_TWOS)
    assert pairing.costs.repeats == 2


def test_a_repeat_is_undone_with_the_next_table_leaving_the_others_alone() -> None:
    players = list(range(1, 13))
    history: list[Result] = [GameResult.ranked(1, [1, 2])]
    points = {p: 12.0 - p for p in players}
    pairing = pair_swiss(players, points, history, seed=1)
    assert pairing.costs.repeats == 0
    tables = [set(t.players) for t in pairing.tables]
    assert tables[0] == {1, 3, 4, 5}  # 2 and 5 change places: the least score spread
    assert tables[2] == {9, 10, 11, 12}
    spreads = [max(points[p] for p in t) - min(points[p] for p in t) for t in tables]
    assert pairing.costs.score_spread == sum(spreads) == 13.0
    assert pairing.costs.proven_best


def test_the_bye_goes_to_the_lowest_standing_player_without_one() -> None:
    history: list[Result] = [Bye(1, 5)]
    pairing = pair_swiss([1, 2, 3, 4, 5], {}, history, seed=1)
    assert pairing.byes == (4,)
    assert sorted(seated([t.players for t in pairing.tables])) == [1, 2, 3, 5]


def test_byes_rotate_through_a_field_of_five_and_never_come_twice() -> None:
    history, pairings, _ = swiss_event([1, 2, 3, 4, 5], rounds=5)
    assert [len(p.byes) for p in pairings] == [1] * 5
    assert sorted(p.byes[0] for p in pairings) == [1, 2, 3, 4, 5]


def test_a_second_bye_goes_to_the_lowest_standing_player_once_everyone_had_one() -> None:
    history: list[Result] = [Bye(r, p) for r, p in enumerate([1, 2, 3, 4, 5], start=1)]
    pairing = pair_swiss([1, 2, 3, 4, 5], {}, history, seed=1)
    assert pairing.byes == (5,)


def test_a_withdrawn_player_is_not_paired_but_stays_in_the_standings() -> None:
    history, _, _ = swiss_event(list(range(1, 9)), rounds=2)
    entrants = [Entrant(p, withdrawn=p == 3) for p in range(1, 9)]
    standings = compute_standings(entrants, history, FIVE_THREE_TWO_ONE, seed=1)
    assert 3 not in standings.active()
    pairing = pair_swiss(standings.active(), standings.points(), history, seed=3)
    assert 3 not in seated([t.players for t in pairing.tables]) + list(pairing.byes)
    assert len(seated([t.players for t in pairing.tables])) + len(pairing.byes) == 7
    line = standings.line(3)
    assert line.withdrawn and line.games == 2


def test_a_late_joiner_starts_on_no_points_and_is_paired_with_the_lowest_scores() -> None:
    """Rounds missed before joining score nothing and are no games (module standings)."""
    rng = random.Random(5)
    history, _, _ = swiss_event(list(range(1, 12)), rounds=2, seed=5)
    entrants = [Entrant(p) for p in range(1, 13)]  # player 12 joins for round 3
    standings = compute_standings(entrants, history, FIVE_THREE_TWO_ONE, seed=5)
    late = standings.line(12)
    assert (late.points, late.games, late.opponents_average) == (0.0, 0, 0.0)
    pairing = pair_swiss(standings.active(), standings.points(), history, seed=7)
    assert standings.active()[-1] == 12  # the only player on 0 points after two rounds
    assert 12 in pairing.tables[-1].players  # the bottom table
    after = history + play(pairing, 3, rng)
    assert compute_standings(entrants, after, FIVE_THREE_TWO_ONE, seed=5).line(12).games == 1


def test_the_same_seed_gives_the_same_pairing() -> None:
    history, _, standings = swiss_event(list(range(40)), rounds=3, seed=2)
    args = (standings.active(), standings.points(), history)
    assert pair_swiss(*args, seed=9) == pair_swiss(*args, seed=9)
    assert pair_swiss(*args, seed=9).costs.seed == 9


def test_two_player_tables_pair_a_two_player_swiss_without_rematches() -> None:
    settings = SwissSettings(TableSizes(2, (2,)))
    history, pairings, _ = swiss_event(list(range(8)), rounds=4, settings=settings)
    assert all(p.costs.repeats == 0 for p in pairings[:4])
    assert all(len(t.players) == 2 for p in pairings for t in p.tables)


def test_a_large_field_is_paired_without_repeats() -> None:
    history, pairings, _ = swiss_event(list(range(600)), rounds=4, seed=3)
    assert [p.costs.repeats for p in pairings] == [0, 0, 0, 0]
    assert sum(p.costs.top_down_repeats for p in pairings) > 0  # there were repeats to undo
    assert not pairings[-1].costs.proven_best  # a large field has no exhaustive search


def partitions(players: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (a brute force)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in mates]
            for tail in partitions(remaining, left):
                yield [(first, *mates), *tail]


@settings(deadline=None, max_examples=60)
@given(events(), st.sampled_from([SwissSettings(), WITH_TWOS]), st.integers(0, 2**32))
def test_every_player_is_seated_once_or_has_a_bye_at_tables_within_bounds(
    event: tuple[list[int], list[Result]], settings: SwissSettings, seed: int
) -> None:
    players, history = event
    pairing = pair_swiss(players, {}, history, seed=seed, settings=settings)
    everyone = seated([t.players for t in pairing.tables]) + list(pairing.byes)
    assert sorted(everyone) == players
    split = split_field(len(players), settings.tables)
    sizes = tuple(sorted((len(t.players) for t in pairing.tables), reverse=True))
    # The preferred sizes, or other allowed sizes that seat fewer repeats.
    assert sizes == split.tables or pairing.costs.repeats < pairing.costs.top_down_repeats
    assert sizes == pairing.costs.table_sizes
    assert len(pairing.byes) == split.byes
    assert all(len(t.players) in settings.tables.allowed for t in pairing.tables) or (
        pairing.costs.short_table
    )


@settings(deadline=None, max_examples=60)
@given(events(), st.integers(0, 2**32))
def test_no_one_gets_a_second_bye_while_someone_eligible_has_none(
    event: tuple[list[int], list[Result]], seed: int
) -> None:
    players, history = event
    pairing = pair_swiss(players, {}, history, seed=seed)
    had = bye_counts(history)
    for p in pairing.byes:
        assert all(had[q] >= had[p] for q in players if q not in pairing.byes)


@settings(deadline=None, max_examples=40)
@given(events(most=10), st.integers(0, 2**32))
def test_no_pairing_of_a_small_field_has_fewer_repeats(
    event: tuple[list[int], list[Result]], seed: int
) -> None:
    players, history = event
    pairing = pair_swiss(players, {}, history, seed=seed)
    seated_players = [p for p in players if p not in pairing.byes]
    sizes = [len(t.players) for t in pairing.tables]
    met = meetings(history)

    def repeats(tables: list[tuple[int, ...]]) -> int:
        return sum(
            met.get(a, {}).get(b, 0) for t in tables for a, b in itertools.combinations(t, 2)
        )

    fewest = min((repeats(p) for p in partitions(seated_players, sizes)), default=0)
    assert pairing.costs.repeats == fewest
    assert pairing.costs.fewest_repeats_proven


def test_a_seventeen_player_event_avoids_repeats_while_it_can() -> None:
    history, pairings, _ = swiss_event(list(range(17)), rounds=4, seed=11)
    assert [p.costs.repeats for p in pairings] == [0, 0, 0, 0]
    assert Counter(len(t.players) for t in pairings[0].tables) == {4: 2, 3: 3}
