"""Reads that change nothing, asked by views, mails and the admin alike (and by an API
later), so each question has one answer: who may see or organise a game, a player's
seat and games, a bank's time left, a game's replay and record.

Who organises a game is a relation, never "is staff": its creator, the organisers
other apps name (a league's organisers organise its events' and ladders' games: each
app registers a provider with ``register_organisers``), and holders of the explicit
site-wide permission ``games.organise_any_game`` (superusers have it). Being let into
the admin grants nothing by itself. Other apps also name a game in mails
(``register_game_label``): a tournament's table is named by its event, round and table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Absence
from games import clock, wording
from games.kinds import competition_ranks, kind_of
from games.models import Game, GameEvent, Move, Seat

ACTIVE = (Game.Status.SETUP, Game.Status.PLAY)

ORGANISE_ANY_GAME = "games.organise_any_game"

# Each provider answers, for a user, the games they organise through its app, as a
# filter on games (e.g. a tournament's tables in the leagues the user organises).
_organiser_providers: list[Callable[[AbstractBaseUser], Q]] = []


def register_organisers(provider: Callable[[AbstractBaseUser], Q]) -> None:
    """Let another app name organisers of games: ``provider(user)`` is the filter on
    ``Game`` selecting the games that user organises through the app (an empty
    ``Q(pk__in=[])`` for none)."""
    if provider not in _organiser_providers:
        _organiser_providers.append(provider)


# Each provider names a game to its players (e.g. a tournament's table), or returns "".
_label_providers: list[Callable[[Game], str]] = []


def register_game_label(provider: Callable[[Game], str]) -> None:
    """Let another app name the games it made (e.g. "Spring Cup, round 2, table 3")."""
    if provider not in _label_providers:
        _label_providers.append(provider)


def game_title(game: Game) -> str:
    """The game's name for its players' mails: what a registered provider calls it (the
    event and table it belongs to), else its own name."""
    for provider in _label_providers:
        label = provider(game)
        if label:
            return label
    return str(game)


def organises_every_game(user: AbstractBaseUser | None) -> bool:
    """A site-wide organiser: an active user given ``games.organise_any_game`` (directly
    or through a group; superusers have every permission). Not staff as such."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return bool(user.has_perm(ORGANISE_ANY_GAME))


def _named_games(user: AbstractBaseUser) -> Q:
    """The games the user organises by a relation: those they created, and those a
    registered provider names them for."""
    named = Q(creator=user)
    for provider in _organiser_providers:
        named |= provider(user)
    return named


def organised_games(user: AbstractBaseUser | None) -> QuerySet[Game]:
    """The games the user may organise: every one for a site-wide organiser, else those
    they are named for (``is_named_organiser``)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return Game.objects.none()
    if organises_every_game(user):
        return Game.objects.all()
    return Game.objects.filter(pk__in=Game.objects.filter(_named_games(user)).values("pk"))


def waiting_seats(game: Game, seats: Iterable[Seat] | None = None) -> list[Seat]:
    """The seats whose decision the game waits for: its one player's, or the several
    deciding at once (sealed from each other); none unless the game is running.
    ``seats``: the game's seats, when already read."""
    if not game.is_active:
        return []
    if game.to_move_id is not None and seats is None:
        return [game.to_move] if game.to_move is not None else []
    every = seats if seats is not None else game.seats.select_related("user__profile")
    return [seat for seat in every if seat.pk == game.to_move_id or seat.deciding]


def decides_now(game: Game, seat: Seat) -> bool:
    """Whether the game, running, waits for this seat's decision (alone or with others)."""
    return game.is_active and (game.to_move_id == seat.pk or seat.deciding)


def decision_open(game: Game, seat: Seat, turn: int) -> bool:
    """Whether the decision a form, link or reply address was made for at move ``turn``
    is still the seat's to make: the game is at that move and waits for the seat; or the
    seat is one of several deciding at once since that move or before (the others'
    decisions move the game on meanwhile); or the decision is one of several actions of
    the seat's player (a RisiKo turn) that began at that move or before."""
    if not decides_now(game, seat):
        return False
    if game.turn_number == turn:
        return True
    several = seat.deciding or (
        game.to_move_id == seat.pk and kind_of(game).decision_key(game.position or {}) is not None
    )
    return several and game.decision_turn <= turn <= game.turn_number


def waiting_names(game: Game, seats: Iterable[Seat] | None = None) -> str:
    """Who the game waits for, by name ("alice", "alice and bob"), or "no one"."""
    names = [seat.display_name for seat in waiting_seats(game, seats)]
    if not names:
        return "no one"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def waiting_sentence(game: Game, seat: Seat | None, yours: str, others: str) -> str:
    """Whose decision the game waits for now, in a sentence, for ``seat``'s player (None:
    a reader without a seat): ``yours`` when it is theirs again, else ``others`` with the
    name of who decides ("Now the game waits for {}")."""
    if game.status == Game.Status.OVER:
        winner = game.winner.display_name if game.winner else "no one (a draw)"
        return wording.sentence(f"The game is over: the winner is {winner}")
    if not game.is_active:
        return wording.sentence(f"The game is {game.get_status_display().lower()}")
    if game.is_paused:
        return "The game is paused by an organiser."
    if seat is not None and decides_now(game, seat):
        return yours
    return wording.sentence(others.format(waiting_names(game)))


