"""Every change to games, seats and moves goes through here.

A decision is one short transaction: lock the game row, check that the caller is the
one the game waits for and that their form was made for the current turn, ask the
engine, then write the move row and the new position together. Slow work (bots,
mail) runs after commit.
"""

from __future__ import annotations

import random
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Max, Q
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from accounts.models import Absence, Profile
from accounts.services import display_name
from games import clock, describe, engine, notify
from games.engine import eliminates_mover
from games.engine.bots import BOTS
from games.engine.state import State
from games.models import Game, GameEvent, Move, Seat
from ww5site import rows

# Dice, start rolls and random homes come from the operating system's generator.
DICE = random.SystemRandom()
MIN_SEATS, MAX_SEATS = 2, 6


class GameError(Exception):
    """A refused request, with a message for the person who made it. Nothing changed."""


class NotYourDecision(GameError):
    pass


class StaleForm(GameError):
    pass


class NeedsConfirmation(GameError):
    """R15: the decision leaves its player's home continent empty, eliminating them;
    the player must confirm it. Nothing was changed."""

    def __init__(self, action: str, board: str) -> None:
        self.action, self.board = action, board
        super().__init__(f"{action} eliminates you (R15): confirm it to submit it")


class RecordingDice:
    """A dice source that keeps every value it gives, for the move log (R30)."""

    def __init__(self, source: random.Random) -> None:
        self.source = source
        self.rolled: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.source.randint(a, b)
        self.rolled.append(value)
        return value


@dataclass
class Decision:
    move: Move
    duplicate: bool = False  # the same seat's decision for this turn was already recorded


# --- reading -------------------------------------------------------------------------


def state_of(game: Game) -> State:
    assert game.position is not None, "the game has not started"
    return engine.load_position(game.position)


def seats_of(game: Game) -> list[Seat]:
    """The game's seats in seat order, each with its player and the player's profile,
    read once per game object (a locked game is a fresh object)."""
    cached: list[Seat] | None = game.__dict__.get("_seat_list")
    if cached is None:
        cached = game.__dict__["_seat_list"] = _read_seats(game)
    return cached


_SEAT = rows.Columns(Seat, "s")
_PLAYER = rows.Columns(get_user_model(), "u")
_PROFILE = rows.Columns(Profile, "p")


def _read_seats(game: Game) -> list[Seat]:
    # In SQL: every decision reads them (the ORM's query, select_related("user__profile"),
    # costs more to build than to run); ``rows`` makes the instances as the ORM would.
    sql = (
        f"SELECT {_SEAT.sql}, {_PLAYER.sql}, {_PROFILE.sql} FROM {_SEAT.table} s "
        f"LEFT JOIN {_PLAYER.table} u ON {_PLAYER.column()} = {_SEAT.column('user')} "
        f"LEFT JOIN {_PROFILE.table} p ON {_PROFILE.column('user')} = {_PLAYER.column()} "
        f"WHERE {_SEAT.column('game')} = %s ORDER BY {_SEAT.column('number')}"
    )
    seats = []
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        for row in cursor.fetchall():
            seat_values, player_values, profile_values = rows.split(row, _SEAT, _PLAYER, _PROFILE)
            seat = _SEAT.load(seat_values)
            assert seat is not None
            rows.cache_related(seat, "game", game)  # as ``game.seats`` does
            player = _PLAYER.load(player_values)
            rows.cache_related(seat, "user", player)
            if player is not None:
                profile = _PROFILE.load(profile_values)
                rows.cache_related(player, "profile", profile)
                if profile is not None:
                    rows.cache_related(profile, "user", player)
            seats.append(seat)
    return seats


def seat_named(game: Game, player: str) -> Seat:
    for seat in seats_of(game):
        if seat.player_name == player:
            return seat
    raise LookupError(f"no seat plays {player!r} in game {game.pk}")


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
        locked = _lock(game.pk)  # no move may land between the replay and the write
        state = replay(locked)[-1][1]
        if engine.dump_position(state) == locked.position:
            return True
        locked.turn_number = locked.moves.count()
        _store(locked, state, timezone.now())
    return False


# --- creating and joining ------------------------------------------------------------


def _check_home(game: Game, home: str | None) -> str:
    if not home:
        return ""
    board = engine.BOARDS[game.board]
    if home not in board.continent_index:
        raise GameError(f"{home!r} is not a continent of this board")
    if game.seats.filter(home=home).exists():
        raise GameError(f"{board.continent_names[board.continent_index[home]]} is taken")
    return home


def create_game(
    creator: AbstractBaseUser,
    *,
    name: str = "",
    seats: int = 2,
    board: str = "original",
    setup_mode: str = Game.SetupMode.STRICT,
    retreat_into_origin: bool = False,
    home_assignment: str = Game.HomeAssignment.CHOOSE,
    decision_time: timedelta = timedelta(days=2),
    retreat_time: timedelta = timedelta(hours=12),
    missed_limit: int = 3,
    is_public: bool = True,
    home: str | None = None,
    time_control: str = Game.TimeControl.FIXED,
    bank_time: timedelta = timedelta(days=5),
    increment: timedelta = timedelta(days=1),
    absence_pauses_clock: bool = True,
) -> Game:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise GameError(f"a game has {MIN_SEATS} to {MAX_SEATS} players")
    if board not in engine.BOARDS:
        raise GameError(f"unknown board {board!r}")
    if decision_time < timedelta(minutes=1) or retreat_time < timedelta(minutes=1):
        raise GameError("allow at least a minute per decision and per retreat")
    if missed_limit < 1:
        raise GameError("a player forfeits after at least one missed decision")
    if time_control not in Game.TimeControl.values:
        raise GameError(f"unknown time control {time_control!r}")
    if time_control == Game.TimeControl.BANK and bank_time < timedelta(minutes=1):
        raise GameError("a time bank holds at least a minute")
    if increment < timedelta(0):
        raise GameError("an increment cannot be negative")
    with transaction.atomic():
        game = Game.objects.create(
            name=name.strip(),
            creator=creator,
            seats_wanted=seats,
            board=board,
            setup_mode=setup_mode,
            retreat_into_origin=retreat_into_origin,
            home_assignment=home_assignment,
            decision_time=decision_time,
            retreat_time=retreat_time,
            missed_limit=missed_limit,
            is_public=is_public,
            time_control=time_control,
            bank_time=bank_time,
            increment=increment,
            absence_pauses_clock=absence_pauses_clock,
        )
        chosen = home if home_assignment == Game.HomeAssignment.CHOOSE else None
        Seat.objects.create(game=game, number=1, user=creator, home=_check_home(game, chosen))
    return game


