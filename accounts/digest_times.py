"""When a player's daily digest is due: DIGEST_HOUR in their own time zone.

The arithmetic reads and sets only the profile's own fields, so it lives here, where the
profile is changed; what a digest tells is ``games.digests``'.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, time, timedelta

from django.conf import settings

from accounts.models import Profile


def next_digest_at(now: datetime, time_zone: str) -> datetime:
    """The next DIGEST_HOUR o'clock in the zone, after ``now``."""
    zone = zoneinfo.ZoneInfo(time_zone)
    local = now.astimezone(zone)
    at = datetime.combine(local.date(), time(settings.DIGEST_HOUR), tzinfo=zone)
    if at <= local:
        at = datetime.combine(
            local.date() + timedelta(days=1), time(settings.DIGEST_HOUR), tzinfo=zone
        )
    return at


def schedule(profile: Profile, now: datetime) -> None:
    """Set (or clear) the profile's next digest after its preference or zone changed;
    the caller saves it."""
    if profile.notify == Profile.Notify.DIGEST:
        profile.digest_due_at = next_digest_at(now, profile.time_zone)
        if profile.digest_covered_to is None:
            profile.digest_covered_to = now
    else:
        profile.digest_due_at = None
        profile.digest_covered_to = None
