"""Reads of the ratings app: leaderboards, a player's ratings and journal, ladders a
user may see.

Ratings are per game kind: each kind has its own global pool and leaderboard, and a
ladder's seasons are of its kind. Where one kind is read (a leaderboard, the JSON), the
kind is asked for, World War 5's (``DEFAULT_KIND``) unless another is named."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, TypeVar, cast

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from accounts.services import display_name
from games import wording
from games.kinds import DEFAULT_KIND, UnknownKind, kind_named
from games.models import Game
from games.selectors import can_see
from ratings.core import model
from ratings.models import JournalEntry, Ladder, LadderPlayer, Rating, Season
from ratings.services.pools import state_of
from tournaments.models import Membership
from tournaments.selectors import organised_leagues, organises, visible_leagues


def kind_name(key: str) -> str:
    """The name of the game of a kind (its key, should the kind not be registered)."""
    try:
        return kind_named(key).name
    except UnknownKind:
        return key


def visible_ladders(user: AbstractBaseUser | None) -> QuerySet[Ladder]:
    """The ladders of the leagues the user may see: public ones, and a league's private
    ones for its active members (its organisers among them) and the ladder's players."""
    ladders = Ladder.objects.filter(league__in=visible_leagues(user)).select_related("league")
    if user is None or not user.is_authenticated:
        return ladders.filter(is_public=True)
    members = Q(
        league__memberships__user=user, league__memberships__status=Membership.Status.ACTIVE
    )
    return ladders.filter(Q(is_public=True) | Q(players__user=user) | members).distinct()


def can_see_ladder(ladder: Ladder, user: AbstractBaseUser | None) -> bool:
    return visible_ladders(user).filter(pk=ladder.pk).exists() or organises(user, ladder.league)


def ladder_games_organised_by(user: AbstractBaseUser) -> Q:
    """The ladder games of the leagues the user organises, as a filter on games: a
    ladder's league organisers organise its games (``games.selectors.register_organisers``)."""
    leagues = organised_leagues(user).values("pk")
    return Q(ladder_game__season__ladder__league__in=leagues)


def rating_now(row: Rating, now: datetime) -> model.Rating:
    """The rating as it stands now: sigma grown for each idle week since its last rated
    game (for a rating carried into the season and not yet played, in an earlier one)."""
    state = state_of(row)
    return model.initial() if state is None else state.now(now)


# A rating of the global pool is provisional (shown "1138?") until this many rated
# games, as a ladder's is until its ``min_games`` in the season: after five games a new
# player's ± has about halved, and one result no longer swings the number by hundreds.
GLOBAL_MIN_GAMES = 5


def _line(
    rating: model.Rating, games: int, min_games: int, settled_after: int | None = None
) -> dict[str, Any]:
    """A rating as the pages and JSON show it. ``min_games``: ranked from this many games;
    ``settled_after``: provisional below this many (the same unless given)."""
    settled_after = min_games if settled_after is None else settled_after
    return {
        "rating": rating.shown,
        "uncertainty": rating.uncertainty,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": games,
        "ranked": games >= min_games,
        "provisional": games < settled_after,
        "settled_after": settled_after,
    }


def leaderboard(season: Season, now: datetime | None = None) -> list[dict[str, Any]]:
    """The season's players, ranked ones first by the shown rating (mu - 3 sigma, idle
    growth to now applied), then the unranked; each with its position (None: unranked).
    An ended season's stays as it was at its end: no idle growth after it."""
    now = now or timezone.now()
    if season.ended_at is not None:
        now = min(now, season.ended_at)
    min_games = season.ladder.min_games
    rows = Rating.objects.filter(season=season).select_related("player__user__profile")
    lines = []
    for row in rows:
        player = row.player
        assert player is not None
        line = {
            "player": player,
            "name": player.name,
            "bot": player.bot,
            "username": player.user.get_username() if player.user else None,
            "status": player.status,
            **_line(rating_now(row, now), row.games, min_games),
        }
        lines.append(line)
    lines.sort(key=lambda x: (not x["ranked"], -(x["mu"] - 3 * x["sigma"]), x["name"]))
    position = 0
    for line in lines:
        line["position"] = (position := position + 1) if line["ranked"] else None
    return lines


def leaderboard_json(ladder: Ladder, season: Season, now: datetime | None = None) -> dict[str, Any]:
    lines = leaderboard(season, now)
    return {
        "kind": ladder.kind,
        "ladder": {"id": ladder.pk, "name": ladder.name, "league": ladder.league.slug},
        "season": {
            "number": season.number,
            "started_at": season.started_at.isoformat(),
            "ended_at": season.ended_at.isoformat() if season.ended_at else None,
        },
        "min_games": ladder.min_games,
        "players": [
            {k: v for k, v in line.items() if k not in ("player", "status")} for line in lines
        ],
    }


