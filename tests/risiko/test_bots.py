"""The bots play from a player's view only and always finish; greedy beats random."""

from __future__ import annotations

import random
from typing import Any

import pytest

from risiko.engine import State, new_game, view
from risiko.engine.bots import BOTS, greedy_bot, random_bot
from tests.risiko.games import Bot, play, seats

GAMES = 60
STEP_LIMIT = 5000


def finish(seed: int, greedy_seat: int, options: dict[str, Any]) -> State:
    rng = random.Random(seed)
    state = new_game(seats(3), options, rng)
    bots: dict[str, Bot] = {
        seat["name"]: greedy_bot if i == greedy_seat else random_bot
        for i, seat in enumerate(seats(3))
    }
    for step in play(state, rng, bots, rng, STEP_LIMIT):
        state = step.after
    return state


@pytest.mark.parametrize("battle", ["dice", "war-die"])
def test_greedy_beats_random_in_nine_games_out_of_ten(battle: str) -> None:
    """K4, K30, K39: three-player games, greedy in every seat in turn against two random
    bots, with dice and with the war die."""
    wins = 0
    for seed in range(GAMES):
        seat = seed % 3
        state = finish(seed, seat, {"battle": battle})
        wins += state.winner == seats(3)[seat]["name"]
    assert wins >= 0.9 * GAMES, f"greedy won {wins} of {GAMES}"


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_reads_nothing_but_the_view(name: str) -> None:
    """K33: the bot's input is the view; a view with the others' secrets altered gives the
    same action."""
    state = new_game(seats(3), {}, random.Random(7))
    player = state.awaiting[0]
    shown = view(state, player)
    assert set(shown["objectives"]) == {player}
    assert "deck" not in shown
    first = BOTS[name](shown, random.Random(1))
    again = BOTS[name](view(state, player), random.Random(1))
    assert first == again
