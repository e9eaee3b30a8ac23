"""Celery tasks: thin, given ids, safe to run twice (each step re-checks under a lock)."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_init

from games import services
from games.kinds import all_kinds


@shared_task(ignore_result=True)
def play_bots(game_id: int) -> int:
    """Let bot seats make every decision that is theirs now."""
    return services.play_bot_turns(game_id)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Periodic (Celery beat): claim the games whose decisions are past their deadline."""
    return len(services.sweep_deadlines())


@shared_task(ignore_result=True, acks_late=True)
def handle_missed_decision(game_id: int) -> str:
    """Apply the missed-decision policy to one claimed game (re-checked under a lock)."""
    return services.handle_missed_decision(game_id)


@shared_task(ignore_result=True)
def sweep_bots() -> int:
    """Periodic (Celery beat): restart the bots of games left waiting for a bot seat."""
    return len(services.sweep_bots())


@shared_task(ignore_result=True)
def sweep_reminders() -> int:
    """Periodic (Celery beat): remind the players whose decisions are due soon."""
    return len(services.sweep_reminders())


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Periodic (Celery beat): the daily digests that are due."""
    from games.digests import sweep_digests

    return len(sweep_digests())


@worker_init.connect
def lay_out_board_pictures(**kwargs: object) -> None:
    """In the worker's main process, before its pool forks: what every kind needs to draw
    its pictures (World War 5: each board's layout), which the pool's processes then share
    instead of each preparing it for its first mail."""
    for kind in all_kinds():
        kind.warm_up()