def can_organise(game: Game, user: AbstractBaseUser | None) -> bool:
    """The one organiser rule: a site-wide organiser, the game's creator, and whoever a
    registered provider names for it (a league's organisers for its events' and ladders'
    games)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return organises_every_game(user) or is_named_organiser(game, user)


def is_named_organiser(game: Game, user: AbstractBaseUser) -> bool:
    """The game's creator, or named by a registered provider: an organiser of this game
    in particular, not through a site-wide permission."""
    if game.creator_id == user.pk:
        return True
    if not _organiser_providers:
        return False
    return Game.objects.filter(_named_games(user), pk=game.pk).exists()


def can_see(game: Game, user: AbstractBaseUser | None, invite_token: str | None = None) -> bool:
    """A public game, or a private one to its invitees, players and organisers."""
    if game.is_public or (invite_token and invite_token == game.invite_token):
        return True
    if user is None or not user.is_authenticated:
        return False
    return can_organise(game, user) or game.seats.filter(user=user).exists()


def seat_for(game: Game, user: AbstractBaseUser | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def users_games(user: AbstractBaseUser) -> Iterable[Game]:
    return Game.objects.filter(seats__user=user).distinct()


def my_games(user: Any) -> list[dict[str, Any]]:
    """The player's games that are not over: those waiting for them first (soonest
    deadline first), then the others running, then those waiting for players."""
    games = (
        Game.objects.filter(Q(seats__user=user) | Q(creator=user))
        .filter(status__in=[Game.Status.OPEN, *ACTIVE])
        .distinct()
        .select_related("to_move__user__profile")
    )
    rows = []
    for game in games:
        waiting = waiting_seats(game)
        rows.append(
            {
                "game": game,
                "yours": any(s.user_id == user.pk for s in waiting) and not game.is_paused,
                "waiting_for": waiting_names(game) if waiting else "",
            }
        )
    far = timezone.now() + timedelta(days=3650)

    def order(row: dict[str, Any]) -> tuple[int, datetime, int]:
        game = row["game"]
        group = 0 if row["yours"] else (1 if game.is_active else 2)
        return group, game.deadline or far, -game.pk

    return sorted(rows, key=order)


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


def bank_left(game: Game, seat: Seat, now: datetime) -> timedelta | None:
    """What is left of the seat's time bank (bank games; None otherwise); for the player
    deciding now, as it runs."""
    if game.time_control != Game.TimeControl.BANK or seat.bank_left is None:
        return None
    left = seat.bank_left
    started = game.clock_started_at
    if decides_now(game, seat) and started is not None:
        until = game.paused_at or now
        used = clock.running(started, until, away_periods(game, seat, started))
        left = max(left - used, timedelta(0))
    return left


def initial_state(game: Game) -> Any:
    """The state the game started from, as its kind starts it again from its record."""
    seats = list(game.seats.order_by("number"))
    players = [(s.player_name, s.home) for s in seats]
    return kind_of(game).start_again(players, game.options, game.start_record)


def replay(game: Game) -> list[tuple[Move | None, Any]]:
    """Every state of the game from its move log: the start, then one per move."""
    kind = kind_of(game)
    state = initial_state(game)
    states: list[tuple[Move | None, Any]] = [(None, state)]
    players = {seat.pk: seat.player_name for seat in game.seats.all()}
    for move in game.moves.order_by("number"):
        state = kind.replay(state, players[move.seat_id], move.action, move.dice)
        states.append((move, state))
    return states


def latest_sealed(game: Game, before: int | None = None) -> str | None:
    """The decision id of the game's latest sealed move (one with a commitment), of those
    numbered below ``before`` if given; None if there is none."""
    moves = Move.objects.filter(game=game).exclude(commitment="")
    if before is not None:
        moves = moves.filter(number__lt=before)
    return moves.order_by("-number").values_list("decision", flat=True).first()


def open_sealed(game: Game) -> str | None:
    """The game's sealed decision still open (its actions and nonces stay with their
    players until its reveal): its latest sealed move's, while its kind says the stored
    position waits for a reveal; None otherwise."""
    if game.position is None or not kind_of(game).sealed_pending(game.position):
        return None
    return latest_sealed(game)


def replacements(events: Iterable[GameEvent], seats: dict[int, Seat]) -> list[tuple[int, str, str]]:
    """The seats that changed hands, for ``wording.names_at``: (moves before the change,
    the seat's colour, the name of the player who left it), oldest first."""
    return [
        (event.after_move, seats[event.seat_id].player_name, event.data.get("before", ""))
        for event in events
        if event.kind == GameEvent.Kind.REPLACE and event.seat_id in seats
    ]


def still_playing(game: Game, seat: Seat) -> bool:
    """Whether the seat's player is still in the game, as its kind tells who is out
    (World War 5: eliminated; RisiKo: eliminated or forfeited); who is out is public."""
    if game.position is None:
        return False
    kind = kind_of(game)
    return seat.player_name not in kind.players_out(kind.load(game.position))


def resign_place(game: Game, seat: Seat) -> str:
    """Where the seat's player would finish if they resigned now (R31: a forfeiter
    ranks below everyone eliminated in play), as "3rd of 4": a rank, which tells
    nothing of the position that the finishing order would not."""
    kind = kind_of(game)
    after, events = kind.forfeit(kind.load(game.position), seat.player_name)
    history = [(move.action, move.events) for move in game.moves.order_by("number")]
    history.append((f"forfeit {seat.player_name}", events))
    try:
        ranks = competition_ranks(kind.finishing_order(after, history))
    except ValueError:  # a position out of step with its log: rebuild_positions reports it
        return ""
    return f"{ordinal(ranks[seat.player_name])} of {len(ranks)}"
