"""Celery tasks: thin, given ids, safe to run twice (each step re-checks under a lock)."""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(ignore_result=True)
def play_bots(game_id: int) -> int:
    """Let bot seats make every decision that is theirs now."""
    return services.play_bot_turns(game_id)