def create_lobby_game(creator: AbstractBaseUser, **options: Any) -> Game:
    """A game a player opens in the lobby (``create_game``'s options), within the limits
    that keep one account from flooding it: at most OPEN_GAMES_PER_PLAYER of its games
    wait for players at once, and it creates at most GAMES_CREATED_PER_HOUR an hour.
    Staff are not limited. The creator's profile is locked, so two creations at once
    are counted one after the other."""
    with transaction.atomic():
        if not creator.is_staff:
            _check_creation_limits(creator)
        return create_game(creator, **options)


def play_against_bots(
    player: AbstractBaseUser, bots: int = 1, bot: str = "greedy", board: str = "original"
) -> Game:
    """A private game of the player against ``bots`` bots of one kind, started at once:
    homes are drawn at random, the strict setup, the usual times. Counted as a lobby game
    (its limits apply)."""
    if bot not in BOTS:
        raise GameError(f"unknown bot {bot!r}")
    if not 1 <= bots <= MAX_SEATS - 1:
        raise GameError(f"play against 1 to {MAX_SEATS - 1} bots")
    with transaction.atomic():
        game = create_lobby_game(
            player,
            name=f"{display_name(player)} against {bots} {bot} bot{'' if bots == 1 else 's'}",
            seats=bots + 1,
            board=board,
            home_assignment=Game.HomeAssignment.RANDOM,
            is_public=False,
        )
        for _ in range(bots):
            add_bot(game.pk, player, bot)  # the last seat starts the game
    game.refresh_from_db()
    return game


def _check_creation_limits(creator: AbstractBaseUser) -> None:
    _locked_profile(creator)
    mine = Game.objects.filter(creator=creator)
    cap = settings.OPEN_GAMES_PER_PLAYER
    if mine.filter(status=Game.Status.OPEN).count() >= cap:
        raise GameError(
            f"you already have {cap} open games waiting for players: start or cancel one "
            "before you create another"
        )
    rate = settings.GAMES_CREATED_PER_HOUR
    if mine.filter(created_at__gt=timezone.now() - timedelta(hours=1)).count() >= rate:
        raise GameError(f"you have created {rate} games in the last hour: try again later")


def _lock(game_id: int) -> Game:
    # Every change to a game locks its row first, so two requests for one game (two
    # players racing, a double submit, a join and a start) run one after the other.
    # In SQL: it starts every decision, and the ORM's query for a model this wide
    # costs more to build than to run.
    if not connection.in_atomic_block:
        raise TransactionManagementError("a game is locked only inside a transaction")
    table = connection.ops.quote_name(Game._meta.db_table)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    found = list(Game.objects.raw(f"SELECT * FROM {table} WHERE id = %s{lock}", [game_id]))
    if not found:
        raise GameError("there is no such game")
    return found[0]


def can_see(game: Game, user: AbstractBaseUser | None, invite_token: str | None = None) -> bool:
    if game.is_public or (invite_token and invite_token == game.invite_token):
        return True
    if user is None or not user.is_authenticated:
        return False
    return (
        bool(user.is_staff) or game.creator_id == user.pk or game.seats.filter(user=user).exists()
    )


def _add_seat(game: Game, user: AbstractBaseUser | None, bot: str, home: str | None) -> Seat:
    if game.status != Game.Status.OPEN:
        raise GameError("this game is no longer open")
    if game.seats.count() >= game.seats_wanted:
        raise GameError("this game is full")
    if game.home_assignment == Game.HomeAssignment.CHOOSE and not home:
        raise GameError("choose a home continent")
    if game.home_assignment != Game.HomeAssignment.CHOOSE:
        home = None
    number = (game.seats.aggregate(n=Max("number"))["n"] or 0) + 1
    seat = Seat.objects.create(
        game=game, number=number, user=user, bot=bot, home=_check_home(game, home)
    )
    game.__dict__.pop("_seat_list", None)
    # An "assigned" game waits, full, for the organiser to assign homes and start it:
    # the last seat cannot have a home yet, so starting now could only fail.
    if (
        game.seats.count() == game.seats_wanted
        and game.home_assignment != Game.HomeAssignment.ASSIGNED
    ):
        _start(game)
    return seat


def join_game(
    game_id: int, user: AbstractBaseUser, home: str | None = None, invite_token: str | None = None
) -> Seat:
    with transaction.atomic():
        game = _lock(game_id)
        if not can_see(game, user, invite_token):
            raise GameError("this game is private: you need its invite link")
        if game.seats.filter(user=user).exists():
            raise GameError("you already have a seat in this game")
        return _add_seat(game, user, "", home)


