"""K37: a game record (setup values, every move with the values it consumed) replays to
every position exactly."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from typing import Any

import pytest

from risiko.engine import (
    ListRandom,
    RandomError,
    RecordingRandom,
    apply_action,
    dump_position,
    forfeit,
    new_game,
)
from risiko.engine.bots import greedy_bot, random_bot
from tests.risiko.games import Bot, play, seats

OPTIONS = [
    {},
    {"placement": "rounds", "min_reinforcement": 3, "territory_bonus": "per-card"},
    {"battle": "war-die"},
]


def record_game(seed: int, options: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """Play a whole game, keeping its record (contract, "Game record") and positions."""
    source = RecordingRandom(random.Random(seed))
    table = seats(4)
    state = new_game(table, options, source)
    record: dict[str, Any] = {
        "format": "risiko-record/1",
        "game": f"test-{seed}",
        "board": "classic",
        "options": asdict(state.options),
        "seats": table,
        "setup_rng": source.take(),
        "moves": [],
    }
    positions = [dump_position(state)]
    bots: dict[str, Bot] = {
        name: greedy_bot if i % 2 else random_bot for i, name in enumerate(state.names)
    }
    bot_rng = random.Random(seed + 1)
    chooser = random.Random(seed + 2)
    for n, step in enumerate(play(state, source, bots, bot_rng, 3000, 0.002, chooser), 1):
        action = f"forfeit {step.player}" if step.action == "forfeit" else step.action
        record["moves"].append(
            {
                "n": n,
                "player": step.player,
                "action": action,
                "rng": source.take(),
                "by": "admin" if step.action == "forfeit" else "player",
            }
        )
        positions.append(dump_position(step.after))
    return record, positions


def replay(record: dict[str, Any]) -> list[Any]:
    options = {k: v for k, v in record["options"].items() if k != "board"}
    setup = ListRandom(record["setup_rng"])
    state = new_game(record["seats"], options, setup)
    assert setup.remaining == ()
    positions = [dump_position(state)]
    for move in record["moves"]:
        values = ListRandom(move["rng"])
        if move["action"].startswith("forfeit "):
            state, _ = forfeit(state, move["player"])
        else:
            state, _ = apply_action(state, move["player"], move["action"], values)
        assert values.remaining == (), f"move {move['n']} used all its values"
        positions.append(dump_position(state))
    return positions


@pytest.mark.parametrize(
    "seed, options", [(s, o) for s, o in zip((3, 14, 15), OPTIONS, strict=True)]
)
def test_a_recorded_game_replays_every_position(seed: int, options: dict[str, Any]) -> None:
    """K37: every die, shuffle value and decision is in the record."""
    record, positions = record_game(seed, options)
    assert positions[-1]["phase"] == "over"
    record = json.loads(json.dumps(record))  # a record is plain JSON
    assert replay(record) == positions


def test_a_replay_with_a_missing_value_is_refused_and_changes_nothing() -> None:
    """K37: too few values is an error, never a guess."""
    record, _ = record_game(3, {})
    attack = next(m for m in record["moves"] if m["rng"] and m["action"].startswith("attack"))
    index = record["moves"].index(attack)
    record["moves"] = record["moves"][: index + 1]
    record["moves"][-1]["rng"] = attack["rng"][:-1]
    with pytest.raises(RandomError):
        replay(record)
