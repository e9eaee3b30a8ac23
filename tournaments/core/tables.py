"""Splitting a field into tables: which table sizes, and how many byes.

A World War 5 table seats 2 to 6 players (R3). An event names the sizes it allows and
the one it prefers; the usual setting is tables of 4 filled with 3s.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

MIN_TABLE, MAX_TABLE = 2, 6


@dataclass(frozen=True)
class TableSizes:
    """The table sizes an event allows, and the one it prefers."""

    preferred: int = 4
    allowed: tuple[int, ...] = (3, 4)

    def __post_init__(self) -> None:
        if not self.allowed or any(not MIN_TABLE <= s <= MAX_TABLE for s in self.allowed):
            raise ValueError(f"tables seat {MIN_TABLE} to {MAX_TABLE} players (R3)")
        if self.preferred not in self.allowed:
            raise ValueError("the preferred table size must be allowed")
        object.__setattr__(self, "allowed", tuple(sorted(set(self.allowed))))

    @classmethod
    def with_two_player_tables(cls) -> TableSizes:
        """Tables of 4 filled with 3s, and 2s where they spare a bye."""
        return cls(4, (2, 3, 4))


FOURS_AND_THREES = TableSizes()  # the usual setting


@dataclass(frozen=True)
class Split:
    """Table sizes (largest first) and the number of byes for a field.

    ``short``: the field is smaller than the smallest allowed table, so its players
    (two or more) make one table anyway rather than all sitting out.
    """

    tables: tuple[int, ...]
    byes: int
    short: bool = False


def split_field(players: int, sizes: TableSizes) -> Split:
    """How a field of ``players`` sits: as few byes as possible; then the tables closest
    to the preferred size (least sum of squared differences, so 6 players make 3+3
    rather than 4+2); tables largest first.

    Byes are only for players who cannot be seated at an allowed table (5 players at
    tables of 3–4: one bye). A field smaller than every allowed table but of at least
    two players plays one short table: a round with no game at all helps no one.
    """
    if players < 0:
        raise ValueError("a field has no fewer than 0 players")
    if players < min(sizes.allowed):
        if players >= MIN_TABLE:
            return Split((players,), 0, short=True)
        return Split((), players)
    for byes in range(players + 1):
        tables = _best_tables(players - byes, sizes.preferred, sizes.allowed)
        if tables is not None:
            return Split(tables, byes)
    raise AssertionError("zero players always split")  # pragma: no cover


def _best_tables(players: int, preferred: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """The best way to seat exactly ``players``, or None. A large field is mostly
    preferred tables: only its remainder needs the search."""
    spare = max(0, players // preferred - 2 * MAX_TABLE)
    rest = _best_exact(players - spare * preferred, preferred, allowed)
    if rest is None:
        return None
    return tuple(sorted((preferred,) * spare + rest, reverse=True))


@cache
def _best_exact(players: int, preferred: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """Least squared distance from the preferred size, then fewest tables (a table per
    step of a shortest-path search over the number of players seated)."""
    best: list[tuple[int, int, tuple[int, ...]] | None] = [None] * (players + 1)
    best[0] = (0, 0, ())
    for seated in range(1, players + 1):
        options = []
        for size in allowed:
            before = best[seated - size] if seated >= size else None
            if before is not None:
                cost, count, tables = before
                options.append((cost + (size - preferred) ** 2, count + 1, (*tables, size)))
        best[seated] = min(options) if options else None
    found = best[players]
    return None if found is None else found[2]


def table_splits(players: int, sizes: TableSizes) -> tuple[tuple[int, ...], ...]:
    """Every way to seat exactly ``players`` at allowed tables (each largest first),
    closest to the preferred size first (least sum of squared differences, then fewest
    tables), ``split_field``'s choice the first of its equals. For the small fields a
    pairing searches exhaustively: the ways grow fast with the field."""
    found: list[tuple[int, ...]] = []

    def extend(left: int, largest: int, tables: tuple[int, ...]) -> None:
        if left == 0:
            found.append(tables)
            return
        for size in sorted(sizes.allowed, reverse=True):
            if size <= min(largest, left):
                extend(left - size, size, (*tables, size))

    extend(players, MAX_TABLE, ())
    best = _best_tables(players, sizes.preferred, sizes.allowed)
    return tuple(
        sorted(
            found,
            key=lambda t: (t != best, distance(t, sizes.preferred), len(t), [-s for s in t]),
        )
    )


def distance(tables: tuple[int, ...], preferred: int) -> int:
    """How far tables are from the preferred size: the sum of squared differences."""
    return sum((size - preferred) ** 2 for size in tables)