def add_bot(
    game_id: int, by: AbstractBaseUser, bot: str = "greedy", home: str | None = None
) -> Seat:
    if bot not in BOTS:
        raise GameError(f"unknown bot {bot!r}")
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        return _add_seat(game, None, bot, home)


def leave_game(game_id: int, user: AbstractBaseUser) -> None:
    with transaction.atomic():
        game = _lock(game_id)
        if game.status != Game.Status.OPEN:
            raise GameError("a game that has started cannot be left")
        if game.creator_id == user.pk:
            raise GameError("you created this game: cancel it instead")
        deleted, _ = game.seats.filter(user=user).delete()
        if not deleted:
            raise GameError("you have no seat in this game")


def _check_organiser(game: Game, by: AbstractBaseUser) -> None:
    if not (by.is_staff or game.creator_id == by.pk):
        raise GameError("only the game's creator or an organiser can do that")


def cancel_game(game_id: int, by: AbstractBaseUser) -> None:
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        if game.status != Game.Status.OPEN:
            raise GameError("only a game that has not started can be cancelled")
        game.status = Game.Status.CANCELLED
        game.save(update_fields=["status"])


def assign_home(game_id: int, by: AbstractBaseUser, seat_id: int, home: str) -> None:
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        if game.status != Game.Status.OPEN:
            raise GameError("homes are fixed once the game has started")
        seat = game.seats.filter(pk=seat_id).first()
        if seat is None:
            raise GameError("there is no such seat in this game")
        seat.home = ""
        seat.save(update_fields=["home"])
        seat.home = _check_home(game, home)
        seat.save(update_fields=["home"])


def start_game(game_id: int, by: AbstractBaseUser) -> None:
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        if game.status != Game.Status.OPEN:
            raise GameError("this game has already started")
        if game.seats.count() < MIN_SEATS:
            raise GameError("a game needs at least two players")
        _start(game)


def _start(game: Game) -> None:
    """R4–R5: fix the homes, roll for the first player, and open the setup."""
    seats = list(game.seats.order_by("number"))
    if game.home_assignment == Game.HomeAssignment.RANDOM:
        homes = DICE.sample(list(engine.BOARDS[game.board].continents), len(seats))
        for seat, home in zip(seats, homes, strict=True):
            seat.home = home
        Seat.objects.bulk_update(seats, ["home"])
    missing = [s.display_name for s in seats if not s.home]
    if missing:
        raise GameError(f"still without a home continent: {', '.join(missing)}")
    if game.time_control == Game.TimeControl.BANK:
        for seat in seats:
            seat.bank_left = game.bank_time
        Seat.objects.bulk_update(seats, ["bank_left"])
    game.__dict__.pop("_seat_list", None)  # read again, with the homes and banks
    players = [(s.player_name, s.home) for s in seats]
    state, record = engine.new_game(players, game.options(), DICE)
    now = timezone.now()
    game.seats_wanted = len(seats)
    game.start_record = record
    game.status = Game.Status.SETUP
    game.started_at = now
    game.save(update_fields=STARTED_FIELDS)
    _store(game, state, now)
    notify.queue_start_mails(game, seats_of(game))
    _after_commit(game)


# --- decisions -----------------------------------------------------------------------


def submit_move(
    game_id: int,
    user: AbstractBaseUser,
    text: str,
    turn_number: int,
    source: str = Move.Source.WEB,
    confirm_elimination: bool = True,
) -> Decision:
    """A player's decision, from a form made for ``turn_number``.

    With ``confirm_elimination`` False, a decision that would eliminate the player
    (R15) raises NeedsConfirmation instead of being applied."""
    with transaction.atomic():
        game = _lock(game_id)
        seat = next((s for s in seats_of(game) if s.user_id == user.pk), None)
        if seat is None:
            raise NotYourDecision("you have no seat in this game")
        if game.turn_number != turn_number:
            # Only this user's own submission counts as a double submit: an organiser's
            # move for them or a forfeit is the game moving on without them.
            done = game.moves.filter(number=turn_number + 1, seat=seat, actor=user).first()
            if done is not None:  # a double submit: the first one went through
                return Decision(done, duplicate=True)
            raise StaleForm(
                "the game has moved on since this form was made: nothing was changed; "
                "here is the game as it is now"
            )
        _check_waiting_for(game, seat)
        return Decision(_apply(game, seat, text, source, user, confirm_elimination))


def _check_waiting_for(game: Game, seat: Seat) -> None:
    if not game.is_active:
        raise NotYourDecision(f"this game is {game.get_status_display().lower()}")
    if game.is_paused:
        raise NotYourDecision("this game is paused by an organiser")
    if game.to_move_id != seat.pk:
        waiting = game.to_move.display_name if game.to_move else "no one"
        raise NotYourDecision(f"it is not your decision: the game waits for {waiting}")


def _apply(
    game: Game,
    seat: Seat,
    text: str,
    source: str,
    actor: AbstractBaseUser | None,
    confirmed: bool = True,
) -> Move:
    state = state_of(game)
    try:
        action = engine.parse_action(state, text)
    except engine.IllegalAction as refusal:
        raise GameError(str(refusal)) from None
    if not confirmed and eliminates_mover(state, action):
        raise NeedsConfirmation(action, game.board)
    move = _record(game, seat, state, action, source, actor)
    _after_commit(game)
    return move


def _record(
    game: Game,
    seat: Seat,
    state: State,
    action: str,
    source: str,
    actor: AbstractBaseUser | None,
    now: datetime | None = None,
) -> Move:
    """Apply a legal canonical action with fair dice, log it with its dice and store the
    new position; the next decision's time runs from ``now`` (default: the move's time)."""
    dice = RecordingDice(DICE)
    after, events = engine.apply_action(state, action, rng=dice)
    move = _log(game, seat, action, dice.rolled, events, source, actor)
    _store(game, after, now or move.created_at, decided_by=seat, move=move)
    return move


