"""Why an action is not legal now, in words a player can act on (with the rule id)."""

from __future__ import annotations

from .rules import setup_turn
from .state import CASUAL, LARGE, OVER, SETUP, SMALL, State, action_table, size_name


def why_illegal(state: State, action: str) -> str:
    table = action_table(state.board)
    if action not in table.parsed:
        return f"{action!r} is not an action in canonical notation"
    if state.phase == OVER:
        return "the game is over"
    verb, args = table.parsed[action]
    me = state.to_move
    assert me is not None
    name = state.players[me].name
    ids = state.board.territories
    if state.pending is not None:
        r = state.pending
        if verb != "retreat":
            return f"{name} must first choose where the piece in {ids[r.territory]} retreats (R22)"
        if args[0] == r.origin:
            return f"{ids[args[0]]} is where the attack came from: no retreat there (R19)"
        return f"{ids[args[0]]} is not one of the retreat options (R18)"
    if verb == "retreat":
        return "there is no retreat to choose now"
    if state.phase == SETUP:
        return _setup_reason(state, verb, args)
    if verb in ("place", "place_all"):
        return "setup is over: the pieces are placed"
    if verb == "pass":
        return "passing is not allowed (R14)"

    owner = _owner_name(state, args[0])
    if owner != name and verb != "build":
        return f"{ids[args[0]]} holds no piece of {name}'s"
    home = state.home_territories(me)
    if verb == "grow":
        piece = state.pieces[args[0]]
        assert piece is not None
        if args[0] not in home:
            return f"a piece can grow only on its owner's home continent (R10): {ids[args[0]]}"
        if piece[1] == LARGE:
            return "a large cannot grow (R10)"
        bigger = size_name(piece[1] + 1)
        return f"{name} has no {bigger} in supply to grow into (R10)"
    if verb == "build":
        if args[0] not in home:
            return f"a small can be built only on your home continent (R11): {ids[args[0]]}"
        if state.pieces[args[0]] is not None:
            return f"{ids[args[0]]} is not empty (R11)"
        return f"{name} has no small in supply (R11)"
    a, b = args
    target = _owner_name(state, b)
    if verb == "move":
        return f"{ids[b]} is not empty: a piece moves only to an empty territory (R12)"
    if target is None:
        return f"{ids[b]} is empty: move there instead of invading (R13)"
    return f"{ids[b]} holds {name}'s own piece: you never attack your own pieces (R13)"


def _owner_name(state: State, territory: int) -> str | None:
    piece = state.pieces[territory]
    return None if piece is None else state.players[piece[0]].name


def _setup_reason(state: State, verb: str, args: tuple[int, ...]) -> str:
    me = state.to_move
    assert me is not None
    name = state.players[me].name
    ids = state.board.territories
    home = state.home_territories(me)
    if verb not in ("place", "place_all"):
        return f"setup is not finished: {name} places pieces (R6-R7)"
    if state.setup == CASUAL and verb == "place":
        return "casual setup: place all three pieces at once, one of each size (R7)"
    if state.setup != CASUAL and verb == "place_all":
        return "strict setup: place one piece at a time (R7)"
    territories = args if verb == "place_all" else args[1:]
    for t in territories:
        if t not in home:
            return f"pieces are placed on your home continent (R6): {ids[t]} is not"
        if state.pieces[t] is not None:
            return f"{ids[t]} already holds a piece (R1)"
    _, pips = setup_turn(state)
    if verb == "place" and args[0] != pips:
        order = "smalls" if pips == SMALL else f"{size_name(pips)}s"
        return f"strict setup places all {order} now, so place a {size_name(pips)} (R7)"
    return "that placement is not legal now"
