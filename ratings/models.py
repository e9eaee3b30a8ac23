"""Ladders, their seasons and players; ratings and their journal.

A rating lives in a pool: a game kind's global pool of every rated game of that kind
between people (any game: casual, tournament or ladder), or one ladder season (of its
ladder's kind). In a global pool a player is their user; in a season, their ladder
entry (``LadderPlayer``), which may be a bot on a ladder that rates its bots. Every
rating and journal row names its pool's kind, so that one game's results never move
another's ratings. All writes go through the services:
``ratings.services.pools`` (ratings), ``ratings.services.ladder`` and
``ratings.services.matchmaking``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.models import Game, kind_field


class Ladder(models.Model):
    """A league's ladder: its format, its seasons, how its tables are formed."""

    class PlayerCount(models.TextChoices):
        TWO = "2", "2 players"
        THREE = "3", "3 players"
        FOUR = "4", "4 players"
        THREE_OR_FOUR = "3-4", "3 or 4 players (4 preferred)"

    class NewSeason(models.TextChoices):
        RESET = "reset", "Ratings start afresh"
        CARRY = "carry", "Ratings carried, with more uncertainty"

    league = models.ForeignKey(
        "tournaments.League", on_delete=models.PROTECT, related_name="ladders"
    )
    name = models.CharField(max_length=100)
    kind = kind_field("The game the ladder plays")
    # Its games' own options (their kind's; World War 5's board is chosen), as every game
    # gets them: the kind sets back what it keeps out of rated play (``event_options``).
    options = models.JSONField(default=dict, blank=True, help_text="Its games' own options")
    description = models.TextField(blank=True)
    is_public = models.BooleanField(default=True)
    is_open = models.BooleanField(default=True, help_text="Players may join")

    # The games.
    player_count = models.CharField(
        max_length=3, choices=PlayerCount, default=PlayerCount.THREE_OR_FOUR
    )
    time_control = models.CharField(max_length=10, choices=Game.TimeControl, default="fixed")
    decision_time = models.DurationField(default=timedelta(days=2))
    retreat_time = models.DurationField(default=timedelta(hours=12))
    bank_time = models.DurationField(default=timedelta(days=5))
    increment = models.DurationField(default=timedelta(days=1))
    missed_limit = models.PositiveSmallIntegerField(default=3)

    # Matchmaking and ranking.
    max_wait = models.DurationField(
        default=timedelta(days=1),
        help_text="No one waits longer than this for a table while one can be formed",
    )
    max_spread = models.PositiveIntegerField(
        default=200, help_text="Before that, tables only within this many rating points"
    )
    recent_games = models.PositiveSmallIntegerField(
        default=2, help_text="Avoid the opponents of each player's last games"
    )
    min_games = models.PositiveSmallIntegerField(
        default=5, help_text="Ranked on the leaderboard after this many games of the season"
    )
    max_games_at_once = models.PositiveSmallIntegerField(default=3)
    new_season = models.CharField(max_length=10, choices=NewSeason, default=NewSeason.CARRY)
    carry_sigma = models.FloatField(
        default=2.0, help_text="Uncertainty added to a carried rating (sigma, in quadrature)"
    )
    rates_bots = models.BooleanField(
        default=False,
        help_text="Rate the ladder's bot entrants in its seasons (a house or test ladder); "
        "otherwise a game with a bot is unrated",
    )
    season_length = models.DurationField(
        null=True,
        blank=True,
        help_text="A season ends this long after its start and the next begins (empty: an "
        "organiser starts the next)",
    )
    game_time = models.DurationField(
        null=True,
        blank=True,
        help_text="A game still running this long after its start is ranked under the "
        "turn-limit house rule (World War 5's R28: territories, then pieces; RisiKo: progress "
        "towards their objective, then territories, then armies); empty: never",
    )
    # The beat's matchmaking sweep runs the ladder when this is due (an indexed column).
    match_due_at = models.DateTimeField(default=timezone.now, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="ladder_name_per_league")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def sizes(self) -> tuple[int, ...]:
        """Allowed table sizes, the preferred first."""
        return (
            (4, 3)
            if self.player_count == self.PlayerCount.THREE_OR_FOUR
            else (int(self.player_count),)
        )


