"""Swiss in pods: one round's tables for the players still in, by their standing.

Players are grouped top-down by standing into tables (largest tables first, so the short
tables sit at the bottom), then moved apart where they would meet again. The order of
preference, compared in this order:

1. repeats: the number of earlier meetings between players seated together (a pair
   that met twice counts 2), so no one meets again while a repeat-free pairing exists,
   whatever the table sizes it takes;
2. table sizes: the closest to the preferred size (least sum of squared differences,
   then fewest tables), so four tables of 3 replace three of 4 only to avoid a repeat;
3. score spread: the sum over tables of the highest points minus the lowest;
4. rank spread: the sum over tables of the distance between the best and the worst
   standing seated there, which keeps tables as close to top-down as the first ones
   allow.

Byes go first, to the lowest-standing players among those with the fewest byes: never a
second bye while an eligible player has had none.

Every field starts with a local search (``pods``): it swaps players between nearby
tables until no swap makes the pairing better, which in a large field (many players on
each score) removes repeats almost always without moving anyone far from their
standing; a large field uses it alone. Fields up to ``SwissSettings.exact_limit``
players are then searched exhaustively (``podsearch``), within a budget of steps: for
each way to split the field into allowed tables (the preferred first), the fewest
repeats; then, at the sizes that won, the best pairing with that many. A large field
keeps the preferred sizes. ``SwissCosts.fewest_repeats_proven`` and ``proven_best`` say
which searches finished, over every split: in practice the first does whenever some
pairing has few repeats, and fails to finish only late in an event of 14 to 20
players, when repeats are many whatever the tables.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .pods import MICRO, LocalSearch, Problem, top_down, total
from .podsearch import Exhaustive, FewestRepeats
from .results import PlayerId, Result, bye_counts, meetings
from .tables import FOURS_AND_THREES, Split, TableSizes, distance, split_field, table_splits


@dataclass(frozen=True)
class SwissSettings:
    """Table sizes, and how hard the pairing searches."""

    tables: TableSizes = FOURS_AND_THREES
    exact_limit: int = 20
    search_budget: int = 50_000


@dataclass(frozen=True)
class RepeatedPair:
    """Two players seated together who have met before, and how often."""

    first: PlayerId
    second: PlayerId
    times_met: int


@dataclass(frozen=True)
class SwissTable:
    """One table: its players best-standing first, and what it costs."""

    players: tuple[PlayerId, ...]
    repeats: int
    repeated_pairs: tuple[RepeatedPair, ...]
    score_spread: float
    rank_spread: int


@dataclass(frozen=True)
class SwissCosts:
    """The costs that chose the pairing, for the pages to show.

    ``repeats`` (earlier meetings of players seated together: a pair that met twice
    counts 2), ``score_spread`` and ``rank_spread`` are the tables' sums;
    ``repeated_pairs``: how many pairs seated together met before (each once);
    ``table_sizes``: the tables' sizes, largest first; ``size_distance``: their sum of
    squared differences from the preferred size; ``top_down_repeats``: what plain
    top-down tables of the preferred sizes would have cost in repeats;
    ``fewest_repeats_proven``: no pairing with these byes, at any allowed table sizes,
    has fewer repeats (the exhaustive searches finished, or there are none);
    ``proven_best``: no other pairing with these byes, at any allowed table sizes, is
    better (every search finished); ``short_table``: the field was smaller than the
    smallest allowed table and plays one table anyway.
    """

    repeats: int
    repeated_pairs: int
    table_sizes: tuple[int, ...]
    size_distance: int
    score_spread: float
    rank_spread: int
    top_down_repeats: int
    fewest_repeats_proven: bool
    proven_best: bool
    short_table: bool
    seed: int


@dataclass(frozen=True)
class SwissPairing:
    """A Swiss round: tables (top table first), the players given a bye, the costs."""

    tables: tuple[SwissTable, ...]
    byes: tuple[PlayerId, ...]
    costs: SwissCosts


def recommended_rounds(players: int, sizes: TableSizes = FOURS_AND_THREES) -> int:
    """The number of Swiss rounds recommended for a field.

    Each table has one winner, so the players who have won every game shrink by the
    table size each round: after r rounds about n / s**r are left. The smallest r with
    s**r >= n leaves one such player, where s is the preferred table size; one more
    round lets the players one game behind settle the places below. So 2 rounds for up
    to 4 players, 3 for 16, 4 for 64, 6 for 1,000 and 8 for 10,000 (with tables of 4).
    A field of one player or none plays no round.
    """
    if players <= 1:
        return 0
    rounds, reach = 0, 1
    while reach < players:
        rounds, reach = rounds + 1, reach * sizes.preferred
    return rounds + 1


def pair_swiss(
    players: Sequence[PlayerId],
    points: Mapping[PlayerId, float],
    history: Iterable[Result],
    *,
    seed: int,
    settings: SwissSettings = SwissSettings(),
) -> SwissPairing:
    """Pair one Swiss round.

    ``players``: the players to pair (the withdrawn left out), in standing order, best
    first (``Standings.active()``); ``points``: their points now (a player missing from
    it has 0); ``history``: every earlier game and bye of the event. The seed orders the
    local search's choices among equally good swaps; the same arguments and seed give
    the same pairing.
    """
    if len(set(players)) != len(players):
        raise ValueError("each player is paired once")
    history = list(history)
    rng = random.Random(seed)
    split = split_field(len(players), settings.tables)
    byes = choose_byes(players, history, split.byes)
    seated = [p for p in players if p not in set(byes)]
    problem = Problem(seated, points, meetings(history))
    tables, repeats_proven, proven_best = _best_tables(problem, split, settings, rng)
    proven = (repeats_proven, proven_best)
    return _pairing(problem, tables, byes, split, proven, seed, settings.tables.preferred)


def choose_byes(
    players: Sequence[PlayerId], history: Iterable[Result], count: int
) -> tuple[PlayerId, ...]:
    """The ``count`` players who sit out: the lowest standing among those with the fewest
    byes so far (so never a second bye while an eligible player has none)."""
    had = bye_counts(history)
    bottom_up = sorted(
        range(len(players)), key=lambda i: (had[players[i]], -i)
    )  # fewest byes first, then lowest standing
    return tuple(players[i] for i in sorted(bottom_up[:count]))


def _best_tables(
    problem: Problem, split: Split, settings: SwissSettings, rng: random.Random
) -> tuple[list[list[int]], bool, bool]:
    """The tables. A large field: local search from top-down tables of the preferred
    sizes. A small field: for each way to split it (the preferred first), local search
    and the exhaustive search for the fewest repeats; the split with the fewest wins
    (the earlier on a tie), then the exhaustive search for the best pairing at its
    sizes. Returns the tables, whether their repeats are proven fewest at any sizes,
    and whether the whole pairing is proven best."""
    count = len(problem.players)
    if count > settings.exact_limit:
        tables = top_down(count, split.tables)
        LocalSearch(problem, tables, rng).run()
        return tables, False, False
    splits = table_splits(count, settings.tables) if not split.short else (split.tables,)
    tried: list[tuple[int, int, list[list[int]]]] = []  # repeats, proven floor, tables
    for sizes in splits:
        if tried and min(repeats for repeats, _, _ in tried) == 0:
            break  # no split does better than none, and the later are further from preferred
        tables, floor = _fewest_repeats(problem, sizes, settings.search_budget, rng)
        tried.append((total(problem, tables)[0], floor, tables))
    won = min(range(len(tried)), key=lambda i: (tried[i][0], i))
    repeats, _, tables = tried[won]
    repeats_proven = all(floor >= repeats for _, floor, _ in tried)
    # A split preferred to the winner might tie it in repeats unless proven not to.
    no_better_split = all(floor > repeats for _, floor, _ in tried[:won])
    search = Exhaustive(problem, splits[won], tables, settings.search_budget)
    tables, proven = search.run()
    return tables, repeats_proven, proven and repeats_proven and no_better_split


def _fewest_repeats(
    problem: Problem, sizes: Sequence[int], budget: int, rng: random.Random
) -> tuple[list[list[int]], int]:
    """Tables of these sizes with the fewest repeats found, and the fewest proven
    possible at these sizes (equal to theirs when the search finished)."""
    tables = top_down(len(problem.players), sizes)
    LocalSearch(problem, tables, rng, everywhere=True).run()
    fewest = FewestRepeats(problem, sizes, tables, budget)
    found, _ = fewest.run()
    if found is not tables:
        tables = found
        LocalSearch(problem, tables, rng, everywhere=True).run()
    return tables, fewest.floor


def _pairing(
    problem: Problem,
    tables: Sequence[Sequence[int]],
    byes: tuple[PlayerId, ...],
    split: Split,
    proven: tuple[bool, bool],
    seed: int,
    preferred: int,
) -> SwissPairing:
    """The result with its costs, top table first."""
    out = [_table(problem, sorted(t)) for t in sorted(tables, key=min)]
    plain = top_down(len(problem.players), split.tables)
    sizes = tuple(sorted((len(t) for t in tables), reverse=True))
    costs = SwissCosts(
        repeats=sum(t.repeats for t in out),
        repeated_pairs=sum(len(t.repeated_pairs) for t in out),
        table_sizes=sizes,
        size_distance=distance(sizes, preferred),
        score_spread=sum(problem.cost(sorted(t))[1] for t in tables) / MICRO,
        rank_spread=sum(t.rank_spread for t in out),
        top_down_repeats=total(problem, plain)[0],
        fewest_repeats_proven=proven[0],
        proven_best=proven[1],
        short_table=split.short,
        seed=seed,
    )
    return SwissPairing(tuple(out), byes, costs)


def _table(problem: Problem, table: Sequence[int]) -> SwissTable:
    repeats, spread, ranks = problem.cost(table)
    pairs = tuple(
        RepeatedPair(problem.players[a], problem.players[b], problem.met[a][b])
        for a, b in itertools.combinations(table, 2)
        if problem.met[a].get(b)
    )
    players = tuple(problem.players[i] for i in table)
    return SwissTable(players, repeats, pairs, spread / MICRO, ranks)
