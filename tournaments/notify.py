"""Mails about tournaments, through the outbox, in the transaction of their change.

Each is rendered from ``emails/tournament-<name>-*`` in the player's time zone and
carries the event's thread key, so a player's mail client groups an event's mails."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse

from games.notify import render_mail
from mail.services import queue_mail, unsubscribe_url
from tournaments.models import Entry, Tournament


def thread_of(tournament: Tournament) -> str:
    return f"tournament-{tournament.pk}"


def tournament_url(tournament: Tournament) -> str:
    path = reverse("tournaments:tournament", args=[tournament.league.slug, tournament.slug])
    return settings.SITE_URL.rstrip("/") + path


def _tell(entry: Entry, name: str, context: dict[str, Any], key: str) -> None:
    user = entry.user
    if user is None or not user.email:
        return
    tournament = entry.tournament
    context = {
        "tournament": tournament,
        "entry": entry,
        "link": tournament_url(tournament),
        **context,
    }
    queue_mail(
        user.email,
        *render_mail(f"tournament-{name}", context, user),
        kind=f"tournament_{name}".replace("-", "_")[:20],
        to_user=user,
        thread=thread_of(tournament),
        dedup_key=f"tournament:{tournament.pk}:{key}:{entry.pk}",
        unsubscribe_url=unsubscribe_url(user),
    )


def registered(tournament: Tournament, entry: Entry) -> None:
    """Registration confirmed, or a place on the waiting list."""
    _tell(entry, "registered", {}, f"registered:{entry.registered_at.isoformat()}")


def promoted(tournament: Tournament, entry: Entry) -> None:
    """A place came free: the player is in."""
    _tell(entry, "promoted", {}, "promoted")
