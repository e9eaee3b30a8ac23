"""Games, their seats and the move log.

The move log is the source of truth: each accepted decision is a ``Move`` row. The
position stored on ``Game`` is a cache that replaying the log rebuilds exactly
(``python manage.py rebuild_positions``). All writes go through ``games.services``.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.kinds import DEFAULT_KIND, kind_choices, kind_of


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def kind_field(help_text: str) -> models.CharField:
    """The game kind a row is of (a game, an event, a ladder, a rating): a registered
    kind's key, World War 5's for every row made before there were kinds."""
    return models.CharField(
        max_length=20, choices=kind_choices, default=DEFAULT_KIND, help_text=help_text
    )


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        SETUP = "setup", "Setup"
        PLAY = "play", "In play"
        OVER = "over", "Finished"
        CANCELLED = "cancelled", "Cancelled"
        ABANDONED = "abandoned", "Abandoned"

    class HomeAssignment(models.TextChoices):
        CHOOSE = "choose", "Players choose in join order"
        RANDOM = "random", "Random at the start"
        ASSIGNED = "assigned", "Assigned by the creator or an organiser"

    class TimeControl(models.TextChoices):
        FIXED = "fixed", "A fixed time for each decision"
        BANK = "bank", "A time bank per player, with an increment per decision"

    name = models.CharField(max_length=80, blank=True)
    kind = kind_field("The game played")
    # The kind's own options (World War 5: its board, setup and house variant), as the
    # kind's ``check_options`` stores them; the server's options are the columns below.
    options = models.JSONField(default=dict, blank=True, help_text="The game's own options")
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_games",
    )
    seats_wanted = models.PositiveSmallIntegerField(default=2)
    home_assignment = models.CharField(
        max_length=10, choices=HomeAssignment, default=HomeAssignment.CHOOSE
    )
    decision_time = models.DurationField(default=timedelta(days=2))
    time_control = models.CharField(max_length=10, choices=TimeControl, default=TimeControl.FIXED)
    bank_time = models.DurationField(
        default=timedelta(days=5), help_text="Each player's time bank at the start (bank games)"
    )
    increment = models.DurationField(
        default=timedelta(days=1),
        help_text="Added to the player's bank after each decision (bank games)",
    )
    absence_pauses_clock = models.BooleanField(
        default=True, help_text="A declared absence stops its player's clock"
    )
    retreat_time = models.DurationField(
        default=timedelta(hours=12), help_text="Time allowed for a defender's retreat"
    )
    missed_limit = models.PositiveSmallIntegerField(
        default=3, help_text="A player who misses this many decisions forfeits (R31)"
    )
    is_public = models.BooleanField(default=True)
    invite_token = models.CharField(max_length=40, unique=True, default=new_invite_token)

    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN, db_index=True)
    # The engine's position (contract format): a cache of replaying the moves.
    position = models.JSONField(null=True, blank=True)
    # How many moves have been applied; a form carries it to detect stale submissions.
    turn_number = models.PositiveIntegerField(default=0)
    # The player the game waits for, when it waits for one; a decision several players
    # make at once (sealed from each other) marks their seats ``deciding`` instead.
    to_move = models.ForeignKey(
        "Seat", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The move number at which the decision now due began: a decision several players
    # make at once takes each one's form made since then.
    decision_turn = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Set by the deadline sweep when it claims this game's missed decision; cleared when
    # the decision is dealt with. A claim older than a few minutes is swept again.
    deadline_claimed_at = models.DateTimeField(null=True, blank=True)
    # When the player is reminded of the pending decision; cleared once the reminder is
    # queued, and set again whenever the deadline moves.
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the pending decision began drawing on its player's time bank (bank games; not
    # for a retreat, which has its own time): the time used is charged when it is made.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    # The pending decision has had its one grace extension.
    grace_used = models.BooleanField(default=False)
    paused_at = models.DateTimeField(null=True, blank=True)
    start_record = models.JSONField(default=list, blank=True)
    # Verifiable dice (games.core.fairdice): the secret seed, encrypted (games.services.dice
    # alone reads it); its commitment, public from the start; the players' words combined
    # (P), fixed at the first number; how many numbers the game has drawn; the start's
    # numbers' ranges; and the seed itself once the game is over. Empty: a game made
    # before seeds, whose dice came from the system's generator.
    dice_seed = models.TextField(blank=True, default="", editable=False)
    dice_commitment = models.CharField(max_length=64, blank=True, default="", editable=False)
    dice_players_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    dice_drawn = models.PositiveIntegerField(default=0, editable=False)
    dice_start = models.JSONField(default=list, blank=True, editable=False)
    dice_revealed = models.CharField(max_length=64, blank=True, default="", editable=False)
    winner = models.ForeignKey(
        "Seat", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When an organiser last corrected the result (the game log keeps why and how).
    result_corrected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        # A site-wide organiser (given to staff who look after every game); others
        # organise a game through a relation: its creator, its league's organisers.
        permissions = [("organise_any_game", "Can organise every game")]
        # The lobby's games in play and the finished games, newest first, a page at a
        # time: read in the index's order, not sorted from every game of the site.
        indexes = [
            models.Index(fields=["-started_at", "-id"], name="game_started_newest"),
            models.Index(fields=["-finished_at", "-id"], name="game_finished_newest"),
        ]

    def __str__(self) -> str:
        return self.name or f"Game {self.pk}"

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.SETUP, self.Status.PLAY)

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None


class Seat(models.Model):
    class Bot(models.TextChoices):
        NONE = "", "A person"
        GREEDY = "greedy", "Greedy bot"
        RANDOM = "random", "Random bot"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(help_text="Seat order (join order), from 1")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    bot = models.CharField(max_length=10, choices=Bot, blank=True, default=Bot.NONE)
    # A bot entrant's name in the event or ladder that seated it, the one name it has
    # everywhere; empty for a lobby bot, which is named by its seat number.
    name = models.CharField(max_length=80, blank=True, help_text="The bot entrant's name")
    home = models.CharField(max_length=40, blank=True, help_text="Home continent id")
    # Filled in when the player leaves the game: 1 for the winner, ties share a rank.
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    missed = models.PositiveSmallIntegerField(
        default=0, help_text="Decisions this player let pass their deadline"
    )
    bank_left = models.DurationField(
        null=True, blank=True, help_text="What is left of the player's time bank (bank games)"
    )
    muted = models.BooleanField(default=False, help_text="The player wants no mail about this game")
    # One of several players whose decision, made at once and sealed from the others,
    # the game waits for (a single player's decision is the game's ``to_move``).
    deciding = models.BooleanField(default=False)
    # The lines of this player's turn script held behind a decision of another player
    # (RisiKo's war die, K39f), run once it is in; they may hold sealed costs, so they
    # are this player's alone to see. ``held_source``: where the script came from.
    held = models.TextField(blank=True, default="")
    held_source = models.CharField(max_length=10, blank=True, default="")
    # The player's own words for the game's dice, added before its first number (P).
    dice_words = models.CharField(max_length=200, blank=True, default="")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_once"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
            models.UniqueConstraint(
                fields=["game", "home"], condition=~models.Q(home=""), name="one_seat_per_home"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.player_name or 'no home yet'})"

    @property
    def player_name(self) -> str:
        """The game's name for this seat (World War 5: its home continent's colour); empty
        while it has none yet."""
        return kind_of(self.game).seat_name(self.game, self)

    @property
    def display_name(self) -> str:
        if self.bot:
            return self.name or f"{self.get_bot_display()} {self.number}"
        if self.user is None:
            return "(empty seat)"
        profile = getattr(self.user, "profile", None)
        return (profile.display_name if profile else "") or self.user.get_username()


class Move(models.Model):
    class Source(models.TextChoices):
        WEB = "web", "Web"
        LINK = "link", "Mailed link"
        EMAIL = "email", "Email"
        TIMEOUT = "timeout", "Timeout"
        ADMIN = "admin", "Admin"
        BOT = "bot", "Bot"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField(help_text="1 for the first decision of the game")
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="moves")
    action = models.CharField(
        max_length=4000, help_text="Canonical notation, or 'forfeit <player>'"
    )
    dice = models.JSONField(default=list, blank=True)
    # The game's counter of the first of ``dice`` (null when the move drew none, or for a
    # game made before seeds), and each value's range [low, high] (games.core.fairdice).
    dice_from = models.PositiveIntegerField(null=True, blank=True)
    dice_ranges = models.JSONField(default=list, blank=True)
    events = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=10, choices=Source)
    # The person who held the seat when the move was made: a seat an organiser later gave
    # to someone else keeps its earlier moves under their real player.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who held the seat when the move was made (empty for a bot)",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who submitted it (an admin acting for a player)",
    )
    created_at = models.DateTimeField(default=timezone.now)
    # A sealed action (a RisiKo sealed placement, a war's cost or answer: the kind's
    # ``sealed_decision``) carries the commitment the server mailed for it (K38): the
    # decision it belongs to, the random nonce r (hex) and H = the kind's ``commitment``.
    # Blank for every other move. H is public; r and the action are read only through
    # ``games.seen``, which keeps them to the move's player until the decision's reveal.
    decision = models.CharField(
        max_length=40, blank=True, default="", help_text="The sealed decision's id, if sealed"
    )
    nonce = models.CharField(
        max_length=32, blank=True, default="", help_text="The commitment's random nonce (hex)"
    )
    commitment = models.CharField(
        max_length=64, blank=True, default="", help_text="The commitment H (hex SHA-256)"
    )

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            # The last line of defence against a move applied twice.
            models.UniqueConstraint(fields=["game", "number"], name="move_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.number}: {self.action}"


class GameEvent(models.Model):
    """Something that happened to a game beside its moves (an organiser's action, a
    replacement, a resignation), kept for the game log and the players' mails."""

    class Kind(models.TextChoices):
        PAUSE = "pause", "Paused"
        RESUME = "resume", "Resumed"
        EXTEND = "extend", "Deadline extended"
        FORFEIT = "forfeit", "Forfeit"
        REPLACE = "replace", "Player replaced"
        ABANDON = "abandon", "Abandoned"
        RESIGN = "resign", "Resigned"
        ADJUDICATE = "adjudicate", "Ended under a turn limit"
        CORRECT = "correct", "Result corrected"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind)
    # How many moves the game had when it happened: the log shows it after that move.
    after_move = models.PositiveIntegerField()
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The organiser (or player) who did it; empty for the site itself",
    )
    text = models.CharField(max_length=300, help_text="What happened, in words")
    reason = models.TextField(blank=True, help_text="The organiser's reason, told to the players")
    # For a replacement: the names of the player who left the seat and who took it.
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "after_move", "id"]

    def __str__(self) -> str:
        return f"{self.game}: {self.text}"
