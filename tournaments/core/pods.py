"""Seating ranked players at tables by cost: the pieces the Swiss pairing searches with.

Players are indices 0..n-1 in standing order. A table's cost is (repeats, score spread,
rank spread), compared in that order (see ``pairing``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

from .results import PlayerId

MICRO = 1_000_000  # points are compared in millionths: exact, whatever the points table

Cost = tuple[int, int, int]  # (repeats, score spread in millionths, rank spread)


class Problem:
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


def add(a: Cost, b: Cost) -> Cost:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def sub(a: Cost, b: Cost) -> Cost:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def top_down(count: int, sizes: Sequence[int]) -> list[list[int]]:
    """Tables of consecutive standings, largest tables first."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    assert start == count
    return tables


def total(problem: Problem, tables: Sequence[Sequence[int]]) -> Cost:
    total: Cost = (0, 0, 0)
    for t in tables:
        total = add(total, problem.cost(t))
    return total


class LocalSearch:
    """Swaps between nearby tables, from the tables with repeats outwards, while a swap
    makes the pairing better. A table looks at its neighbours first and further only
    when none of them helps, so players move no further than they need to."""

    def __init__(
        self,
        problem: Problem,
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
            before = add(cost, other_cost)
            for a, b in itertools.product(range(len(table)), range(len(other))):
                mine = table[:a] + [other[b]] + table[a + 1 :]
                theirs = other[:b] + [table[a]] + other[b + 1 :]
                after = add(self.problem.cost(mine), self.problem.cost(theirs))
                gain = sub(before, after)
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