def _log(
    game: Game,
    seat: Seat,
    action: str,
    dice: list[int],
    events: list[dict[str, Any]],
    source: str,
    actor: AbstractBaseUser | None,
) -> Move:
    # The unique (game, number) constraint backs up the row lock: were the lock ever
    # bypassed, the second insert fails and its whole transaction rolls back.
    move = Move.objects.create(
        game=game,
        number=game.turn_number + 1,
        seat=seat,
        action=action,
        dice=dice,
        events=events,
        source=source,
        player_id=seat.user_id,
        actor=actor,
        created_at=timezone.now(),
    )
    game.turn_number = move.number
    return move


# What a decision changes on the game row (its start also sets the STARTED_FIELDS).
STORED_FIELDS = [
    "position",
    "turn_number",
    "to_move",
    "status",
    "deadline",
    "deadline_claimed_at",
    "remind_at",
    "grace_used",
    "clock_started_at",
    "finished_at",
    "winner",
]
STARTED_FIELDS = ["seats_wanted", "start_record", "started_at"]


def _store(
    game: Game, state: State, now: Any, decided_by: Seat | None = None, move: Move | None = None
) -> None:
    """Write the new position and what follows from it, with the move, in one transaction.

    ``decided_by``: the seat whose decision this was, charged for the time it took (bank
    games). A change that is no one's decision (a forfeit) leaves the clock of a player
    who still has the decision running as it was."""
    if decided_by is not None:
        _charge_clock(game, decided_by, now)
    waited_for = game.to_move_id
    game.position = engine.dump_position(state)
    game.to_move = (
        seat_named(game, state.name_of(state.to_move)) if state.to_move is not None else None
    )
    if (
        decided_by is None
        and state.phase != "over"
        and game.to_move is not None
        and game.to_move_id == waited_for
        and game.deadline is not None
    ):
        game.save(update_fields=STORED_FIELDS)  # the same decision, its clock still running
        _queue_mails(game, state, move, decision_due=False)
        return
    if state.phase == "over":
        game.status = Game.Status.OVER
        game.finished_at = now
        game.deadline = None
        game.remind_at = None
        game.winner = (
            seat_named(game, state.name_of(state.winner)) if state.winner is not None else None
        )
        _rank_seats(game, state)
    else:
        game.status = Game.Status.PLAY if state.phase == "play" else Game.Status.SETUP
        _start_clock(game, state, now)
    game.grace_used = False  # a new decision, with its own grace
    game.deadline_claimed_at = None
    game.save(update_fields=STORED_FIELDS)
    _queue_mails(game, state, move)


def _queue_mails(game: Game, state: State, move: Move | None, decision_due: bool = True) -> None:
    """The mails this change causes, in its transaction: the prompt for the decision now
    due, or everyone's result; and the news of the move for whom it concerns."""
    if move is not None and move.events:
        notify.queue_event_mails(game, move, state, seats_of(game))
    if state.phase == "over":
        notify.queue_result_mails(game, state, seats_of(game))
    elif decision_due and game.to_move is not None and not game.to_move.bot:
        notify.queue_decision_mail(game, game.to_move, state, seats_of(game))


def arm_reminder(game: Game, allowed: timedelta) -> None:
    """Remind the player when REMINDER_LEFT of the decision's time is left; armed again
    each time the deadline moves."""
    left = settings.REMINDER_LEFT
    game.remind_at = game.deadline - allowed * left if game.deadline and left > 0 else None


def time_allowed(game: Game, state: State) -> timedelta:
    """The time for the pending decision: a defender's retreat has its own, shorter time;
    in a bank game a turn or placement may use what is left of its player's bank."""
    if state.pending is not None:
        return game.retreat_time
    if game.time_control == Game.TimeControl.BANK and game.to_move is not None:
        bank = game.to_move.bank_left
        return bank if bank is not None else game.bank_time
    return game.decision_time


# A bank game's grace extension is its increment, but never less than this.
MIN_BANK_GRACE = timedelta(hours=1)


def grace_time(game: Game, state: State) -> timedelta:
    """The one extension a missed decision gets: the decision's time again; in a bank
    game (whose bank is now empty) the increment, at least MIN_BANK_GRACE."""
    if state.pending is None and game.time_control == Game.TimeControl.BANK:
        return max(game.increment, MIN_BANK_GRACE)
    return time_allowed(game, state)


def away_periods(game: Game, seat: Seat | None, since: datetime) -> list[tuple[datetime, datetime]]:
    """The seat's player's absences that end after ``since``, when the game lets an
    absence stop the clock (the profile's ``away_until`` spares the query otherwise)."""
    if seat is None or seat.user_id is None or not game.absence_pauses_clock:
        return []
    profile = getattr(seat.user, "profile", None)
    if profile is None or profile.away_until is None or profile.away_until <= since:
        return []
    return list(
        Absence.objects.filter(user_id=seat.user_id, ends_at__gt=since).values_list(
            "starts_at", "ends_at"
        )
    )


def _start_clock(game: Game, state: State, now: datetime) -> None:
    """The deadline and reminder of the decision now due; its clock stands still while
    its player is away (when the game says so)."""
    allowed = time_allowed(game, state)
    bank = state.pending is None and game.time_control == Game.TimeControl.BANK
    game.clock_started_at = now if bank else None
    away = away_periods(game, game.to_move, now)
    game.deadline = clock.deadline(now, allowed, away)
    left = settings.REMINDER_LEFT
    game.remind_at = clock.deadline(now, allowed * (1 - left), away) if left > 0 else None


