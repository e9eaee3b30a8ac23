"""Properties of every reachable position, by random play (Hypothesis; K5, K3, K33, K38).

Each example plays one game from ``new_game`` with the random bot and a seeded source,
now and then a forfeit (K36); after every action the armies and the 44 cards are
conserved as the rules say, every territory is owned with at least 1 army, the position
round-trips through dump/load, and no view shows another player's secrets.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from risiko.engine import BOARDS, State, dump_position, load_position, new_game, view
from risiko.engine.bots import random_bot
from tests.risiko.games import COLOURS, Bot, all_cards, armies_of, expected_armies, play, seats

STEPS = 400
CARDS = sorted(BOARDS["classic"].cards)

options = st.fixed_dictionaries(
    {
        "placement": st.sampled_from(["sealed", "rounds"]),
        "min_reinforcement": st.sampled_from([0, 3]),
        "territory_bonus": st.sampled_from(["per-set", "per-card"]),
        "battle": st.sampled_from(["dice", "war-die"]),
    }
)


def check_view(state: State, player: str | None) -> None:
    """K33, K38: a view holds no other player's objective, hand, the deck order, or
    another's sealed placement or sealed war cost."""
    seen: dict[str, Any] = view(state, player)
    assert seen["view"] == player
    assert set(seen["hand_sizes"]) == set(state.names)
    if state.phase == "over":
        assert seen["deck"] == state.deck and seen["objectives"] == state.objectives
        return
    assert "deck" not in seen and seen["deck_size"] == len(state.deck)
    mine = {} if player is None else {player: state.objectives[player]}
    assert seen["objectives"] == mine
    assert set(seen["hands"]) == ({player} if player is not None else set())
    placement = seen["placement"]
    if placement is not None and placement["sealed"] is not None:
        for name, text in placement["sealed"].items():
            if name != player:
                assert text in (None, "sealed")
    turn = seen["turn"]
    if turn is not None and turn["war"] is not None and player != turn["player"]:
        assert turn["war"]["attack"] == "sealed"


def check_position(before: State, after: State, events: list[dict[str, Any]]) -> None:
    assert all_cards(after) == CARDS, "hands, deck and discard hold the 44 cards (K3)"
    assert set(after.owner) == set(BOARDS["classic"].territories)
    assert all(after.owner[t] in after.names for t in after.owner)
    assert min(after.armies.values()) >= 1, "every territory holds at least 1 army (K5)"
    assert armies_of(after) == expected_armies(before, events)
    if after.placement is not None:
        initial = after.board.initial_armies[len(after.players)]
        held = Counter[str]()
        for t, owner in after.owner.items():
            held[owner] += after.armies[t]
        for name in after.names:
            assert held[name] + after.placement.left[name] == initial, "K9"
    data = dump_position(after)
    assert dump_position(load_position(data)) == data
    for player in [None, *after.names]:
        check_view(after, player)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=3, max_value=6),
    rules=options,
    forfeits=st.booleans(),
)
def test_random_games_keep_armies_cards_and_secrets(
    seed: int, players: int, rules: dict[str, Any], forfeits: bool
) -> None:
    rng = random.Random(seed)
    state = new_game(seats(players), rules, rng)
    check_position(state, state, [])
    bots: dict[str, Bot] = {name: random_bot for name in COLOURS[:players]}
    chooser = random.Random(seed + 1)
    for step in play(state, rng, bots, rng, STEPS, 0.004 if forfeits else 0.0, chooser):
        check_position(step.before, step.after, step.events)
