"""Every change to ladders, their seasons and their players (matchmaking is in
``ratings.services.matchmaking``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from games.errors import GameError
from games.kinds import kind_named
from games.models import Game
from games.options import GameOptions, event_rules
from ratings.core import journal
from ratings.errors import RatingError
from ratings.models import Ladder, LadderGame, LadderPlayer, Rating, Season
from ratings.services.pools import state_of
from tournaments.models import League
from tournaments.selectors import membership_of, organises
from tournaments.services import join_league


def _check_organiser(league: League, by: AbstractBaseUser) -> None:
    if not organises(by, league):
        raise RatingError("only the league's organisers may do this")


def create_ladder(
    league: League, by: AbstractBaseUser, name: str, now: datetime | None = None, **fields: object
) -> Ladder:
    """A ladder of the league, with its first season running."""
    _check_organiser(league, by)
    name = name.strip()
    if not name:
        raise RatingError("a ladder needs a name")
    if Ladder.objects.filter(league=league, name=name).exists():
        raise RatingError(f"the league has a ladder named “{name}” already")
    ladder = Ladder(league=league, name=name, **fields)
    _check(ladder)
    with transaction.atomic():
        ladder.save()
        _open_season(ladder, 1, now or timezone.now())
    return ladder


def _open_season(ladder: Ladder, number: int, now: datetime) -> Season:
    ends = now + ladder.season_length if ladder.season_length else None
    return Season.objects.create(ladder=ladder, number=number, started_at=now, ends_at=ends)


def update_ladder(ladder: Ladder, by: AbstractBaseUser) -> Ladder:
    """Save an organiser's edit of the ladder's settings (its games to come use them)."""
    _check_organiser(ladder.league, by)
    ladder.name = ladder.name.strip()
    if not ladder.name:
        raise RatingError("a ladder needs a name")
    _check(ladder)
    ladder.save()
    return ladder


# The bounds of the ladder's settings an organiser types (the game times are bounded by
# ``GameOptions.check``): beyond them a season's end or a game's time limit would be past
# the last date the site can keep, or a number past what its column holds. Each: the
# least, the most, and the words for the organiser.
LADDER_BOUNDS: dict[str, tuple[Any, Any, str]] = {
    "max_wait": (timedelta(0), timedelta(days=90), "a player waits at most none to 90 days"),
    "max_spread": (0, 10_000, "the rating spread is 0 to 10,000 points"),
    "recent_games": (0, 50, "0 to 50 recent games are avoided"),
    "min_games": (0, 1_000, "ranked after 0 to 1,000 games"),
    "max_games_at_once": (1, 20, "1 to 20 games at once"),
    "carry_sigma": (0.0, 25.0, "a carried rating's added uncertainty is 0 to 25"),
    "season_length": (
        timedelta(seconds=1),
        timedelta(days=5 * 366),
        "a season lasts up to five years (empty: until an organiser starts the next)",
    ),
    "game_time": (
        timedelta(seconds=1),
        timedelta(days=365),
        "a game's time is up to 365 days (empty: no limit)",
    ),
}


def out_of_bounds(ladder: Ladder) -> dict[str, str]:
    """The ladder's settings outside their bounds, by name, each with what it may be
    (the admin's form shows each beside its field); empty when all are within them."""
    return {
        name: words
        for name, (low, high, words) in LADDER_BOUNDS.items()
        if (value := getattr(ladder, name)) is not None and not low <= value <= high
    }


def _check(ladder: Ladder) -> None:
    """The ladder's settings are valid (choices, numbers, their bounds) and its games can
    be played; its games' own options are kept as they get them."""
    try:
        ladder.full_clean(exclude=["match_due_at"])
        ladder.options = game_options(ladder).check().rules
    except ValidationError as refusal:
        raise RatingError("; ".join(refusal.messages)) from None
    except GameError as refusal:
        raise RatingError(str(refusal)) from None
    wrong = out_of_bounds(ladder)
    if wrong:
        raise RatingError("; ".join(wrong.values()))


def game_options(ladder: Ladder) -> GameOptions:
    """A ladder game's options: its own options as the ladder's kind sets them for rated
    play (World War 5: the ladder's board, always the strict setup), and the ladder's
    times. A GameError says why its own options cannot be played."""
    return GameOptions(
        kind=ladder.kind,
        rules=event_rules(ladder.kind, ladder.options),
        time_control=ladder.time_control,
        decision_time=ladder.decision_time,
        retreat_time=ladder.retreat_time,
        bank_time=ladder.bank_time,
        increment=ladder.increment,
        missed_limit=ladder.missed_limit,
    )


def running_season(ladder: Ladder) -> Season:
    season = ladder.seasons.filter(ended_at__isnull=True).first()
    if season is None:
        raise RatingError("the ladder has no running season")
    return season


def new_season(ladder: Ladder, by: AbstractBaseUser, now: datetime | None = None) -> Season:
    """An organiser ends the running season and starts the next."""
    _check_organiser(ladder.league, by)
    season = next_season(ladder.pk, now or timezone.now())
    assert season is not None
    return season


def end_due_seasons(now: datetime) -> int:
    """The periodic job: every season past its end gives way to the next."""
    due = Season.objects.filter(ended_at__isnull=True, ends_at__lte=now)
    ladder_ids = list(due.values_list("ladder_id", flat=True))
    return sum(next_season(ladder_id, now, due=True) is not None for ladder_id in ladder_ids)


def next_season(ladder_id: int, now: datetime, due: bool = False) -> Season | None:
    """End the running season and start the next: the ratings start afresh, or are
    carried (mu kept, sigma grown by the ladder's ``carry_sigma``, idle weeks counted
    from the last rated game on) by its setting. With ``due``, only if the running
    season is past its end: of two sweeps at once, the ladder's lock lets the first end
    it and shows the second it is done."""
    with transaction.atomic():
        locked = Ladder.objects.select_for_update().get(pk=ladder_id)
        last = running_season(locked)
        if due and (last.ends_at is None or last.ends_at > now):
            return None
        last.ended_at = now
        last.save(update_fields=["ended_at"])
        season = _open_season(locked, last.number + 1, now)
        if locked.new_season == Ladder.NewSeason.CARRY:
            _carry(locked, last, season)
    return season


def _carry(ladder: Ladder, last: Season, season: Season) -> None:
    """Every rating of the last season goes on: the players' who played in it, and
    those carried into it who sat it out. Idle growth is not applied here: it counts
    from each player's last rated game whenever their rating is next read or rated."""
    carried = []
    rows = Rating.objects.filter(season=last).filter(
        Q(games__gt=0) | Q(start_mu__isnull=False, start_sigma__isnull=False)
    )
    for row in rows:
        state = state_of(row)
        assert state is not None
        start = journal.carried_start(state, ladder.carry_sigma)
        carried.append(
            Rating(
                kind=ladder.kind,
                season=season,
                player_id=row.player_id,
                mu=0.0,
                sigma=0.0,
                start_mu=start.rating.mu,
                start_sigma=start.rating.sigma,
                start_since=start.last_played,
            )
        )
    Rating.objects.bulk_create(carried)


def join(
    ladder: Ladder, user: AbstractBaseUser, max_games: int = 1, now: datetime | None = None
) -> LadderPlayer:
    """The player joins the ladder (or comes back after leaving), wanting up to
    ``max_games`` ladder games at once."""
    if not ladder.is_open:
        raise RatingError("this ladder is closed to new players")
    membership = membership_of(user, ladder.league)
    if membership is None or membership.status != membership.Status.ACTIVE:
        if ladder.league.joining != League.Joining.OPEN:
            raise RatingError(f"join {ladder.league} first: its organisers approve new members")
        join_league(ladder.league, user)
    _check_max(ladder, max_games)
    now = now or timezone.now()
    with transaction.atomic():
        player, _ = LadderPlayer.objects.select_for_update().get_or_create(
            ladder=ladder, user=user, defaults={"max_games": max_games, "joined_at": now}
        )
        player.status = LadderPlayer.Status.ACTIVE
        player.max_games = max_games
        _wait(player, now)
        player.save(update_fields=["status", "max_games", "waiting_since"])
    return player


def add_bot(
    ladder: Ladder, by: AbstractBaseUser, bot: str = "", max_games: int = 1
) -> LadderPlayer:
    """A bot entrant, added by an organiser (a house player, or for tests); ``bot``: one
    of its game's bots by name, its first if none is named (World War 5: greedy)."""
    _check_organiser(ladder.league, by)
    bot = bot or next(iter(kind_named(ladder.kind).bots), "")
    if bot not in kind_named(ladder.kind).bots:
        raise RatingError(f"unknown bot {bot!r}")
    _check_max(ladder, max_games)
    now = timezone.now()
    return LadderPlayer.objects.create(
        ladder=ladder, bot=bot, max_games=max_games, joined_at=now, waiting_since=now
    )


def _check_max(ladder: Ladder, max_games: int) -> None:
    if not 1 <= max_games <= ladder.max_games_at_once:
        raise RatingError(f"choose 1 to {ladder.max_games_at_once} games at once")


def _wait(player: LadderPlayer, now: datetime) -> None:
    """The player waits for a table if they have room for one; else not."""
    room = player.status == LadderPlayer.Status.ACTIVE and player.active_games < player.max_games
    if not room:
        player.waiting_since = None
    elif player.waiting_since is None:
        player.waiting_since = now


def set_status(player: LadderPlayer, status: str, now: datetime | None = None) -> LadderPlayer:
    """Pause (a vacation: no new tables, the games running go on), resume, or leave (the
    games running go on; the rating stays on the season's record)."""
    if status not in LadderPlayer.Status.values:
        raise RatingError(f"unknown status {status!r}")
    with transaction.atomic():
        # Locked: matchmaking's conditional update of the same row sees the new status.
        locked = LadderPlayer.objects.select_for_update().get(pk=player.pk)
        if locked.status == LadderPlayer.Status.LEFT and status != LadderPlayer.Status.LEFT:
            raise RatingError("join the ladder again to come back")
        locked.status = status
        _wait(locked, now or timezone.now())
        locked.save(update_fields=["status", "waiting_since"])
    return locked


def pause(player: LadderPlayer) -> LadderPlayer:
    return set_status(player, LadderPlayer.Status.PAUSED)


def resume(player: LadderPlayer) -> LadderPlayer:
    return set_status(player, LadderPlayer.Status.ACTIVE)


def leave(player: LadderPlayer) -> LadderPlayer:
    return set_status(player, LadderPlayer.Status.LEFT)


def game_ended(game: Game) -> None:
    """A ladder game ended (in its transaction): its players have a place free again.

    Conditional updates on each row: a finish is told once, and ``finished_at`` is set
    only by the first, so a place is never freed twice. A player starts waiting only if
    the place freed gives them room (their limit may have been lowered meanwhile): the
    row's values before the update are compared, so ``active_games <= max_games``."""
    now = game.finished_at or timezone.now()
    if not LadderGame.objects.filter(game=game, finished_at__isnull=True).update(finished_at=now):
        return
    players = LadderPlayer.objects.filter(seats__ladder_game__game=game)
    # Locked in key order first, as matchmaking seats them: an update's own order is
    # the plan's, and a table formed meanwhile would otherwise risk a deadlock.
    list(players.select_for_update(of=("self",)).order_by("pk").values_list("pk"))
    players.update(
        active_games=Greatest(F("active_games") - 1, Value(0)),
        waiting_since=Case(
            When(
                status=LadderPlayer.Status.ACTIVE,
                waiting_since__isnull=True,
                active_games__lte=F("max_games"),
                then=Value(now),
            ),
            default=F("waiting_since"),
        ),
    )
