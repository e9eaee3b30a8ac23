"""The ladder's periodic matchmaking: tables formed from the waiting players (the rules
are in ``ratings.core.matchmaking``) and started as games, strict setup, homes assigned.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.text import Truncator

from games import services as games
from games.kinds import kind_named
from games.models import Game
from games.services import TableSeat as GameSeat
from ratings.core import matchmaking, model
from ratings.models import Ladder, LadderGame, LadderPlayer, LadderSeat, Rating, Season
from ratings.services.ladder import game_options, running_season
from tournaments.core.seating import SeatHistory, SeatRecord, seat_table


def sweep(now: datetime | None = None) -> int:
    """Run the matchmaking of every ladder whose run is due. Returns the tables formed."""
    now = now or timezone.now()
    formed = 0
    due = Ladder.objects.filter(match_due_at__lte=now, seasons__ended_at__isnull=True)
    for ladder_id in due.values_list("pk", flat=True):
        formed += len(match(ladder_id, now))
    return formed


def match(ladder_id: int, now: datetime | None = None) -> list[LadderGame]:
    """One matchmaking run of the ladder, if due: form the tables and start their games.

    Of two runs at once (two beats, a slow run and the next), the ladder row's lock makes
    the second wait, and the due time the first moved on makes it do nothing: every
    table is formed exactly once."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
        if ladder.match_due_at > now:
            return []
        ladder.match_due_at = now + timedelta(seconds=settings.PERIODIC_JOBS_EVERY)
        ladder.save(update_fields=["match_due_at"])
        season = running_season(ladder)
        waiting = _waiting(ladder, season)
        rules = matchmaking.Rules(ladder.sizes, ladder.max_wait, float(ladder.max_spread))
        tables = matchmaking.form_tables(waiting, rules, now)
        rng = random.Random(f"{ladder.pk}:{now.isoformat()}")
        made = []
        for table in tables:
            started = _start_table(ladder, season, table, rng, now)
            if started is not None:
                made.append(started)
        return made


def _waiting(ladder: Ladder, season: Season) -> list[matchmaking.Waiting]:
    players = LadderPlayer.objects.filter(
        ladder=ladder,
        status=LadderPlayer.Status.ACTIVE,
        active_games__lt=F("max_games"),
        waiting_since__isnull=False,
    ).values_list("pk", "waiting_since")
    players = list(players)
    keys = [pk for pk, _ in players]
    mus = dict(
        Rating.objects.filter(season=season, player_id__in=keys, games__gt=0).values_list(
            "player_id", "mu"
        )
    )
    starts = dict(
        Rating.objects.filter(
            season=season, player_id__in=keys, start_mu__isnull=False
        ).values_list("player_id", "start_mu")
    )
    recent = _recent_opponents(ladder, keys)
    return [
        matchmaking.Waiting(
            pk,
            model.SHOWN_SCALE * mus.get(pk, starts.get(pk, model.DEFAULT.mu)),
            since,
            frozenset(recent.get(pk, ())),
        )
        for pk, since in players
    ]


def _recent_opponents(ladder: Ladder, keys: list[int]) -> dict[int, set[int]]:
    """Each player's opponents in their last ``recent_games`` ladder games."""
    if ladder.recent_games == 0 or not keys:
        return {}
    last = (
        LadderSeat.objects.filter(player_id__in=keys)
        .annotate(
            n=Window(
                RowNumber(),
                partition_by=[F("player_id")],
                order_by=[F("ladder_game__created_at").desc(), F("ladder_game_id").desc()],
            )
        )
        .filter(n__lte=ladder.recent_games)
        .values_list("player_id", "ladder_game_id")
    )
    games_of: dict[int, list[int]] = {}
    for player, game in last:
        games_of.setdefault(player, []).append(game)
    wanted = {g for gs in games_of.values() for g in gs}
    at_game: dict[int, list[int]] = {}
    for game, player in LadderSeat.objects.filter(ladder_game_id__in=wanted).values_list(
        "ladder_game_id", "player_id"
    ):
        at_game.setdefault(game, []).append(player)
    return {
        player: {p for g in gs for p in at_game[g] if p != player}
        for player, gs in games_of.items()
    }


