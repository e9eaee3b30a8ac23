"""Mails about tournaments, through the outbox, in the transaction of their change.

Each is rendered from ``emails/tournament-<name>-*`` in the player's time zone and
carries the event's thread key, so a player's mail client groups an event's mails."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

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


def check_in_open(tournament: Tournament, entry: Entry) -> None:
    """Check-in is open: a registered player who does not check in is dropped."""
    _tell(entry, "check-in", {}, "check-in")


def promoted(tournament: Tournament, entry: Entry) -> None:
    """A place came free: the player is in."""
    _tell(entry, "promoted", {}, "promoted")


def round_started(tournament: Tournament, made: Any) -> None:
    """Each player's table for the round (opponents, seat, home, deadline, the game's
    link), or their bye."""
    from games.notify import game_url
    from tournaments.eventsettings import kind_of, kind_options

    kind, options = kind_of(tournament), kind_options(tournament)
    homes = kind.role_names(options)
    rule = kind.rule_words(options).turn_limit_rule
    for table in made.tables.select_related("game").prefetch_related("seats__entry__user__profile"):
        seats = list(table.seats.all())
        for seat in seats:
            context = {
                "round": made,
                "table": table,
                "seat": seat,
                "home": homes.get(seat.home, seat.home),
                "others": [s.entry.name for s in seats if s.pk != seat.pk],
                "opponents": [s.entry for s in seats if s.pk != seat.pk],  # linked in HTML
                "game_link": game_url(table.game) if table.game else "",
                "turn_limit_rule": rule,
            }
            _tell(seat.entry, "table", context, f"table:{made.number}")
    for bye in made.byes.select_related("entry__user__profile"):
        _tell(bye.entry, "bye", {"round": made}, f"bye:{made.number}")


def round_results(tournament: Tournament, made: Any) -> None:
    """The round's results and where each player stands now."""
    from tournaments.selectors import history

    standings = history.standings(tournament)
    for entry in tournament.entries.filter(pk__in=[line.player for line in standings.lines]):
        line = standings.line(entry.pk)
        context = {"round": made, "line": line, "players": len(standings.lines)}
        _tell(entry, "results", context, f"results:{made.number}")


def final_standings(tournament: Tournament) -> None:
    from tournaments.selectors import history

    standings = history.standings(tournament)
    shown = standings.lines[:8]
    entries = Entry.objects.select_related("user__profile").in_bulk([x.player for x in shown])
    # Each line's entry: its name in the text mail, a link to its player's page in HTML.
    top = [(line.rank, entries[line.player], line.points) for line in shown]
    for entry in tournament.entries.filter(pk__in=[line.player for line in standings.lines]):
        context = {"line": standings.line(entry.pk), "top": top, "players": len(standings.lines)}
        _tell(entry, "final", context, "final")


def _places(result: list[list[int]]) -> dict[int, int]:
    """Each entry's place in a finishing order (tied entries share the better place)."""
    place: dict[int, int] = {}
    for group in result:
        rank = len(place) + 1
        place.update({entry: rank for entry in group})
    return place


def result_corrected(
    tournament: Tournament, table: Any, before: list[list[int]], reason: str
) -> None:
    """An organiser corrected the table's result: each of its players is told the new
    order, their old and new places, and the organiser's reason."""
    from games.notify import game_url
    from tournaments.selectors import table_title

    old, new = _places(before), _places(table.result)
    seats = list(table.seats.select_related("entry__user__profile").order_by("number"))
    entries = {seat.entry_id: seat.entry for seat in seats}
    # (place, name, entry): the plain text names them, the HTML links them.
    order = [
        (new[entry], entries[entry].name, entries[entry])
        for group in table.result
        for entry in group
    ]
    title = table_title(tournament.name, table.round.number, table.number)
    # Each correction's mails are their own: a table corrected twice is told twice.
    key = f"corrected:{table.pk}:{timezone.now().isoformat()}"
    for seat in seats:
        context = {
            "title": title,
            "order": order,
            "old_place": old.get(seat.entry_id),
            "new_place": new[seat.entry_id],
            "reason": reason,
            "game_link": game_url(table.game) if table.game else "",
        }
        _tell(seat.entry, "corrected", context, key)
