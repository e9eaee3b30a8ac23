"""Small Swiss benchmark: the exhaustive pairing over every split of the field.

    .venv/bin/python -m bench.small_swiss [--rounds 8] [--events 5]

Pure Python, no database. A field of up to 20 players is paired by trying every way to
split it into allowed tables (the preferred sizes first). For fields of 12, 16 and 20
players, at tables of 3–4 and of 2–4 (4 preferred), it plays ``--events`` Swiss events
of ``--rounds`` rounds each with the core (finishing orders from a seeded source,
points 5/3/2/1) and prints one line a field and setting: the slowest pairing of a round
and the mean, in seconds, the repeats (earlier meetings seated together) over all
rounds, and how many rounds were seated at other than the preferred sizes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tournaments.core.pairing import SwissSettings, pair_swiss
from tournaments.core.results import Bye, GameResult, Result
from tournaments.core.standings import FIVE_THREE_TWO_ONE, Entrant, compute_standings
from tournaments.core.tables import TableSizes, split_field

SEED = 2026
SETTINGS = {"3-4": TableSizes(4, (3, 4)), "2-4": TableSizes(4, (2, 3, 4))}


def run(players: int, sizes: TableSizes, rounds: int, events: int) -> str:
    seconds: list[float] = []
    repeats = other_sizes = 0
    settings = SwissSettings(sizes)
    for event in range(events):
        rng = random.Random(SEED + event)
        entrants = [Entrant(p) for p in range(players)]
        history: list[Result] = []
        for number in range(1, rounds + 1):
            standings = compute_standings(entrants, history, FIVE_THREE_TWO_ONE, seed=SEED)
            started = time.perf_counter()
            pairing = pair_swiss(
                standings.active(),
                standings.points(),
                history,
                seed=SEED + number,
                settings=settings,
            )
            seconds.append(time.perf_counter() - started)
            repeats += pairing.costs.repeats
            preferred = split_field(players - len(pairing.byes), sizes).tables
            seated = tuple(sorted((len(t.players) for t in pairing.tables), reverse=True))
            other_sizes += seated != preferred
            for table in pairing.tables:
                order = list(table.players)
                rng.shuffle(order)
                history.append(GameResult.ranked(number, order))
            history += [Bye(number, p) for p in pairing.byes]
    return (
        f"{players} players, tables {'/'.join(map(str, sizes.allowed))}: "
        f"slowest pairing {max(seconds):.3f} s, mean {statistics.mean(seconds):.3f} s, "
        f"repeats {repeats}, rounds at other sizes {other_sizes} of {len(seconds)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--events", type=int, default=5)
    args = parser.parse_args()
    for players in (12, 16, 20):
        for sizes in SETTINGS.values():
            print(run(players, sizes, args.rounds, args.events), flush=True)


if __name__ == "__main__":
    main()
