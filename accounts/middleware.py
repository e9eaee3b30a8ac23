"""Show every time in the signed-in player's own time zone."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class TimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = "UTC"
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            profile = getattr(user, "profile", None)
            if profile is not None:
                zone = profile.time_zone
        timezone.activate(zoneinfo.ZoneInfo(zone))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
