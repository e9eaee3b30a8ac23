"""The random and greedy bots, through the engine's public API."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ww5.engine import apply_action, legal_actions, load_position, new_game
from ww5.engine.bots import BOTS, greedy_bot, random_bot
from ww5.engine.state import OVER, State

BLUE, PURPLE = ("blue", "north-america"), ("purple", "europe")


def position(pieces: dict[str, str], to_move: str = "blue", pending: Any = None) -> State:
    """A 2-player position from ``{"usa": "blue large", ...}``."""
    return load_position(
        {
            "board": "original",
            "options": {"setup": "strict", "retreat_into_origin": False},
            "players": [
                {"name": "blue", "home": "north-america"},
                {"name": "purple", "home": "europe"},
            ],
            "phase": "play",
            "to_move": to_move,
            "pieces": {
                t: {"player": spec.split()[0], "size": spec.split()[1]}
                for t, spec in pieces.items()
            },
            "pending": pending,
            "eliminated": [],
            "winner": None,
        }
    )


def test_greedy_takes_a_winning_move_r25() -> None:
    state = position(
        {
            "usa": "blue large",
            "canada": "blue medium",
            "alaska": "blue small",
            "north-asia": "blue small",
            "southwest-asia": "blue small",
            "scandinavia": "purple small",
            "western-europe": "purple medium",
            "southern-europe": "purple large",
        }
    )
    assert greedy_bot(state, random.Random(1)) == "move alaska southeast-asia"


def test_greedy_takes_a_winning_attack_with_good_odds() -> None:
    state = position(
        {
            "usa": "blue medium",
            "canada": "blue medium",
            "alaska": "blue large",
            "north-asia": "blue small",
            "southwest-asia": "blue small",
            "southeast-asia": "purple small",
            "scandinavia": "purple small",
            "western-europe": "purple medium",
            "southern-europe": "purple large",
        }
    )
    assert greedy_bot(state, random.Random(1)) == "invade alaska southeast-asia"


def test_greedy_does_not_leave_its_last_home_territory_r15() -> None:
    state = position(
        {
            "usa": "blue large",
            "brazil": "blue medium",
            "colombia": "blue small",
            "western-europe": "purple small",
            "scandinavia": "purple small",
            "southern-europe": "purple small",
        }
    )
    for seed in range(20):
        choice = greedy_bot(state, random.Random(seed))
        assert not choice.startswith(("move usa", "invade usa")), choice


def test_greedy_defender_retreats_to_stay_at_home() -> None:
    pending = {
        "retreat": {
            "player": "purple",
            "territory": "scandinavia",
            "attacker": "blue",
            "from": "canada",
            "options": ["north-asia", "western-europe"],
        }
    }
    state = position(
        {
            "canada": "blue large",
            "usa": "blue medium",
            "southern-europe": "blue small",
            "scandinavia": "purple small",
            "brazil": "purple medium",
        },
        to_move="purple",
        pending=pending,
    )
    assert greedy_bot(state, random.Random(3)) == "retreat western-europe"


def test_greedy_shores_up_a_threatened_home() -> None:
    state = position(
        {
            "usa": "blue small",
            "brazil": "blue large",
            "north-asia": "blue medium",
            "western-europe": "purple large",
            "scandinavia": "purple small",
            "southern-europe": "purple small",
        }
    )
    assert greedy_bot(state, random.Random(2)) in {"build alaska", "build canada", "grow usa"}


def can_eliminate_itself(state: State, action: str) -> bool:
    me = state.to_move
    outcomes = [apply_action(state, action, dice=[6, 6, 6, 1, 1, 1])[0]]
    if action.startswith("invade"):
        outcomes.append(apply_action(state, action, dice=[1, 1, 1, 6, 6, 6])[0])
    for after in list(outcomes):
        if after.pending is not None:
            outcomes += [apply_action(after, a)[0] for a in legal_actions(after)]
    return any(me in s.eliminated for s in outcomes)


def test_greedy_never_risks_eliminating_itself_when_it_has_another_choice() -> None:
    rng = random.Random(11)
    checked = 0
    for game in range(40):
        state, _ = new_game([BLUE, PURPLE, ("yellow", "asia")], {}, rng)
        while state.phase != OVER:
            bot = greedy_bot if state.to_move == game % 3 else random_bot
            if bot is greedy_bot and state.phase == "play":
                risky = {a for a in legal_actions(state) if can_eliminate_itself(state, a)}
                choice = greedy_bot(state, rng)
                if len(risky) < len(legal_actions(state)):
                    assert choice not in risky
                    checked += 1
            state, _ = apply_action(state, bot(state, rng), rng=rng)
    assert checked > 200


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_always_choose_a_legal_action(name: str) -> None:
    rng = random.Random(5)
    for game in range(10):
        players = [BLUE, PURPLE, ("red", "africa"), ("green", "south-america")][: 2 + game % 3]
        state, _ = new_game(players, {"setup": ("strict", "casual")[game % 2]}, rng)
        for _ in range(300):  # two greedy bots can hold each other off for a long time
            if state.phase == OVER:
                break
            choice = BOTS[name](state, rng)
            assert choice in legal_actions(state)
            state, _ = apply_action(state, choice, rng=rng)


def test_greedy_beats_random_in_at_least_nine_games_of_ten() -> None:
    wins = 0
    games = 60
    for i in range(games):
        rng = random.Random(1000 + i)
        greedy_seat = i % 2
        state, _ = new_game([BLUE, PURPLE], {}, rng)
        seat_of = {p.name: n for n, p in enumerate(state.players)}
        greedy_name = [BLUE[0], PURPLE[0]][greedy_seat]
        while state.phase != OVER:
            mover = state.players[state.to_move].name
            bot = greedy_bot if mover == greedy_name else random_bot
            state, _ = apply_action(state, bot(state, rng), rng=rng)
        wins += state.winner == seat_of[greedy_name]
    assert wins >= 0.9 * games


def test_games_between_greedy_bots_end() -> None:
    ended = 0
    for i in range(20):
        rng = random.Random(i)
        players = [BLUE, PURPLE, ("yellow", "asia"), ("red", "africa")][: 2 + i % 3]
        state, _ = new_game(players, {}, rng)
        for _ in range(1500):
            if state.phase == OVER:
                ended += 1
                break
            state, _ = apply_action(state, greedy_bot(state, rng), rng=rng)
    assert ended >= 18
