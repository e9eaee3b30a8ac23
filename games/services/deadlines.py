"""The periodic sweeps of deadlines and reminders, and the missed-decision policy."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet

from games import notify
from games.kinds import kind_of
from games.models import Game, Move, Seat
from games.selectors import ACTIVE, waiting_seats
from games.services.clocks import arm_reminder, grace_time
from games.services.core import (
    bot_random,
    current_time,
    lock_game,
    lock_game_unless_held,
    log_move,
    play_bots_after_commit,
    record_move,
    seats_of,
    state_of,
    store_position,
)

# A claim whose task never finished (a worker died) is swept again after this long
# (DEADLINE_CLAIM_EXPIRES_SECONDS, 5 minutes by default).
CLAIM_EXPIRES = timedelta(seconds=settings.DEADLINE_CLAIM_EXPIRES_SECONDS)


def sweep_deadlines(now: datetime | None = None, limit: int = 10_000) -> list[int]:
    """Claim every running game whose pending decision is past its deadline.

    The claim is a conditional update: only a game that is running, not paused, past its
    deadline and not already claimed (or whose claim has expired) is marked, and rows
    another sweep holds are skipped, so two sweeps never claim one decision. Each
    claimed game's policy then runs in a task of its own, after commit. Returns the ids.
    """
    now = now or current_time()
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
            transaction.on_commit(lambda: handle_missed_later(ids), robust=True)
    return ids


def handle_missed_later(ids: list[int]) -> None:
    """After the sweep commits: each claimed game's policy in a task of its own."""
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
    now = now or current_time()
    with transaction.atomic():
        game = lock_game(game_id, with_seats=True)
        waiting = waiting_seats(game, seats_of(game))
        if (
            not game.is_active
            or game.is_paused
            or not waiting
            or game.deadline is None
            or game.deadline > now
        ):
            if game.deadline_claimed_at is not None:
                game.deadline_claimed_at = None
                game.save(update_fields=["deadline_claimed_at"])
            return "nothing due"
        kind = kind_of(game)
        state = state_of(game)
        bot = next((seat for seat in waiting if seat.bot), None)
        if bot is not None:  # its task was lost: the bot decides now, held to nothing
            action = kind.bots[bot.bot](state, bot.player_name, bot_random(game))
            record_move(game, bot, state, action, Move.Source.BOT, None, now)
            play_bots_after_commit(game)
            return "bot move"
        if not game.grace_used:
            game.grace_used = True
            grace = grace_time(game, state, waiting)
            game.deadline = now + grace
            game.deadline_claimed_at = None
            arm_reminder(game, grace)
            game.save(update_fields=["grace_used", "deadline", "deadline_claimed_at", "remind_at"])
            for seat in waiting:
                notify.queue_missed_mail(game, seat, "grace", "", state)
            return "grace"
        done = "nothing due"
        for seat in waiting:  # several, for a decision they make at once
            state = state_of(game)
            if seat.player_name not in kind.deciders(state):
                continue  # a forfeit before it settled this seat's decision
            done = _missed(game, seat, state, now)
        play_bots_after_commit(game)
        return done


# The most default actions that finish one missed decision of several actions (a turn).
MAX_DEFAULT_ACTIONS = 200


def _missed(game: Game, seat: Seat, state: Any, now: datetime) -> str:
    """The seat's player missed their decision, grace and all: it counts towards their
    forfeit (where the game says so), and at the limit they forfeit; else the game's
    default decision is made for them. Returns "forfeit" or "timeout move"."""
    kind = kind_of(game)
    counts = kind.missed_counts(state, seat.player_name)
    if counts:
        seat.missed += 1
        seat.save(update_fields=["missed"])
    if counts and seat.missed >= game.missed_limit:
        # The notice is queued before the move's own mails (the result, should the
        # forfeit end the game): the player reads them in the order they happened.
        notify.queue_missed_mail(game, seat, "forfeit", "", state)
        after, events = kind.forfeit(state, seat.player_name)
        move = log_move(
            game,
            seat,
            f"forfeit {seat.player_name}",
            [],
            events,
            Move.Source.TIMEOUT,
            None,
            sealable=False,
        )
        store_position(game, after, now, move=move)
        return "forfeit"
    action = kind.default_decision(state, seat.player_name, bot_random(game))
    notify.queue_missed_mail(game, seat, "timeout move", action, state)
    key = kind.decision_key(game.position)
    record_move(game, seat, state, action, Move.Source.TIMEOUT, None, now)
    # A decision of several actions (a turn) is finished by the game's default, action
    # after action, while it is still the same decision of the same player.
    for _ in range(MAX_DEFAULT_ACTIONS):
        state = state_of(game)
        if (
            key is None
            or seat.player_name not in kind.deciders(state)
            or kind.decision_key(game.position) != key
        ):
            break
        action = kind.default_decision(state, seat.player_name, bot_random(game))
        record_move(game, seat, state, action, Move.Source.TIMEOUT, None, now)
    return "timeout move"


def sweep_reminders(now: datetime | None = None, limit: int = 10_000) -> list[int]:
    """Remind the players whose decisions are due soon, once per deadline.

    Reads the due games (up to ``limit``), then reminds each in a transaction of its own:
    the game is locked, skipping it if another sweep (or a move) holds it, and re-checked
    still due; its ``remind_at`` is cleared and its mails queued in that transaction. So
    a game is locked only while its own reminder is rendered, never while another's is;
    two sweeps at once remind each game once (the mail's key besides); and a sweep that
    dies midway leaves the games it had not reminded due, for the next one. Returns the
    ids of the games reminded.
    """
    now = now or current_time()
    due = reminders_due(now).order_by("remind_at", "id")
    candidates = list(due.values_list("id", flat=True)[:limit])
    return [game_id for game_id in candidates if _remind(game_id, now)]


def reminders_due(now: datetime) -> QuerySet[Game]:
    """The games whose reminder is due at ``now``: running, not paused, past their
    reminder time and before their deadline. ``reminder_due`` asks the same of one
    locked game in Python (a read by the ORM would cost the sweep more than the check);
    a test holds the two to the same answers."""
    return Game.objects.filter(
        status__in=ACTIVE, paused_at__isnull=True, remind_at__lte=now, deadline__gt=now
    )


def _remind(game_id: int, now: datetime) -> bool:
    """One game's reminder, in a transaction of its own; False if another sweep or a
    move holds the game, or it is no longer due."""
    with transaction.atomic():
        game = lock_game_unless_held(game_id)
        if game is None or not reminder_due(game, now):
            return False
        Game.objects.filter(id=game_id).update(remind_at=None)
        seats = seats_of(game)
        state = state_of(game)
        for seat in waiting_seats(game, seats):
            if not seat.bot:
                notify.queue_reminder_mail(game, seat, state, seats)
    return True


def reminder_due(game: Game, now: datetime) -> bool:
    """What ``reminders_due`` asks of a due game, asked again of the locked row."""
    return (
        game.status in ACTIVE
        and game.paused_at is None
        and game.remind_at is not None
        and game.remind_at <= now
        and game.deadline is not None
        and game.deadline > now
    )
