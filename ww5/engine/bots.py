"""Two bots on the public API: ``random`` and ``greedy``.

A bot is a function ``(state, rng) -> action`` that returns one of
``legal_actions(state)`` for the player the state waits for (a turn, a setup placement
or a retreat). ``rng`` is any object with ``random()``; bots never touch global state.

``greedy`` looks one action ahead: it scores the position after each action (for an
INVADE, both combat outcomes weighted by the exact odds, with the defender choosing the
retreat that is worst for it), so it takes a win when one exists, attacks with good
odds, keeps its home covered, never eliminates itself while it has another choice, and
chooses the retreat that leaves it best placed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from .odds import combat_odds
from .rules import apply_action, legal_actions
from .state import OVER, Piece, State

WIN = 10_000_000.0
OUT_BONUS = 25.0
HOME_PENALTY = {0: -3000.0, 1: -900.0, 2: -40.0}
PROGRESS = (0.0, 120.0, 480.0, 0.0)
DRAW = -0.9 * WIN  # a draw eliminates the bot too: only better than losing outright


class Random(Protocol):
    def random(self) -> float: ...


Bot = Callable[[State, Random], str]


def random_bot(state: State, rng: Random) -> str:
    """Any legal action, uniformly."""
    actions = legal_actions(state)
    return actions[int(rng.random() * len(actions))]


def greedy_bot(state: State, rng: Random) -> str:
    """The action with the best one-ply score; ties broken by ``rng``."""
    me = state.to_move
    assert me is not None
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    scored = [(_score_action(state, action, me), rng.random(), action) for action in actions]
    return max(scored)[2]


def _score_action(state: State, action: str, me: int) -> float:
    if not action.startswith("invade "):
        after, _ = apply_action(state, action)
        return _after_defender(after, me)
    origin, target = (state.board.territory_index[t] for t in action.split()[1:])
    attacker, defender = state.pieces[origin], state.pieces[target]
    assert attacker is not None and defender is not None
    odds = float(combat_odds(attacker[1], defender[1]))
    won, _ = apply_action(state, action, dice=[6] * attacker[1] + [1] * defender[1])
    lost, _ = apply_action(state, action, dice=[1] * attacker[1] + [6] * defender[1])
    return odds * _after_defender(won, me) + (1 - odds) * evaluate(lost, me)


def _after_defender(state: State, me: int) -> float:
    """Score a state; if someone else must choose a retreat, assume the worst choice."""
    if state.pending is None or state.to_move == me:
        return evaluate(state, me)
    return min(evaluate(apply_action(state, a)[0], me) for a in legal_actions(state))


def evaluate(state: State, me: int) -> float:
    """How good ``state`` is for player ``me`` (higher is better)."""
    if state.phase == OVER:
        if state.winner == me:
            return WIN
        return DRAW if state.winner is None and me in state.eliminated else -WIN
    if me in state.eliminated:
        return -WIN
    board = state.board
    pieces = state.pieces
    score = 0.0
    home_continent = state.players[me].home
    for t, piece in enumerate(pieces):
        if piece is not None:
            if piece[0] != me:
                score -= 12.0 * piece[1]
            else:
                score += 30.0 * piece[1]
                if board.continent_of[t] != home_continent:
                    score += OUT_BONUS
    rivals = [p for p in range(len(state.players)) if p != me and p not in state.eliminated]
    score += _progress(state, pieces, me)
    for rival in rivals:
        score -= 1.3 * _progress(state, pieces, rival)
        score += 25.0 * (3 - _home_count(state, pieces, rival))
    home = state.home_territories(me)
    held = _home_count(state, pieces, me)
    score += HOME_PENALTY.get(held, 0.0)
    for t in home:
        piece = pieces[t]
        if piece is not None and piece[0] == me:
            danger = _danger(board.neighbors[t], pieces, me, piece[1])
            score -= danger * (700.0 if held == 1 else 120.0)
    return score


def _home_count(state: State, pieces: Sequence[Piece | None], player: int) -> int:
    return sum(
        1
        for t in state.home_territories(player)
        if (pc := pieces[t]) is not None and pc[0] == player
    )


def _danger(neighbors: Sequence[int], pieces: Sequence[Piece | None], me: int, pips: int) -> float:
    """The best odds any enemy neighbour has of beating a piece of ``pips``."""
    worst = 0.0
    for n in neighbors:
        other = pieces[n]
        if other is not None and other[0] != me:
            worst = max(worst, _ODDS[other[1]][pips])
    return worst


def _progress(state: State, pieces: Sequence[Piece | None], player: int) -> float:
    """Progress towards R25: territories held in each foreign continent, and whether the
    last one can be taken next turn."""
    board = state.board
    home = state.players[player].home
    best = 0.0
    for c, territories in enumerate(board.continent_territories):
        if c == home:
            continue
        held = [t for t in territories if (pc := pieces[t]) is not None and pc[0] == player]
        value = PROGRESS[len(held)]
        if len(held) == 2:
            (last,) = (t for t in territories if t not in held)
            value += 1500.0 * _reach(board.neighbors[last], pieces, player, pieces[last])
        best = max(best, value)
    return best


def _reach(
    neighbors: Sequence[int], pieces: Sequence[Piece | None], player: int, occupant: Piece | None
) -> float:
    """The chance ``player`` can take a territory next turn from a neighbouring piece."""
    if occupant is not None and occupant[0] == player:
        return 0.0
    best = 0.0
    for n in neighbors:
        piece = pieces[n]
        if piece is not None and piece[0] == player:
            best = max(best, 1.0 if occupant is None else _ODDS[piece[1]][occupant[1]])
    return best


_ODDS = [[0.0] * 4] + [[0.0] + [float(combat_odds(a, d)) for d in (1, 2, 3)] for a in (1, 2, 3)]

BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}
