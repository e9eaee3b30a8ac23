"""Dice benchmark: numbers drawn per second from a game's verifiable stream (ww5-dice/1,
``games.core.fairdice``), against Python's ``random.SystemRandom``; how long the players'
checker takes over a game's record; then what the stream adds to a move on the site.

    .venv/bin/python -m bench.dice [--rolls 200000] [--shuffles 5000]
                                   [--moves 2000] [--rounds 20]

First in pure Python, no database: times ``--rolls`` d6 rolls (``Stream.randint(1, 6)``)
and ``--shuffles`` shuffles of a 42-card deck (``Stream.sample``: Fisher–Yates, 41
numbers in ranges 0..41 down to 0..1), and the same with ``SystemRandom().randint`` (the
operating system's random source); then ``tools/verify_dice.py`` over a record of 40
moves drawing those numbers.

Then the cost per move (skipped with ``--moves 0``): in this process, against the local
PostgreSQL database ``ww5_bench`` (``BENCH_DATABASE_URL``; created if missing, migrated;
only this script's own games, named "dice bench …", are deleted first) with production
settings (as bench.web), it plays ``--moves`` World War 5 moves through
``games.services.submit_move`` with the games' own streams, and as many with the
services' dice set to the system's generator
(``games.services.use_dice(random.SystemRandom())``: no stream, everything else the
same), in ``--rounds`` rounds that alternate the two (stream first in odd rounds, the
system first in even ones). Each side plays its own two-player games, both seats' moves
chosen by the greedy bot (the same choice seed for both sides), a game left for a new one
after 200 moves; 20 moves each way first are not timed. Only the ``submit_move`` calls
are timed. Prints the milliseconds a move of each (the mean and the median of the wall
time, and this process's CPU), their difference as a share of a move's time, and how
many numbers a move draws on average, with what the stream adds to that many numbers at
the rates timed first. Prints one figure a line.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.core import fairdice

if TYPE_CHECKING:
    from games.models import Game

SEED = bytes(range(32))
GAME = "2026"
DECK = [f"card {i}" for i in range(42)]


def stream() -> fairdice.Stream:
    return fairdice.Stream(SEED, GAME, fairdice.players_hash(GAME, [(1, "bench")]), 0)


def timed(draw: Callable[[], Any], times: int) -> float:
    """Seconds for ``times`` calls of ``draw``."""
    start = time.perf_counter()
    for _ in range(times):
        draw()
    return time.perf_counter() - start


def shuffle_with(randint: Callable[[int, int], int]) -> Callable[[], list[str]]:
    """A 42-card Fisher–Yates shuffle drawing from ``randint``, as ``Stream.sample``."""

    def shuffle() -> list[str]:
        deck = list(DECK)
        for i in range(len(deck) - 1, 0, -1):
            j = randint(0, i)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    return shuffle


def record(moves: int, rolls: int) -> dict[str, Any]:
    """A finished game's record: ``moves`` moves of ``rolls`` d6 rolls each."""
    players = fairdice.players_hash(GAME, [(1, "bench")])
    drawn, entries = 0, []
    for number in range(1, moves + 1):
        dice = fairdice.Stream(SEED, GAME, players, drawn)
        values = [dice.randint(1, 6) for _ in range(rolls)]
        entries.append(
            {
                "number": number,
                "player": "red",
                "dice": values,
                "dice_from": dice.first,
                "dice_ranges": [[1, 6]] * rolls,
            }
        )
        drawn = dice.drawn
    return {
        "game": int(GAME),
        "moves": entries,
        "dice": {
            "version": fairdice.VERSION,
            "game": GAME,
            "commitment": fairdice.commitment(GAME, SEED),
            "words": [{"seat": 1, "words": "bench"}],
            "players_hash": players,
            "start": {"from": 1, "ranges": [], "values": []},
            "drawn": drawn,
            "seed": SEED.hex(),
        },
    }