def _charge_clock(game: Game, seat: Seat, now: datetime) -> None:
    """A bank game: the seat made its decision; take the time it used from its bank
    (an emptied bank stays at zero) and add the increment."""
    started = game.clock_started_at
    if started is None or game.to_move_id != seat.pk:
        return
    used = clock.running(started, now, away_periods(game, seat, started))
    bank = seat.bank_left if seat.bank_left is not None else game.bank_time
    seat.bank_left = max(bank - used, timedelta(0)) + game.increment
    seat.save(update_fields=["bank_left"])


def _rank_seats(game: Game, state: State) -> None:
    """Each seat's rank in the engine's finishing order (R24, R31), from the move log:
    1 for the winner, tied players sharing a place."""
    history = [(move.action, move.events) for move in game.moves.order_by("number")]
    for name, rank in engine.competition_ranks(engine.finishing_order(state, history)).items():
        seat = seat_named(game, name)
        seat.rank = rank
        seat.save(update_fields=["rank"])


def _after_commit(game: Game) -> None:
    """Once the change commits, let the bots play if a bot seat's decision is due.

    Robust: the change is committed whatever happens here, so a broker that is down must
    not turn it into an error page; ``sweep_bots`` restarts a bot seat left waiting."""
    transaction.on_commit(lambda: _after_decision(game), robust=True)


def _after_decision(game: Game) -> None:
    """After commit: if a bot seat's decision is due, let the bots play."""
    from games.tasks import play_bots

    seat = game.to_move
    if game.is_active and not game.is_paused and seat is not None and seat.bot:
        play_bots.delay(game.pk)


def sweep_bots(now: datetime | None = None, limit: int = 1000) -> list[int]:
    """Periodic: restart the bots of running games that have waited for a bot seat for
    longer than BOT_STALLED_SECONDS: a bot decides within moments of its turn, so its
    task was lost (the broker was down when the decision fell due, or a worker died).
    Returns the game ids handed to ``play_bots``.

    Running ``play_bots`` for a game whose bots are already playing is harmless: each
    bot decision locks the game and re-checks whose decision it is."""
    from games.tasks import play_bots

    since = (now or timezone.now()) - timedelta(seconds=settings.BOT_STALLED_SECONDS)
    waiting = (
        Game.objects.filter(status__in=ACTIVE, paused_at__isnull=True)
        .filter(to_move__bot__gt="")
        .annotate(last_move=Max("moves__created_at"))
        .filter(Q(last_move__lt=since) | Q(last_move__isnull=True, started_at__lt=since))
        .order_by("pk")
    )
    ids = list(waiting.values_list("pk", flat=True)[:limit])
    for game_id in ids:
        play_bots.delay(game_id)
    return ids


def play_bot_turns(game_id: int, limit: int = 200) -> int:
    """Let bot seats make their decisions until a person's is due; returns how many."""
    played = 0
    rng = random.Random(DICE.random())
    while played < limit:
        with transaction.atomic():
            game = _lock(game_id)
            seat = game.to_move
            if not game.is_active or game.is_paused or seat is None or not seat.bot:
                return played
            state = state_of(game)
            # no bots scheduled here: their loop is already running
            _record(game, seat, state, BOTS[seat.bot](state, rng), Move.Source.BOT, None)
        played += 1
    from games.tasks import play_bots

    # A long run of bot turns continues in a fresh task; should it not reach the broker,
    # the bot sweep restarts it.
    play_bots.delay(game_id)
    return played


# --- organisers ----------------------------------------------------------------------


def move_on_behalf(
    game_id: int, admin: AbstractBaseUser, text: str, turn_number: int | None = None
) -> Move:
    """An organiser makes the pending decision for whoever the game waits for.

    ``turn_number`` (from the organiser's form) prevents the race where the player
    decides first and the organiser's text is then applied to the next decision."""
    with transaction.atomic():
        game = _lock(game_id)
        if not admin.is_staff:
            raise GameError("only an organiser can move for a player")
        if turn_number is not None and game.turn_number != turn_number:
            raise StaleForm(
                "the game has moved on since this form was made: nothing was changed; "
                "here is the game as it is now"
            )
        if not game.is_active or game.to_move is None:
            raise GameError("this game waits for no decision")
        if game.is_paused:
            raise GameError("this game is paused: resume it before moving for a player")
        return _apply(game, game.to_move, text, Move.Source.ADMIN, actor=admin)


def forfeit_seat(
    game_id: int, by: AbstractBaseUser | None, seat_id: int, source: str, reason: str = ""
) -> Move:
    """R31: the seat's player forfeits, an organiser's decision (``by``; the players are
    told, with the reason) or the timeout policy (``by`` None)."""
    with transaction.atomic():
        game = _lock(game_id)
        if by is not None:  # None: the timeout policy
            _check_organiser(game, by)
        seat = next((s for s in seats_of(game) if s.pk == seat_id), None)
        if seat is None:
            raise GameError("there is no such seat in this game")
        after, events = _forfeited(game, seat)
        if by is not None:
            text = f"{_organiser(by)} made {_named(seat)} forfeit the game (R31)."
            _tell(game, GameEvent.Kind.FORFEIT, by, text, seat, reason, [seat.user])
        return _store_forfeit(game, seat, after, events, source, by)


