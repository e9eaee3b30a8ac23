"""Reads of the tournaments app: who organises which league, what a user may see."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import Q, QuerySet

from tournaments.models import League, Membership, Round, Table, Tournament
from ww5site import rows


def is_site_staff(user: AbstractBaseUser | None) -> bool:
    """Site staff manage every league: superusers, and staff given the league model's
    change permission (e.g. through a "Site staff" group)."""
    if user is None or not user.is_authenticated or not user.is_staff:
        return False
    return bool(user.is_superuser or user.has_perm("tournaments.change_league"))


def organised_leagues(user: AbstractBaseUser | None) -> QuerySet[League]:
    """The leagues the user may manage: all for site staff, else those they organise."""
    if user is None or not user.is_authenticated:
        return League.objects.none()
    if is_site_staff(user):
        return League.objects.all()
    return League.objects.filter(
        memberships__user=user,
        memberships__role=Membership.Role.ORGANISER,
        memberships__status=Membership.Status.ACTIVE,
    )


def organises(user: AbstractBaseUser | None, league: League) -> bool:
    return organised_leagues(user).filter(pk=league.pk).exists()


def visible_leagues(user: AbstractBaseUser | None) -> QuerySet[League]:
    """Public leagues, and the private ones the user belongs to or manages."""
    leagues = League.objects.filter(is_public=True)
    if user is None or not user.is_authenticated:
        return leagues
    mine = League.objects.filter(
        memberships__user=user, memberships__status=Membership.Status.ACTIVE
    )
    return (leagues | mine | organised_leagues(user)).distinct()


def membership_of(user: AbstractBaseUser | None, league: League) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(league=league, user=user).first()


def events_of(league: League, user: AbstractBaseUser | None) -> QuerySet[Tournament]:
    """The league's events the user may see: public ones past preparation; all of them
    for its organisers."""
    events = league.tournaments.all()
    if organises(user, league):
        return events
    return events.filter(is_public=True).exclude(status=Tournament.Status.DRAFT)


def visible_events(user: AbstractBaseUser | None) -> QuerySet[Tournament]:
    """Every event the user may see across the leagues they can see: public ones past
    preparation, their own, and all of those of the leagues they organise."""
    leagues = visible_leagues(user)
    shown = Tournament.objects.filter(league__in=leagues, is_public=True).exclude(
        status=Tournament.Status.DRAFT
    )
    if user is not None and user.is_authenticated:
        shown = shown | Tournament.objects.filter(league__in=leagues, entries__user=user).exclude(
            status=Tournament.Status.DRAFT
        )
        shown = shown | Tournament.objects.filter(league__in=organised_leagues(user))
    return shown.distinct().select_related("league")


def games_organised_by(user: AbstractBaseUser) -> Q:
    """The games of the events of the leagues the user organises, as a filter on games:
    the games app asks this through its organiser rule (``register_organisers``)."""
    leagues = organised_leagues(user).values("pk")
    return Q(tournament_table__round__tournament__league__in=leagues)


def table_label(game: Any) -> str:
    """A tournament's game as its players' mails name it: "Spring Cup, round 2, table 3"
    (a lobby game: "", and the game keeps its own name)."""
    with connection.cursor() as cursor:
        cursor.execute(_table_label_sql(), [game.pk])
        row = cursor.fetchone()
    if row is None:
        return ""
    return table_title(*row)


@cache
def _table_label_sql() -> str:
    """The query of ``table_label``, in SQL: every mail about a game asks it (most
    games are no event's), and the ORM's query costs more to build than to run."""
    table, round_, event = (
        rows.Columns(Table, "t"),
        rows.Columns(Round, "r"),
        rows.Columns(Tournament, "e"),
    )
    return (
        f"SELECT {event.column('name')}, {round_.column('number')}, {table.column('number')} "
        f"FROM {table.table} t "
        f"JOIN {round_.table} r ON {round_.column()} = {table.column('round')} "
        f"JOIN {event.table} e ON {event.column()} = {round_.column('tournament')} "
        f"WHERE {table.column('game')} = %s ORDER BY {table.column()} LIMIT 1"
    )


def table_title(event: str, round_number: int, table_number: int) -> str:
    return f"{event}, round {round_number}, table {table_number}"


def past_results(league: League, user: AbstractBaseUser | None) -> list[dict[str, Any]]:
    """The league's finished events the user may see, latest first, with their podium
    (the top three of the final standings: rank, entry, points)."""
    from tournaments.models import Entry
    from tournaments.selectors import history

    found = []
    finished = events_of(league, user).filter(status=Tournament.Status.FINISHED)
    for event in finished.order_by("-finished_at"):
        lines = history.standings(event).lines[:3]
        entries = dict(
            (e.pk, e)
            for e in Entry.objects.filter(pk__in=[line.player for line in lines]).select_related(
                "user__profile"
            )
        )
        podium = [(line.rank, entries[line.player], line.points) for line in lines]
        found.append({"event": event, "podium": podium})
    return found


def current_round(tournament: Tournament) -> int:
    """The number of the event's latest round (0 before the first)."""
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return last or 0


def registration_refusal(tournament: Tournament, now: datetime) -> str | None:
    """Why the event takes no registration now, or None while it takes them: before
    its closing time, and once running only while late joins are allowed (a player
    joining now plays from the next round, which must come before
    ``late_join_until_round``)."""
    if tournament.status == Tournament.Status.REGISTRATION:
        if tournament.registration_closes_at and now >= tournament.registration_closes_at:
            return "registration for this event has closed"
        return None
    if tournament.status == Tournament.Status.RUNNING:
        if current_round(tournament) + 1 < tournament.late_join_until_round:
            return None
        return "this event has started: it takes no more players"
    return "this event is not open for registration"