class Season(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(null=True, blank=True, db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["ladder", "number"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "number"], name="season_once"),
            models.UniqueConstraint(
                fields=["ladder"], condition=Q(ended_at__isnull=True), name="one_running_season"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ladder}, season {self.number}"

    @property
    def running(self) -> bool:
        return self.ended_at is None


class LadderPlayer(models.Model):
    """A player (or a bot) on a ladder: how many ladder games they want at once."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Playing"
        PAUSED = "paused", "Paused (on vacation)"
        LEFT = "left", "Left"

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ladder_players",
    )
    bot = models.CharField(max_length=10, blank=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.ACTIVE, db_index=True)
    max_games = models.PositiveSmallIntegerField(default=1)
    active_games = models.PositiveSmallIntegerField(default=0)
    # Since when the player has had room for another game (null: at their limit,
    # paused or gone); matchmaking serves the longest waiting first.
    waiting_since = models.DateTimeField(null=True, blank=True, db_index=True)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["ladder", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["ladder", "user"],
                condition=Q(user__isnull=False),
                name="one_entry_per_ladder",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(bot=""), name="ladder_player_or_bot"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.user is None:
            return f"{self.bot.capitalize()} bot {self.pk}"
        profile = getattr(self.user, "profile", None)
        return (profile.display_name if profile else "") or self.user.get_username()


class LadderGame(models.Model):
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="games")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="ladder_game")
    created_at = models.DateTimeField(default=timezone.now)
    # When the game is ranked under the R28 house rule if still running (ladder.game_time).
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.season}: game {self.game_id}"


class LadderSeat(models.Model):
    ladder_game = models.ForeignKey(LadderGame, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(LadderPlayer, on_delete=models.PROTECT, related_name="seats")
    seat = models.OneToOneField("games.Seat", on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["ladder_game", "player"], name="ladder_seat_once")
        ]

    def __str__(self) -> str:
        return f"{self.ladder_game}: {self.player}"


class Rating(models.Model):
    """A player's current rating in a pool (``season`` null: the global pool of ``kind``,
    keyed by ``user``; else the season, of its ladder's kind, keyed by ``player``). The
    journal is the record; this is the sum."""

    kind = kind_field("The game rated (a season's is its ladder's)")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="ratings"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    player = models.ForeignKey(
        LadderPlayer, null=True, blank=True, on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)
    # The rating carried into the season from the last one (a new season that carries
    # ratings): the rating after the player's last rated game with the carry's extra
    # sigma, and that game's date, from which idle growth counts; empty: a new player's
    # rating.
    start_mu = models.FloatField(null=True, blank=True)
    start_sigma = models.FloatField(null=True, blank=True)
    start_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "user"],
                condition=Q(season__isnull=True),
                name="one_global_rating_per_kind",
            ),
            models.UniqueConstraint(
                fields=["season", "player"],
                condition=Q(season__isnull=False),
                name="one_season_rating",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player or self.user} in {self.season or f'the {self.kind} pool'}"


class JournalEntry(models.Model):
    """One rated game of one player in one pool: the rating before (idle growth applied)
    and after, the rank and seat, and the model's settings. ``kind``: the pool's game
    (the game's own), by which a global pool's journal is read and replayed."""

    kind = kind_field("The game rated (the pool's kind)")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="journal"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_journal",
    )
    player = models.ForeignKey(
        LadderPlayer, null=True, blank=True, on_delete=models.CASCADE, related_name="journal"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="journal")
    seat = models.PositiveSmallIntegerField(help_text="Seat number, 1 moved first")
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    played_at = models.DateTimeField()
    model = models.JSONField(help_text="The model and its settings")
    corrected = models.BooleanField(default=False)

    class Meta:
        ordering = ["pk"]
        verbose_name_plural = "journal entries"
        indexes = [models.Index(fields=["season", "game"])]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(season__isnull=True),
                name="journal_global_once",
            ),
            models.UniqueConstraint(
                fields=["game", "season", "player"],
                condition=Q(season__isnull=False),
                name="journal_season_once",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.player or self.user} ranked {self.rank}"