def _start_table(
    ladder: Ladder, season: Season, table: tuple[int, ...], rng: random.Random, now: datetime
) -> LadderGame | None:
    """Seat the players (a seat order and homes balanced over their season so far) and
    start the game; count the game against each player's limit.

    The conditional update is the guard against seating a player beyond their limit, or
    after they paused or left: a table one of whose players it refuses is not made. The
    rows are updated in key order, the order a ladder game's end locks its players in
    (``ratings.services.ladder.game_ended``): a game ending meanwhile cannot deadlock
    with this."""
    with transaction.atomic():
        for key in sorted(table):
            room = LadderPlayer.objects.filter(
                pk=key, status=LadderPlayer.Status.ACTIVE, active_games__lt=F("max_games")
            ).update(active_games=F("active_games") + 1)
            if not room:
                transaction.set_rollback(True)
                return None
        LadderPlayer.objects.filter(pk__in=table).update(waiting_since=_still_waiting(now))
        players = {
            p.pk: p for p in LadderPlayer.objects.filter(pk__in=table).select_related("user")
        }
        options = game_options(ladder)
        kind = kind_named(ladder.kind)
        homes = kind.seat_roles(kind.check_options(options.kind_options()))
        seated = seat_table(list(table), _seat_history(season, table), rng=rng, homes=homes)
        game = games.create_table(
            options,
            [_seat(s.home, players[s.player]) for s in seated.seats],
            name=game_name([players[s.player].name for s in seated.seats], ladder, season),
            is_public=ladder.is_public,
            first_seat=0,
        )
        deadline = now + ladder.game_time if ladder.game_time else None
        ladder_game = LadderGame.objects.create(
            season=season, game=game, created_at=now, deadline=deadline
        )
        seats = {s.number: s for s in game.seats.all()}
        LadderSeat.objects.bulk_create(
            [
                LadderSeat(ladder_game=ladder_game, player_id=s.player, seat=seats[n])
                for n, s in enumerate(seated.seats, start=1)
            ]
        )
        return ladder_game


GAME_NAME_LENGTH = Game._meta.get_field("name").max_length or 80
# The ladder's name gives way before the players' do, up to this many characters.
LADDER_NAME_KEPT = 30


def game_name(names: list[str], ladder: Ladder, season: Season) -> str:
    """The game's name: the players in seat order, then where it is played ("alice v
    erin · Duel Ladder, season 1"). Too long for the field, the ladder's name is
    shortened first (to ``LADDER_NAME_KEPT``), then the players'; the season stays."""
    where = f", season {season.number}"
    ladder_name = ladder.name
    players = " v ".join(names)
    if len(players) + len(" · ") + len(ladder_name) + len(where) > GAME_NAME_LENGTH:
        ladder_name = Truncator(ladder_name).chars(LADDER_NAME_KEPT)
    room = GAME_NAME_LENGTH - len(" · ") - len(ladder_name) - len(where)
    return f"{Truncator(players).chars(room)} · {ladder_name}{where}"


def _seat(home: str, player: LadderPlayer) -> GameSeat:
    """A ladder player's seat; a bot entrant keeps its ladder name there."""
    return GameSeat(home, user=player.user, bot=player.bot, name=player.name if player.bot else "")


def _seat_history(season: Season, players: tuple[int, ...]) -> SeatHistory:
    """Where the players sat in the season's games so far (seat 0 moves first: a ladder
    game's first player is its seat 1) and the homes they had, so that over the season
    each player moves first and has each continent about as often as the others."""
    seats = LadderSeat.objects.filter(ladder_game__season=season, player_id__in=players)
    return SeatHistory(
        SeatRecord(player, number - 1, home)
        for player, number, home in seats.values_list("player_id", "seat__number", "seat__home")
    )


def _still_waiting(now: datetime) -> object:
    """A player with room for more games waits from now on for the next; one at their
    limit waits no more."""
    from django.db.models import Case, Value, When

    return Case(When(Q(active_games__lt=F("max_games")), then=Value(now)), default=None)