def global_leaderboard(
    kind: str = DEFAULT_KIND, now: datetime | None = None
) -> list[dict[str, Any]]:
    """The players of the kind's global pool (every rated game of the kind, open
    accounts), by the shown rating (mu - 3 sigma, idle growth to now applied), each
    with its position: the ratings their pages show, provisional until
    ``GLOBAL_MIN_GAMES`` rated games."""
    now = now or timezone.now()
    rows = Rating.objects.filter(
        season__isnull=True, kind=kind, games__gt=0, user__is_active=True
    ).select_related("user__profile")
    lines = []
    for row in rows:
        user = row.user
        assert user is not None
        lines.append(
            {
                "name": display_name(user),
                "username": user.get_username(),
                **_line(rating_now(row, now), row.games, 0, GLOBAL_MIN_GAMES),
            }
        )
    lines.sort(key=lambda x: (-(x["mu"] - 3 * x["sigma"]), x["name"], x["username"]))
    for position, line in enumerate(lines, start=1):
        line["position"] = position
    return lines


def shown_pools(viewer: AbstractBaseUser | None) -> Q:
    """The pools whose rows a viewer may see on a player's page: the global pools, and
    the seasons of the ladders the viewer may see (a private ladder's are not shown to
    strangers)."""
    return Q(season__isnull=True) | Q(season__ladder__in=visible_ladders(viewer).values("pk"))


T = TypeVar("T")


class Sight:
    """Which games a viewer may see, by the games' one rule (``can_see``: a public game,
    or a private one they play in or organise), each game asked once however many rows,
    points and lines of a page are about it."""

    def __init__(self, viewer: AbstractBaseUser | None) -> None:
        self.viewer = viewer
        self._seen: dict[int, bool] = {}

    def sees(self, game: Game) -> bool:
        if game.pk not in self._seen:
            self._seen[game.pk] = can_see(game, self.viewer)
        return self._seen[game.pk]

    def of(self, items: Iterable[T], game_of: Callable[[T], Game] | None = None) -> list[T]:
        """The items (games, or rows about a game: ``game_of`` finds it) whose game the
        viewer may see."""
        find = game_of or cast(Callable[[T], Game], lambda item: item)
        return [item for item in items if self.sees(find(item))]


def journal_of(
    user: AbstractBaseUser,
    viewer: AbstractBaseUser | None = None,
    order: tuple[str, ...] = ("pk",),
    sight: Sight | None = None,
    kind: str | None = None,
) -> list[JournalEntry]:
    """The player's journal rows in every pool the viewer may see (the global pools',
    and their ladder entries' in every season; of one kind's pools, if ``kind``), of the
    games the viewer may see: a private game's rows (when, seat, place, rating change)
    are for its players and organisers only, in every pool."""
    sight = sight or Sight(viewer)
    rows = (
        JournalEntry.objects.filter(Q(user=user) | Q(player__user=user))
        .filter(shown_pools(sight.viewer))
        .select_related("season__ladder", "game")
        .order_by(*order)
    )
    if kind is not None:
        rows = rows.filter(kind=kind)
    return sight.of(rows, lambda row: row.game)


def global_rating(
    user: AbstractBaseUser, now: datetime | None = None, kind: str = DEFAULT_KIND
) -> dict[str, Any] | None:
    """The player's rating in the kind's global pool (None before their first rated
    game of the kind)."""
    row = Rating.objects.filter(season__isnull=True, kind=kind, user=user).first()
    if row is None or row.games == 0:
        return None
    return _line(rating_now(row, now or timezone.now()), row.games, 0, GLOBAL_MIN_GAMES)


def ladder_ratings(
    user: AbstractBaseUser,
    now: datetime | None = None,
    viewer: AbstractBaseUser | None = None,
    kind: str | None = None,
) -> list[dict[str, Any]]:
    """The player's ratings in the seasons of the ladders they play that the viewer may
    see (of one kind's ladders, if ``kind``), latest first."""
    now = now or timezone.now()
    rows = (
        Rating.objects.filter(player__user=user, games__gt=0)
        .filter(shown_pools(viewer))
        .select_related("season__ladder__league")
        .order_by("-season__started_at")
    )
    if kind is not None:
        rows = rows.filter(kind=kind)
    found = []
    for row in rows:
        season = row.season
        assert season is not None
        found.append(
            {
                "ladder": season.ladder,
                "season": season,
                **_line(rating_now(row, now), row.games, season.ladder.min_games),
            }
        )
    return found


