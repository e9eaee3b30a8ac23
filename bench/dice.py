"""Dice benchmark: numbers drawn per second from a game's verifiable stream (ww5-dice/1,
``games.core.fairdice``), against Python's ``random.SystemRandom``; then how long the
players' checker takes over a game's record.

    .venv/bin/python -m bench.dice [--rolls 200000] [--shuffles 5000]

Pure Python, no database. Times ``--rolls`` d6 rolls (``Stream.randint(1, 6)``) and
``--shuffles`` shuffles of a 42-card deck (``Stream.sample``: Fisher–Yates, 41 numbers in
ranges 0..41 down to 0..1), and the same with ``SystemRandom().randint`` (the operating
system's random source); then ``tools/verify_dice.py`` over a record of 40 moves drawing
those numbers. Prints one figure a line.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.core import fairdice

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200_000, help="d6 rolls to time")
    parser.add_argument("--shuffles", type=int, default=5_000, help="42-card shuffles to time")
    args = parser.parse_args()
    system = random.SystemRandom()
    numbers = args.shuffles * (len(DECK) - 1)

    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    dice = stream()
    seconds = timed(lambda: dice.randint(1, 6), args.rolls)
    print(f"stream d6: {args.rolls:,} rolls in {seconds:.2f} s = {args.rolls / seconds:,.0f}/s")
    seconds = timed(lambda: system.randint(1, 6), args.rolls)
    print(
        f"SystemRandom d6: {args.rolls:,} rolls in {seconds:.2f} s = {args.rolls / seconds:,.0f}/s"
    )
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


if __name__ == "__main__":
    main()
