"""Adjudicating an unfinished game at a round's deadline: the turn-limit house rule.

The printed rules have no turn limit (R28); a tournament may add one, clearly labelled,
with its own published way of ranking the players of a game still running when it is
reached. The organiser picks the ranking as a list of ``RANKINGS`` names, compared in
order, e.g. ``("territories", "pips", "elimination")``: territories held, then the total
size of the pieces on the board, then the elimination order so far.

Players still in the game rank above every eliminated player, by the ranking; players
equal on every step are tied. Eliminated players follow as the game's own finishing
order ranks them: the later eliminated the better, players eliminated at the same
moment tied (R24), forfeiters below everyone eliminated in play, the later the better
(R31). So "elimination" ranks only the eliminated, and it applies whether named or not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import State, load_position

Measure = Callable[[State, int], int]


def _territories(state: State, player: int) -> int:
    return sum(1 for pc in state.pieces if pc is not None and pc[0] == player)


def _pips(state: State, player: int) -> int:
    return sum(pc[1] for pc in state.pieces if pc is not None and pc[0] == player)


def _home(state: State, player: int) -> int:
    return sum(
        1
        for t in state.home_territories(player)
        if (pc := state.pieces[t]) is not None and pc[0] == player
    )


def _continent(state: State, player: int) -> int:
    """The most territories held of one continent not the player's home: how near the
    player stands to a win (R25)."""
    home = state.players[player].home
    return max(
        (
            sum(1 for t in territories if (pc := state.pieces[t]) is not None and pc[0] == player)
            for c, territories in enumerate(state.board.continent_territories)
            if c != home
        ),
        default=0,
    )


RANKINGS: dict[str, Measure] = {
    "territories": _territories,
    "pips": _pips,
    "home": _home,
    "continent": _continent,
}
RANKING_LABELS = {
    "territories": "territories held",
    "pips": "total size of pieces on the board",
    "home": "territories held on the home continent",
    "continent": "most territories held on one other continent",
    "elimination": "elimination order so far",
}
ELIMINATION = "elimination"


@dataclass(frozen=True)
class Elimination:
    """Players out of the game at one moment, in the order it happened; ``forfeit``:
    the player forfeited (R31)."""

    players: tuple[str, ...]
    forfeit: bool = False


@dataclass(frozen=True)
class PlayerValues:
    """What ranked a player: the ranking's values for a player still in the game; for
    an eliminated player, when they went out (1 first) and whether by forfeit."""

    player: str
    values: tuple[int, ...]
    eliminated: int | None
    forfeit: bool


@dataclass(frozen=True)
class Adjudication:
    """The finishing order (groups of engine player names, best first), the ranking
    used and each player's values; ``decided_by[i]``: what put group i + 1 below
    group i (a ranking name, or "elimination")."""

    order: tuple[tuple[str, ...], ...]
    ranking: tuple[str, ...]
    values: tuple[PlayerValues, ...]
    decided_by: tuple[str, ...]


def eliminations_from_moves(
    moves: Iterable[tuple[str, Sequence[Mapping[str, Any]]]],
) -> tuple[Elimination, ...]:
    """The eliminations of a game's move log: (action, events) of each move in order, as
    the games app stores them. The first elimination of a ``forfeit`` move is the
    forfeiter's."""
    found = []
    for action, events in moves:
        forfeit = action.startswith("forfeit ")
        for event in events:
            if event.get("type") == "eliminated":
                found.append(Elimination(tuple(event["players"]), forfeit))
                forfeit = False
    return tuple(found)


def adjudicate(
    position: State | Mapping[str, Any],
    ranking: Sequence[str],
    eliminations: Sequence[Elimination] | None = None,
) -> Adjudication:
    """Rank an unfinished game's players (see the module's text).

    ``position``: the game's position (a ``State`` or its stored form); ``eliminations``:
    from ``eliminations_from_moves``; without them, each eliminated player counts as
    going out alone, in the position's order, in play.
    """
    state = position if isinstance(position, State) else load_position(position)
    if state.phase == "over":
        raise ValueError("a finished game has its own finishing order")
    steps = tuple(name for name in ranking if name != ELIMINATION)
    unknown = [name for name in steps if name not in RANKINGS]
    if unknown or len(set(ranking)) != len(ranking):
        raise ValueError(f"unknown or repeated rankings: {', '.join(unknown) or ranking}")
    out = _checked(state, eliminations)
    values, survivors = _survivor_values(state, steps)
    order, decided = _rank_survivors(survivors, values, steps)
    behind, decided_out = _rank_eliminated(out)
    if order and behind:
        decided.append(ELIMINATION)
    order += behind
    decided += decided_out
    details = [
        PlayerValues(name, values.get(name, ()), *_out_of(name, out)) for name in _names(state)
    ]
    return Adjudication(tuple(order), tuple(ranking), tuple(details), tuple(decided))


def _names(state: State) -> list[str]:
    return [p.name for p in state.players]


def _checked(state: State, eliminations: Sequence[Elimination] | None) -> list[Elimination]:
    """The eliminations, checked against the position's eliminated players."""
    gone = [state.players[p].name for p in state.eliminated]
    if eliminations is None:
        return [Elimination((name,)) for name in gone]
    listed = [name for e in eliminations for name in e.players]
    if sorted(listed) != sorted(gone):
        raise ValueError("the eliminations do not match the position's eliminated players")
    return list(eliminations)


def _survivor_values(
    state: State, steps: Sequence[str]
) -> tuple[dict[str, tuple[int, ...]], list[str]]:
    values, survivors = {}, []
    for p, player in enumerate(state.players):
        if state.in_game(p):
            survivors.append(player.name)
            values[player.name] = tuple(RANKINGS[name](state, p) for name in steps)
    return values, survivors


def _rank_survivors(
    survivors: list[str], values: dict[str, tuple[int, ...]], steps: Sequence[str]
) -> tuple[list[tuple[str, ...]], list[str]]:
    """Higher values first; equal values tied."""
    ranked = sorted(survivors, key=lambda n: tuple(-v for v in values[n]))
    groups: list[list[str]] = []
    decided: list[str] = []
    for name in ranked:
        if groups and values[groups[-1][0]] == values[name]:
            groups[-1].append(name)
            continue
        if groups:
            above = values[groups[-1][0]]
            decided.append(
                next(s for s, a, b in zip(steps, above, values[name], strict=True) if a != b)
            )
        groups.append([name])
    return [tuple(g) for g in groups], decided


def _rank_eliminated(out: list[Elimination]) -> tuple[list[tuple[str, ...]], list[str]]:
    """The later eliminated in play the better, together tied; forfeiters after them."""
    in_play = [e.players for e in reversed(out) if not e.forfeit]
    forfeited = [e.players for e in reversed(out) if e.forfeit]
    order = in_play + forfeited
    return order, [ELIMINATION] * max(0, len(order) - 1)


def _out_of(name: str, out: list[Elimination]) -> tuple[int | None, bool]:
    for i, e in enumerate(out, start=1):
        if name in e.players:
            return i, e.forfeit
    return None, False
