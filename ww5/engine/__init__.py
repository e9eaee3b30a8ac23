"""The World War 5 rules engine: pure Python, no I/O, no clock, no global randomness.

Implements ``shared/rules/world-war-5.md`` (R1–R31) with the text formats of
``shared/ww5/contract.md``.
"""

from .board import BOARDS, Board, BoardError, load_boards
from .errors import DiceError, IllegalAction, PositionError
from .lookahead import eliminates_mover
from .notation import parse_action
from .odds import combat_odds
from .position import dump_position, load_position
from .ranking import competition_ranks, finishing_order
from .rules import (
    Event,
    ManyPlayersWarning,
    apply_action,
    forfeit,
    legal_actions,
    new_game,
    start_position,
)
from .state import State

__all__ = [
    "BOARDS",
    "Board",
    "BoardError",
    "DiceError",
    "Event",
    "IllegalAction",
    "ManyPlayersWarning",
    "PositionError",
    "State",
    "apply_action",
    "combat_odds",
    "competition_ranks",
    "dump_position",
    "eliminates_mover",
    "finishing_order",
    "forfeit",
    "legal_actions",
    "load_boards",
    "load_position",
    "new_game",
    "parse_action",
    "start_position",
]
