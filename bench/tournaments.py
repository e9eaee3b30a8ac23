"""Tournament core benchmark: pairing one Swiss round and computing standings.

    .venv/bin/python -m bench.tournaments [--rounds-before 5] [--standings-rounds 8]

Pure Python, no database. For fields of 1,000 and 10,000 players it plays
``--rounds-before`` Swiss rounds with the core itself (each round paired by
``pair_swiss`` from the standings, every table's finishing order drawn from a seeded
source, tables of 4 filled with 3s, points 5/3/2/1), then times the pairing of the next
round. Then it plays the 10,000-player event on to ``--standings-rounds`` rounds and
times ``compute_standings`` over all of them. Prints one figure a line: the field, what
was timed, seconds, and the pairing's repeats.
"""

from __future__ import annotations

import argparse
import random
import time

from tournaments.core.pairing import SwissPairing, pair_swiss
from tournaments.core.results import Bye, GameResult, Result
from tournaments.core.standings import (
    FIVE_THREE_TWO_ONE,
    Entrant,
    Standings,
    compute_standings,
)

SEED = 2026


def play(pairing: SwissPairing, round: int, rng: random.Random) -> list[Result]:
    results: list[Result] = []
    for table in pairing.tables:
        order = list(table.players)
        rng.shuffle(order)
        results.append(GameResult.ranked(round, order))
    return results + [Bye(round, p) for p in pairing.byes]


class Event:
    """A Swiss event played out round by round."""

    def __init__(self, players: int) -> None:
        self.entrants = [Entrant(p) for p in range(players)]
        self.history: list[Result] = []
        self.rng = random.Random(SEED)
        self.rounds = 0
        self.standings = self.compute()

    def compute(self) -> Standings:
        return compute_standings(self.entrants, self.history, FIVE_THREE_TWO_ONE, seed=SEED)

    def pair(self) -> SwissPairing:
        s = self.standings
        return pair_swiss(s.active(), s.points(), self.history, seed=SEED + self.rounds + 1)

    def play_round(self) -> None:
        pairing = self.pair()
        self.rounds += 1
        self.history += play(pairing, self.rounds, self.rng)
        self.standings = self.compute()


def timed_pairing(event: Event) -> tuple[float, SwissPairing]:
    start = time.perf_counter()
    pairing = event.pair()
    return time.perf_counter() - start, pairing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds-before", type=int, default=5)
    parser.add_argument("--standings-rounds", type=int, default=8)
    args = parser.parse_args()
    for players in (1_000, 10_000):
        event = Event(players)
        for _ in range(args.rounds_before):
            event.play_round()
        seconds, pairing = timed_pairing(event)
        print(
            f"pairing round {event.rounds + 1}, {players:,} players: {seconds:.3f} s "
            f"(aim {'1' if players == 1_000 else '10'} s; repeats {pairing.costs.repeats}, "
            f"top-down would repeat {pairing.costs.top_down_repeats}, "
            f"score spread {pairing.costs.score_spread:g})",
            flush=True,
        )
    while event.rounds < args.standings_rounds:
        event.play_round()
    start = time.perf_counter()
    event.compute()
    seconds = time.perf_counter() - start
    print(
        f"standings after {event.rounds} rounds, {len(event.entrants):,} players: "
        f"{seconds:.3f} s (aim 2 s)"
    )


if __name__ == "__main__":
    main()
