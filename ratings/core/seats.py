"""The first-player and seat effect: each seat's share of wins, with Wilson score
intervals (95% by default)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: (low, high); (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class SeatShare:
    """Seat ``seat`` (1 moves first) at tables of ``players``: games, wins (a sole first
    place; a shared one is no win), and the interval of its win share."""

    players: int
    seat: int
    games: int
    wins: int
    share: float
    low: float
    high: float
    expected: float


def seat_effect(games: Iterable[Sequence[int]]) -> list[SeatShare]:
    """``games``: for each finished game, the seats' ranks in play order (the first
    player first). A win is a sole first place. Grouped by the number of players."""
    counts: dict[tuple[int, int], list[int]] = {}
    for ranks in games:
        n = len(ranks)
        winners = [s for s, rank in enumerate(ranks) if rank == 1]
        for seat in range(n):
            games_wins = counts.setdefault((n, seat + 1), [0, 0])
            games_wins[0] += 1
            games_wins[1] += len(winners) == 1 and winners[0] == seat
    shares = []
    for (n, seat), (played, won) in sorted(counts.items()):
        low, high = wilson(won, played)
        shares.append(SeatShare(n, seat, played, won, won / played, low, high, 1 / n))
    return shares
