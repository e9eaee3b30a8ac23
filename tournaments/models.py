"""Leagues, their members and organisers; tournaments, rounds and tables (see below).

All writes go through ``tournaments.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


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
