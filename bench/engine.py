"""Engine benchmark: actions per second in random play, and greedy against random.

    python -m bench.engine [--games N] [--duels N] [--seed S]

Prints the figures recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from ww5.engine import BOARDS, apply_action, legal_actions, new_game
from ww5.engine.bots import BOTS
from ww5.engine.state import OVER

HOMES = ["north-america", "europe", "asia", "africa", "south-america", "australia"]
PLY_LIMIT = 3000


def random_play(games: int, seed: int) -> tuple[int, float, int]:
    """Play random games; return (actions, seconds spent in the engine, unfinished)."""
    rng = random.Random(seed)
    actions = 0
    unfinished = 0
    elapsed = 0.0
    boards = sorted(BOARDS)
    for g in range(games):
        players = 2 + g % 3
        state, _ = new_game(
            [(HOMES[i], HOMES[i]) for i in range(players)],
            {"board": boards[g % len(boards)], "setup": ("strict", "casual")[g % 2]},
            rng,
        )
        start = time.perf_counter()
        plies = 0
        while state.phase != OVER and plies < PLY_LIMIT:
            options = legal_actions(state)
            state, _ = apply_action(state, options[int(rng.random() * len(options))], rng=rng)
            plies += 1
        elapsed += time.perf_counter() - start
        actions += plies
        unfinished += state.phase != OVER
    return actions, elapsed, unfinished


def duel(*bots: str, seed: int) -> tuple[str | None, int]:
    """One game between ``bots`` in seat order; returns (winner's bot or None, plies)."""
    rng = random.Random(seed)
    names = dict(zip(HOMES, bots, strict=False))
    state, _ = new_game([(home, home) for home in HOMES[: len(bots)]], {}, rng)
    plies = 0
    while state.phase != OVER and plies < PLY_LIMIT:
        bot = BOTS[names[state.players[state.to_move or 0].name]]
        state, _ = apply_action(state, bot(state, rng), rng=rng)
        plies += 1
    winner = state.name_of(state.winner)
    return (names[winner] if winner else None), plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="random games to time")
    parser.add_argument("--duels", type=int, default=400, help="greedy-vs-random games")
    parser.add_argument("--selfplay", type=int, default=150, help="greedy-vs-greedy games")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    actions, seconds, unfinished = random_play(args.games, args.seed)
    print(
        f"random play: {args.games} games (2-4 players, all boards, both setups), "
        f"{actions} actions in {seconds:.2f} s = {actions / seconds:,.0f} actions/s "
        f"(legal_actions + apply_action); mean {actions / args.games:.1f} actions a game; "
        f"{unfinished} games not over after {PLY_LIMIT} actions"
    )

    wins = {"greedy": 0, "random": 0, None: 0}
    total_plies = 0
    start = time.perf_counter()
    for i in range(args.duels):
        seats = ("greedy", "random") if i % 2 == 0 else ("random", "greedy")
        winner, plies = duel(*seats, seed=args.seed * 100_003 + i)
        wins[winner] += 1
        total_plies += plies
    seconds = time.perf_counter() - start
    print(
        f"greedy vs random, 2 players, seats alternating: greedy won {wins['greedy']}/"
        f"{args.duels} = {wins['greedy'] / args.duels:.1%}, random won {wins['random']}, "
        f"unfinished or drawn {wins[None]}; mean {total_plies / args.duels:.1f} actions a game, "
        f"{seconds / args.duels * 1000:.1f} ms a game"
    )

    ended, total_plies = 0, 0
    for i in range(args.selfplay):
        winner, plies = duel(*["greedy"] * (2 + i % 3), seed=args.seed * 7_919 + i)
        if plies < PLY_LIMIT:
            ended += 1
            total_plies += plies
    print(
        f"greedy self-play, 2-4 players: {ended}/{args.selfplay} games over within "
        f"{PLY_LIMIT} actions, mean {total_plies / max(ended, 1):.1f} actions a game"
    )


if __name__ == "__main__":
    main()
