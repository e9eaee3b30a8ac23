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

Fields up to ``SwissSettings.exact_limit`` players are searched exhaustively (branch
and bound from the best pairing the local search found), within a budget of steps;
``SwissCosts.proven_best`` says whether the search finished. Larger fields use the
local search alone: it swaps players between nearby tables until no swap makes the
pairing better, which in a large field (many players on each score) removes repeats
almost always without moving anyone far from their standing.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .results import PlayerId, Result, bye_counts, meetings
from .tables import FOURS_AND_THREES, Split, TableSizes, split_field

MICRO = 1_000_000  # points are compared in millionths: exact, whatever the points table

Cost = tuple[int, int, int]  # (repeats, score spread in millionths, rank spread)


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
    problem = _Problem(seated, points, meetings(history))
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


class _Problem:
    """The seated players as indices 0..n-1 in standing order, with their points in
    millionths and their earlier meetings."""

    def __init__(
        self,
        players: Sequence[PlayerId],
        points: Mapping[PlayerId, float],
        met: Mapping[PlayerId, Mapping[PlayerId, int]],
    ) -> None:
        self.players = list(players)
        self.points = [round(points.get(p, 0) * MICRO) for p in players]
        index = {p: i for i, p in enumerate(players)}
        self.met: list[dict[int, int]] = []
        for p in players:
            row = met.get(p, {})
            self.met.append({index[q]: n for q, n in row.items() if q in index})

    def cost(self, table: Sequence[int]) -> Cost:
        """A table's repeats, score spread and rank spread."""
        repeats = 0
        for k, a in enumerate(table):
            row = self.met[a]
            if row:
                for b in table[k + 1 :]:
                    repeats += row.get(b, 0)
        pts = [self.points[i] for i in table]
        return repeats, max(pts) - min(pts), max(table) - min(table)


