"""The RisiKo rules engine: pure Python, no I/O, no clock, no global randomness.

Implements ``shared/rules/risiko.md`` (K1–K39) with the text formats of
``shared/risiko/contract.md``. A state is never changed: every function returns a new
one, and illegal input raises a ``ValueError`` subclass (:class:`IllegalAction`,
:class:`PositionError`, :class:`RandomError`) with the explanation, changing nothing.
Random numbers come only from the ``rng`` given (``randint(a, b)``), in the contract's
order; :class:`ListRandom` replays a fixed list of values.

Events
------
``apply_action`` and ``forfeit`` return, besides the new state, a list of events: dicts
with a ``"type"`` and these keys (territories by id, players by name):

- ``sealed`` ``player``: a sealed placement was received (never its content, K38).
- ``revealed`` ``placements`` {player: canonical place action}: the sealed placements,
  all applied at once.
- ``placed`` ``player``, ``armies`` {territory: n}.
- ``turn`` ``player``, ``number``, ``reinforcements``, ``continents`` [ids held]: a turn
  begins (K14).
- ``traded`` ``player``, ``cards`` [3], ``value``, ``bonus`` (K15, K16).
- ``roll`` ``player``, ``from``, ``to``, ``attacker`` [dice, high first], ``defender``
  [dice], ``attacker_lost``, ``defender_lost``: one roll of an attack order (K19–K21).
- ``war`` ``player``, ``from``, ``to``, ``defender``: a war-die attack awaits the
  defender (K39b); its cost stays sealed.
- ``war_revealed`` ``player``, ``defender``, ``from``, ``to``, ``attack``, ``answer``
  (both canonical), ``result``: ``attacker``, ``defender`` or ``truce`` (K39c–K39e);
  but for a truce also ``attacker_paid``, ``defender_paid`` and ``removed`` (the target's
  armies left after paying, removed on the attacker's win, K39d).
- ``war_called_off`` ``from``, ``to``: the attacker forfeited a pending war.
- ``conquered`` ``player``, ``territory``, ``from``, ``defender`` (K22).
- ``moved_in`` ``player``, ``from``, ``to``, ``armies`` (the territory's armies after the
  move); ``asked`` when a ``move <m>`` clause was clamped (reported, never refused).
- ``eliminated`` ``player``, ``by``, ``cards`` (how many passed to ``by``, K23).
- ``fortified`` ``player``, ``from``, ``to``, ``armies`` (K24).
- ``reshuffled`` ``cards``: the discard pile became the draw pile (K25).
- ``drew`` ``player``, ``card``: the card is for the drawer alone (K25, K33); others are
  told only that a card was drawn.
- ``truce_ended`` ``attacker``, ``defender`` (K39e).
- ``turn_ended`` ``player``, ``number``.
- ``forfeit`` ``player`` (K36).
- ``won`` ``player``, ``how`` (``objective`` or ``last``), ``objective`` (K30, K31).
"""

from .board import BOARDS, DEFAULT_BOARD, Board, BoardError, load_boards
from .commitment import commitment, verify_commitment
from .dice import ListRandom, RandomSource, RecordingRandom, shuffle
from .errors import IllegalAction, PositionError, RandomError
from .odds import attack_odds, roll_odds
from .position import dump_position, load_position, view
from .rules import (
    Event,
    Report,
    apply_action,
    default_actions,
    forfeit,
    new_game,
    objective_met,
    parse_action,
    reinforcements,
    run_script,
    run_script_with_events,
)
from .state import State

__all__ = [
    "BOARDS",
    "DEFAULT_BOARD",
    "Board",
    "BoardError",
    "Event",
    "IllegalAction",
    "ListRandom",
    "PositionError",
    "RandomError",
    "RandomSource",
    "RecordingRandom",
    "Report",
    "State",
    "apply_action",
    "attack_odds",
    "commitment",
    "default_actions",
    "dump_position",
    "forfeit",
    "load_boards",
    "load_position",
    "new_game",
    "objective_met",
    "parse_action",
    "reinforcements",
    "roll_odds",
    "run_script",
    "run_script_with_events",
    "shuffle",
    "verify_commitment",
    "view",
]
