"""Games as a lobby makes them: created with their options, joined seat by seat,
started by the last seat or the organiser, cancelled before they start."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.humanize.templatetags.humanize import apnumber
from django.db import transaction
from django.db.models import Max

from accounts.services import display_name, locked_profile
from games import notify
from games.errors import GameError
from games.kinds import DEFAULT_KIND, UnknownKind, kind_named, kind_of
from games.models import Game, Seat
from games.options import GameOptions
from games.selectors import can_see, organises_every_game
from games.services import seeds
from games.services.core import (
    MAX_SEATS,
    MIN_SEATS,
    STARTED_FIELDS,
    check_organiser,
    current_time,
    game_dice,
    lock_game,
    play_bots_after_commit,
    seats_of,
    store_position,
)
from ww5site.durations import counted


def check_home(game: Game, home: str | None) -> str:
    """``home`` if it is one of the seat roles of the game's kind (World War 5: a
    continent of the game's board) that no seat has taken yet, or no home (empty) when
    none is given; otherwise GameError."""
    if not home:
        return ""
    names = kind_of(game).role_names(game.options)
    if home not in names:
        raise GameError(f"{home!r} is not a continent of this board")
    if game.seats.filter(home=home).exists():
        raise GameError(f"{names[home]} is taken")
    return home


def create_game(
    creator: AbstractBaseUser,
    options: GameOptions | None = None,
    *,
    name: str = "",
    seats: int = 2,
    home_assignment: str = Game.HomeAssignment.CHOOSE,
    is_public: bool = True,
    home: str | None = None,
    **changes: Any,
) -> Game:
    """A game waiting for players in the lobby, its creator in the first seat (with
    ``home`` when players choose theirs). ``options`` (with any ``changes`` of single
    options by name) say how it is played."""
    options = (options or GameOptions()).with_changes(**changes).check()
    low, high = seat_bounds(options.kind)
    if not low <= seats <= high:
        raise GameError(f"a game has {low} to {high} players")
    with transaction.atomic():
        game = Game.objects.create(
            name=name.strip(),
            creator=creator,
            seats_wanted=seats,
            home_assignment=home_assignment,
            is_public=is_public,
            **options.fields(),
        )
        chosen = home if home_assignment == Game.HomeAssignment.CHOOSE else None
        seeds.seal(game)
        Seat.objects.create(game=game, number=1, user=creator, home=check_home(game, chosen))
    return game


def seat_bounds(kind: str) -> tuple[int, int]:
    """The fewest and most players a game of the kind seats (within the server's)."""
    rules = kind_named(kind)
    return max(MIN_SEATS, rules.min_players), min(MAX_SEATS, rules.max_players)


def create_lobby_game(creator: AbstractBaseUser, **options: Any) -> Game:
    """A game a player opens in the lobby (``create_game``'s options), within the limits
    that keep one account from flooding it: at most OPEN_GAMES_PER_PLAYER of its games
    wait for players at once, and it creates at most GAMES_CREATED_PER_HOUR an hour.
    Site-wide organisers (``games.organise_any_game``) are not limited; being staff
    (let into the admin) is no exemption. The creator's profile is locked, so two creations at once
    are counted one after the other."""
    with transaction.atomic():
        if not organises_every_game(creator):
            _check_creation_limits(creator)
        return create_game(creator, **options)


def play_against_bots(
    player: AbstractBaseUser,
    bots: int = 1,
    bot: str = "",
    board: str = "",
    kind: str = DEFAULT_KIND,
) -> Game:
    """A private game of the player against ``bots`` bots of one kind (the game's own
    first bot if none is named), started at once: homes are drawn at random, the usual
    times and the game's default options (``board``: the site's first game's board).
    Counted as a lobby game (its limits apply)."""
    try:
        game_kind = kind_named(kind)
    except UnknownKind:
        raise GameError(f"there is no game {kind!r}") from None
    bot = bot or next(iter(game_kind.bots), "")
    if bot not in game_kind.bots:
        raise GameError(f"unknown bot {bot!r}")
    low, high = seat_bounds(kind)
    if not low <= bots + 1 <= high:
        raise GameError(f"{game_kind.name}: play against {low - 1} to {high - 1} bots")
    changes = {"board": board} if board and kind == DEFAULT_KIND else {}
    with transaction.atomic():
        game = create_lobby_game(
            player,
            options=GameOptions(kind=kind),
            name=f"{display_name(player)} against {counted(bots, f'{bot} bot')}",
            seats=bots + 1,
            home_assignment=Game.HomeAssignment.RANDOM,
            is_public=False,
            **changes,
        )
        for _ in range(bots):
            add_bot(game.pk, player, bot)  # the last seat starts the game
    game.refresh_from_db()
    return game


def _check_creation_limits(creator: AbstractBaseUser) -> None:
    locked_profile(creator)
    mine = Game.objects.filter(creator=creator)
    cap = settings.OPEN_GAMES_PER_PLAYER
    if mine.filter(status=Game.Status.OPEN).count() >= cap:
        raise GameError(
            f"you already have {counted(cap, 'open game')} waiting for players: start or "
            "cancel one before you create another"
        )
    rate = settings.GAMES_CREATED_PER_HOUR
    if mine.filter(created_at__gt=current_time() - timedelta(hours=1)).count() >= rate:
        raise GameError(f"you have created {rate} games in the last hour: try again later")


def _add_seat(game: Game, user: AbstractBaseUser | None, bot: str, home: str | None) -> Seat:
    if game.status != Game.Status.OPEN:
        raise GameError("this game is no longer open")
    if game.seats.count() >= game.seats_wanted:
        raise GameError("this game is full")
    roles = kind_of(game).seat_roles(game.options)
    if roles and game.home_assignment == Game.HomeAssignment.CHOOSE and not home:
        raise GameError("choose a home continent")
    if not roles or game.home_assignment != Game.HomeAssignment.CHOOSE:
        home = None
    number = (game.seats.aggregate(n=Max("number"))["n"] or 0) + 1
    seat = Seat.objects.create(
        game=game, number=number, user=user, bot=bot, home=check_home(game, home)
    )
    game.__dict__.pop("_seat_list", None)
    # An "assigned" game waits, full, for the organiser to assign homes and start it:
    # the last seat cannot have a home yet, so starting now could only fail.
    if (
        game.seats.count() == game.seats_wanted
        and game.home_assignment != Game.HomeAssignment.ASSIGNED
    ):
        start_seated_game(game)
    return seat


def join_game(
    game_id: int, user: AbstractBaseUser, home: str | None = None, invite_token: str | None = None
) -> Seat:
    with transaction.atomic():
        game = lock_game(game_id)
        if not can_see(game, user, invite_token):
            raise GameError("this game is private: you need its invite link")
        if game.seats.filter(user=user).exists():
            raise GameError("you already have a seat in this game")
        return _add_seat(game, user, "", home)


def add_bot(
    game_id: int, by: AbstractBaseUser, bot: str = "greedy", home: str | None = None
) -> Seat:
    with transaction.atomic():
        game = lock_game(game_id)
        if bot not in kind_of(game).bots:
            raise GameError(f"unknown bot {bot!r}")
        check_organiser(game, by)
        return _add_seat(game, None, bot, home)


def leave_game(game_id: int, user: AbstractBaseUser) -> None:
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameError("a game that has started cannot be left")
        if game.creator_id == user.pk:
            raise GameError("you created this game: cancel it instead")
        deleted, _ = game.seats.filter(user=user).delete()
        if not deleted:
            raise GameError("you have no seat in this game")


def cancel_game(game_id: int, by: AbstractBaseUser) -> None:
    with transaction.atomic():
        game = lock_game(game_id)
        check_organiser(game, by)
        if game.status != Game.Status.OPEN:
            raise GameError("only a game that has not started can be cancelled")
        game.status = Game.Status.CANCELLED
        game.save(update_fields=["status"])


def assign_home(game_id: int, by: AbstractBaseUser, seat_id: int, home: str) -> None:
    with transaction.atomic():
        game = lock_game(game_id)
        check_organiser(game, by)
        if game.status != Game.Status.OPEN:
            raise GameError("homes are fixed once the game has started")
        seat = game.seats.filter(pk=seat_id).first()
        if seat is None:
            raise GameError("there is no such seat in this game")
        seat.home = ""
        seat.save(update_fields=["home"])
        seat.home = check_home(game, home)
        seat.save(update_fields=["home"])


def start_game(game_id: int, by: AbstractBaseUser) -> None:
    with transaction.atomic():
        game = lock_game(game_id)
        check_organiser(game, by)
        if game.status != Game.Status.OPEN:
            raise GameError("this game has already started")
        fewest = seat_bounds(game.kind)[0]
        if game.seats.count() < fewest:
            raise GameError(f"a game needs at least {apnumber(fewest)} players")
        start_seated_game(game)


def start_seated_game(game: Game, first_seat: int | None = None) -> None:
    """R4–R5: fix the homes, roll for the first player, and open the setup.

    ``first_seat`` (an index in seat order): who goes first instead of the roll, when an
    event's seating decides it (recorded as such in the start record)."""
    kind = kind_of(game)
    seats = list(game.seats.order_by("number"))
    roles = kind.seat_roles(game.options)
    rolls = game_dice(game, seats)  # the players' words are in: the first number
    if roles and game.home_assignment == Game.HomeAssignment.RANDOM:
        homes = rolls.sample(list(roles), len(seats))
        for seat, home in zip(seats, homes, strict=True):
            seat.home = home
        Seat.objects.bulk_update(seats, ["home"])
    missing = [s.display_name for s in seats if not s.home]
    if roles and missing:
        raise GameError(f"still without a home continent: {', '.join(missing)}")
    if game.time_control == Game.TimeControl.BANK:
        for seat in seats:
            seat.bank_left = game.bank_time
        Seat.objects.bulk_update(seats, ["bank_left"])
    game.__dict__.pop("_seat_list", None)  # read again, with the homes and banks
    players = [(s.player_name, s.home) for s in seats]
    state, record = kind.start(players, game.options, rolls, first_seat)
    now = current_time()
    game.seats_wanted = len(seats)
    game.start_record = record
    game.dice_start = [
        [a, b, value] for (a, b), value in zip(rolls.ranges, rolls.rolled, strict=True)
    ]
    game.dice_drawn = rolls.drawn
    game.status = Game.Status.SETUP
    game.started_at = now
    game.save(update_fields=STARTED_FIELDS)
    store_position(game, state, now)
    notify.queue_start_mails(game, seats_of(game))
    play_bots_after_commit(game)


def set_dice_words(game_id: int, user: AbstractBaseUser, words: str) -> Seat:
    """The player's own words for the game's dice (``games.core.fairdice``: the players'
    words), before its first number is drawn: while it waits for its players."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = next((s for s in seats_of(game) if s.user_id == user.pk), None)
        if seat is None:
            raise GameError("you have no seat in this game")
        if game.status != Game.Status.OPEN or game.dice_drawn or game.dice_players_hash:
            raise GameError("the dice of this game are already rolling: words come before")
        if not game.dice_commitment:
            raise GameError("this game's dice have no seed to add words to")
        try:
            seat.dice_words = seeds.check_words(words)
        except ValueError as refusal:
            raise GameError(str(refusal)) from None
        seat.save(update_fields=["dice_words"])
    return seat


def set_muted(game_id: int, user: AbstractBaseUser, muted: bool) -> Seat:
    """The player wants no mail about this game (muted), or wants it again. A missed
    decision is still told: it is a penalty against them."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(game_id=game_id, user=user).first()
        if seat is None:
            raise GameError("you have no seat in this game")
        seat.muted = muted
        seat.save(update_fields=["muted"])
    return seat
