"""The audit of every message the site receives: who sent it, to which reply address,
what was done about it and why. Rows are kept ``INBOUND_KEEP_DAYS`` days (the
``sweep_inbound`` job deletes older ones). All writes go through ``inbound.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class InboundMessage(models.Model):
    class Outcome(models.TextChoices):
        RECEIVED = "received", "Being handled"
        APPLIED = "applied", "Move applied"
        CONFIRM = "confirm", "Asked to confirm (R15)"
        ALREADY = "already", "Already decided"
        REFUSED = "refused", "Move refused"
        ANSWERED = "answered", "Command answered"
        REJECTED = "rejected", "Rejected: no valid token or sender"
        AUTO_REPLY = "auto", "Auto-reply, ignored"
        BOUNCE = "bounce", "Bounce"
        LIMITED = "limited", "Over the sender's hourly limit"
        TOO_LARGE = "too_large", "Too large"
        MALFORMED = "malformed", "Unreadable"

    received_at = models.DateTimeField(default=timezone.now, db_index=True)
    transport = models.CharField(max_length=10, help_text="pipe, listener or webhook")
    # Unique: the same message delivered twice (or by two transports at once) is handled
    # once. A message without a Message-ID is named by the hash of its bytes.
    message_id = models.CharField(max_length=255, unique=True)
    sender = models.CharField(max_length=320, blank=True, db_index=True)
    recipient = models.CharField(max_length=320, blank=True)
    subject = models.CharField(max_length=300, blank=True)
    size = models.PositiveIntegerField(default=0)
    token = models.CharField(max_length=120, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The player the token and the sender matched",
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    turn = models.PositiveIntegerField(null=True, blank=True)
    command = models.CharField(max_length=200, blank=True, help_text="The line read")
    outcome = models.CharField(max_length=10, choices=Outcome, default=Outcome.RECEIVED)
    # For CONFIRM: the action a reply "confirm" applies.
    action = models.CharField(max_length=4000, blank=True)
    move = models.ForeignKey(
        "games.Move", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    error = models.TextField(blank=True)
    answer = models.ForeignKey(
        "mail.OutgoingMail", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-received_at", "-id"]
        verbose_name = "received mail"
        verbose_name_plural = "received mails"
        indexes = [models.Index(fields=["sender", "received_at"])]

    def __str__(self) -> str:
        return f"{self.sender or '(no sender)'}: {self.get_outcome_display()}"


class WebhookSignature(models.Model):
    """A provider's webhook signature the site accepted (Mailgun signs a random token and
    a timestamp): a second post with the same token is a replay and is refused. Kept in
    the database, not the cache, so a cache that is down or cleared lets no replay
    through; rows older than the signature window are swept with the audit."""

    token = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        verbose_name = "webhook signature seen"
        verbose_name_plural = "webhook signatures seen"

    def __str__(self) -> str:
        return self.token
