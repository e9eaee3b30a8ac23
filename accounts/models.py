"""A player's profile: display name, time zone and mail preferences."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.db import models

TIME_ZONES = sorted(zoneinfo.available_timezones())


class Profile(models.Model):
    class Notify(models.TextChoices):
        EACH = "each", "A mail for each event"
        DIGEST = "digest", "A daily digest, plus my decisions"
        DECISIONS = "decisions", "Only my decisions"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=40, blank=True)
    time_zone = models.CharField(
        max_length=64, default="UTC", choices=[(tz, tz) for tz in TIME_ZONES]
    )
    notify = models.CharField(max_length=10, choices=Notify, default=Notify.EACH)
    # The end of the player's last absence (kept by the absence services), so that a
    # game's clock reads their absences only when one can matter.
    away_until = models.DateTimeField(null=True, blank=True)
    # When the next daily digest is due (digest players): the sweep claims it.
    digest_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # What the last digest covered up to: the next one starts there.
    digest_covered_to = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class Absence(models.Model):
    """A time a player declared they will be away. In games whose setting says so, their
    clock stops while they are away (``games.services``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="absence_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"
