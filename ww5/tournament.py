"""What World War 5 gives an event or a ladder: the measures of the turn-limit house rule
and the home continents a seat gets.

The printed rules have no turn limit (R28); a tournament may add one, clearly labelled,
with its own published way of ranking the players of a game still running when it is
reached. The ranking compares the players still in the game on some of ``MEASURES``, in
the order the organiser published (``tournaments.core.adjudication`` does the ranking),
and ranks the eliminated by the game's own finishing order: the later eliminated the
better, together tied (R24), forfeiters below everyone eliminated in play (R31).

Each player has a home continent (R4), which a tournament may assign: an event balances
the ``CONTINENTS`` over its rounds (``tournaments.core.seating``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tournaments.core.adjudication import Adjudication, Elimination, ranking_steps
from tournaments.core.adjudication import adjudicate as rank
from ww5.engine import BOARDS, State, load_position

Measure = Callable[[State, int], int]

# The home continents (R4): the same on every board.
CONTINENTS: tuple[str, ...] = BOARDS["original"].continents


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


# What a turn-limit ranking (R28) may compare the players still in the game by: higher
# is better.
MEASURES: dict[str, Measure] = {
    "territories": _territories,
    "pips": _pips,
    "home": _home,
    "continent": _continent,
}
# Each measure in words for the organiser and the players.
MEASURE_WORDS: dict[str, str] = {
    "territories": "territories held",
    "pips": "size of pieces",  # as standings.json has published it since its first version
    "home": "territories held on the home continent",
    "continent": "most territories held on one other continent",
}


def measure(state: State, measures: Sequence[str]) -> dict[str, tuple[int, ...] | None]:
    """Every player of the game, in its order, with their values on ``measures`` (names
    of ``MEASURES``, in the order given), or None for a player eliminated already."""
    unknown = [name for name in measures if name not in MEASURES]
    if unknown:
        raise ValueError(f"unknown measures: {', '.join(unknown)}")
    return {
        player.name: tuple(MEASURES[name](state, p) for name in measures)
        if state.in_game(p)
        else None
        for p, player in enumerate(state.players)
    }


def eliminations_from_moves(
    moves: Iterable[tuple[str, Sequence[Mapping[str, Any]]]],
) -> tuple[Elimination, ...]:
    """The eliminations of a game's move log: (action, events) of each move in order, as
    the games app stores them. The first elimination of a ``forfeit`` move is the
    forfeiter's (R31); players eliminated by one move went out together (R24)."""
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
    """Rank the players of an unfinished game under a turn limit (R28): the players still
    in by ``ranking`` (names of ``MEASURES``, and ``"elimination"``), the eliminated by
    ``eliminations`` (from ``eliminations_from_moves``).

    ``position``: a ``State`` or its stored form. Without ``eliminations``, each
    eliminated player counts as going out alone, in the position's order, in play.
    """
    state = position if isinstance(position, State) else load_position(position)
    if state.phase == "over":
        raise ValueError("a finished game has its own finishing order")
    steps = ranking_steps(ranking, MEASURES)
    if eliminations is None:
        eliminations = [Elimination((state.players[p].name,)) for p in state.eliminated]
    return rank(measure(state, steps), ranking, eliminations, measures=MEASURES)
