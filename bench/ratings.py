"""Ratings benchmark: rating 10,000 games, and one matchmaking run.

    .venv/bin/python -m bench.ratings [--games 10000] [--players 1000] [--waiting 10000]

Pure Python, no database: the ratings core (``ratings/core``) as the site calls it.
First ``--games`` games of 2 to 4 players drawn from ``--players`` players (a seeded
source; finishing orders with ties now and then, a game every hour) are rated one
after another with OpenSkill's Plackett-Luce, idle growth included, as the journal
does; then the same games are replayed and the result checked equal. Then one
matchmaking run forms tables of 3 or 4 from ``--waiting`` waiting players (ratings,
waiting times and recent opponents drawn). Prints one figure a line.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime, timedelta

from ratings.core import journal
from ratings.core.matchmaking import Rules, Waiting, form_tables

SEED = 2026
START = datetime(2026, 1, 1, tzinfo=UTC)


def games(count: int, players: int, rng: random.Random) -> list[journal.GameResult]:
    made = []
    for n in range(count):
        table = rng.sample(range(players), rng.choice((2, 3, 4)))
        # Competition ranks from drawn scores: ties now and then, as R24 draws.
        scores = [rng.randint(0, len(table)) for _ in table]
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        seats = [
            (p, rank, seat) for seat, (p, rank) in enumerate(zip(table, ranks, strict=True), 1)
        ]
        made.append(journal.GameResult(n, START + timedelta(hours=n), tuple(seats)))
    return made


def rate_incrementally(results: list[journal.GameResult]) -> dict[object, journal.PlayerState]:
    states: dict[object, journal.PlayerState] = {}
    for result in results:
        _, changed = journal.rate_game(states, result)
        states.update(changed)
    return states


def waiting(count: int, rng: random.Random, now: datetime) -> list[Waiting]:
    return [
        Waiting(
            key,
            rng.gauss(1000, 150),
            now - timedelta(minutes=rng.randint(0, 36 * 60)),
            frozenset(rng.sample(range(count), 6)) - {key},
        )
        for key in range(count)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--waiting", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(SEED)

    results = games(args.games, args.players, rng)
    start = time.perf_counter()
    states = rate_incrementally(results)
    seconds = time.perf_counter() - start
    print(f"rating {args.games:,} games ({args.players:,} players): {seconds:.3f} s (aim 10 s)")
    start = time.perf_counter()
    _, replayed = journal.replay(results)
    seconds = time.perf_counter() - start
    same = "equal" if replayed == states else "DIFFERENT"
    print(f"replaying those {args.games:,} games: {seconds:.3f} s ({same} to the incremental)")

    now = START + timedelta(days=60)
    queue = waiting(args.waiting, rng, now)
    rules = Rules((4, 3), timedelta(hours=24), 200.0)
    start = time.perf_counter()
    tables = form_tables(queue, rules, now)
    seconds = time.perf_counter() - start
    seated = sum(len(t) for t in tables)
    print(
        f"matchmaking run over {args.waiting:,} waiting players: {seconds:.3f} s (aim 2 s; "
        f"{len(tables):,} tables, {seated:,} seated)"
    )


if __name__ == "__main__":
    main()
