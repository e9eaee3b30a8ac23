"""The signed-in player's active games, for the home page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template

from games import selectors
from games.models import Game

register = template.Library()


@dataclass(frozen=True)
class ActiveGame:
    game: Game
    your_decision: bool
    # Whom the game waits for: a player's name exactly as they typed it, never
    # capitalised by the page, or a sentence.
    waiting_for: str


@register.simple_tag
def active_games_of(user: Any) -> list[ActiveGame]:
    """Games in setup or play where the user has a seat, the ones waiting for them first."""
    if user is None or not user.is_authenticated:
        return []
    games = (
        Game.objects.filter(seats__user=user, status__in=[Game.Status.SETUP, Game.Status.PLAY])
        .select_related("to_move__user__profile")
        .order_by("-started_at", "-pk")
    )
    rows = [_row(game, user) for game in games]
    return sorted(rows, key=lambda row: not row.your_decision)


def _row(game: Game, user: Any) -> ActiveGame:
    waiting = selectors.waiting_seats(game)
    if game.is_paused:
        return ActiveGame(game, False, "No one: the game is paused")
    if not waiting:
        return ActiveGame(game, False, "No one yet")
    if any(seat.user_id == user.pk for seat in waiting):
        return ActiveGame(game, True, "you")
    return ActiveGame(game, False, selectors.waiting_names(game))