def ratings_by_kind(
    user: AbstractBaseUser, now: datetime | None = None, viewer: AbstractBaseUser | None = None
) -> list[dict[str, Any]]:
    """The player's ratings in each game they played, by the game's name: ``kind``,
    ``name``, ``global`` (the kind's global pool's, or None) and ``ladders`` (the
    seasons of its ladders the viewer may see, as ``ladder_ratings``)."""
    now = now or timezone.now()
    globals_ = {
        row.kind: row for row in Rating.objects.filter(season__isnull=True, user=user, games__gt=0)
    }
    ladders = ladder_ratings(user, now, viewer)
    kinds = set(globals_) | {line["ladder"].kind for line in ladders}
    found = []
    for kind in kinds:
        row = globals_.get(kind)
        found.append(
            {
                "kind": kind,
                "name": kind_name(kind),
                "global": None
                if row is None
                else _line(rating_now(row, now), row.games, 0, GLOBAL_MIN_GAMES),
                "ladders": [line for line in ladders if line["ladder"].kind == kind],
            }
        )
    return sorted(found, key=lambda x: (x["name"], x["kind"]))


def ratings_json(
    user: AbstractBaseUser,
    now: datetime | None = None,
    viewer: AbstractBaseUser | None = None,
    kind: str = DEFAULT_KIND,
) -> dict[str, Any]:
    """A player's ratings in one game (``kind``) and every journal row of it in the pools
    and of the games the viewer may see."""
    now = now or timezone.now()
    rows = []
    for entry in journal_of(user, viewer, kind=kind):
        season = entry.season
        rows.append(
            {
                "game": entry.game_id,
                "pool": "global"
                if season is None
                else {"ladder": season.ladder_id, "season": season.number},
                "played_at": entry.played_at.isoformat(),
                "seat": entry.seat,
                "rank": entry.rank,
                "mu_before": entry.mu_before,
                "sigma_before": entry.sigma_before,
                "mu_after": entry.mu_after,
                "sigma_after": entry.sigma_after,
                "rating_before": model.shown(entry.mu_before, entry.sigma_before),
                "rating_after": model.shown(entry.mu_after, entry.sigma_after),
                "model": entry.model,
                "corrected": entry.corrected,
            }
        )
    return {
        "player": user.get_username(),
        "kind": kind,
        "global": global_rating(user, now, kind),
        "ladders": [
            {
                "ladder": line["ladder"].pk,
                "season": line["season"].number,
                **{k: v for k, v in line.items() if k not in ("ladder", "season")},
            }
            for line in ladder_ratings(user, now, viewer, kind)
        ],
        "journal": rows,
    }


def waiting_room(ladder: Ladder, now: datetime | None = None) -> dict[str, Any]:
    """Who waits for a table on the ladder (longest first, as matchmaking serves them),
    when matchmaking next runs, and whether enough wait for a table of its size."""
    now = now or timezone.now()
    # The players matchmaking considers: on the ladder, with room for another game.
    waiting = list(
        ladder.players.filter(
            status=LadderPlayer.Status.ACTIVE,
            active_games__lt=F("max_games"),
            waiting_since__isnull=False,
        )
        .select_related("user__profile")
        .order_by("waiting_since", "pk")
    )
    for player in waiting:
        assert player.waiting_since is not None
        player.waited = wording.duration(now - player.waiting_since)  # type: ignore[attr-defined]
    smallest = min(ladder.sizes)
    running = ladder.seasons.filter(ended_at__isnull=True).exists()
    return {
        "players": waiting,
        "smallest": smallest,
        "missing": max(0, smallest - len(waiting)),
        "runs": running,
        "next_run": max(ladder.match_due_at, now),
        "due": ladder.match_due_at <= now,
        "max_wait": wording.duration(ladder.max_wait),
        "every": _every(timedelta(seconds=settings.PERIODIC_JOBS_EVERY)),
    }


def _every(interval: timedelta) -> str:
    """How often, as people say it: "every minute", "every 5 minutes"."""
    words = wording.duration(interval)
    return words.removeprefix("1 ")


def entry_of(ladder: Ladder, user: AbstractBaseUser | None) -> LadderPlayer | None:
    if user is None or not user.is_authenticated:
        return None
    return ladder.players.filter(user=user).first()