def _add(a: Cost, b: Cost) -> Cost:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _sub(a: Cost, b: Cost) -> Cost:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def _top_down(count: int, sizes: Sequence[int]) -> list[list[int]]:
    """Tables of consecutive standings, largest tables first."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    assert start == count
    return tables


def _best_tables(
    problem: _Problem, split: Split, settings: SwissSettings, rng: random.Random
) -> tuple[list[list[int]], bool, bool]:
    """The tables: local search from top-down; then, for a small field, the exhaustive
    searches, first for the fewest repeats, then for the best pairing with that many.
    Returns the tables, whether their repeats are proven fewest and whether the whole
    pairing is proven best."""
    tables = _top_down(len(problem.players), split.tables)
    small = len(problem.players) <= settings.exact_limit
    _LocalSearch(problem, tables, rng, everywhere=small).run()
    if not small:
        return tables, False, False
    budget = settings.search_budget
    fewest = _FewestRepeats(problem, split.tables, tables, budget)
    found, repeats_proven = fewest.run()
    if found is not tables:
        tables = found
        _LocalSearch(problem, tables, rng, everywhere=True).run()
    search = _Exhaustive(problem, split.tables, tables, budget)
    tables, proven = search.run()
    return tables, repeats_proven, proven and repeats_proven


class _LocalSearch:
    """Swaps between nearby tables, from the tables with repeats outwards, while a swap
    makes the pairing better. A table looks at its neighbours first and further only
    when none of them helps, so players move no further than they need to."""

    def __init__(
        self,
        problem: _Problem,
        tables: list[list[int]],
        rng: random.Random,
        everywhere: bool = False,
    ) -> None:
        self.problem = problem
        self.tables = tables
        self.rng = rng
        self.everywhere = everywhere  # also move players of tables without repeats
        self.costs = [problem.cost(t) for t in tables]

    def run(self) -> None:
        improved = True
        while improved:
            improved = False
            sources = [i for i, c in enumerate(self.costs) if self.everywhere or c[0] > 0]
            self.rng.shuffle(sources)
            for i in sources:
                if (self.everywhere or self.costs[i][0] > 0) and self._repair(i):
                    improved = True

    def _repair(self, i: int) -> bool:
        """Make the best improving swap of table i's players with a table within a
        growing distance; whether one was made."""
        count = len(self.tables)
        reach = 1
        while reach < 2 * count:
            others = [j for j in range(i - reach, i + reach + 1) if 0 <= j < count and j != i]
            best = self._best_swap(i, others)
            if best is not None:
                self._swap(i, *best)
                return True
            reach *= 2
        return False

    def _best_swap(self, i: int, others: Sequence[int]) -> tuple[int, int, int] | None:
        """The improving swap (a seat of i, table j, a seat of j) that gains most; ties
        by the seeded draw."""
        best: list[tuple[int, int, int]] = []
        best_gain: Cost = (0, 0, 0)
        table, cost = self.tables[i], self.costs[i]
        for j in others:
            other, other_cost = self.tables[j], self.costs[j]
            before = _add(cost, other_cost)
            for a, b in itertools.product(range(len(table)), range(len(other))):
                mine = table[:a] + [other[b]] + table[a + 1 :]
                theirs = other[:b] + [table[a]] + other[b + 1 :]
                after = _add(self.problem.cost(mine), self.problem.cost(theirs))
                gain = _sub(before, after)
                if gain > best_gain:
                    best, best_gain = [(a, j, b)], gain
                elif gain == best_gain and best:
                    best.append((a, j, b))
        return self.rng.choice(best) if best else None

    def _swap(self, i: int, a: int, j: int, b: int) -> None:
        mine, theirs = self.tables[i], self.tables[j]
        mine[a], theirs[b] = theirs[b], mine[a]
        mine.sort()
        theirs.sort()
        self.costs[i] = self.problem.cost(mine)
        self.costs[j] = self.problem.cost(theirs)


class _OutOfBudget(Exception):
    """The search spent its budget of steps."""


class _Proven(Exception):
    """The search found tables with as few repeats as it proved there must be."""


class _FewestRepeats:
    """Exhaustive search for the fewest repeats, repeats alone: is there a pairing with
    none, with at most one, two, … up to one fewer than the tables given?

    Each search seats the unseated player with the fewest unmet players left and tries
    only table-mates within the repeats still allowed: where a pairing with few repeats
    exists it comes quickly, and where none does the choices run out early."""

    def __init__(
        self, problem: _Problem, sizes: Sequence[int], start: list[list[int]], budget: int
    ) -> None:
        self.problem = problem
        self.sizes = sorted(sizes, reverse=True)
        self.best = start
        self.best_repeats = _total(problem, start)[0]
        self.budget = budget
        self.steps = 0
        self.unmet = _unmet_masks(problem)

    def run(self) -> tuple[list[list[int]], bool]:
        """The tables with the fewest repeats found, and whether they are proven fewest.

        The searches with a growing allowance prove that no pairing has fewer repeats
        than the first allowance they fail to finish; if the budget ends there, a branch
        and bound from the best tables known goes on with a budget of its own, down to
        that proven floor."""
        everyone = (1 << len(self.problem.players)) - 1
        floor = 0
        try:
            for allowed in range(self.best_repeats):
                chosen: list[list[int]] = []
                if self._search(everyone, self.sizes, chosen, allowed):
                    return chosen, True  # none with fewer: the searches before failed
                floor = allowed + 1
        except _OutOfBudget:
            pass
        if floor >= self.best_repeats:
            return self.best, True
        self.steps = 0
        try:
            self._improve(everyone, self.sizes, [], 0, floor)
        except _OutOfBudget:
            return self.best, self.best_repeats == floor
        except _Proven:
            pass
        return self.best, True

    def _improve(
        self, rest: int, sizes: list[int], chosen: list[list[int]], repeats: int, floor: int
    ) -> None:
        """Branch and bound: keep any pairing with fewer repeats than the best known."""
        if not rest:
            self.best, self.best_repeats = [list(t) for t in chosen], repeats
            if repeats == floor:
                raise _Proven
            return
        members = _members(rest)
        pivot = min(members, key=lambda i: ((self.unmet[i] & rest).bit_count(), i))
        for size in sorted(set(sizes), reverse=True):
            left = list(sizes)
            left.remove(size)
            tables = self._tables(pivot, members, size, self.best_repeats - repeats - 1)
            for table, added in tables:
                remaining = rest & ~sum(1 << i for i in table)
                total = repeats + added
                if total + _repeats_bound(self.unmet, remaining, left) >= self.best_repeats:
                    continue
                chosen.append(table)
                self._improve(remaining, left, chosen, total, floor)
                chosen.pop()

    def _search(self, rest: int, sizes: list[int], chosen: list[list[int]], allowed: int) -> bool:
        """Seat ``rest`` with at most ``allowed`` repeats, appending to ``chosen``."""
        if not rest:
            return True
        if _repeats_bound(self.unmet, rest, sizes) > allowed:
            return False
        members = _members(rest)
        pivot = min(members, key=lambda i: ((self.unmet[i] & rest).bit_count(), i))
        for size in sorted(set(sizes), reverse=True):
            left = list(sizes)
            left.remove(size)
            for table, repeats in self._tables(pivot, members, size, allowed):
                chosen.append(table)
                remaining = rest & ~sum(1 << i for i in table)
                if self._search(remaining, left, chosen, allowed - repeats):
                    return True
                chosen.pop()
        return False

    def _tables(
        self, pivot: int, members: list[int], size: int, allowed: int
    ) -> Iterator[tuple[list[int], int]]:
        """The tables of ``size`` around ``pivot`` with at most ``allowed`` repeats,
        those whose players met the pivot least first."""
        met = self.problem.met
        others = sorted((i for i in members if i != pivot), key=lambda i: (met[pivot].get(i, 0), i))

        def extend(table: list[int], start: int, repeats: int) -> Iterator[tuple[list[int], int]]:
            if len(table) == size:
                yield sorted(table), repeats
                return
            for k in range(start, len(others)):
                self.steps += 1
                if self.steps > self.budget:
                    raise _OutOfBudget
                row = met[others[k]]
                added = repeats + sum(row.get(t, 0) for t in table)
                if added <= allowed:
                    yield from extend([*table, others[k]], k + 1, added)

        yield from extend([pivot], 0, 0)


def _unmet_masks(problem: _Problem) -> list[int]:
    """For each player, the bit mask of the players they have not met."""
    n = len(problem.players)
    return [sum(1 << j for j in range(n) if j != i and not problem.met[i].get(j)) for i in range(n)]


def _members(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _repeats_bound(unmet: Sequence[int], rest: int, sizes: Sequence[int]) -> int:
    """A player with fewer unmet players left than table-mates to find must sit with
    someone met before: half the shortfall (a pair counts from both ends) at least."""
    if not rest:
        return 0
    need = min(sizes) - 1
    short = sum(max(0, need - (unmet[i] & rest).bit_count()) for i in _members(rest))
    return (short + 1) // 2


class _Exhaustive:
    """Branch and bound over every way to seat the players at tables of the given sizes.

    The best-standing player still unseated opens a table of each remaining size with
    every choice of table-mates (closest standings first); a branch stops as soon as
    its cost so far plus a lower bound for the rest cannot beat the best pairing found.
    """

    def __init__(
        self,
        problem: _Problem,
        sizes: Sequence[int],
        start: list[list[int]],
        budget: int,
    ) -> None:
        self.problem = problem
        self.sizes = sorted(sizes, reverse=True)
        self.best = [list(t) for t in start]
        self.best_cost = _total(problem, start)
        self.budget = budget
        self.steps = 0
        self.unmet = _unmet_masks(problem)

    def run(self) -> tuple[list[list[int]], bool]:
        everyone = list(range(len(self.problem.players)))
        if self._bound(everyone, self.sizes) >= self.best_cost:
            return self.best, True  # the local search's pairing is already the least
        finished = self._search(everyone, self.sizes, [], (0, 0, 0))
        return self.best, finished

    def _search(
        self, rest: list[int], sizes: list[int], chosen: list[list[int]], cost: Cost
    ) -> bool:
        """Search below this node; False once the budget is spent."""
        if not rest:
            if cost < self.best_cost:
                self.best, self.best_cost = [list(t) for t in chosen], cost
            return True
        first, others = rest[0], rest[1:]
        for size in sorted(set(sizes), reverse=True):
            left = list(sizes)
            left.remove(size)
            for mates in itertools.combinations(others, size - 1):
                self.steps += 1
                if self.steps > self.budget:
                    return False
                table = [first, *mates]
                new_cost = _add(cost, self.problem.cost(table))
                if new_cost >= self.best_cost:
                    continue
                remaining = [i for i in others if i not in mates]
                if not self._promising(new_cost, remaining, left):
                    continue
                chosen.append(table)
                finished = self._search(remaining, left, chosen, new_cost)
                chosen.pop()
                if not finished:
                    return False
        return True

    def _promising(self, cost: Cost, rest: list[int], sizes: list[int]) -> bool:
        """Whether seating ``rest`` at tables of ``sizes`` after ``cost`` could beat the
        best pairing found: the cheap bound on repeats first, the spreads' only when
        the repeats could tie."""
        if not rest:
            return True
        repeats = cost[0] + _repeats_bound(self.unmet, sum(1 << i for i in rest), sizes)
        if repeats != self.best_cost[0]:
            return repeats < self.best_cost[0]
        return _add(cost, self._bound(rest, sizes)) < self.best_cost

    def _bound(self, rest: list[int], sizes: list[int]) -> Cost:
        """A lower bound on the cost of seating ``rest`` at tables of ``sizes``.

        Repeats: see ``_repeats_bound``. Score and rank spread: their least values with
        repeats left aside, which tables of consecutive standings reach (with points
        sorted, overlapping tables can always be uncrossed without widening them)."""
        repeats = _repeats_bound(self.unmet, sum(1 << i for i in rest), sizes)
        pts = sorted((self.problem.points[i] for i in rest), reverse=True)
        return repeats, _least_spread(pts, sizes), len(rest) - len(sizes)


def _least_spread(points: Sequence[int], sizes: Sequence[int]) -> int:
    """The least sum of table ranges for these points (sorted, highest first) at tables
    of these sizes: consecutive blocks, trying every order of the sizes."""
    distinct = sorted(set(sizes))
    counts = tuple(sizes.count(s) for s in distinct)
    memo: dict[tuple[int, ...], int] = {}

    def least(left: tuple[int, ...], start: int) -> int:
        if start == len(points):
            return 0
        if left not in memo:
            options = []
            for k, size in enumerate(distinct):
                if left[k]:
                    rest = left[:k] + (left[k] - 1,) + left[k + 1 :]
                    span = points[start] - points[start + size - 1]
                    options.append(span + least(rest, start + size))
            memo[left] = min(options)
        return memo[left]

    return least(counts, 0)


def _total(problem: _Problem, tables: Sequence[Sequence[int]]) -> Cost:
    total: Cost = (0, 0, 0)
    for t in tables:
        total = _add(total, problem.cost(t))
    return total


def _pairing(
    problem: _Problem,
    tables: Sequence[Sequence[int]],
    byes: tuple[PlayerId, ...],
    split: Split,
    proven: tuple[bool, bool],
    seed: int,
) -> SwissPairing:
    """The result with its costs, top table first."""
    out = [_table(problem, sorted(t)) for t in sorted(tables, key=min)]
    top_down = _top_down(len(problem.players), split.tables)
    costs = SwissCosts(
        repeats=sum(t.repeats for t in out),
        score_spread=sum(problem.cost(sorted(t))[1] for t in tables) / MICRO,
        rank_spread=sum(t.rank_spread for t in out),
        top_down_repeats=_total(problem, top_down)[0],
        fewest_repeats_proven=proven[0],
        proven_best=proven[1],
        short_table=split.short,
        seed=seed,
    )
    return SwissPairing(tuple(out), byes, costs)


def _table(problem: _Problem, table: Sequence[int]) -> SwissTable:
    repeats, spread, ranks = problem.cost(table)
    pairs = tuple(
        RepeatedPair(problem.players[a], problem.players[b], problem.met[a][b])
        for a, b in itertools.combinations(table, 2)
        if problem.met[a].get(b)
    )
    players = tuple(problem.players[i] for i in table)
    return SwissTable(players, repeats, pairs, spread / MICRO, ranks)