def resign(game_id: int, user: AbstractBaseUser) -> Move:
    """The player leaves a game in play: they forfeit it (R31), and the others are told."""
    with transaction.atomic():
        game = _lock(game_id)
        seat = next((s for s in seats_of(game) if s.user_id == user.pk), None)
        if seat is None:
            raise GameError("you have no seat in this game")
        after, events = _forfeited(game, seat)
        text = f"{_named(seat)} resigned: they forfeit the game (R31)."
        _tell(game, GameEvent.Kind.RESIGN, user, text, seat, "", [user])
        return _store_forfeit(game, seat, after, events, Move.Source.WEB, user)


def _forfeited(game: Game, seat: Seat) -> tuple[State, list[dict[str, Any]]]:
    """The game after the seat's player forfeits (R31), if they can."""
    if not game.is_active:
        raise GameError(f"this game is {game.get_status_display().lower()}")
    try:
        return engine.forfeit(state_of(game), seat.player_name)
    except engine.IllegalAction as refusal:
        raise GameError(str(refusal)) from None


def _store_forfeit(
    game: Game,
    seat: Seat,
    after: State,
    events: list[dict[str, Any]],
    source: str,
    by: AbstractBaseUser | None,
) -> Move:
    move = _log(game, seat, f"forfeit {seat.player_name}", [], events, source, by)
    _store(game, after, move.created_at, move=move)
    _after_commit(game)
    return move


def _organiser(by: AbstractBaseUser) -> str:
    return f"The organiser {display_name(by)}"


def _named(seat: Seat) -> str:
    return f"{seat.display_name} ({seat.player_name})" if seat.home else seat.display_name


def _tell(
    game: Game,
    kind: str,
    by: AbstractBaseUser | None,
    text: str,
    seat: Seat | None = None,
    reason: str = "",
    concerned: Iterable[AbstractBaseUser | None] = (),
    data: dict[str, Any] | None = None,
) -> GameEvent:
    """Keep what happened for the game log, and mail it to the players (always to the
    ``concerned`` ones), in the change's transaction."""
    event = GameEvent.objects.create(
        game=game,
        kind=kind,
        after_move=game.turn_number,
        seat=seat,
        actor=by,
        text=text,
        reason=reason.strip(),
        data=data or {},
    )
    notify.queue_notice_mails(game, event, seats_of(game), concerned=concerned)
    return event


def _waiting_player(game: Game) -> list[AbstractBaseUser | None]:
    """The player whose decision is pending, if any: a change to its deadline is theirs."""
    seat = game.to_move if game.is_active else None
    return [seat.user] if seat is not None and seat.user_id else []


def pause_game(game_id: int, by: AbstractBaseUser, reason: str = "") -> None:
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        if not game.is_active or game.is_paused:
            raise GameError("only a running game can be paused")
        game.paused_at = timezone.now()
        game.save(update_fields=["paused_at"])
        text = f"{_organiser(by)} paused the game: no decision is due until it resumes."
        _tell(game, GameEvent.Kind.PAUSE, by, text, None, reason, _waiting_player(game))


def resume_game(game_id: int, by: AbstractBaseUser, reason: str = "") -> None:
    """The deadline moves on by the time the game was paused."""
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        if game.paused_at is None:
            raise GameError("this game is not paused")
        paused = timezone.now() - game.paused_at
        if game.deadline is not None:
            game.deadline += paused
            arm_reminder(game, time_allowed(game, state_of(game)))
        if game.clock_started_at is not None:  # the pause is not charged to a bank
            game.clock_started_at += paused
        game.paused_at = None
        game.save(update_fields=["paused_at", "deadline", "remind_at", "clock_started_at"])
        text = (
            f"{_organiser(by)} resumed the game; the pending deadline moved on by the time "
            "it was paused."
        )
        _tell(game, GameEvent.Kind.RESUME, by, text, None, reason, _waiting_player(game))
        _after_commit(game)


def extend_deadline(game_id: int, by: AbstractBaseUser, extra: timedelta, reason: str = "") -> None:
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        if game.deadline is None:
            raise GameError("this game has no deadline running")
        if extra <= timedelta(0):
            raise GameError("an extension must be positive")
        game.deadline += extra
        game.deadline_claimed_at = None
        arm_reminder(game, time_allowed(game, state_of(game)))
        game.save(update_fields=["deadline", "deadline_claimed_at", "remind_at"])
        seat = game.to_move
        whose = f"{_named(seat)}'s" if seat is not None else "the pending"
        text = f"{_organiser(by)} extended {whose} deadline by {describe.duration(extra)}."
        _tell(game, GameEvent.Kind.EXTEND, by, text, seat, reason, _waiting_player(game))


def replace_player(
    game_id: int, by: AbstractBaseUser, seat_id: int, user: AbstractBaseUser, reason: str = ""
) -> GameEvent:
    """Someone else takes over a seat; its pieces, home and colour stay, and so do its
    earlier moves, under the player who made them. Its missed decisions were the
    previous player's: the count starts again. The players are told; if the seat's
    decision is due, the new player gets its mail at once (links sent to the previous
    player no longer work)."""
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        if game.status in (Game.Status.OVER, Game.Status.CANCELLED, Game.Status.ABANDONED):
            raise GameError("this game is finished")
        if any(s.user_id == user.pk for s in seats_of(game)):
            raise GameError(f"{user.get_username()} already has a seat in this game")
        seat = next((s for s in seats_of(game) if s.pk == seat_id), None)
        if seat is None:
            raise GameError("there is no such seat in this game")
        before, previous = seat.display_name, seat.user
        seat.user, seat.bot, seat.missed, seat.muted = user, "", 0, False
        seat.save(update_fields=["user", "bot", "missed", "muted"])
        game.__dict__.pop("_seat_list", None)  # read again, with the new player's profile
        seat = next(s for s in seats_of(game) if s.pk == seat_id)
        colour = f" ({seat.player_name})" if seat.home else ""
        text = f"{seat.display_name} takes over the seat of {before}{colour}."
        data = {"before": before, "after": seat.display_name}
        event = _tell(game, GameEvent.Kind.REPLACE, by, text, seat, reason, [previous, user], data)
        if game.is_active and not game.is_paused and game.to_move_id == seat.pk:
            notify.queue_decision_mail(game, seat, state_of(game), seats_of(game))
        return event


