"""Show every time in the viewer's own time zone: the one a signed-in player chose, else
the one their browser is in (the ``tz`` cookie the pages' script sets), else UTC."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from accounts.models import ZONE_NAMES

ZONE_COOKIE = "tz"  # set by static/timezone.js


class TimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone, request.time_zone_from = zone_for(request)  # type: ignore[attr-defined]
        timezone.activate(zoneinfo.ZoneInfo(zone))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def zone_for(request: HttpRequest) -> tuple[str, str]:
    """The viewer's zone, and where it came from: "chosen" (the player's choice),
    "browser" (the ``tz`` cookie the pages' script sets), "profile" (the zone the
    player's browser last reported, or UTC) or "site" (UTC, for a visitor)."""
    profile = None
    user = getattr(request, "user", None)
    if isinstance(user, SimpleLazyObject):
        # Read here for every request: from now on the user itself, not the lazy
        # stand-in, through which every attribute read made an AttributeError first
        # (Django's LazyObject): six a move, 1.5% of its instructions.
        user.is_authenticated  # noqa: B018  (reads the user once)
        user = request.user = user._wrapped
    if user is not None and user.is_authenticated:
        profile = getattr(user, "profile", None)
    if profile is not None and profile.time_zone_chosen:
        return str(profile.time_zone), "chosen"
    browser = unquote(request.COOKIES.get(ZONE_COOKIE, ""))
    if browser in ZONE_NAMES:
        return browser, "browser"
    return (str(profile.time_zone), "profile") if profile is not None else ("UTC", "site")
