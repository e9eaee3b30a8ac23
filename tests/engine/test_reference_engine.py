"""The naive reference of ``bench/reference_ww5.py`` plays by the engine's rules.

``bench.engine`` compares the engine's speed with this reference's, which is a fair
comparison only if both implement the same rules. Seeded random games step both with the
same chosen action and the same dice: at every step the legal actions (as canonical
strings, in order) and the positions (in the contract's format) must agree, and the games
must end alike. The games together reach every kind of resolution random play reaches.
"""

from __future__ import annotations

import ast
import random
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest

from bench import engine as bench_engine
from bench import reference_ww5 as reference
from ww5.engine import BOARDS, apply_action, dump_position, legal_actions, new_game

HOMES = ["north-america", "europe", "asia", "africa", "south-america", "australia"]
SEEDS_PER_SETTING = 2
STEP_BOUND = 3000


class Setting(NamedTuple):
    board: str
    setup: str
    players: int
    retreat_into_origin: bool = False


SETTINGS = [
    Setting(board, setup, players)
    for board in sorted(BOARDS)
    for setup in ("strict", "casual")
    for players in (2, 3, 4)
] + [Setting("original", "strict", players, True) for players in (2, 3, 4)]


@cache
def play_both(setting: Setting, seed: int) -> tuple[str, ...]:
    """Play one random game with both; return the engine's event types (with a win's
    reason and a retreat's ``forced``), asserting that both agree at every step."""
    seats = [(home, home) for home in HOMES[: setting.players]]
    options = {
        "board": setting.board,
        "setup": setting.setup,
        "retreat_into_origin": setting.retreat_into_origin,
    }
    state, _ = new_game(seats, options, random.Random(seed))
    ref = reference.new_game(seats, options, random.Random(seed))
    rng = random.Random(seed * 7 + 1)
    kinds: list[str] = []
    for step in range(STEP_BOUND):
        where = f"{setting}, seed {seed}, step {step}"
        assert reference.position(ref) == dump_position(state), where
        actions = legal_actions(state)
        assert reference.legal_actions(ref) == actions, where
        if not actions:  # over: the positions just compared hold the same winner
            assert state.phase == "over", where
            return tuple(kinds)
        action = rng.choice(actions)
        dice = [rng.randint(1, 6) for _ in range(6)]
        state, events = apply_action(state, action, dice=dice)
        ref = reference.apply_action(ref, action, dice=dice)
        for event in events:
            extra = event.get("reason") or event.get("forced")
            kinds.append(event["type"] + ("" if extra is None else f" {extra}"))
    raise AssertionError(f"{setting}, seed {seed}: not over after {STEP_BOUND} steps")


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: "-".join(map(str, s)))
def test_the_reference_agrees_with_the_engine_at_every_step(setting: Setting) -> None:
    for seed in range(SEEDS_PER_SETTING):
        kinds = play_both(setting, seed)
        assert kinds and (kinds[-1].startswith("win") or kinds[-1] == "draw")


def test_the_games_reach_every_kind_of_resolution() -> None:
    reached = {
        kind
        for setting in SETTINGS
        for seed in range(SEEDS_PER_SETTING)
        for kind in play_both(setting, seed)
    }
    assert reached >= {
        "place",
        "grow",
        "build",
        "move",
        "invade",
        "combat",
        "retreat_pending",
        "retreat False",  # the defender's choice
        "retreat True",  # the only retreat, applied at once
        "shrink",
        "removed",
        "move_in",
        "eliminated",
        "win continent",
        "win last_player",
    }, sorted(reached)


def test_the_reference_refuses_an_illegal_action() -> None:
    state = reference.new_game(
        [("blue", "north-america"), ("purple", "europe")], {}, random.Random(0)
    )
    with pytest.raises(ValueError, match="not legal"):
        reference.apply_action(state, "build alaska")


def test_the_reference_takes_no_game_logic_from_the_engine() -> None:
    tree = ast.parse(Path(reference.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        assert not any(name.split(".")[0] in ("ww5", "bench") for name in names), names


def test_the_benchmark_times_the_reference_on_the_engines_own_games() -> None:
    engine_actions, _, engine_unfinished = bench_engine.random_play(6, seed=5)
    ref_actions, _, ref_unfinished = bench_engine.reference_play(6, seed=5)
    assert (ref_actions, ref_unfinished) == (engine_actions, engine_unfinished)
