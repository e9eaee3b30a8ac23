"""One-click decision links, for the mails that tell a player a decision is theirs.

A link carries a signed token bound to one player, one seat, one game and one decision
(the game's turn number when the link was made). It opens that decision's form without
a password and lets its holder make that decision, nothing else: it signs no one in. It
stops working once the decision is made, at the decision's deadline, and when its player
no longer holds the seat (an organiser replaced them); an altered token is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core import signing
from django.urls import reverse

from games import selectors
from games.models import Game, Seat

SALT = "ww5.games.decision-link"


class LinkRefused(Exception):
    """A link that cannot be used, with the HTTP status and a message for its holder."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(message)


@dataclass(frozen=True)
class DecisionLink:
    game_id: int
    seat_id: int
    turn: int
    user_id: int


def token_for(game: Game, seat: Seat) -> str:
    """A token for the decision ``seat``'s player has to make now in ``game``."""
    data = {"g": game.pk, "s": seat.pk, "t": game.turn_number, "u": seat.user_id}
    return signing.dumps(data, salt=SALT)


def decision_url(game: Game, seat: Seat) -> str:
    """The absolute one-click link for that decision."""
    base = getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/")
    return base + reverse("games:decide", args=[token_for(game, seat)])


def read(token: str) -> DecisionLink:
    try:
        data = signing.loads(token, salt=SALT)
        return DecisionLink(int(data["g"]), int(data["s"]), int(data["t"]), int(data["u"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise LinkRefused(
            400, "This link is not valid: it was altered or cut short. Nothing was changed."
        ) from None


def check(
    link: DecisionLink, viewer: AbstractBaseUser | AnonymousUser, now: datetime
) -> tuple[Game, Seat]:
    """The game and seat the link is for, while its decision is still open."""
    game = Game.objects.select_related("to_move").filter(pk=link.game_id).first()
    seat = Seat.objects.filter(pk=link.seat_id, game_id=link.game_id).first()
    if game is None or seat is None:
        raise LinkRefused(404, "This link's game no longer exists.")
    if seat.user_id != link.user_id:
        raise LinkRefused(
            410,
            "This link no longer works: its player does not hold this seat any more. "
            "Nothing was changed.",
        )
    if viewer.is_authenticated and viewer.pk != seat.user_id:
        raise LinkRefused(
            403,
            "This link is for another player's decision. Nothing was changed. Use the "
            "link in your own mail, or sign out to use this one.",
        )
    if not selectors.decision_open(game, seat, link.turn):
        raise LinkRefused(
            410,
            "This decision has already been made: the link no longer works. Nothing was changed.",
        )
    if game.is_paused:
        raise LinkRefused(409, "This game is paused by an organiser: no decision is due now.")
    if game.deadline is not None and now > game.deadline:
        raise LinkRefused(410, "This link expired at the decision's deadline. Nothing was changed.")
    return game, seat