def abandon_game(game_id: int, by: AbstractBaseUser, reason: str = "") -> None:
    """The game stops with no result; every player is told, with the reason."""
    with transaction.atomic():
        game = _lock(game_id)
        _check_organiser(game, by)
        if game.status in (Game.Status.OVER, Game.Status.CANCELLED, Game.Status.ABANDONED):
            raise GameError("this game is already finished")
        game.status = Game.Status.ABANDONED
        game.deadline = None
        game.to_move = None
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "deadline", "to_move", "finished_at"])
        text = f"{_organiser(by)} abandoned the game: it ends with no result."
        everyone = [seat.user for seat in seats_of(game)]
        _tell(game, GameEvent.Kind.ABANDON, by, text, None, reason, everyone)


# --- the record ----------------------------------------------------------------------


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


def seat_for(game: Game, user: AbstractBaseUser | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def users_games(user: AbstractBaseUser) -> Iterable[Game]:
    return Game.objects.filter(seats__user=user).distinct()


# --- deadlines -----------------------------------------------------------------------

ACTIVE = (Game.Status.SETUP, Game.Status.PLAY)
# A claim whose task never finished (a worker died) is swept again after this long.
CLAIM_EXPIRES = timedelta(minutes=5)


def sweep_deadlines(now: datetime | None = None, limit: int = 10_000) -> list[int]:
    """Claim every running game whose pending decision is past its deadline.

    The claim is a conditional update: only a game that is running, not paused, past its
    deadline and not already claimed (or whose claim has expired) is marked, and rows
    another sweep holds are skipped, so two sweeps never claim one decision. Each
    claimed game's policy then runs in a task of its own, after commit. Returns the ids.
    """
    now = now or timezone.now()
    with transaction.atomic():
        due = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(status__in=ACTIVE, paused_at__isnull=True, deadline__lte=now)
            .filter(
                Q(deadline_claimed_at__isnull=True) | Q(deadline_claimed_at__lt=now - CLAIM_EXPIRES)
            )
            .order_by("deadline")
            .values_list("id", flat=True)[:limit]
        )
        ids = list(due)
        if ids:
            Game.objects.filter(id__in=ids).update(deadline_claimed_at=now)
            transaction.on_commit(lambda: _handle_later(ids), robust=True)
    return ids


def _handle_later(ids: list[int]) -> None:
    from games.tasks import handle_missed_decision

    for game_id in ids:
        handle_missed_decision.delay(game_id)


def handle_missed_decision(game_id: int, now: datetime | None = None) -> str:
    """The missed-decision policy, for a game whose deadline has passed.

    First one grace extension (the decision's full time again); when that passes too,
    the greedy bot decides for the player, recorded as a timeout move. Only missed turns
    in play count towards ``missed_limit``: a player who reaches it forfeits at that
    turn instead (R31). A missed setup placement or retreat is always decided by the bot
    (R31: a missed retreat is played for the defender) and does not count, since it
    could never lead to a forfeit. A bot seat is never charged: its decision is played.
    Safe to run twice: it re-checks the deadline under the row lock.
    Returns what it did: "nothing due", "grace", "timeout move", "forfeit" or "bot move".
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game_id)
        seat = game.to_move
        if (
            not game.is_active
            or game.is_paused
            or seat is None
            or game.deadline is None
            or game.deadline > now
        ):
            if game.deadline_claimed_at is not None:
                game.deadline_claimed_at = None
                game.save(update_fields=["deadline_claimed_at"])
            return "nothing due"
        state = state_of(game)
        if seat.bot:  # its task was lost: the bot decides now, with nothing held against it
            action = BOTS[seat.bot](state, random.Random(DICE.random()))
            _record(game, seat, state, action, Move.Source.BOT, None, now)
            _after_commit(game)
            return "bot move"
        if not game.grace_used:
            game.grace_used = True
            game.deadline = now + grace_time(game, state)
            game.deadline_claimed_at = None
            arm_reminder(game, grace_time(game, state))
            game.save(update_fields=["grace_used", "deadline", "deadline_claimed_at", "remind_at"])
            notify.queue_missed_mail(game, seat, "grace", "", state)
            return "grace"
        counts = state.phase == "play" and state.pending is None
        if counts:
            seat.missed += 1
            seat.save(update_fields=["missed"])
        if counts and seat.missed >= game.missed_limit:
            # The notice is queued before the move's own mails (the result, should the
            # forfeit end the game): the player reads them in the order they happened.
            notify.queue_missed_mail(game, seat, "forfeit", "", state)
            after, events = engine.forfeit(state, seat.player_name)
            move = _log(
                game, seat, f"forfeit {seat.player_name}", [], events, Move.Source.TIMEOUT, None
            )
            _store(game, after, now, move=move)
            done = "forfeit"
        else:
            action = BOTS["greedy"](state, random.Random(DICE.random()))
            notify.queue_missed_mail(game, seat, "timeout move", action, state)
            _record(game, seat, state, action, Move.Source.TIMEOUT, None, now)
            done = "timeout move"
        _after_commit(game)
        return done


def sweep_reminders(now: datetime | None = None, limit: int = 10_000) -> list[int]:
    """Remind the players whose decisions are due soon, once per deadline.

    Claims the due reminders with a conditional update (rows another sweep holds are
    skipped) and queues each mail in the same transaction. Returns the game ids.
    """
    now = now or timezone.now()
    with transaction.atomic():
        ids = list(
            Game.objects.select_for_update(skip_locked=True)
            .filter(status__in=ACTIVE, paused_at__isnull=True, remind_at__lte=now, deadline__gt=now)
            .values_list("id", flat=True)[:limit]
        )
        Game.objects.filter(id__in=ids).update(remind_at=None)
        for game in Game.objects.filter(id__in=ids).select_related("to_move__user__profile"):
            seat = game.to_move
            if seat is not None and not seat.bot:
                notify.queue_reminder_mail(game, seat, state_of(game))
    return ids


# --- absences ------------------------------------------------------------------------


def _local_midnight(day: date, zone: zoneinfo.ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone)


def absence_days(absence: Absence, zone: zoneinfo.ZoneInfo) -> int:
    """How many of the player's calendar days the absence takes (the cap counts these)."""
    return (
        absence.ends_at.astimezone(zone).date() - absence.starts_at.astimezone(zone).date()
    ).days


