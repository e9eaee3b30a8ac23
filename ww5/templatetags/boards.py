"""Boards by their names, never by their slugs: ``{{ event.options.board|board_name }}``."""

from __future__ import annotations

from django import template

from ww5.engine import BOARDS

register = template.Library()


@register.filter
def board_name(board_id: str) -> str:
    """'The original board' for 'original'; an unknown slug is shown as it is."""
    board = BOARDS.get(board_id)
    return board.name if board is not None else board_id
