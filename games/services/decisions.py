"""Decisions: a player's, checked against the turn their form was made for, and the
bots', played after commit until a person's decision is due."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Q

from games.errors import IllegalMove, NeedsConfirmation, NotYourDecision, StaleForm
from games.kinds import Refused, kind_of
from games.models import Game, Move, Seat
from games.selectors import ACTIVE, decides_now, decision_open, waiting_names, waiting_seats
from games.services.core import (
    Decision,
    bot_random,
    current_time,
    game_dice,
    hold_lines,
    lock_game,
    log_move,
    play_bots_after_commit,
    record_move,
    seats_of,
    state_of,
    store_position,
)


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
        game = lock_game(game_id, with_seats=True)
        seat = _seat_of(game, user)
        if game.turn_number != turn_number and not decision_open(game, seat, turn_number):
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
        return Decision(apply_decision(game, seat, text, source, user, confirm_elimination))


def _seat_of(game: Game, user: AbstractBaseUser) -> Seat:
    """The user's seat in the game; ``NotYourDecision`` for a user without one."""
    key = user.pk  # read once: a signed-in user is a lazy object, each read a look-up
    seat = next((s for s in seats_of(game) if s.user_id == key), None)
    if seat is None:
        raise NotYourDecision("you have no seat in this game")
    return seat


def _check_waiting_for(game: Game, seat: Seat) -> None:
    if not game.is_active:
        raise NotYourDecision(f"this game is {game.get_status_display().lower()}")
    if game.is_paused:
        raise NotYourDecision("this game is paused by an organiser")
    if not decides_now(game, seat):
        waiting = waiting_names(game, seats_of(game))
        raise NotYourDecision(f"it is not your decision: the game waits for {waiting}")


def apply_decision(
    game: Game,
    seat: Seat,
    text: str,
    source: str,
    actor: AbstractBaseUser | None,
    confirmed: bool = True,
) -> Move:
    """The decision in ``text`` for ``seat``, whose decision the caller found due (the
    game locked): parsed against the position, recorded with its dice, and the bots let
    play after commit. A refused text raises IllegalMove; with ``confirmed`` False, one
    that would eliminate the mover (R15) raises NeedsConfirmation."""
    kind = kind_of(game)
    state = state_of(game)
    try:
        action = kind.parse(state, seat.player_name, text)
    except Refused as refusal:
        raise IllegalMove(str(refusal), refusal.reason) from None
    if not confirmed and kind.needs_confirmation(state, seat.player_name, action):
        raise NeedsConfirmation(action, kind.confirmation_words, game.options)
    move = record_move(game, seat, state, action, source, actor)
    play_bots_after_commit(game)
    return move


def submit_script(
    game_id: int,
    user: AbstractBaseUser,
    text: str,
    turn_number: int,
    source: str = Move.Source.WEB,
) -> tuple[Move | None, list[dict[str, Any]]]:
    """A player's turn script (several action lines, for a kind that takes them), from a
    form or a reply made for ``turn_number``: the lines run as far as the turn goes, and
    those done are recorded as one move with every value they drew. Returns the move
    (None when no line was done: nothing changed) and the report of every line."""
    with transaction.atomic():
        game = lock_game(game_id, with_seats=True)
        seat = _seat_of(game, user)
        if game.turn_number != turn_number and not decision_open(game, seat, turn_number):
            raise StaleForm(
                "the game has moved on since this form was made: nothing was changed; "
                "here is the game as it is now"
            )
        _check_waiting_for(game, seat)
        kind = kind_of(game)
        rolls = game_dice(game)
        ran = kind.run_script(state_of(game), seat.player_name, text, rolls)
        if ran is None:
            raise IllegalMove("this game takes one action at a time", "one action at a time")
        after, report, events = ran
        done = [str(line["action"]) for line in report if line["status"] == "done"]
        if not done:
            return None, report
        hold_lines(seat, report, source)
        move = log_move(
            game, seat, "; ".join(done), rolls.rolled, events, source, user, drawn=rolls
        )
        store_position(game, after, move.created_at, decided_by=seat, move=move)
        play_bots_after_commit(game)
        return move, report


def sweep_bots(now: datetime | None = None, limit: int = 1000) -> list[int]:
    """Periodic: restart the bots of running games that have waited for a bot seat for
    longer than BOT_STALLED_SECONDS: a bot decides within moments of its turn, so its
    task was lost (the broker was down when the decision fell due, or a worker died).
    Returns the game ids handed to ``play_bots``.

    Running ``play_bots`` for a game whose bots are already playing is harmless: each
    bot decision locks the game and re-checks whose decision it is."""
    from games.tasks import play_bots

    since = (now or current_time()) - timedelta(seconds=settings.BOT_STALLED_SECONDS)
    waiting = (
        Game.objects.filter(status__in=ACTIVE, paused_at__isnull=True)
        .filter(Q(to_move__bot__gt="") | Q(seats__deciding=True, seats__bot__gt=""))
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
    while played < limit:
        with transaction.atomic():
            game = lock_game(game_id, with_seats=True)
            bots = [s for s in waiting_seats(game, seats_of(game)) if s.bot]
            if not game.is_active or game.is_paused or not bots:
                return played
            seat = bots[0]
            state = state_of(game)
            action = kind_of(game).bots[seat.bot](state, seat.player_name, bot_random(game))
            # no bots scheduled here: their loop is already running
            record_move(game, seat, state, action, Move.Source.BOT, None)
        played += 1
    from games.tasks import play_bots

    # A long run of bot turns continues in a fresh task; should it not reach the broker,
    # the bot sweep restarts it. Run in-process (no broker), that task would run inside
    # this one, again and again for a game of bots only that nothing ends but a deadline
    # (a tournament round's, R28): there the bot sweep continues it, a run at a time.
    if not play_bots.app.conf.task_always_eager:
        play_bots.delay(game_id)
    return played
