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

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()
