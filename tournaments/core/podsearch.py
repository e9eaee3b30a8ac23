"""The exhaustive searches behind a small field's Swiss tables, within a budget of steps:
first for the fewest repeats, then for the best pairing with that many."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from .pods import Cost, Problem, add, total


class _OutOfBudget(Exception):
    """The search spent its budget of steps."""


class _Proven(Exception):
    """The search found tables with as few repeats as it proved there must be."""


class FewestRepeats:
    """Exhaustive search for the fewest repeats, repeats alone: is there a pairing with
    none, with at most one, two, … up to one fewer than the tables given?

    Each search seats the unseated player with the fewest unmet players left and tries
    only table-mates within the repeats still allowed: where a pairing with few repeats
    exists it comes quickly, and where none does the choices run out early."""

    def __init__(
        self, problem: Problem, sizes: Sequence[int], start: list[list[int]], budget: int
    ) -> None:
        self.problem = problem
        self.sizes = sorted(sizes, reverse=True)
        self.best = start
        self.best_repeats = total(problem, start)[0]
        self.budget = budget
        self.steps = 0
        self.unmet = _unmet_masks(problem)
        # Proven by ``run``: no pairing at these sizes has fewer repeats than this.
        self.floor = 0

    def run(self) -> tuple[list[list[int]], bool]:
        """The tables with the fewest repeats found, and whether they are proven fewest
        (``floor`` then says how many that is; else the fewest proven possible).

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
                    self.floor = allowed  # none with fewer: the searches before failed
                    return chosen, True
                floor = allowed + 1
        except _OutOfBudget:
            pass
        self.floor = floor
        if floor >= self.best_repeats:
            self.floor = self.best_repeats
            return self.best, True
        self.steps = 0
        try:
            self._improve(everyone, self.sizes, [], 0, floor)
        except _OutOfBudget:
            return self.best, self.best_repeats == floor
        except _Proven:
            pass
        self.floor = self.best_repeats
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


def _unmet_masks(problem: Problem) -> list[int]:
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


class Exhaustive:
    """Branch and bound over every way to seat the players at tables of the given sizes.

    The best-standing player still unseated opens a table of each remaining size with
    every choice of table-mates (closest standings first); a branch stops as soon as
    its cost so far plus a lower bound for the rest cannot beat the best pairing found.
    """

    def __init__(
        self,
        problem: Problem,
        sizes: Sequence[int],
        start: list[list[int]],
        budget: int,
    ) -> None:
        self.problem = problem
        self.sizes = sorted(sizes, reverse=True)
        self.best = [list(t) for t in start]
        self.best_cost = total(problem, start)
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
                new_cost = add(cost, self.problem.cost(table))
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
        return add(cost, self._bound(rest, sizes)) < self.best_cost

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
