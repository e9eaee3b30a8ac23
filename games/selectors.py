"""Reads that change nothing: who may see a game, whose seat it is, a player's games.

Views, mails and the admin ask these, so the answers are the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser

from games.models import Game, Seat


def can_see(game: Game, user: AbstractBaseUser | None, invite_token: str | None = None) -> bool:
    if game.is_public or (invite_token and invite_token == game.invite_token):
        return True
    if user is None or not user.is_authenticated:
        return False
    return (
        bool(user.is_staff) or game.creator_id == user.pk or game.seats.filter(user=user).exists()
    )


def seat_for(game: Game, user: AbstractBaseUser | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def users_games(user: AbstractBaseUser) -> Iterable[Game]:
    return Game.objects.filter(seats__user=user).distinct()
