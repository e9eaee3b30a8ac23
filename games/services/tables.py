"""Tables made by an organiser's program (a tournament's pairing, a ladder's match):
these players, in this seat order, with these homes, started at once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.errors import GameError
from games.kinds import kind_named
from games.models import Game, Seat
from games.options import GameOptions
from games.services import seeds
from games.services.core import MAX_SEATS, MIN_SEATS
from games.services.lobby import check_home, start_seated_game


@dataclass(frozen=True)
class TableSeat:
    """One seat of a table: its home continent, and a player or a bot (by kind); a bot
    entrant of an event or a ladder brings its ``name`` there, which the seat keeps."""

    home: str
    user: AbstractBaseUser | None = None
    bot: str = ""
    name: str = ""


def create_table(
    options: GameOptions,
    seats: Sequence[TableSeat],
    *,
    name: str = "",
    creator: AbstractBaseUser | None = None,
    is_public: bool = True,
    first_seat: int | None = None,
) -> Game:
    """Make the game and start it: the seats in the order given, each with its home; the
    start roll decides who goes first (R4–R5), or the seat ``first_seat`` (an index in
    the order given) when the organiser's seating decides it; setup begins. The game
    played is the options' kind (a ladder's tables are of the ladder's). Nothing is made
    if any part is refused."""
    options = options.check()
    kind = kind_named(options.kind)
    if not max(MIN_SEATS, kind.min_players) <= len(seats) <= min(MAX_SEATS, kind.max_players):
        raise GameError(f"a game has {kind.min_players} to {kind.max_players} players")
    roles = kind.seat_roles(options.rules)
    for seat in seats:
        if (seat.user is None) == (not seat.bot):
            raise GameError("each seat has either a player or a bot")
        if seat.bot and seat.bot not in kind.bots:
            raise GameError(f"unknown bot {seat.bot!r}")
    if first_seat is not None and not 0 <= first_seat < len(seats):
        raise GameError("the first player must have a seat at the table")
    players = [seat.user.pk for seat in seats if seat.user is not None]
    if len(set(players)) != len(players):
        raise GameError("a player can have only one seat at a table")
    with transaction.atomic():
        game = Game.objects.create(
            name=name.strip(),
            creator=creator,
            seats_wanted=len(seats),
            home_assignment=Game.HomeAssignment.ASSIGNED,
            is_public=is_public,
            **options.fields(),
        )
        seeds.seal(game)
        for number, seat in enumerate(seats, start=1):
            if roles and not seat.home:
                raise GameError(f"seat {number} has no home continent")
            Seat.objects.create(
                game=game,
                number=number,
                user=seat.user,
                bot=seat.bot,
                name=seat.name if seat.bot else "",
                home=check_home(game, seat.home),
            )
        start_seated_game(game, first_seat)
    return game
