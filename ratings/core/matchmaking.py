"""Forming ladder tables from the waiting players.

Each run seats a waiting player at most once (one new table per player per run; a
player with room for more games waits for the next run). Players are matched by their
skill estimate (``rating``: mu on the shown scale), never with a recent opponent when
someone else can take the place, in three passes:

1. Overdue first: every player who has waited ``max_wait`` or longer, longest first, is
   given a table whenever enough players are left to make one: the nearest in rating,
   recent opponents only when no one else is near, the largest allowed size that the
   players left can fill. So no one waits beyond ``max_wait`` while a table can be
   formed.
2. Then, in rating order, a table of the preferred size is formed wherever the nearest
   players (the fewest recent meetings first) make one within ``max_spread``; the
   others wait for a closer table or until they are overdue.
3. Last, players are swapped between tables neighbouring in rating while that lowers
   the number of recent meetings (spreads kept within ``max_spread``), and a table whose
   players all met recently (the same table again) is not formed unless an overdue
   player sits at it.

The search looks at a window of neighbours in rating order (``window`` on each side),
so a run over n players takes O(n log n).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Waiting:
    """A player waiting for a table: ``recent`` holds their recent opponents (the
    players of their last tables)."""

    key: int
    rating: float
    since: datetime
    recent: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Rules:
    sizes: tuple[int, ...]  # allowed table sizes, the preferred first
    max_wait: timedelta
    max_spread: float
    window: int = 12


def form_tables(waiting: Sequence[Waiting], rules: Rules, now: datetime) -> list[tuple[int, ...]]:
    """The tables to start: each a tuple of keys, lowest rating first."""
    if not rules.sizes or min(rules.sizes) < 2:
        raise ValueError("tables seat at least two players")
    if len({w.key for w in waiting}) != len(waiting):
        raise ValueError("a player waits once")
    order = sorted(waiting, key=lambda w: (w.rating, w.key))
    board = _Board(order)
    tables: list[list[int]] = []
    overdue = sorted(
        (i for i, w in enumerate(order) if now - w.since >= rules.max_wait),
        key=lambda i: (order[i].since, order[i].key),
    )
    for late in overdue:
        if not board.present[late]:
            continue
        for size in sorted(rules.sizes, key=lambda s: (s != rules.sizes[0], -s)):
            if board.left >= size:
                table = _best_table(board, late, size, rules.window, forward_only=False)
                if table is not None:
                    board.take(table)
                    tables.append(table)
                    break
    size = rules.sizes[0]
    formed: list[list[int]] = [list(t) for t in tables]
    overdue_players = set(overdue)
    i: int | None = board.first()
    while i is not None:
        table = _best_table(board, i, size, rules.window, forward_only=True)
        if table is not None and _spread(board, table) <= rules.max_spread:
            board.take(table)
            formed.append(table)
        i = board.after(i)
    _improve(board, formed, rules.max_spread)
    return [
        tuple(board.order[j].key for j in sorted(table))
        for table in formed
        if overdue_players.intersection(table) or not _repeat(board, table)
    ]


def _spread(board: _Board, table: list[int]) -> float:
    ratings = [board.order[i].rating for i in table]
    return max(ratings) - min(ratings)


def _meetings(board: _Board, table: list[int]) -> int:
    return sum(_conflicts(board, table[:n], table[n]) for n in range(1, len(table)))


def _repeat(board: _Board, table: list[int]) -> bool:
    """Every two players at the table met recently: the same table again."""
    n = len(table)
    return _meetings(board, table) == n * (n - 1) // 2


def _improve(board: _Board, formed: list[list[int]], max_spread: float) -> None:
    """Swap players between tables neighbouring in rating while that lowers the number
    of recent meetings, each table's spread staying within ``max_spread`` (or within its
    own, if wider)."""
    formed.sort(key=lambda t: min(board.order[i].rating for i in t))
    for _ in range(4):
        better = False
        for a, b in zip(formed, formed[1:], strict=False):
            if _meetings(board, a) + _meetings(board, b) == 0:
                continue
            better |= _best_swap(board, a, b, max_spread)
        if not better:
            return


def _best_swap(board: _Board, a: list[int], b: list[int], max_spread: float) -> bool:
    now = _meetings(board, a) + _meetings(board, b)
    limit_a = max(max_spread, _spread(board, a))
    limit_b = max(max_spread, _spread(board, b))
    for x in range(len(a)):
        for y in range(len(b)):
            a[x], b[y] = b[y], a[x]
            if (
                _meetings(board, a) + _meetings(board, b) < now
                and _spread(board, a) <= limit_a
                and _spread(board, b) <= limit_b
            ):
                return True
            a[x], b[y] = b[y], a[x]
    return False


class _Board:
    """The players in rating order, with the ones already seated taken out."""

    def __init__(self, order: Sequence[Waiting]) -> None:
        self.order = order
        n = len(order)
        self.present = [True] * n
        self.prev = list(range(-1, n - 1))
        self.next = list(range(1, n + 1))
        self.left = n
        self.head: int | None = 0 if n else None

    def first(self) -> int | None:
        return self.head

    def after(self, i: int) -> int | None:
        """The next present player after ``i`` (``i`` may have been taken)."""
        j = i + 1
        while j < len(self.order) and not self.present[j]:
            j = self.next[j]
        return j if j < len(self.order) else None

    def neighbours(self, i: int, count: int, forward_only: bool) -> list[int]:
        found: list[int] = []
        j = self.next[i]
        while j < len(self.order) and len(found) < count:
            found.append(j)
            j = self.next[j]
        if not forward_only:
            j = self.prev[i]
            back = 0
            while j >= 0 and back < count:
                found.append(j)
                back += 1
                j = self.prev[j]
        return found

    def take(self, table: list[int]) -> None:
        for i in table:
            self.present[i] = False
            p, n = self.prev[i], self.next[i]
            if p >= 0:
                self.next[p] = n
            else:
                self.head = n if n < len(self.order) else None
            if n < len(self.order):
                self.prev[n] = p
            self.left -= 1


def _conflicts(board: _Board, table: list[int], j: int) -> int:
    """How many players at the table ``j`` met recently."""
    w = board.order[j]
    return sum(board.order[t].key in w.recent or w.key in board.order[t].recent for t in table)


def _best_table(
    board: _Board, i: int, size: int, window: int, forward_only: bool
) -> list[int] | None:
    """Grow a table around ``i``: each time the neighbour with the fewest recent
    meetings with those seated, then the smallest resulting spread."""
    candidates = board.neighbours(i, window, forward_only)
    if len(candidates) < size - 1:
        return None
    table = [i]
    low = high = board.order[i].rating
    while len(table) < size:
        best = min(
            candidates,
            key=lambda j: (
                _conflicts(board, table, j),
                max(high, board.order[j].rating) - min(low, board.order[j].rating),
                board.order[j].key,
            ),
        )
        candidates.remove(best)
        table.append(best)
        low = min(low, board.order[best].rating)
        high = max(high, board.order[best].rating)
    return table
