"""Reads behind the public pages: a player's games, results and reliability, the
rating chart, and the seat effect of a ladder's games."""

from __future__ import annotations

import re
from typing import Any

import pygal
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import OuterRef, Subquery
from pygal.style import Style

from games.models import Game, Move, Seat
from ratings.core import model, seats
from ratings.models import Ladder
from ratings.selectors import Sight, journal_of
from tournaments.models import Entry, Tournament
from tournaments.selectors import history, visible_leagues

FINISHED_SHOWN = 20


def games_of(user: AbstractBaseUser, sight: Sight) -> dict[str, Any]:
    """The player's games the viewer may see (public ones, and the private ones the
    viewer plays in or organises), running and the last finished."""
    played = Game.objects.filter(seats__user=user).distinct()
    running = played.filter(status__in=[Game.Status.SETUP, Game.Status.PLAY])
    # The player's place (the corrected one, if an organiser corrected the result).
    place = Seat.objects.filter(game=OuterRef("pk"), user=user).values("rank")[:1]
    finished = (
        played.filter(status=Game.Status.OVER)
        .annotate(place=Subquery(place))
        .order_by("-finished_at")
    )
    return {
        "running": sight.of(running.order_by("-started_at")),
        "finished": _first_seen(sight, finished, FINISHED_SHOWN),
    }


def _first_seen(sight: Sight, games: Any, count: int) -> list[Game]:
    """The first ``count`` of the games that the viewer may see, read a page at a time."""
    shown: list[Game] = []
    start = 0
    while len(shown) < count:
        page = list(games[start : start + count])
        shown += sight.of(page)[: count - len(shown)]
        if len(page) < count:
            break
        start += count
    return shown


def reliability(user: AbstractBaseUser) -> dict[str, Any]:
    """Decisions made on time (not by the timeout's bot), games finished (played to
    their end, not left by a forfeit), and forfeits (resigned or missed too many)."""
    moves = Move.objects.filter(player=user).exclude(action__startswith="forfeit ")
    decisions = moves.count()
    late = moves.filter(source=Move.Source.TIMEOUT).count()
    forfeits = Move.objects.filter(player=user, action__startswith="forfeit ").count()
    ended = Game.objects.filter(seats__user=user, status=Game.Status.OVER).distinct().count()
    return {
        "decisions": decisions,
        "on_time": decisions - late,
        "on_time_share": (decisions - late) / decisions if decisions else None,
        "games_ended": ended,
        "games_finished": max(ended - forfeits, 0),
        "forfeits": forfeits,
        "forfeits_on_time": Move.objects.filter(
            player=user, action__startswith="forfeit ", source=Move.Source.TIMEOUT
        ).count(),
    }


def tournament_results(user: AbstractBaseUser, viewer: AbstractBaseUser | None) -> list[Any]:
    """The player's places in the finished events the viewer may see, latest first."""
    entries = Entry.objects.filter(
        user=user,
        tournament__status=Tournament.Status.FINISHED,
        tournament__is_public=True,
        tournament__league__in=visible_leagues(viewer),
    ).select_related("tournament__league")
    found = []
    for entry in entries.order_by("-tournament__finished_at"):
        event = entry.tournament
        lines = history.standings(event).lines
        line = next((x for x in lines if x.player == entry.pk), None)
        if line is not None:
            found.append({"event": event, "rank": line.rank, "of": len(lines)})
    return found


CHART_STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#1d1d1f",
    foreground_strong="#1d1d1f",
    foreground_subtle="#d0d4d9",
    colors=("#2451a6", "#1b6e2a", "#a61b1b", "#8a5a00", "#5f6368"),
    font_family="system-ui, sans-serif",
    label_font_size=13,
    major_label_font_size=13,
    legend_font_size=14,
    value_font_size=13,
    title_font_size=15,
)


def rating_charts(user: AbstractBaseUser, sight: Sight) -> dict[str, str]:
    """By kind, the shown rating after each rated game of the kind the viewer may see,
    one line per pool the viewer may see (the kind's global pool, its ladders' seasons),
    as an inline SVG drawn by pygal on the server (no script: it reads without
    JavaScript, and scales to a phone's width). A kind without a rated game has none."""
    rows = journal_of(user, order=("played_at", "pk"), sight=sight)
    by_kind: dict[str, dict[str, list[tuple[Any, int]]]] = {}
    for row in rows:
        name = (
            "All rated games"
            if row.season is None
            else f"{row.season.ladder.name}, season {row.season.number}"
        )
        series = by_kind.setdefault(row.kind, {})
        series.setdefault(name, []).append(
            (row.played_at, model.shown(row.mu_after, row.sigma_after))
        )
    return {kind: _chart(series) for kind, series in by_kind.items()}


CHART_DATES = 4  # dates along the chart's axis at most: more run into each other on a phone


def _axis_dates(series: dict[str, list[tuple[Any, int]]]) -> list[Any]:
    """The times the chart's axis names, each a different day: the first game of each day
    games were played, at most ``CHART_DATES`` of them spread from the first to the last
    (left to pygal, games within hours of each other gave one date many times over)."""
    first_of_day: dict[Any, Any] = {}
    for at in sorted(at for points in series.values() for at, _ in points):
        first_of_day.setdefault(at.date(), at)
    days = list(first_of_day.values())
    if len(days) <= CHART_DATES:
        return days
    step = (len(days) - 1) / (CHART_DATES - 1)
    return [days[round(n * step)] for n in range(CHART_DATES)]


def _chart(series: dict[str, list[tuple[Any, int]]]) -> str:
    chart = pygal.DateTimeLine(
        width=360,
        height=300,
        style=CHART_STYLE,
        js=(),  # no tooltip script fetched from elsewhere
        disable_xml_declaration=True,
        show_legend=True,
        legend_at_bottom=True,
        legend_at_bottom_columns=1,
        x_label_rotation=30,
        # A few dates along the axis, each once, not one a game: on a phone's width they
        # would run into each other.
        x_labels=_axis_dates(series),
        truncate_legend=-1,
        x_value_formatter=lambda d: d.strftime("%Y-%m-%d"),
        title="Rating after each game",
        dots_size=4,
    )
    for name, points in series.items():
        chart.add(name, points)
    svg: str = chart.render(is_unicode=True)
    # pygal writes the settings of its tooltip script inline even with no script to
    # load: without the script they are dead weight, so they go.
    return re.sub(r"<script[^>]*>.*?</script>", "", svg, flags=re.DOTALL)


def seat_effect(ladder: Ladder) -> list[seats.SeatShare]:
    """Win share by seat in turn order (1: the first player) over the ladder's finished
    games, each table size apart."""
    games = (
        Game.objects.filter(ladder_game__season__ladder=ladder, status=Game.Status.OVER)
        .prefetch_related("seats")
        .order_by("pk")
    )
    orders = []
    for game in games:
        in_seats = sorted(game.seats.all(), key=lambda s: s.number)
        first = next(
            (r.get("player") for r in game.start_record if r.get("type") == "first_player"),
            None,
        )
        names = [s.player_name for s in in_seats]
        start = names.index(first) if first in names else 0
        turn_order = in_seats[start:] + in_seats[:start]
        if all(s.rank is not None for s in turn_order):
            orders.append([int(s.rank or 0) for s in turn_order])
    return seats.seat_effect(orders)


def may_read_seat_effect(ladder: Ladder, viewer: AbstractBaseUser | None) -> bool:
    from tournaments.selectors import organises

    return organises(viewer, ladder.league)
