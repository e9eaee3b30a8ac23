"""The game record (R30): the start, every move replayed from the log, and the
position rebuilt from it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from games import describe, engine
from games.engine.state import State
from games.models import Game, GameEvent, Move, Seat
from games.services.core import _store, current_time, lock_game


def initial_state(game: Game) -> State:
    """The setup position the game started from: seat order, from the first player."""
    seats = list(game.seats.order_by("number"))
    first = next(e["player"] for e in game.start_record if e["type"] == "first_player")
    names = [s.player_name for s in seats]
    at = names.index(first)
    order = seats[at:] + seats[:at]
    return engine.start_position([(s.player_name, s.home) for s in order], game.options())


def replay(game: Game) -> list[tuple[Move | None, State]]:
    """Every state of the game from its move log: the start, then one per move."""
    state = initial_state(game)
    states: list[tuple[Move | None, State]] = [(None, state)]
    for move in game.moves.order_by("number"):
        if move.action.startswith("forfeit "):
            state, _ = engine.forfeit(state, move.action.split(" ", 1)[1])
        else:
            state, _ = engine.apply_action(state, move.action, dice=move.dice)
        states.append((move, state))
    return states


def rebuild_position(game: Game, fix: bool = False) -> bool:
    """Replay the log; True if the stored position matched. ``fix`` stores the replay
    and what follows from it (whose decision, status, winner)."""
    if not fix:
        return engine.dump_position(replay(game)[-1][1]) == game.position
    with transaction.atomic():
        locked = lock_game(game.pk)  # no move may land between the replay and the write
        state = replay(locked)[-1][1]
        if engine.dump_position(state) == locked.position:
            return True
        locked.turn_number = locked.moves.count()
        _store(locked, state, current_time(), announce=False)  # told when it really ended
    return False


def replacements(events: Iterable[GameEvent], seats: dict[int, Seat]) -> list[tuple[int, str, str]]:
    """The seats that changed hands, for ``describe.names_at``: (moves before the change,
    the seat's colour, the name of the player who left it), oldest first."""
    return [
        (event.after_move, seats[event.seat_id].player_name, event.data.get("before", ""))
        for event in events
        if event.kind == GameEvent.Kind.REPLACE and event.seat_id in seats
    ]


def game_record(game: Game) -> dict[str, Any]:
    """The full record (R30): options, players, start rolls, every move with its dice
    and events and the position after it, in the contract's formats."""
    states = replay(game)
    seats = list(game.seats.select_related("user__profile").order_by("number"))
    names = describe.player_names(seats)
    replaced = replacements(game.events.all(), {s.pk: s for s in seats})
    return {
        "game": game.pk,
        "name": str(game),
        "board": game.board,
        "options": {"setup": game.setup_mode, "retreat_into_origin": game.retreat_into_origin},
        "seats": [
            {
                "seat": s.number,
                "player": s.player_name,
                "home": s.home,
                "name": s.display_name,
                "rank": s.rank,
            }
            for s in seats
        ],
        "start": game.start_record,
        "initial_position": engine.dump_position(states[0][1]),
        "moves": [
            {
                "number": move.number,
                "player": move.seat.player_name,
                "by": describe.names_at(names, replaced, move.number).get(
                    move.seat.player_name, ""
                ),
                "action": move.action,
                "dice": move.dice,
                "events": move.events,
                "source": move.source,
                "at": move.created_at.isoformat(),
                "position": engine.dump_position(state),
            }
            for move, state in states[1:]
            if move is not None
        ],
        "status": game.status,
        "winner": game.winner.player_name if game.winner else None,
    }
