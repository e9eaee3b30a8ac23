"""World War 5 on the pages and in the mails: the board picture, the same position as
tables and as lines of text, and the key to the picture's colours and marks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ww5 import boardmarks, boardview
from ww5.engine import Board, State


def position_context(
    board: Board,
    state: State | None,
    names: Mapping[str, str],
    events: Sequence[Mapping[str, Any]] = (),
    seats: Iterable[Any] = (),
) -> dict[str, Any]:
    """The board picture, the same position as a table, and each player's supply.
    ``events``: the last move's, which the picture marks (with a pending retreat);
    ``seats``: the game's seats, whose players the key and the supply table link."""
    seat_of = {s.player_name: s for s in seats if s.home}
    pieces = boardview.pieces_of(state) if state is not None else {}
    marks = boardmarks.marks_of(state, events)
    rows = []
    for c, members in enumerate(board.continent_territories):
        for t in members:
            tid = board.territories[t]
            piece = pieces.get(tid)
            rows.append(
                {
                    "territory": board.territory_names[t],
                    "continent": board.continent_names[c],
                    "owner": names.get(piece.player, piece.player) if piece else "",
                    "size": piece.size if piece else "",
                }
            )
    supplies = []
    if state is not None:
        for i, player in enumerate(state.players):
            supplies.append(
                {
                    "player": names.get(player.name, player.name),
                    "seat": seat_of.get(player.name),
                    "colour": player.name,
                    "out": i in state.eliminated,
                    "small": state.supply(i, 1),
                    "medium": state.supply(i, 2),
                    "large": state.supply(i, 3),
                }
            )
    return {
        "board": board,
        "board_svg": boardview.board_svg(board, pieces, names, marks),
        "board_key": _board_key(board, state, names, marks, seat_of),
        "reconstructed": boardview.has_reconstructed_routes(board),
        "territory_rows": rows,
        "supplies": supplies,
    }


def _board_key(
    board: Board,
    state: State | None,
    names: Mapping[str, str],
    marks: boardmarks.Marks,
    seat_of: Mapping[str, Any],
) -> dict[str, Any]:
    """Which colour is which player, and what the marks on the board mean, in words."""
    players = []
    if state is not None:
        for i, player in enumerate(state.players):
            players.append(
                {
                    "name": names.get(player.name, player.name),
                    "seat": seat_of.get(player.name),
                    "colour": player.name,
                    "css_color": boardview.safe_color(board.continent_colors[player.home]),
                    "out": i in state.eliminated,
                }
            )
    marked = [
        {"icon": boardview.ring_icon(kind), "words": words}
        for kind, words in boardmarks.key_lines(board, marks)
    ]
    return {"players": players, "marks": marked}


def board_lines(board: Board, state: State, names: Mapping[str, str]) -> list[str]:
    """The position as text, continent by continent."""
    lines = []
    for c, members in enumerate(board.continent_territories):
        cells = []
        for t in members:
            piece = state.pieces[t]
            holder = "empty"
            if piece is not None:
                size = ("small", "medium", "large")[piece[1] - 1]
                holder = f"{names[state.players[piece[0]].name]}'s {size}"
            cells.append(f"{board.territory_names[t]}: {holder}")
        lines.append(f"{board.continent_names[c]} — " + "; ".join(cells))
    return lines


def picture(
    board: Board, state: State, names: Mapping[str, str], events: Sequence[Mapping[str, Any]]
) -> bytes:
    """The board as a PNG picture, with the last move's ``events`` marked."""
    from ww5 import boardpng  # Pillow is loaded by the workers that draw, not every process

    marks = boardmarks.marks_of(state, events)
    return boardpng.board_png(board, boardview.pieces_of(state), dict(names), marks)
