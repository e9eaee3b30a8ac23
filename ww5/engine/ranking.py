"""The finishing order of a game (R24-R28, R31): who placed where, best first.

The final state says who won and who is out, but not how each player went out: for
that the order needs the game's history, each move's canonical action (``forfeit
<player>`` for a forfeit) with the events the engine produced for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .state import State

History = Iterable[tuple[str, Sequence[Mapping[str, Any]]]]


@dataclass
class _Exits:
    """How the players left the game, in the order they did."""

    in_play: list[list[str]] = field(default_factory=list)  # one group per resolution
    forfeited: list[str] = field(default_factory=list)
    in_order: list[str] = field(default_factory=list)


def finishing_order(state: State, history: History) -> list[list[str]]:
    """Groups of player names, best first; the players of one group are tied.

    1. the winner (R25-R27), alone;
    2. the players still in the game, tied;
    3. the players eliminated in play, the later the better; those eliminated by one
       resolution are tied (R24), so in the draw of R24 both share the first place;
    4. the forfeiters, below everyone eliminated in play, the later the better (R31).

    ``state`` is the game's last state and ``history`` its moves up to it, as
    ``(action, events)`` pairs; a history whose eliminations are not the state's
    raises ``ValueError``.
    """
    exits = _exits(history)
    names = [player.name for player in state.players]
    out = [names[p] for p in state.eliminated]
    if exits.in_order != out:
        raise ValueError(f"the history eliminates {exits.in_order}, the state {out}")
    order: list[list[str]] = []
    if state.winner is not None:
        order.append([names[state.winner]])
    survivors = [name for p, name in enumerate(names) if p != state.winner and name not in out]
    if survivors:
        order.append(survivors)
    order += reversed(exits.in_play)
    order += [[name] for name in reversed(exits.forfeited)]
    return order


def _exits(history: History) -> _Exits:
    """The eliminations of the history: a forfeit move's own player is a forfeiter;
    anyone else it eliminates (an attacker moving in after a forfeiting defender's
    piece is gone, R21) went out in play."""
    exits = _Exits()
    for action, events in history:
        verb, _, player = action.partition(" ")
        forfeiter = player if verb == "forfeit" else None
        for event in events:
            if event.get("type") != "eliminated":
                continue
            group = [str(name) for name in event["players"]]
            exits.in_order += group
            if forfeiter is not None and forfeiter in group:
                exits.forfeited.append(forfeiter)
                group.remove(forfeiter)
            if group:
                exits.in_play.append(group)
    return exits


def competition_ranks(order: Sequence[Sequence[str]]) -> dict[str, int]:
    """Each player's rank from a finishing order, as in competitions ("1224"): tied
    players share the best place of their group, and a group's place counts every
    player above it."""
    ranks: dict[str, int] = {}
    place = 1
    for group in order:
        for name in group:
            ranks[name] = place
        place += len(group)
    return ranks
