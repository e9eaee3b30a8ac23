"""Playing whole RisiKo games with the bots, for the property, replay and bot tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from risiko.engine import (
    Event,
    RandomSource,
    State,
    apply_action,
    forfeit,
    new_game,
    view,
)
from risiko.engine.bots import random_bot

COLOURS = ("red", "blue", "green", "yellow", "purple", "black")
Bot = Callable[[Mapping[str, Any], RandomSource], str]


def seats(n: int) -> list[dict[str, str]]:
    return [{"name": colour, "color": colour} for colour in COLOURS[:n]]


@dataclass
class Step:
    """One move: who, what (an action text, or ``forfeit``), and what it did."""

    player: str
    action: str
    before: State
    after: State
    events: list[Event] = field(default_factory=list)


def play(
    state: State,
    rng: RandomSource,
    bots: Mapping[str, Bot],
    bot_rng: RandomSource,
    max_steps: int,
    forfeit_chance: float = 0.0,
    chooser: random.Random | None = None,
) -> Iterator[Step]:
    """Yield each step of a game played by ``bots`` until it is over or ``max_steps``."""
    for _ in range(max_steps):
        if state.phase == "over":
            return
        if state.phase == "play" and chooser is not None and chooser.random() < forfeit_chance:
            leaving = chooser.choice(state.in_game())
            after, events = forfeit(state, leaving)
            yield Step(leaving, "forfeit", state, after, events)
            state = after
            continue
        player = state.awaiting[0]
        action = bots[player](view(state, player), bot_rng)
        after, events = apply_action(state, player, action, rng)
        yield Step(player, action, state, after, events)
        state = after


def random_game(
    seed: int, players: int, options: Mapping[str, Any], max_steps: int
) -> Iterator[Step]:
    rng = random.Random(seed)
    state = new_game(seats(players), options, rng)
    bots: dict[str, Bot] = {name: random_bot for name in COLOURS[:players]}
    yield from play(state, rng, bots, rng, max_steps)


def all_cards(state: State) -> list[str]:
    return sorted(state.deck + state.discard + [c for h in state.hands.values() for c in h])


def armies_of(state: State) -> int:
    return sum(state.armies.values())


def expected_armies(before: State, events: Sequence[Event]) -> int:
    """The armies on the board after ``events``: placements add, combat removes (K5)."""
    total = armies_of(before)
    for event in events:
        if event["type"] == "placed":
            total += sum(event["armies"].values())
        elif event["type"] == "revealed":
            for text in event["placements"].values():
                total += sum(int(part.split()[0]) for part in text[len("place ") :].split(", "))
        elif event["type"] == "roll":
            total -= event["attacker_lost"] + event["defender_lost"]
        elif event["type"] == "war_revealed" and event["result"] != "truce":
            total -= event["attacker_paid"] + event["defender_paid"] + event["removed"]
    return total
