"""The daily digest: for players who chose it, one mail a day about all their games.

A digest player gets no mail for each event (a game's start, an attack, a player out,
the result); their digest tells what happened in each of their games since the last
one, and which decisions wait for them. Their decisions still come one mail each.
The digest goes out at DIGEST_HOUR in the player's own time zone; a day with nothing
to tell sends nothing. Muted games are left out.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.digest_times import next_digest_at
from accounts.models import Profile
from games import links, notify, seen, selectors, wording
from games.models import Game, Move

# Lines of moves told per game; a busier game's digest says how many more there were.
MOVES_PER_GAME = 40


def sweep_digests(now: datetime | None = None, limit: int = 1000) -> list[int]:
    """Send the digests that are due: claims the profiles (rows another sweep holds are
    skipped), queues each mail in the same transaction and sets the next one. Safe to
    run twice: a digest covers the time since the last and carries its key."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Profile.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(notify=Profile.Notify.DIGEST, digest_due_at__lte=now)
            .select_related("user")
            .order_by("digest_due_at")[:limit]
        )
        for profile in due:
            since = profile.digest_covered_to or now - timedelta(days=1)
            games = digest_games(profile.user, since, now)
            if games:
                queue_digest(profile.user, games, since, now)
            profile.digest_covered_to = now
            profile.digest_due_at = next_digest_at(now, profile.time_zone)
            profile.save(update_fields=["digest_covered_to", "digest_due_at"])
    return [profile.user_id for profile in due]


def digest_games(user: AbstractBaseUser, since: datetime, until: datetime) -> list[dict[str, Any]]:
    """What the digest tells of each of the player's games (not muted) that moved on,
    started or ended between ``since`` and ``until``, or waits for them."""
    games = (
        Game.objects.filter(seats__user=user, seats__muted=False)
        .filter(
            Q(moves__created_at__gt=since, moves__created_at__lte=until)
            | Q(started_at__gt=since, started_at__lte=until)
            | Q(finished_at__gt=since, finished_at__lte=until)
            | Q(to_move__user=user, status__in=(Game.Status.SETUP, Game.Status.PLAY))
            | Q(
                seats__user=user,
                seats__deciding=True,
                status__in=(Game.Status.SETUP, Game.Status.PLAY),
            )
        )
        .distinct()
        .order_by("pk")
    )
    told = []
    for game in games:
        seats = list(game.seats.select_related("user__profile"))
        names = wording.player_names(seats)
        by_id = {s.pk: s for s in seats}
        mine = next(s for s in seats if s.user_id == user.pk)
        moves = list(
            Move.objects.filter(game=game, created_at__gt=since, created_at__lte=until).order_by(
                "number"
            )
        )
        viewer = seen.seat_viewer(game, mine)
        lines = [
            notify.move_line(
                game, seen.move(game, move, by_id[move.seat_id].player_name, viewer), names
            )
            for move in moves[:MOVES_PER_GAME]
        ]
        waiting = selectors.decides_now(game, mine)
        told.append(
            {
                "game": game,
                "started": game.started_at is not None and since < game.started_at <= until,
                "finished": game.finished_at is not None and since < game.finished_at <= until,
                "winner": by_id.get(game.winner_id) if game.winner_id else None,
                "rank": mine.rank,
                "moves": lines,
                "more": max(len(moves) - MOVES_PER_GAME, 0),
                "waiting": waiting,
                "deadline": game.deadline if waiting else None,
                "decision_link": links.decision_url(game, mine) if waiting else "",
                "link": notify.game_url(game),
            }
        )
    return told


def queue_digest(
    user: AbstractBaseUser, games: list[dict[str, Any]], since: datetime, until: datetime
) -> None:
    from mail.services import queue_mail, unsubscribe_url

    if not user.email:
        return
    context = {"user": user, "games": games, "since": since, "until": until}
    queue_mail(
        user.email,
        *notify.render_mail("digest", context, user),
        kind="digest",
        to_user=user,
        dedup_key=f"digest:{user.pk}:{until.isoformat()}",
        unsubscribe_url=unsubscribe_url(user),
    )
