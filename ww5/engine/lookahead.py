"""What a legal action would do to its own player, found by trying it on a copy.

R15 lets a player empty their own home continent, which eliminates them (R23); every
interface must warn before such a decision is submitted, so the question belongs with
the rules rather than with each interface.
"""

from __future__ import annotations

from .errors import IllegalAction
from .explain import why_illegal
from .rules import apply_action
from .state import State

# Only these can take a player's piece out of a territory of their own.
LEAVING_VERBS = frozenset({"move", "invade", "retreat"})


def eliminates_mover(state: State, action: str) -> bool:
    """R15: whether the legal ``action`` leaves its player's home continent empty.

    The action is tried with dice the attacker wins, since only a successful INVADE
    moves the attacker out of its territory; when the defender then has a retreat to
    choose, the attacker moves in whatever it chooses, so any choice tells. Raises
    :class:`IllegalAction` for an action that is not legal in ``state``.
    """
    if action not in state.legal_set:
        raise IllegalAction(why_illegal(state, action), legal=state.legal)
    me = state.to_move
    verb = action.split(" ", 1)[0]
    if me is None or verb not in LEAVING_VERBS:
        return False
    after, _ = apply_action(state, action, dice=_attacker_wins(state, action))
    if after.pending is not None and after.to_move != me:
        after, _ = apply_action(after, after.legal[0])
    return me in after.eliminated


def _attacker_wins(state: State, action: str) -> list[int]:
    """Dice with which the legal ``action``, if an INVADE, succeeds (R16-R17); the
    other verbs roll none."""
    words = action.split()
    if words[0] != "invade":
        return []
    attacker, defender = (state.pieces[state.board.territory_index[t]] for t in words[1:3])
    assert attacker is not None and defender is not None  # a legal INVADE: R13
    return [6] * attacker[1] + [1] * defender[1]
