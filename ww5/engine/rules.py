"""The rules R1–R31 of ``world-war-5.md``: new games, legal actions, transitions.

Every transition takes a state and returns a new state plus the events it produced,
in order, as JSON-ready dicts (for the game record, logs and emails).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

from .board import BOARDS, DEFAULT_BOARD, Board
from .errors import DiceError, IllegalAction
from .state import (
    CASUAL,
    LARGE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    PIECES_PER_SIZE,
    PLAY,
    SETUP,
    SMALL,
    STRICT,
    WARN_PLAYERS,
    Piece,
    Player,
    Retreat,
    State,
    action_table,
    size_name,
)

Action = tuple[str, tuple[int, ...]]
Event = dict[str, Any]
OPTION_KEYS = frozenset({"board", "setup", "retreat_into_origin"})


class DiceSource(Protocol):
    def randint(self, a: int, b: int, /) -> int: ...


class ManyPlayersWarning(UserWarning):
    """R3: five or six players are allowed, with a warning."""


# --- starting a game ---------------------------------------------------------


def roll_for_start(names: Sequence[str], rng: DiceSource) -> tuple[int, list[Event]]:
    """R5: everyone rolls one die; players tied for highest re-roll among themselves."""
    contenders = list(range(len(names)))
    record: list[Event] = []
    while True:
        rolls = {i: rng.randint(1, 6) for i in contenders}
        record.append({"type": "start_roll", "rolls": {names[i]: v for i, v in rolls.items()}})
        best = max(rolls.values())
        contenders = [i for i in contenders if rolls[i] == best]
        if len(contenders) == 1:
            record.append({"type": "first_player", "player": names[contenders[0]]})
            return contenders[0], record


def check_options(options: dict[str, Any]) -> tuple[Board, str, bool]:
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise ValueError(f"unknown option {sorted(unknown)[0]!r}")
    board_id = options.get("board", DEFAULT_BOARD)
    if board_id not in BOARDS:
        raise ValueError(f"unknown board {board_id!r}; boards: {', '.join(sorted(BOARDS))}")
    setup = options.get("setup", STRICT)
    if setup not in (STRICT, CASUAL):
        raise ValueError(f"setup must be 'strict' or 'casual', not {setup!r}")
    retreat_into_origin = options.get("retreat_into_origin", False)
    if not isinstance(retreat_into_origin, bool):
        raise ValueError("retreat_into_origin must be true or false")
    return BOARDS[board_id], setup, retreat_into_origin


def check_players(board: Board, players: Sequence[tuple[str, str]]) -> tuple[Player, ...]:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
    names = [name for name, _ in players]
    homes = [home for _, home in players]
    for name in names:
        if not isinstance(name, str) or not name:
            raise ValueError("every player needs a non-empty name")
    if len(set(names)) != len(names):
        raise ValueError("two players have the same name")
    for home in homes:
        if home not in board.continent_index:
            raise ValueError(f"unknown home continent {home!r}")
    if len(set(homes)) != len(homes):
        raise ValueError("two players have the same home continent")
    return tuple(Player(name, board.continent_index[home]) for name, home in players)


def start_position(players: Sequence[tuple[str, str]], options: dict[str, Any]) -> State:
    """The setup-phase state with ``players`` already in turn order (first player first)."""
    board, setup, retreat_into_origin = check_options(options)
    seats = check_players(board, players)
    if len(seats) >= WARN_PLAYERS:
        warnings.warn(
            f"{len(seats)} players (R3): expect a long game"
            + ("; no one can win until someone is eliminated" if len(seats) == 6 else ""),
            ManyPlayersWarning,
            stacklevel=3,
        )
    return State(
        board=board,
        setup=setup,
        retreat_into_origin=retreat_into_origin,
        players=seats,
        phase=SETUP,
        to_move=0,
        pieces=(None,) * len(board.territories),
        pending=None,
        eliminated=(),
        winner=None,
    )


def new_game(
    players: Sequence[tuple[str, str]], options: dict[str, Any], rng: DiceSource
) -> tuple[State, list[Event]]:
    """R4–R5: ``players`` as ``(name, home continent id)`` in seat order.

    Rolls for the first player (R5); turn order then follows seat order from them.
    Returns the setup-phase state and the record of the start rolls.
    """
    check_players(check_options(options)[0], players)
    first, record = roll_for_start([name for name, _ in players], rng)
    in_turn_order = list(players[first:]) + list(players[:first])
    return start_position(in_turn_order, options), record


# --- legal actions -----------------------------------------------------------


def generate_legal_actions(state: State) -> tuple[str, ...]:
    """R7, R9–R14, R22: every legal action in canonical notation, sorted."""
    if state.phase == OVER or state.to_move is None:
        return ()
    table = action_table(state.board)
    if state.pending is not None:
        return tuple(sorted(table.retreat[t] for t in state.pending.options))
    if state.phase == SETUP:
        return _setup_actions(state)
    me = state.to_move
    pieces = state.pieces
    edges = table.edges
    counts = [0, 0, 0, 0]
    actions: list[str] = []
    for t, piece in enumerate(pieces):
        if piece is None or piece[0] != me:
            continue
        counts[piece[1]] += 1
        for n, move, invade in edges[t]:
            other = pieces[n]
            if other is None:
                actions.append(move)  # R12
            elif other[0] != me:
                actions.append(invade)  # R13
    for t in state.home_territories(me):
        piece = pieces[t]
        if piece is None:
            if counts[SMALL] < PIECES_PER_SIZE:
                actions.append(table.build[t])  # R11
        elif piece[0] == me and piece[1] < LARGE and counts[piece[1] + 1] < PIECES_PER_SIZE:
            actions.append(table.grow[t])  # R10
    if not actions:
        return ("pass",)  # R14: a guard; a connected board never gets here
    actions.sort()
    return tuple(actions)


def setup_turn(state: State) -> tuple[int, int]:
    """R7: (placer, pips) of the next strict placement, from the pieces placed so far."""
    placed = sum(1 for piece in state.pieces if piece is not None)
    return placed % len(state.players), placed // len(state.players) + 1


def _setup_actions(state: State) -> tuple[str, ...]:
    table = action_table(state.board)
    me = state.to_move
    assert me is not None
    home = state.home_territories(me)
    if state.setup == CASUAL:
        return table.place_all[state.players[me].home]
    _, pips = setup_turn(state)
    return tuple(sorted(table.place[pips - 1][t] for t in home if state.pieces[t] is None))


def legal_actions(state: State) -> list[str]:
    """Every legal action in canonical notation, sorted; ``[]`` once the game is over."""
    return list(state.legal)


# --- applying actions --------------------------------------------------------


def apply_action(
    state: State,
    action: str,
    dice: Iterable[int] | None = None,
    rng: DiceSource | None = None,
) -> tuple[State, list[Event]]:
    """Apply one canonical action for the player to move.

    An INVADE takes its dice from ``dice`` (attacker's first) or else from ``rng``.
    Raises :class:`IllegalAction` with a reason a player can act on.
    """
    if action not in state.legal_set:
        from .explain import why_illegal

        raise IllegalAction(why_illegal(state, action), legal=state.legal)
    verb, args = action_table(state.board).parsed[action]
    me = state.to_move
    assert me is not None
    if verb == "invade":
        return _invade(state, me, args[0], args[1], dice, rng)
    if verb == "retreat":
        return _retreat(state, args[0])
    if verb in ("place", "place_all"):
        return _place(state, me, args)
    pieces = list(state.pieces)
    name = state.players[me].name
    ids = state.board.territories
    event: Event
    if verb == "move":
        a, b = args
        pieces[b], pieces[a] = pieces[a], None
        event = {"type": "move", "player": name, "from": ids[a], "to": ids[b]}
    elif verb == "grow":
        (t,) = args
        old = pieces[t]
        assert old is not None
        pieces[t] = (me, old[1] + 1)
        event = {
            "type": "grow",
            "player": name,
            "territory": ids[t],
            "from": size_name(old[1]),
            "to": size_name(old[1] + 1),
        }
    elif verb == "build":
        (t,) = args
        pieces[t] = (me, SMALL)
        event = {"type": "build", "player": name, "territory": ids[t]}
    else:
        event = {"type": "pass", "player": name}
    if verb != "move":  # GROW, BUILD and pass cannot empty a home or complete a continent
        return _evolve(state, pieces, _next_player(state, me)), [event]
    return _resolve(state, pieces, me, [event], (me,))


def _place(state: State, me: int, args: tuple[int, ...]) -> tuple[State, list[Event]]:
    """R6–R8: a setup placement; after the last one the first player starts play."""
    pieces = list(state.pieces)
    ids = state.board.territories
    if len(args) == 2:
        pips, t = args
        pieces[t] = (me, pips)
        placed = {ids[t]: size_name(pips)}
    else:
        placed = {}
        for pips, t in enumerate(args, start=SMALL):
            pieces[t] = (me, pips)
            placed[ids[t]] = size_name(pips)
    events: list[Event] = [{"type": "place", "player": state.players[me].name, "pieces": placed}]
    if state.setup == STRICT:
        total = sum(1 for piece in pieces if piece is not None)
        done = total == len(state.players) * PIECES_PER_SIZE
        next_player = 0 if done else total % len(state.players)
    else:
        done = me + 1 == len(state.players)
        next_player = 0 if done else me + 1
    if done:
        events.append({"type": "play_starts", "player": state.players[0].name})
    return _evolve(state, pieces, next_player, phase=PLAY if done else SETUP), events


def _draw_dice(count: int, dice: Iterator[int] | None, rng: DiceSource | None) -> list[int]:
    values = []
    for _ in range(count):
        if dice is not None:
            value = next(dice, None)
            if value is None:
                raise DiceError("too few dice for this attack")
        elif rng is not None:
            value = rng.randint(1, 6)
        else:
            raise DiceError("an INVADE needs dice or a random source")
        if type(value) is not int or not 1 <= value <= 6:
            raise DiceError(f"a die shows 1 to 6, not {value!r}")
        values.append(value)
    return values


def _invade(
    state: State,
    me: int,
    origin: int,
    target: int,
    dice: Iterable[int] | None,
    rng: DiceSource | None,
) -> tuple[State, list[Event]]:
    """R16–R22: combat, then the retreat, the shrink or nothing."""
    attacker_piece = state.pieces[origin]
    defender_piece = state.pieces[target]
    assert attacker_piece is not None and defender_piece is not None
    defender = defender_piece[0]
    source = iter(dice) if dice is not None else None
    attacker_dice = _draw_dice(attacker_piece[1], source, rng)
    defender_dice = _draw_dice(defender_piece[1], source, rng)
    ids = state.board.territories
    names = state.players
    won = sum(attacker_dice) > sum(defender_dice)  # R17: ties go to the defender
    events: list[Event] = [
        {
            "type": "invade",
            "player": names[me].name,
            "from": ids[origin],
            "to": ids[target],
            "defender": names[defender].name,
        },
        {
            "type": "combat",
            "attacker": names[me].name,
            "defender": names[defender].name,
            "attacker_dice": attacker_dice,
            "defender_dice": defender_dice,
            "attacker_total": sum(attacker_dice),
            "defender_total": sum(defender_dice),
            "winner": "attacker" if won else "defender",
        },
    ]
    if not won:
        return _evolve(state, state.pieces, _next_player(state, me)), events

    options = retreat_options(state, target, origin)
    if len(options) >= 2:  # R22: the defender chooses
        pending = Retreat(defender, target, me, origin, options)
        events.append(
            {
                "type": "retreat_pending",
                "player": names[defender].name,
                "territory": ids[target],
                "options": [ids[t] for t in options],
            }
        )
        return _evolve(state, state.pieces, defender, pending=pending), events
    pieces = list(state.pieces)
    if len(options) == 1:
        _flee(state, pieces, target, origin, options[0], events, forced=True)
    else:
        _shrink(state, pieces, target, origin, events)
    return _resolve(state, pieces, me, events, (me, defender))


def retreat_options(state: State, target: int, origin: int) -> tuple[int, ...]:
    """R18–R19: empty territories next to the disputed one; the origin only by option."""
    pieces = state.pieces
    options = [n for n in state.board.neighbors[target] if pieces[n] is None]
    if state.retreat_into_origin:
        options.append(origin)
        options.sort()
    return tuple(options)


def _flee(
    state: State,
    pieces: list[Piece | None],
    target: int,
    origin: int,
    to: int,
    events: list[Event],
    forced: bool,
) -> None:
    """R18: the flight and the move-in happen at the same moment."""
    defender_piece, attacker_piece = pieces[target], pieces[origin]
    assert defender_piece is not None and attacker_piece is not None
    ids = state.board.territories
    pieces[origin] = None
    pieces[to] = defender_piece
    pieces[target] = attacker_piece
    events.append(
        {
            "type": "retreat",
            "player": state.players[defender_piece[0]].name,
            "from": ids[target],
            "to": ids[to],
            "forced": forced,
        }
    )
    events.append(_move_in(state, attacker_piece[0], origin, target))


def _move_in(state: State, player: int, origin: int, target: int) -> Event:
    ids = state.board.territories
    return {
        "type": "move_in",
        "player": state.players[player].name,
        "from": ids[origin],
        "to": ids[target],
    }


def _shrink(
    state: State, pieces: list[Piece | None], target: int, origin: int, events: list[Event]
) -> None:
    """R20–R21: no retreat: shrink to the next smaller size in supply, or be removed."""
    defender_piece = pieces[target]
    assert defender_piece is not None
    defender, pips = defender_piece
    ids = state.board.territories
    name = state.players[defender].name
    for smaller in range(pips - 1, 0, -1):
        if state.supply(defender, smaller) > 0:
            pieces[target] = (defender, smaller)
            events.append(
                {
                    "type": "shrink",
                    "player": name,
                    "territory": ids[target],
                    "from": size_name(pips),
                    "to": size_name(smaller),
                }
            )
            return
    attacker_piece = pieces[origin]
    assert attacker_piece is not None
    events.append(
        {"type": "removed", "player": name, "territory": ids[target], "size": size_name(pips)}
    )
    pieces[target], pieces[origin] = attacker_piece, None  # R21: the move-in is compulsory
    events.append(_move_in(state, attacker_piece[0], origin, target))


def _retreat(state: State, to: int) -> tuple[State, list[Event]]:
    """R22: the defender's chosen retreat completes the attacker's INVADE."""
    pending = state.pending
    assert pending is not None
    pieces = list(state.pieces)
    events: list[Event] = []
    _flee(state, pieces, pending.territory, pending.origin, to, events, forced=False)
    return _resolve(
        state, pieces, pending.attacker, events, (pending.attacker, pending.player), True
    )


def has_home_piece(state: State, pieces: Sequence[Piece | None], player: int) -> bool:
    for t in state.home_territories(player):
        piece = pieces[t]
        if piece is not None and piece[0] == player:
            return True
    return False


def holds_foreign_continent(
    state: State, pieces: Sequence[Piece | None], player: int
) -> int | None:
    """R25's first half: the index of another continent all of whose territories are the
    player's, or None."""
    home = state.players[player].home
    for c, territories in enumerate(state.board.continent_territories):
        if c == home:
            continue
        for t in territories:
            piece = pieces[t]
            if piece is None or piece[0] != player:
                break
        else:
            return c
    return None


def _next_player(state: State, player: int, eliminated: tuple[int, ...] | None = None) -> int:
    """R8a: the next player after ``player`` in seat order who is still in the game."""
    out = state.eliminated if eliminated is None else eliminated
    n = len(state.players)
    for k in range(1, n):
        if (player + k) % n not in out:
            return (player + k) % n
    return player


def _resolve(
    state: State,
    pieces: list[Piece | None],
    active: int,
    events: list[Event],
    movers: tuple[int, ...],
    clear_pending: bool = False,
) -> tuple[State, list[Event]]:
    """After every resolution: eliminations (R23–R24), victory (R25–R27), next turn (R8a).

    ``movers`` are the players whose pieces left or entered a territory, the active
    player first. Only they can have emptied their home or completed a continent: every
    other player's pieces stand where they stood in a valid position, where no one had
    yet won.
    """
    pending = None if clear_pending else state.pending
    gone = tuple(p for p in movers if not has_home_piece(state, pieces, p))
    eliminated = state.eliminated
    if gone:
        pieces = [None if pc is not None and pc[0] in gone else pc for pc in pieces]
        eliminated = eliminated + gone
        events.append({"type": "eliminated", "players": [state.players[p].name for p in gone]})
    return _conclude(state, pieces, active, events, eliminated, pending, movers)


def _conclude(
    state: State,
    pieces: list[Piece | None],
    active: int,
    events: list[Event],
    eliminated: tuple[int, ...],
    pending: Retreat | None,
    movers: tuple[int, ...],
    next_player: int | None = None,
) -> tuple[State, list[Event]]:
    """R24–R28: the draw, the win, or the turn passing to ``next_player``."""
    remaining = [p for p in range(len(state.players)) if p not in eliminated]
    if not remaining:  # R24: the only draw
        events.append({"type": "draw", "players": [state.players[p].name for p in eliminated]})
        return _evolve(state, pieces, None, OVER, None, eliminated, None), events
    winner, reason = -1, {}
    if len(remaining) == 1:  # R26
        winner, reason = remaining[0], {"reason": "last_player"}
    for p in movers:  # R25; the active player comes first and wins a tie (R27)
        if winner < 0 and p not in eliminated:
            continent = holds_foreign_continent(state, pieces, p)
            if continent is not None:
                winner = p
                reason = {"reason": "continent", "continent": state.board.continents[continent]}
    if winner >= 0:
        events.append({"type": "win", "player": state.players[winner].name, **reason})
        return _evolve(state, pieces, None, OVER, None, eliminated, winner), events
    if pending is not None:
        next_player = pending.player
    elif next_player is None:
        next_player = _next_player(state, active, eliminated)
    return _evolve(state, pieces, next_player, PLAY, pending, eliminated, None), events


def _evolve(
    state: State,
    pieces: Sequence[Piece | None],
    to_move: int | None,
    phase: str = PLAY,
    pending: Retreat | None = None,
    eliminated: tuple[int, ...] | None = None,
    winner: int | None = None,
) -> State:
    return State(
        board=state.board,
        setup=state.setup,
        retreat_into_origin=state.retreat_into_origin,
        players=state.players,
        phase=phase,
        to_move=to_move,
        pieces=tuple(pieces),
        pending=pending,
        eliminated=state.eliminated if eliminated is None else eliminated,
        winner=winner,
    )


# --- forfeit -----------------------------------------------------------------


def forfeit(state: State, player: str) -> tuple[State, list[Event]]:
    """R31: a forfeiting player is eliminated at once; a pending retreat completes."""
    if state.phase != PLAY:
        raise IllegalAction(f"a player can forfeit only during play, not in {state.phase}")
    p = state.player_index(player)
    if p is None:
        raise IllegalAction(f"{player!r} is not a player in this game")
    if p in state.eliminated:
        raise IllegalAction(f"{player} is already out of the game")
    events: list[Event] = [{"type": "forfeit", "player": player}]
    pieces = [None if pc is not None and pc[0] == p else pc for pc in state.pieces]
    eliminated = state.eliminated + (p,)
    events.append({"type": "eliminated", "players": [player]})
    pending = state.pending
    after = _evolve(state, pieces, state.to_move, PLAY, pending, eliminated)
    if pending is not None and p == pending.player:
        # the defender's piece is gone: the attacker moves in (R21)
        attacker_piece = pieces[pending.origin]
        pieces[pending.territory], pieces[pending.origin] = attacker_piece, None
        events.append(_move_in(state, pending.attacker, pending.origin, pending.territory))
        return _resolve(after, pieces, pending.attacker, events, (pending.attacker,), True)
    if pending is not None and p == pending.attacker:
        # the attack lapses; the defender stays where it is
        return _resolve(after, pieces, pending.attacker, events, (), True)
    if pending is not None:
        # a third player's pieces are gone: the territories they held may now be open
        # to the retreating defender (R18)
        pending = Retreat(
            pending.player,
            pending.territory,
            pending.attacker,
            pending.origin,
            retreat_options(after, pending.territory, pending.origin),
        )
    next_player = _next_player(after, p) if state.to_move == p else state.to_move
    return _conclude(after, pieces, p, events, eliminated, pending, (), next_player)
