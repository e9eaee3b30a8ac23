"""What the core knows of a round: each game's finishing order, or a bye.

Players are opaque ids (ints). A finishing order is groups of player ids, best first;
players in one group are tied (R24: players eliminated at the same moment; the
survivors behind a winner). The games app's finish path ranks players this way, so its
ranks turn into an order with ``order_from_ranks``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

PlayerId = int
Order = tuple[tuple[PlayerId, ...], ...]


@dataclass(frozen=True)
class GameResult:
    """One finished game of a round: its finishing order, best first."""

    round: int
    order: Order

    def __post_init__(self) -> None:
        players = [p for group in self.order for p in group]
        if any(not group for group in self.order):
            raise ValueError("a finishing order has no empty group")
        if len(set(players)) != len(players):
            raise ValueError("a player finishes a game once")
        if len(players) < 2:
            raise ValueError("a game has at least two players (R3)")

    @classmethod
    def ranked(cls, round: int, players: Iterable[PlayerId]) -> GameResult:
        """A game whose players finished in this order, no one tied."""
        return cls(round, tuple((p,) for p in players))

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(p for group in self.order for p in group)


@dataclass(frozen=True)
class Bye:
    """A round a player sat out by the pairing's choice; it scores as a win."""

    round: int
    player: PlayerId


Result = GameResult | Bye


def order_from_ranks(ranks: Mapping[PlayerId, int]) -> Order:
    """The finishing order from each player's rank (1 best; tied players share a rank)."""
    by_rank: dict[int, list[PlayerId]] = defaultdict(list)
    for player, rank in ranks.items():
        by_rank[rank].append(player)
    return tuple(tuple(sorted(by_rank[rank])) for rank in sorted(by_rank))


Meetings = Mapping[PlayerId, Mapping[PlayerId, int]]


def meetings(history: Iterable[Result]) -> dict[PlayerId, dict[PlayerId, int]]:
    """How many games each pair of players has played at one table, both ways round."""
    met: dict[PlayerId, dict[PlayerId, int]] = defaultdict(dict)
    for result in history:
        if isinstance(result, Bye):
            continue
        players = result.players
        for a in players:
            row = met[a]
            for b in players:
                if a != b:
                    row[b] = row.get(b, 0) + 1
    return dict(met)


def bye_counts(history: Iterable[Result]) -> Counter[PlayerId]:
    """How many byes each player has had."""
    return Counter(r.player for r in history if isinstance(r, Bye))
