"""A player's profile: display name, time zone and mail preferences."""

from __future__ import annotations

import unicodedata
import zoneinfo
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models

from accounts.names import name_key, reads_as_a_bot

# The zones a player can live in: the database's names, without its technical entries
# ("Factory", "localtime", "posixrules"), which no place uses.
NOT_PLACES = {"Factory", "localtime", "posixrules"}
TIME_ZONES = sorted(zoneinfo.available_timezones() - NOT_PLACES)
ZONE_NAMES = frozenset(TIME_ZONES)  # for a look-up: every request checks its zone cookie


class Profile(models.Model):
    class Notify(models.TextChoices):
        EACH = "each", "A mail for each event"
        DIGEST = "digest", "A daily digest, plus my decisions"
        DECISIONS = "decisions", "Only my decisions"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=40, blank=True)
    # The display name as names are compared (accounts.names.name_key), kept by save();
    # empty with the display name. Unique, so that of two players saving one name at the
    # same moment only one gets it.
    name_key = models.TextField(blank=True, default="", editable=False)
    time_zone = models.CharField(
        max_length=64, default="UTC", choices=[(tz, tz) for tz in TIME_ZONES]
    )
    # Whether the player chose the zone; until then it follows their browser's.
    time_zone_chosen = models.BooleanField(default=False)
    notify = models.CharField(max_length=10, choices=Notify, default=Notify.EACH)
    # The end of the player's last absence (kept by the absence services), so that a
    # game's clock reads their absences only when one can matter.
    away_until = models.DateTimeField(null=True, blank=True)
    # When the next daily digest is due (digest players): the sweep claims it.
    digest_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # What the last digest covered up to: the next one starts there.
    digest_covered_to = models.DateTimeField(null=True, blank=True)
    # Mail to the player's address bounced (a delivery status notification came back):
    # the site shows them a notice until they say it works again.
    mail_failing_since = models.DateTimeField(null=True, blank=True)
    mail_failing_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["name_key"], condition=~models.Q(name_key=""), name="display_name_once"
            )
        ]

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.display_name)
        # A save of some fields only writes the key along with the name it comes from.
        if kwargs.get("update_fields") is not None and "display_name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """A display name must not pass for another player's or for a bot's."""
        self.name_key = name_key(self.display_name)
        if not self.name_key:
            return
        shown = self.display_name.strip()
        if reads_as_a_bot(self.display_name):
            raise ValidationError(
                {
                    "display_name": f"“{shown}” reads as a bot's name (bots play as “Greedy "
                    "bot 2”, “Random bot 3”): choose another display name."
                }
            )
        if self.is_another_username():
            raise ValidationError(
                {"display_name": f"“{shown}” is another player's username: choose another."}
            )
        if Profile.objects.filter(name_key=self.name_key).exclude(pk=self.pk).exists():
            raise ValidationError({"display_name": taken_message(shown)})

    def is_another_username(self) -> bool:
        """Whether the display name is, as names are compared, another account's username."""
        nfkc = " ".join(unicodedata.normalize("NFKC", self.display_name).split())
        candidates = (
            get_user_model()
            ._default_manager.filter(
                models.Q(username__iexact=nfkc) | models.Q(username__iexact=self.name_key)
            )
            .exclude(pk=self.user_id)
            .values_list("username", flat=True)
        )
        return any(name_key(username) == self.name_key for username in candidates)


def taken_message(display_name: str) -> str:
    return f"“{display_name}” is already another player's display name: choose another."


class Absence(models.Model):
    """A time a player declared they will be away. In games whose setting says so, their
    clock stops while they are away (games hears of it through ``accounts.signals``)."""

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
