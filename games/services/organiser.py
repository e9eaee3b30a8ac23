"""What an organiser does to a running game, and a player's resignation: each is kept
as a game event, shown in the game log and mailed to the players."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import Truncator

from accounts.services import display_name
from games import notify, wording
from games.errors import GameError, StaleForm
from games.kinds import RuleWords, kind_of
from games.models import Game, GameEvent, Move, Seat
from games.options import LONGEST_EXTENSION
from games.selectors import can_organise, decides_now, waiting_seats
from games.services.clocks import arm_reminder, time_allowed
from games.services.core import (
    check_organiser,
    current_time,
    finish_game,
    lock_game,
    play_bots_after_commit,
    position_after_forfeit,
    record_forfeit,
    seats_of,
    state_of,
)
from games.services.decisions import apply_decision
from games.signals import ABANDONED, Finish


def move_on_behalf(
    game_id: int, admin: AbstractBaseUser, text: str, turn_number: int | None = None
) -> Move:
    """An organiser makes the pending decision for whoever the game waits for.

    ``turn_number`` (from the organiser's form) prevents the race where the player
    decides first and the organiser's text is then applied to the next decision."""
    with transaction.atomic():
        game = lock_game(game_id)
        if not can_organise(game, admin):
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
        return apply_decision(game, game.to_move, text, Move.Source.ADMIN, actor=admin)


def forfeit_seat(
    game_id: int, by: AbstractBaseUser | None, seat_id: int, source: str, reason: str = ""
) -> Move:
    """R31: the seat's player forfeits, an organiser's decision (``by``; the players are
    told, with the reason) or the timeout policy (``by`` None)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if by is not None:  # None: the timeout policy
            check_organiser(game, by)
        seat = next((s for s in seats_of(game) if s.pk == seat_id), None)
        if seat is None:
            raise GameError("there is no such seat in this game")
        after, events = position_after_forfeit(game, seat)
        if by is not None:
            rule = _cited(_rules(game).forfeit_rule)
            text = f"{_organiser(by)} made {_named(seat)} forfeit the game{rule}."
            _tell(game, GameEvent.Kind.FORFEIT, by, text, seat, reason, [seat.user])
        return record_forfeit(game, seat, after, events, source, by)


def _rules(game: Game) -> RuleWords:
    return kind_of(game).rule_words(game.options)


def _cited(rule: str) -> str:
    """ " (R31)": a rule of the game by its id, for a sentence; "" where the game's rules
    name none (RisiKo's turn limit)."""
    return f" ({rule})" if rule else ""


def resign(game_id: int, user: AbstractBaseUser) -> Move:
    """The player leaves a game in play: they forfeit it (R31), and the others are told."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = next((s for s in seats_of(game) if s.user_id == user.pk), None)
        if seat is None:
            raise GameError("you have no seat in this game")
        after, events = position_after_forfeit(game, seat)
        rule = _cited(_rules(game).forfeit_rule)
        text = f"{_named(seat)} resigned: they forfeit the game{rule}."
        _tell(game, GameEvent.Kind.RESIGN, user, text, seat, "", [user])
        return record_forfeit(game, seat, after, events, Move.Source.WEB, user)


def _organiser(by: AbstractBaseUser) -> str:
    return f"The organiser {display_name(by)}"


def _named(seat: Seat) -> str:
    return wording.named(seat)


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
    """The players whose decision is pending, if any: a change to its deadline is theirs."""
    return [seat.user for seat in waiting_seats(game, seats_of(game)) if seat.user_id]


def pause_game(game_id: int, by: AbstractBaseUser, reason: str = "") -> None:
    with transaction.atomic():
        game = lock_game(game_id)
        check_organiser(game, by)
        if not game.is_active or game.is_paused:
            raise GameError("only a running game can be paused")
        game.paused_at = current_time()
        game.save(update_fields=["paused_at"])
        text = f"{_organiser(by)} paused the game: no decision is due until it resumes."
        _tell(game, GameEvent.Kind.PAUSE, by, text, None, reason, _waiting_player(game))


def resume_game(game_id: int, by: AbstractBaseUser, reason: str = "") -> None:
    """The deadline moves on by the time the game was paused."""
    with transaction.atomic():
        game = lock_game(game_id)
        check_organiser(game, by)
        if game.paused_at is None:
            raise GameError("this game is not paused")
        paused = current_time() - game.paused_at
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
        play_bots_after_commit(game)


def extend_deadline(game_id: int, by: AbstractBaseUser, extra: timedelta, reason: str = "") -> None:
    with transaction.atomic():
        game = lock_game(game_id)
        check_organiser(game, by)
        if game.deadline is None:
            raise GameError("this game has no deadline running")
        if extra <= timedelta(0):
            raise GameError("an extension must be positive")
        if extra > LONGEST_EXTENSION:
            longest = wording.duration(LONGEST_EXTENSION)
            raise GameError(f"an extension is at most {longest} at once")
        game.deadline += extra
        game.deadline_claimed_at = None
        arm_reminder(game, time_allowed(game, state_of(game)))
        game.save(update_fields=["deadline", "deadline_claimed_at", "remind_at"])
        seat = game.to_move
        whose = f"{_named(seat)}'s" if seat is not None else "the pending decision's"
        text = f"{_organiser(by)} extended {whose} deadline by {wording.duration(extra)}."
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
        game = lock_game(game_id)
        check_organiser(game, by)
        if game.status in (Game.Status.OVER, Game.Status.CANCELLED, Game.Status.ABANDONED):
            raise GameError("this game is finished")
        if any(s.user_id == user.pk for s in seats_of(game)):
            raise GameError(f"{user.get_username()} already has a seat in this game")
        seat = next((s for s in seats_of(game) if s.pk == seat_id), None)
        if seat is None:
            raise GameError("there is no such seat in this game")
        before, previous = seat.display_name, seat.user
        seat.user, seat.bot, seat.name, seat.missed, seat.muted = user, "", "", 0, False
        seat.save(update_fields=["user", "bot", "name", "missed", "muted"])
        game.__dict__.pop("_seat_list", None)  # read again, with the new player's profile
        seat = next(s for s in seats_of(game) if s.pk == seat_id)
        colour = f" ({seat.player_name})" if seat.home else ""
        text = f"{seat.display_name} takes over the seat of {before}{colour}."
        data = {"before": before, "after": seat.display_name}
        event = _tell(game, GameEvent.Kind.REPLACE, by, text, seat, reason, [previous, user], data)
        if decides_now(game, seat) and not game.is_paused:
            notify.queue_decision_mail(game, seat, state_of(game), seats_of(game))
        return event


def abandon_game(game_id: int, by: AbstractBaseUser, reason: str = "") -> None:
    """The game stops with no result; every player is told, with the reason."""
    with transaction.atomic():
        game = lock_game(game_id)
        check_organiser(game, by)
        if game.status in (Game.Status.OVER, Game.Status.CANCELLED, Game.Status.ABANDONED):
            raise GameError("this game is already finished")
        finish_game(game, current_time(), outcome=ABANDONED)
        text = f"{_organiser(by)} abandoned the game: it ends with no result."
        everyone = [seat.user for seat in seats_of(game)]
        _tell(game, GameEvent.Kind.ABANDON, by, text, None, reason, everyone)


def correct_result(
    game_id: int, by: AbstractBaseUser, ranks: dict[int, int], reason: str = ""
) -> GameEvent:
    """An organiser corrects a finished game's result (a dispute settled): each seat's
    rank by seat id, 1 the best, tied seats sharing one. The seats' ranks and the winner
    (the one seat ranked first, if only one is) follow, so every page, list and record
    shows the corrected result; the game log keeps the ranks before and after, with the
    reason. Telling the players is the caller's: an event mails its table."""
    with transaction.atomic():
        game = lock_game(game_id)
        check_organiser(game, by)
        if game.status not in (Game.Status.OVER, Game.Status.ABANDONED):
            raise GameError("only a finished game's result can be corrected")
        seats = seats_of(game)
        if set(ranks) != {s.pk for s in seats} or not all(
            1 <= rank <= len(seats) for rank in ranks.values()
        ):
            raise GameError("a result ranks every player of the game")
        before = {str(s.number): s.rank for s in seats}
        _rank(game, seats, ranks)
        game.result_corrected_at = current_time()
        game.save(update_fields=["winner", "result_corrected_at"])
        places = "; ".join(
            f"{s.rank}. {_named(s)}" for s in sorted(seats, key=lambda s: (s.rank, s.number))
        )
        text = Truncator(f"{_organiser(by)} corrected the result: {places}.").chars(300)
        after = {str(s.number): s.rank for s in seats}
        return GameEvent.objects.create(
            game=game,
            kind=GameEvent.Kind.CORRECT,
            after_move=game.turn_number,
            actor=by,
            text=text,
            reason=reason.strip(),
            data={"before": before, "after": after},
            created_at=game.result_corrected_at,
        )


def _rank(game: Game, seats: list[Seat], ranks: dict[int, int]) -> None:
    """The seats take these ranks (by seat id), and the game the winner they make: the
    one seat ranked first, if only one is (the caller saves the game)."""
    for seat in seats:
        seat.rank = ranks[seat.pk]
        seat.save(update_fields=["rank"])
    first = [s for s in seats if s.rank == 1]
    game.winner = first[0] if len(first) == 1 else None


def keep_correction(game: Game) -> None:
    """A finished game whose result an organiser corrected takes the corrected ranks
    again (after a rebuild of its position ranked it by its moves), in the caller's
    transaction, the game locked."""
    if game.result_corrected_at is None:
        return
    last = game.events.filter(kind=GameEvent.Kind.CORRECT).order_by("-created_at").first()
    if last is None or game.status not in (Game.Status.OVER, Game.Status.ABANDONED):
        return
    seats = seats_of(game)
    after = last.data.get("after", {})
    _rank(game, seats, {s.pk: after.get(str(s.number), s.rank) for s in seats})
    game.save(update_fields=["winner"])


def adjudicate(game_id: int, order: list[list[str]], reason: str) -> Finish:
    """End a running game with a given finishing order (engine player names, best first;
    a group ties), under an event's turn-limit house rule (R28): told to the players with
    ``reason`` (the published ranking and the values that decided it)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise GameError(f"this game is {game.get_status_display().lower()}")
        named = {seat.player_name for seat in seats_of(game)}
        listed = [name for group in order for name in group]
        if sorted(listed) != sorted(named):
            raise GameError("an adjudication ranks every player of the game once")
        finish = finish_game(game, current_time(), order=order)
        rule = _cited(_rules(game).turn_limit_rule)
        text = f"The game ended at its round's deadline under the turn-limit house rule{rule}."
        everyone = [seat.user for seat in seats_of(game)]
        _tell(game, GameEvent.Kind.ADJUDICATE, None, text, None, reason, everyone)
        return finish
