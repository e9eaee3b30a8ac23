"""Leagues, their members and organisers; tournaments, rounds and tables (see below).

All writes go through ``tournaments.services``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game, kind_field


class League(models.Model):
    """A club or community: its own organisers, members and events."""

    class Joining(models.TextChoices):
        OPEN = "open", "Open: anyone may join"
        APPROVAL = "approval", "Approved by an organiser"

    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    joining = models.CharField(max_length=10, choices=Joining, default=Joining.OPEN)
    is_public = models.BooleanField(
        default=True, help_text="Listed on the site, its events and members readable by all"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", "Member"
        ORGANISER = "organiser", "Organiser"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for approval"
        ACTIVE = "active", "Member"
        LEFT = "left", "Left"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_memberships"
    )
    role = models.CharField(max_length=10, choices=Role, default=Role.MEMBER)
    status = models.CharField(max_length=10, choices=Status, default=Status.ACTIVE)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.league} ({self.get_role_display().lower()})"

    @property
    def is_organiser(self) -> bool:
        return self.role == self.Role.ORGANISER and self.status == self.Status.ACTIVE


class Tournament(models.Model):
    """An event of a league: its format, the options of its games, registration and
    check-in, and its rounds. Its games always use the strict setup (R7), never the
    R19 house variant."""

    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss in pods"
        SWISS_CUT = "swiss_cut", "Swiss, then a top cut"
        ROUND_ROBIN = "round_robin", "Round robin"
        ELIMINATION = "elimination", "Elimination in pods"

    class Status(models.TextChoices):
        DRAFT = "draft", "Being prepared"
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"

    class Points(models.TextChoices):
        WIN_ONLY = "win", "Win 5, else 0"
        BY_PLACE = "place", "5/3/2/1 by place (scaled for smaller tables)"

    class FirstPlayer(models.TextChoices):
        BALANCED = "balanced", "Seats balanced over the event"
        ROLL = "roll", "The R5 roll decides who goes first"

    class Adjudication(models.TextChoices):
        TERRITORIES = (
            "territories",
            ("Territories held, then the size of pieces on the board, then elimination order"),
        )
        PIECES = (
            "pieces",
            ("Size of pieces on the board, then territories held, then elimination order"),
        )

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=100)
    kind = kind_field("The game the event plays")
    # Its games' own options (their kind's; World War 5's board is chosen), as every game
    # gets them: the kind sets back what it keeps out of tournament play (``event_options``).
    options = models.JSONField(default=dict, blank=True, help_text="Its games' own options")
    slug = models.SlugField(max_length=100)
    description = models.TextField(blank=True)
    format = models.CharField(max_length=15, choices=Format, default=Format.SWISS)
    is_public = models.BooleanField(default=True)
    status = models.CharField(max_length=15, choices=Status, default=Status.DRAFT, db_index=True)

    # The games: the server's options every table gets (games.options.GameOptions).
    time_control = models.CharField(max_length=10, choices=Game.TimeControl, default="fixed")
    decision_time = models.DurationField(default=timedelta(days=2))
    retreat_time = models.DurationField(default=timedelta(hours=12))
    bank_time = models.DurationField(default=timedelta(days=5))
    increment = models.DurationField(default=timedelta(days=1))
    missed_limit = models.PositiveSmallIntegerField(default=3)
    absence_pauses_clock = models.BooleanField(default=True)

    # The rounds.
    table_size = models.PositiveSmallIntegerField(
        default=4, help_text="Players per table; smaller tables fill the field (3s for 4)"
    )
    two_player_tables = models.BooleanField(
        default=False, help_text="Allow tables of two when the field needs them"
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss rounds; empty: the recommended number"
    )
    cut_size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss, then a top cut: how many play the cut"
    )
    advance_per_table = models.PositiveSmallIntegerField(
        default=1, help_text="Elimination: how many of each table advance"
    )
    points = models.CharField(max_length=10, choices=Points, default=Points.BY_PLACE)
    first_player = models.CharField(
        max_length=10, choices=FirstPlayer, default=FirstPlayer.BALANCED
    )
    round_time = models.DurationField(
        default=timedelta(days=14), help_text="A round's deadline, from its start"
    )
    adjudication = models.CharField(
        max_length=15,
        choices=Adjudication,
        default=Adjudication.TERRITORIES,
        help_text="House rule, a turn limit (World War 5's R28): how its games still running at "
        "a round's deadline are ranked. RisiKo's are ranked by its own measures: progress "
        "towards their objective, then territories, then armies",
    )

    # Registration.
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    cap = models.PositiveIntegerField(
        null=True, blank=True, help_text="At most this many players; later ones wait"
    )
    check_in_opens_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="Check-in closes and round 1 is paired"
    )
    review_pairings = models.BooleanField(
        default=False,
        help_text="Each round waits, paired, for an organiser to start it (and may be "
        "paired again meanwhile); otherwise it starts at once",
    )
    late_join_until_round = models.PositiveSmallIntegerField(
        default=0, help_text="Players may still join before this round (0: not after the start)"
    )

    # Drawn by the site when the event is made (``services.events``), never typed or
    # changed; public once round 1 is paired, its commitment from the start.
    seed = models.BigIntegerField(
        editable=False, help_text="Every pairing and draw of the event follows it"
    )
    seed_commitment = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        help_text="SHA-256 of ww5-event-seed/1|<event id>|<seed>, published when the event "
        "is made (empty for an event made before there were commitments)",
    )
    paused_at = models.DateTimeField(null=True, blank=True)
    check_in_told = models.BooleanField(default=False, help_text="Players told check-in is open")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="tournament_slug_per_league")
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player (or, for tests and casual events, a bot) in a tournament."""

    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        WAITING = "waiting", "On the waiting list"
        CHECKED_IN = "checked_in", "Checked in"
        WITHDRAWN = "withdrawn", "Withdrawn"
        DROPPED = "dropped", "Dropped"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
    )
    bot = models.CharField(max_length=10, blank=True)
    status = models.CharField(max_length=12, choices=Status, default=Status.REGISTERED)
    registered_at = models.DateTimeField(default=timezone.now)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    joined_round = models.PositiveSmallIntegerField(
        default=1, help_text="The first round the player could play (a late join)"
    )
    left_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Withdrawn or dropped after this round"
    )
    note = models.CharField(max_length=200, blank=True, help_text="Why dropped or reinstated")

    class Meta:
        ordering = ["tournament", "registered_at", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(user__isnull=False),
                name="one_entry_per_player",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.user is None:
            return f"{self.bot.capitalize()} bot {self.pk}"
        profile = getattr(self.user, "profile", None)
        return (profile.display_name if profile else "") or self.user.get_username()

    @property
    def plays(self) -> bool:
        """Still paired in the rounds to come."""
        return self.status in (self.Status.REGISTERED, self.Status.CHECKED_IN)


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", "Paired, waiting to start"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=15, default="swiss")
    status = models.CharField(max_length=10, choices=Status, default=Status.RUNNING, db_index=True)
    seed = models.BigIntegerField()
    # What chose the pairing and the seating (repeats, score spread, seat history).
    costs = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            # A retried or repeated job can never make a round twice.
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once")
        ]

    def __str__(self) -> str:
        return f"{self.tournament}, round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # Made when the round starts.
    game = models.OneToOneField(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_table",
    )
    # The finishing order by entry id, best first, tied entries in one group; empty while
    # the game runs.
    result = models.JSONField(default=list, blank=True)
    result_source = models.CharField(
        max_length=12, blank=True, help_text="game, adjudicated or corrected"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_once")]

    def __str__(self) -> str:
        return f"{self.round}, table {self.number}"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()
    home = models.CharField(max_length=40)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "entry"], name="one_seat_per_entry"),
            models.UniqueConstraint(fields=["table", "number"], name="table_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, seat {self.number}"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="bye_once")]

    def __str__(self) -> str:
        return f"{self.round}: a bye for {self.entry}"


class EventJob(models.Model):
    """An organiser's long action on an event (start it, add a bot, pair a round again,
    start a paired round), run by a worker; its state and message are the progress the
    event's pages show."""

    class Kind(models.TextChoices):
        START = "start", "Start the event"
        ADD_BOT = "add_bot", "Add a bot"
        PAIR_AGAIN = "pair_again", "Pair a round again"
        START_ROUND = "start_round", "Start a paired round"

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=12, choices=Kind)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = models.CharField(max_length=10, choices=State, default=State.QUEUED, db_index=True)
    message = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        what = self.get_kind_display()
        if self.round_number:
            what = f"{what} ({self.round_number})"
        return f"{self.tournament}: {what}"

    @property
    def pending(self) -> bool:
        return self.state in (self.State.QUEUED, self.State.RUNNING)

    @property
    def took(self) -> float | None:
        """Seconds from the worker taking the job to its end."""
        if self.started_at is None or self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()
