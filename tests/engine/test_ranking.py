"""The finishing order of a game (R24-R28, R31) and its competition ranks.

Each game is played from a loaded position with no one out yet, and its history is
the ``(action, events)`` pairs the engine returned, as the move log keeps them.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.helpers import BLUE, HOMES, PURPLE, RED, SEATS, YELLOW, load
from ww5.engine import (
    BOARDS,
    ManyPlayersWarning,
    State,
    apply_action,
    competition_ranks,
    finishing_order,
    forfeit,
    legal_actions,
    new_game,
)

Steps = list[tuple[str, list[dict[str, Any]]]]
WIN_DICE = [6, 6, 6, 1, 1, 1]
FOUR = (BLUE, PURPLE, YELLOW, RED)


def play(state: State, *steps: str) -> tuple[State, Steps]:
    """Apply ``steps`` ("forfeit <player>", or an action with " @ dice"); the final
    state and the history."""
    history: Steps = []
    for step in steps:
        if step.startswith("forfeit "):
            state, events = forfeit(state, step.split()[1])
            history.append((step, events))
            continue
        action, _, dice = step.partition(" @ ")
        state, events = apply_action(state, action, [int(d) for d in dice.split()])
        history.append((action, events))
    return state, history


def test_r25_a_plain_win_ranks_the_winner_first_and_the_loser_second() -> None:
    pieces = {
        "usa": (BLUE, "large"),
        "northwest-africa": (BLUE, "medium"),
        "northeast-africa": (BLUE, "medium"),
        "brazil": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
    }
    state, history = play(load(pieces), "move brazil south-africa")

    assert state.winner == 0
    assert finishing_order(state, history) == [[BLUE], [PURPLE]]


def test_r25_players_still_in_the_game_share_the_place_after_the_winner() -> None:
    pieces = {
        "usa": (BLUE, "large"),
        "northwest-africa": (BLUE, "medium"),
        "northeast-africa": (BLUE, "medium"),
        "brazil": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state, history = play(load(pieces, players=(BLUE, PURPLE, YELLOW)), "move brazil south-africa")

    order = finishing_order(state, history)

    assert order == [[BLUE], [PURPLE, YELLOW]]
    assert competition_ranks(order) == {BLUE: 1, PURPLE: 2, YELLOW: 2}


def test_r23_r26_the_later_a_player_is_eliminated_the_better_they_rank() -> None:
    pieces = {
        "usa": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state, history = play(
        load(pieces, players=(BLUE, PURPLE, YELLOW)),
        "grow usa",
        "move scandinavia north-asia",  # purple leaves home: out first
        "move southeast-asia east-australia",  # then yellow: blue is left (R26)
    )

    assert state.winner == 0
    assert finishing_order(state, history) == [[BLUE], [YELLOW], [PURPLE]]


def test_r24_players_eliminated_by_one_resolution_are_tied() -> None:
    # Red leaves home first; then yellow invades out of its last home territory and
    # removes purple's last home piece: both go out at once and blue is left.
    pieces = {
        "canada": (BLUE, "medium"),
        "southern-europe": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "east-australia": (PURPLE, "small"),
        "north-asia": (YELLOW, "large"),
        "western-europe": (YELLOW, "small"),
        "south-africa": (RED, "small"),
    }
    state, history = play(
        load(pieces, players=FOUR, to_move=RED),
        "move south-africa argentina",
        "grow canada",
        "move east-australia north-australia",
        "invade north-asia scandinavia @ 6 6 6 1",
    )

    order = finishing_order(state, history)

    assert history[-1][1][-2] == {"type": "eliminated", "players": [YELLOW, PURPLE]}
    assert order == [[BLUE], [YELLOW, PURPLE], [RED]]
    assert competition_ranks(order) == {BLUE: 1, YELLOW: 2, PURPLE: 2, RED: 4}


def test_r24_a_draw_ranks_its_two_players_first_together() -> None:
    pieces = {
        "canada": (BLUE, "large"),
        "alaska": (PURPLE, "medium"),
        "southern-europe": (BLUE, "small"),
        "western-europe": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
    }
    state, history = play(load(pieces), "invade canada scandinavia @ 6 6 6 1")

    order = finishing_order(state, history)

    assert state.phase == "over" and state.winner is None
    assert order == [[BLUE, PURPLE]]
    assert competition_ranks(order) == {BLUE: 1, PURPLE: 1}


def test_r31_forfeiters_rank_below_everyone_eliminated_in_play_the_later_the_better() -> None:
    # Purple forfeits first, yellow leaves home in play, red forfeits last: blue wins.
    pieces = {
        "usa": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
        "south-africa": (RED, "small"),
    }
    state, history = play(
        load(pieces, players=FOUR),
        "forfeit purple",
        "grow usa",
        "move southeast-asia east-australia",
        "forfeit red",
    )

    order = finishing_order(state, history)

    assert state.winner == 0
    assert order == [[BLUE], [YELLOW], [RED], [PURPLE]]
    assert competition_ranks(order) == {BLUE: 1, YELLOW: 2, RED: 3, PURPLE: 4}


def test_r26_r31_a_forfeit_that_leaves_one_player_ends_the_game_with_their_win() -> None:
    # Yellow went out in play before purple forfeits; purple still ranks below yellow.
    pieces = {
        "usa": (BLUE, "large"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state, history = play(
        load(pieces, players=(BLUE, PURPLE, YELLOW), to_move=YELLOW),
        "move southeast-asia east-australia",
        "forfeit purple",
    )

    assert history[-1][1][-1] == {"type": "win", "player": BLUE, "reason": "last_player"}
    assert finishing_order(state, history) == [[BLUE], [YELLOW], [PURPLE]]


def test_r21_r31_an_attacker_eliminated_moving_in_after_a_forfeit_went_out_in_play() -> None:
    # Blue invades out of Canada, its last home territory; purple, with a retreat to
    # choose, forfeits instead: blue moves in and is out in play, above purple.
    pieces = {
        "canada": (BLUE, "large"),
        "brazil": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "southern-europe": (PURPLE, "large"),
        "southeast-asia": (YELLOW, "small"),
    }
    state, history = play(
        load(pieces, players=(BLUE, PURPLE, YELLOW)),
        "invade canada scandinavia @ 6 6 6 1",
        "forfeit purple",
    )

    assert [e["players"] for e in history[-1][1] if e["type"] == "eliminated"] == [
        [PURPLE],
        [BLUE],
    ]
    assert finishing_order(state, history) == [[YELLOW], [BLUE], [PURPLE]]


def test_a_history_that_does_not_lead_to_the_state_is_refused() -> None:
    pieces = {"usa": (BLUE, "large"), "scandinavia": (PURPLE, "small")}
    state, history = play(load(pieces, to_move=PURPLE), "move scandinavia north-asia")

    with pytest.raises(ValueError, match="history"):
        finishing_order(state, [])
    with pytest.raises(ValueError, match="history"):
        finishing_order(load(pieces), history)


@pytest.mark.parametrize(
    ("order", "ranks"),
    [
        ([], {}),
        ([["a"], ["b"]], {"a": 1, "b": 2}),
        ([["a"], ["b", "c"], ["d"]], {"a": 1, "b": 2, "c": 2, "d": 4}),
        ([["a", "b"], ["c"]], {"a": 1, "b": 1, "c": 3}),
    ],
)
def test_competition_ranks_let_tied_players_share_a_place_and_skip_the_next(
    order: list[list[str]], ranks: dict[str, int]
) -> None:
    assert competition_ranks(order) == ranks


# --- random games ----------------------------------------------------------------------

STEP_BOUND = 3000  # random games end long before (see test_properties)


def random_game(seed: int, board: str, players: int) -> tuple[State, Steps]:
    """A game of random legal actions and, now and then, a forfeit (with or without a
    retreat pending, R31), played to its end; its last state and its history."""
    rng = random.Random(seed)
    seats = [(name, HOMES[name]) for name in SEATS[:players]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ManyPlayersWarning)
        state, _ = new_game(seats, {"board": board}, rng)
    history: Steps = []
    while state.phase != "over" and len(history) < STEP_BOUND:
        if state.phase == "play" and rng.random() < 0.04:
            name = rng.choice([p.name for i, p in enumerate(state.players) if state.in_game(i)])
            state, events = forfeit(state, name)
            history.append((f"forfeit {name}", events))
        else:
            action = rng.choice(legal_actions(state))
            state, events = apply_action(state, action, rng=rng)
            history.append((action, events))
    return state, history


def groups_out_in_play(history: Steps) -> list[list[str]]:
    """Each resolution's players eliminated in play (a forfeit's own player aside)."""
    groups = []
    for action, events in history:
        forfeiter = action.split()[1] if action.startswith("forfeit ") else None
        for event in events:
            if event["type"] == "eliminated":
                group = [name for name in event["players"] if name != forfeiter]
                groups += [group] if group else []
    return groups


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    board=st.sampled_from(sorted(BOARDS)),
    players=st.integers(min_value=2, max_value=6),
)
def test_r24_r31_every_game_ranks_each_player_once_and_by_the_rules(
    seed: int, board: str, players: int
) -> None:
    state, history = random_game(seed, board, players)
    order = finishing_order(state, history)
    names = [p.name for p in state.players]
    place = {name: i for i, group in enumerate(order) for name in group}
    forfeiters = [action.split()[1] for action, _ in history if action.startswith("forfeit ")]
    in_play = groups_out_in_play(history)
    out_in_play = [name for group in in_play for name in group]

    assert sorted(name for group in order for name in group) == sorted(names)
    assert all(order)
    if state.winner is not None:
        assert order[0] == [names[state.winner]]
    elif state.phase == "over":  # R24's draw: the last resolution left no one in the game
        assert len(state.eliminated) == players
        assert order[0] == in_play[-1]
    for group in in_play:  # R24: out at the same moment, tied
        assert len({place[name] for name in group}) == 1
    # the later out, the better: in play, and among the forfeiters
    assert [place[n] for n in out_in_play] == sorted((place[n] for n in out_in_play), reverse=True)
    assert [place[n] for n in forfeiters] == sorted((place[n] for n in forfeiters), reverse=True)
    assert all(place[f] > place[p] for f in forfeiters for p in out_in_play)  # R31