def verifier() -> Any:
    path = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"
    spec = importlib.util.spec_from_file_location("verify_dice", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the cost per move ----------------------------------------------------------------

GAME_MOVES = 200  # a game still going after this many moves is left for a new one
CHOICES_SEED = 17  # the greedy bot's ties: the same for both sides


class Side:
    """One side of the comparison: its dice (``None``: the games' streams), its games of
    two players, the greedy bot's choices, and what its timed moves cost."""

    def __init__(self, label: str, dice: random.Random | None, players: tuple[Any, Any]) -> None:
        self.label, self.dice, self.players = label, dice, players
        self.choices = random.Random(CHOICES_SEED)
        self.game: Game | None = None
        self.games = 0
        self.moves = self.numbers = 0
        self.seconds = self.cpu = 0.0
        self.rounds: list[float] = []  # ms a move in each round
        self.times: list[float] = []  # ms of each timed move

    def new_game(self) -> Game:
        from games import services

        self.games += 1
        alice, bob = self.players
        name = f"dice bench {self.label} {self.games}"
        game = services.create_game(alice, name=name, home="north-america")
        services.join_game(game.pk, bob, home="europe")
        game.refresh_from_db()
        return game

    def play(self, moves: int, timed: bool = True) -> None:
        """``moves`` moves with this side's dice; timed unless a warm-up."""
        from games import services
        from ww5.engine.bots import BOTS

        system = services.use_dice(self.dice) if self.dice is not None else None
        seconds = cpu = 0.0
        times = []
        try:
            for _ in range(moves):
                game = self.game
                if game is None or not game.is_active or game.turn_number >= GAME_MOVES:
                    game = self.game = self.new_game()
                seat = game.to_move
                assert seat is not None and seat.user is not None, game
                user, turn = seat.user, game.turn_number
                action = BOTS["greedy"](services.state_of(game), self.choices)
                wall, process = time.perf_counter(), time.process_time()
                decision = services.submit_move(game.pk, user, action, turn)
                times.append(time.perf_counter() - wall)
                seconds += times[-1]
                cpu += time.process_time() - process
                assert not decision.duplicate and decision.move.action == action
                if timed:
                    self.numbers += len(decision.move.dice)
                game.refresh_from_db()
        finally:
            if system is not None:
                services.use_dice(system)
        if timed:
            self.moves += moves
            self.seconds += seconds
            self.cpu += cpu
            self.rounds.append(seconds * 1000 / moves)
            self.times += [t * 1000 for t in times]

    @property
    def ms(self) -> float:
        return self.seconds * 1000 / self.moves

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def cpu_ms(self) -> float:
        return self.cpu * 1000 / self.moves


def setup_django() -> None:
    """Production settings against the bench database, as bench.web (no cache, no broker:
    a task runs in-process); migrated; this script's earlier games deleted."""
    from bench.deadlines import setup_django as production_django
    from bench.web import DATABASE_URL, create_database, vacuum

    create_database(DATABASE_URL)
    production_django()
    from games.models import Game, Move

    mine = Game.objects.filter(name__startswith="dice bench ")
    Move.objects.filter(game__in=mine).delete()  # the move log protects its seats
    mine.delete()
    vacuum()


def moves_cost(moves: int, rounds: int, per_number: float) -> None:
    """Print what a move costs with the games' streams and with the system's generator;
    ``per_number``: the seconds the stream adds to a number, from the rates above."""
    setup_django()
    from django.contrib.auth.models import User

    alice, _ = User.objects.get_or_create(username="dice-bench-alice")
    bob, _ = User.objects.get_or_create(username="dice-bench-bob")
    stream = Side("stream", None, (alice, bob))
    system = Side("system", random.SystemRandom(), (alice, bob))
    for side in (stream, system):
        side.play(20, timed=False)  # warm-up: imports, caches, the first seed's key
    each = max(1, moves // rounds)
    for r in range(rounds):
        for side in (stream, system) if r % 2 == 0 else (system, stream):
            side.play(each)
    print(
        f"a World War 5 move through services.submit_move, PostgreSQL on localhost, "
        f"{rounds} alternating rounds of {each:,} moves each way "
        f"({stream.games + system.games} games of two greedy players)"
    )
    for side, name in ((stream, "the games' streams"), (system, "SystemRandom (use_dice)")):
        low, high = min(side.rounds), max(side.rounds)
        print(
            f"moves with {name}: {side.moves:,} in {side.seconds:.2f} s = {side.ms:.2f} ms a "
            f"move (rounds {low:.2f}–{high:.2f} ms; median {side.median:.2f} ms), "
            f"CPU {side.cpu_ms:.2f} ms a move"
        )
    mean = (stream.ms - system.ms) / system.ms
    median = (stream.median - system.median) / system.median
    cpu = (stream.cpu_ms - system.cpu_ms) / system.cpu_ms
    print(
        f"the stream's cost: {stream.ms - system.ms:+.3f} ms a move = {mean:+.1%} of a move's "
        f"time (medians {median:+.1%}; CPU {cpu:+.1%})"
    )
    drawn = stream.numbers / stream.moves
    print(
        f"numbers a move draws: {drawn:.2f} on average ({stream.numbers:,} in "
        f"{stream.moves:,} moves; with SystemRandom {system.numbers / system.moves:.2f}); "
        f"at the rates above the stream adds {drawn * per_number * 1e6:.1f} µs a move = "
        f"{drawn * per_number * 1000 / system.ms:.2%} of a move's time"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200_000, help="d6 rolls to time")
    parser.add_argument("--shuffles", type=int, default=5_000, help="42-card shuffles to time")
    parser.add_argument("--moves", type=int, default=2_000, help="moves each way (0: none)")
    parser.add_argument("--rounds", type=int, default=20, help="alternating rounds of moves")
    args = parser.parse_args()
    system = random.SystemRandom()
    numbers = args.shuffles * (len(DECK) - 1)

    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    dice = stream()
    seconds = timed(lambda: dice.randint(1, 6), args.rolls)
    print(f"stream d6: {args.rolls:,} rolls in {seconds:.2f} s = {args.rolls / seconds:,.0f}/s")
    per_number = seconds / args.rolls
    seconds = timed(lambda: system.randint(1, 6), args.rolls)
    print(
        f"SystemRandom d6: {args.rolls:,} rolls in {seconds:.2f} s = {args.rolls / seconds:,.0f}/s"
    )
    per_number -= seconds / args.rolls
    dice = stream()
    seconds = timed(lambda: dice.sample(DECK, len(DECK)), args.shuffles)
    print(
        f"stream 42-card shuffle: {args.shuffles:,} shuffles in {seconds:.2f} s = "
        f"{args.shuffles / seconds:,.0f} shuffles/s, {numbers / seconds:,.0f} numbers/s"
    )
    seconds = timed(shuffle_with(system.randint), args.shuffles)
    print(
        f"SystemRandom 42-card shuffle: {args.shuffles:,} shuffles in {seconds:.2f} s = "
        f"{args.shuffles / seconds:,.0f} shuffles/s, {numbers / seconds:,.0f} numbers/s"
    )
    game = record(moves=40, rolls=50)
    tool = verifier()
    seconds = timed(lambda: tool.verify(game), 5) / 5
    print(
        f"tools/verify_dice.py: a record of {game['dice']['drawn']:,} numbers in 40 moves "
        f"verified in {seconds * 1000:.0f} ms"
    )
    if args.moves:
        moves_cost(args.moves, args.rounds, per_number)


if __name__ == "__main__":
    main()
