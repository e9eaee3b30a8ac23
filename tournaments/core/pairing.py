"""Swiss in pods: one round's tables for the players still in, by their standing.

Players are grouped top-down by standing into tables (largest tables first, so the short
tables sit at the bottom), then moved apart where they would meet again. The order of
preference, compared in this order:

1. repeats: the number of earlier meetings between players seated together (a pair
   that met twice counts 2), so no one meets again while a repeat-free pairing exists;
2. score spread: the sum over tables of the highest points minus the lowest;
3. rank spread: the sum over tables of the distance between the best and the worst
   standing seated there, which keeps tables as close to top-down as the first two
   allow.

Byes go first, to the lowest-standing players among those with the fewest byes: never a
second bye while an eligible player has had none.

Every field starts with a local search (``pods``): it swaps players between nearby
tables until no swap makes the pairing better, which in a large field (many players on
each score) removes repeats almost always without moving anyone far from their
standing; a large field uses it alone. Fields up to ``SwissSettings.exact_limit``
players are then searched exhaustively (``podsearch``), within a budget of steps: first
for the fewest repeats, then for the best pairing with that many.
``SwissCosts.fewest_repeats_proven`` and ``proven_best`` say which searches finished:
in practice the first does whenever some pairing has few repeats, and fails to finish
only late in an event of 14 to 20 players, when repeats are many whatever the tables.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .pods import MICRO, LocalSearch, Problem, top_down, total
from .podsearch import Exhaustive, FewestRepeats
from .results import PlayerId, Result, bye_counts, meetings
from .tables import FOURS_AND_THREES, Split, TableSizes, split_field


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

    ``repeats``, ``score_spread`` and ``rank_spread`` are the tables' sums;
    ``top_down_repeats`` what plain top-down tables would have cost in repeats;
    ``fewest_repeats_proven``: no pairing with these byes and table sizes has fewer
    repeats (the exhaustive search finished, or there are none);
    ``proven_best``: no other pairing with these byes and table sizes is better
    (the exhaustive search finished); ``short_table``: the field was smaller than the
    smallest allowed table and plays one table anyway.
    """

    repeats: int
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
    tables, repeats_proven, proven = _best_tables(problem, split, settings, rng)
    return _pairing(problem, tables, byes, split, (repeats_proven, proven), seed)


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
    """The tables: local search from top-down; then, for a small field, the exhaustive
    searches, first for the fewest repeats, then for the best pairing with that many.
    Returns the tables, whether their repeats are proven fewest and whether the whole
    pairing is proven best."""
    tables = top_down(len(problem.players), split.tables)
    small = len(problem.players) <= settings.exact_limit
    LocalSearch(problem, tables, rng, everywhere=small).run()
    if not small:
        return tables, False, False
    budget = settings.search_budget
    fewest = FewestRepeats(problem, split.tables, tables, budget)
    found, repeats_proven = fewest.run()
    if found is not tables:
        tables = found
        LocalSearch(problem, tables, rng, everywhere=True).run()
    search = Exhaustive(problem, split.tables, tables, budget)
    tables, proven = search.run()
    return tables, repeats_proven, proven and repeats_proven


def _pairing(
    problem: Problem,
    tables: Sequence[Sequence[int]],
    byes: tuple[PlayerId, ...],
    split: Split,
    proven: tuple[bool, bool],
    seed: int,
) -> SwissPairing:
    """The result with its costs, top table first."""
    out = [_table(problem, sorted(t)) for t in sorted(tables, key=min)]
    plain = top_down(len(problem.players), split.tables)
    costs = SwissCosts(
        repeats=sum(t.repeats for t in out),
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
