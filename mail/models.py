"""The outbox: every mail the site sends is first a row here.

A row is written in the same transaction as the change that causes the mail, so a
rolled-back change sends nothing and a committed one cannot lose its mail. A task sends
it after commit (``mail.services.send_now``); its status moves queued → sending → sent,
or → retry (a transient failure, tried again later) → … → failed. All writes go through
``mail.services``.

A sent mail is kept whole ``MAIL_KEEP_SENT_DAYS`` days; then the ``trim_outbox`` job
empties its text, HTML and picture and sets ``trimmed_at``. The row itself stays: its
``dedup_key`` still stops a second mail for the same decision, a bounce quoting its
``message_id`` still finds its address, the audit of received mail still points at it,
and its headers still tell who was sent what, and when; ``MAIL_DELETE_SENT_DAYS`` after
it was sent, the same job deletes it.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.utils import timezone

LINK = re.compile(r"https?://[^\s<>\"']+")


class OutgoingMailQuerySet(models.QuerySet["OutgoingMail"]):
    def of_thread(self, thread: str) -> OutgoingMailQuerySet:
        """The mails threaded under this key (e.g. a game's)."""
        return self.filter(thread=thread)


class OutgoingMail(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        RETRY = "retry", "Waiting to retry"
        FAILED = "failed", "Failed"

    to_address = models.CharField(max_length=320)
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="outgoing_mails",
    )
    from_address = models.CharField(
        max_length=320, blank=True, help_text="Empty: the site's DEFAULT_FROM_EMAIL."
    )
    reply_to = models.CharField(
        max_length=320,
        blank=True,
        help_text="Where the reader's replies go (Reply-To); empty: to the sender.",
    )
    kind = models.CharField(max_length=20, help_text="What the mail is about, e.g. decision.")
    subject = models.CharField(max_length=998)
    body_text = models.TextField()
    body_html = models.TextField()
    thread = models.CharField(
        max_length=100,
        blank=True,
        db_index=True,
        help_text="Mails with the same key are threaded together, e.g. game-12 for a game's.",
    )
    message_id = models.CharField(max_length=255, unique=True)
    unsubscribe_url = models.CharField(max_length=500, blank=True)
    dedup_key = models.CharField(
        max_length=200,
        null=True,
        blank=True,
        unique=True,
        help_text="At most one mail per key, e.g. one 'your decision' mail per decision.",
    )
    inline_kind = models.CharField(
        max_length=40,
        blank=True,
        help_text="A picture the HTML part shows inline, drawn when the mail is sent: the "
        "kind registered with mail.parts that draws it (e.g. board); empty: none.",
    )
    inline_spec = models.JSONField(
        null=True, blank=True, help_text="What the kind's renderer draws the picture from."
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.QUEUED, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now, db_index=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    trimmed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the text, the HTML and the picture of the sent mail were emptied "
        "(MAIL_KEEP_SENT_DAYS after it was sent; the rest of the row is kept); empty: kept.",
    )

    objects = OutgoingMailQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        verbose_name = "outgoing mail"
        verbose_name_plural = "outgoing mails"
        indexes = [
            # The trim job's query: the oldest sent mails still whole. Partial, so it
            # holds the last MAIL_KEEP_SENT_DAYS days of mail, not every row ever sent.
            models.Index(
                fields=["sent_at"],
                condition=models.Q(status="sent", trimmed_at__isnull=True),
                name="mail_sent_untrimmed",
            ),
            # The deletion's query: the oldest trimmed rows (MAIL_DELETE_SENT_DAYS).
            models.Index(
                fields=["sent_at"],
                condition=models.Q(status="sent", trimmed_at__isnull=False),
                name="mail_sent_trimmed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subject} → {self.to_address}"

    @property
    def game_number(self) -> int | None:
        """The game whose thread the mail is in, if any (the games app's "game-<n>")."""
        prefix, _, number = self.thread.partition("-")
        return int(number) if prefix == "game" and number.isdecimal() else None

    @property
    def kept_days(self) -> int | None:
        """For a trimmed mail: how many whole days after it was sent its body was
        emptied (None: not trimmed)."""
        if self.trimmed_at is None or self.sent_at is None:
            return None
        return (self.trimmed_at - self.sent_at).days

    @property
    def links(self) -> list[str]:
        """The links in the text part, in order, each once."""
        return list(
            dict.fromkeys(match.rstrip(".,;:!?)") for match in LINK.findall(self.body_text))
        )
