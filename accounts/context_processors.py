"""What every page needs to know about the signed-in player."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def mail_notice(request: HttpRequest) -> dict[str, Any]:
    """``mail_failing``: mail to the player's address bounced (the banner in base.html)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    profile = getattr(user, "profile", None)
    if profile is None or profile.mail_failing_since is None:
        return {}
    return {"mail_failing": profile}