def _locked_profile(user: AbstractBaseUser) -> Profile:
    """The player's profile, locked: a player's absence changes run one at a time."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return Profile.objects.select_for_update().get(pk=profile.pk)


def declare_absence(
    user: AbstractBaseUser, first_day: date, last_day: date, now: datetime | None = None
) -> Absence:
    """The player will be away from the start of ``first_day`` to the end of ``last_day``
    (their own calendar days). At most ABSENCE_DAYS_PER_YEAR days per calendar year; no
    overlap with another absence. In games that let an absence stop the clock, the
    deadlines of the player's pending decisions move on by the time away."""

    now = now or timezone.now()
    with transaction.atomic():
        profile = _locked_profile(user)
        zone = zoneinfo.ZoneInfo(profile.time_zone)
        today = now.astimezone(zone).date()
        if last_day < first_day:
            raise GameError("an absence ends on or after the day it starts")
        if first_day < today:
            raise GameError("an absence cannot start in the past")
        if first_day > today + timedelta(days=365):
            raise GameError("an absence can be declared at most a year ahead")
        starts = max(_local_midnight(first_day, zone), now)
        ends = _local_midnight(last_day + timedelta(days=1), zone)
        if Absence.objects.filter(user=user, starts_at__lt=ends, ends_at__gt=starts).exists():
            raise GameError("this absence overlaps one you have already declared")
        absence = Absence(user=user, starts_at=starts, ends_at=ends)
        cap = settings.ABSENCE_DAYS_PER_YEAR
        year = first_day.year
        taken = sum(
            absence_days(a, zone)
            for a in Absence.objects.filter(user=user)
            if a.starts_at.astimezone(zone).year == year
        )
        wanted = absence_days(absence, zone)
        if taken + wanted > cap:
            raise GameError(
                f"that is {wanted} days away, and you have {max(cap - taken, 0)} of your "
                f"{cap} days of absence for {year} left"
            )
        absence.save()
        profile.away_until = max(filter(None, [profile.away_until, ends]))
        profile.save(update_fields=["away_until"])
        _shift_deadlines(user, starts, ends, +1)
    return absence


def cancel_absence(user: AbstractBaseUser, absence_id: int, now: datetime | None = None) -> None:
    """Withdraw an absence that has not begun; the deadlines it moved move back."""

    now = now or timezone.now()
    with transaction.atomic():
        profile = _locked_profile(user)
        absence = Absence.objects.filter(pk=absence_id, user=user).first()
        if absence is None:
            raise GameError("you have no such absence")
        if absence.starts_at <= now:
            raise GameError("an absence that has begun cannot be withdrawn")
        absence.delete()
        profile.away_until = Absence.objects.filter(user=user).aggregate(end=Max("ends_at"))["end"]
        profile.save(update_fields=["away_until"])
        _shift_deadlines(user, absence.starts_at, absence.ends_at, -1)


def _shift_deadlines(user: AbstractBaseUser, starts: datetime, ends: datetime, sign: int) -> None:
    """The clock of each decision the player has pending stands still from ``starts`` to
    ``ends`` (sign +1), or runs again (−1): a deadline after the period moves by its
    length, and so does a reminder."""
    length = (ends - starts) * sign
    after = starts if sign > 0 else ends  # a deadline the period moved lies after its end
    # Every game the player is seated in is locked, not only those waiting for them now:
    # a move in progress may be making one wait for them. Its lock is awaited, and its
    # committed row (the new decider, the new deadline) is what is read here.
    games = (
        Game.objects.select_for_update(of=("self",))
        .filter(seats__user=user, status__in=ACTIVE, absence_pauses_clock=True)
        .order_by("pk")
    )
    locked = list(games)
    mine = set(Seat.objects.filter(user=user).values_list("pk", flat=True))
    for game in locked:
        if game.to_move_id not in mine or game.deadline is None or game.deadline <= after:
            continue
        game.deadline += length
        if game.remind_at is not None and game.remind_at > after:
            game.remind_at += length
        game.deadline_claimed_at = None
        game.save(update_fields=["deadline", "remind_at", "deadline_claimed_at"])


def absences_of(user: AbstractBaseUser, now: datetime | None = None) -> list[Absence]:
    """The player's absences that have not ended, soonest first."""
    now = now or timezone.now()
    return list(Absence.objects.filter(user=user, ends_at__gt=now).order_by("starts_at"))
