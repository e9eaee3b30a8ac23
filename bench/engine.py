"""Engine benchmark: actions per second in random play, beside a naive reference of the same
rules (``bench.reference_ww5``), and greedy against random; then RisiKo's: a random game's
actions per second and the time of a 20-attack turn script.

    python -m bench.engine [--games N] [--reference-games N] [--duels N] [--seed S]
                           [--risiko-games N]

Prints the figures recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from bench import reference_ww5 as reference
from ww5.engine import BOARDS, apply_action, legal_actions, new_game
from ww5.engine.bots import BOTS
from ww5.engine.state import OVER

HOMES = ["north-america", "europe", "asia", "africa", "south-america", "australia"]
PLY_LIMIT = 3000


class Rules(NamedTuple):
    """An implementation of the rules, as random play drives it."""

    new_game: Callable[[list[tuple[str, str]], dict[str, str], random.Random], Any]
    legal_actions: Callable[[Any], list[str]]
    apply_action: Callable[[Any, str, random.Random], Any]
    over: Callable[[Any], bool]


ENGINE = Rules(
    lambda players, options, rng: new_game(players, options, rng)[0],
    legal_actions,
    lambda state, action, rng: apply_action(state, action, rng=rng)[0],
    lambda state: state.phase == OVER,
)
# The naive reference draws its dice and choices in the same order as the engine: with
# the same seed it plays the same games.
REFERENCE = Rules(
    reference.new_game,
    reference.legal_actions,
    lambda state, action, rng: reference.apply_action(state, action, rng=rng),
    lambda state: state["phase"] == "over",
)


def random_play(games: int, seed: int, rules: Rules = ENGINE) -> tuple[int, float, int]:
    """Play random games by ``rules``; return (actions, seconds spent in the rules,
    unfinished)."""
    rng = random.Random(seed)
    actions = 0
    unfinished = 0
    elapsed = 0.0
    boards = sorted(BOARDS)
    for g in range(games):
        players = 2 + g % 3
        state = rules.new_game(
            [(HOMES[i], HOMES[i]) for i in range(players)],
            {"board": boards[g % len(boards)], "setup": ("strict", "casual")[g % 2]},
            rng,
        )
        start = time.perf_counter()
        plies = 0
        while not rules.over(state) and plies < PLY_LIMIT:
            options = rules.legal_actions(state)
            state = rules.apply_action(state, options[int(rng.random() * len(options))], rng)
            plies += 1
        elapsed += time.perf_counter() - start
        actions += plies
        unfinished += not rules.over(state)
    return actions, elapsed, unfinished


def reference_play(games: int, seed: int) -> tuple[int, float, int]:
    """``random_play`` with the naive reference: the same games."""
    return random_play(games, seed, REFERENCE)


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
    parser.add_argument(
        "--reference-games",
        type=int,
        default=150,
        help="random games to time with the naive reference (the engine's first ones)",
    )
    parser.add_argument("--duels", type=int, default=400, help="greedy-vs-random games")
    parser.add_argument("--selfplay", type=int, default=150, help="greedy-vs-greedy games")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--risiko-games", type=int, default=40, help="random RisiKo games")
    args = parser.parse_args()

    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    actions, seconds, unfinished = random_play(args.games, args.seed)
    print(
        f"random play: {args.games} games (2-4 players, all boards, both setups), "
        f"{actions} actions in {seconds:.2f} s = {actions / seconds:,.0f} actions/s "
        f"(legal_actions + apply_action); mean {actions / args.games:.1f} actions a game; "
        f"{unfinished} games not over after {PLY_LIMIT} actions"
    )
    engine_rate = actions / seconds
    ref_games = args.reference_games
    ref_actions, ref_seconds, _ = reference_play(ref_games, args.seed)
    same_actions, _, _ = random_play(ref_games, args.seed)
    print(
        f"naive reference (bench/reference_ww5.py): {ref_games} games, {ref_actions} actions "
        f"in {ref_seconds:.2f} s = {ref_actions / ref_seconds:,.0f} actions/s "
        f"(legal_actions + apply_action); the engine's first {ref_games} games: "
        f"{same_actions} actions" + ("" if same_actions == ref_actions else " (games differ!)")
    )
    print(f"engine / reference = {engine_rate / (ref_actions / ref_seconds):.1f}x (aim >= 5x)")

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
    risiko_main(args.risiko_games, args.seed)


def risiko_play(games: int, seed: int) -> tuple[int, float]:
    """Random RisiKo games of 3-6 players: (actions, seconds spent in ``apply_action``)."""
    from risiko import engine as risiko
    from risiko.engine.bots import random_bot

    colours = ("red", "blue", "green", "yellow", "purple", "black")
    rng = random.Random(seed)
    actions, elapsed = 0, 0.0
    for g in range(games):
        seats = [{"name": c, "color": c} for c in colours[: 3 + g % 4]]
        state = risiko.new_game(seats, {}, rng)
        for _ in range(20_000):
            if state.phase == "over":
                break
            player = state.awaiting[0]
            action = random_bot(risiko.view(state, player), rng)
            start = time.perf_counter()
            state, _ = risiko.apply_action(state, player, action, rng)
            elapsed += time.perf_counter() - start
            actions += 1
    return actions, elapsed


def risiko_script_ms(repeats: int, seed: int) -> tuple[int, float]:
    """A turn script of 20 attack lines (each one roll of three dice against three) run by
    ``run_script`` on a position in play: (lines done, milliseconds a script)."""
    from risiko import engine as risiko

    rng = random.Random(seed)
    seats = [{"name": c, "color": c} for c in ("red", "blue", "green")]
    state = risiko.new_game(seats, {}, rng)
    while state.phase == "placement":  # K35's default placement for everyone
        player = state.awaiting[0]
        state, _ = risiko.apply_action(state, player, risiko.default_actions(state, player)[0], rng)
    position = risiko.dump_position(state)
    player = position["turn"]["player"]
    position["turn"].update(pool=0, step="attack")
    for spot in position["territories"].values():
        spot["armies"] = 50
    state = risiko.load_position(position)
    board = risiko.BOARDS[position["board"]]
    lines = []
    for origin in sorted(t for t, v in position["territories"].items() if v["owner"] == player):
        for target in sorted(board.neighbors[origin]):
            if position["territories"][target]["owner"] != player and len(lines) < 20:
                lines.append(f"attack {target} from {origin} once")
    while len(lines) < 20:
        lines += lines[: 20 - len(lines)]
    script = "\n".join(lines)
    _, report = risiko.run_script(state, player, script, rng)
    done = sum(1 for line in report if line["status"] == "done")
    start = time.perf_counter()
    for _ in range(repeats):
        risiko.run_script(state, player, script, rng)
    return done, (time.perf_counter() - start) / repeats * 1000


def risiko_main(games: int, seed: int) -> None:
    actions, seconds = risiko_play(games, seed)
    print(
        f"risiko random play: {games} games (3-6 players), {actions} actions in "
        f"{seconds:.2f} s = {actions / seconds:,.0f} actions/s (apply_action); "
        f"mean {actions / games:.1f} actions a game"
    )
    done, ms = risiko_script_ms(200, seed)
    print(
        f"risiko turn script: 20 attack lines ({done} done), {ms:.2f} ms a script "
        f"(run_script; aim < 5 ms)"
    )


if __name__ == "__main__":
    main()
