"""The sign-in limit (django-axes, see settings): which account a try counts against, and
the page a client sees while it may not sign in."""

from __future__ import annotations

from typing import Any

from allauth.account.utils import filter_users_by_email
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def attempted_account(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The account a sign-in tries, named one way however it was written.

    Counting the name as typed would give "alice", "ALICE" and alice's address a count
    each, and so a guesser several times the limit. The site's form sends its login as
    "username" or "email" (allauth), the admin's as "username"; an address names the
    account it belongs to, and anything else counts as itself, case-folded."""
    credentials = credentials or {}
    given = credentials.get("username") or credentials.get("email")
    if not given:
        given = request.POST.get("login") or request.POST.get("username") or ""
    given = str(given).strip().casefold()
    if "@" in given:
        users = filter_users_by_email(given, is_active=True)
        if users:
            return str(users[0].get_username()).casefold()
    return given


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """The answer to a sign-in past the limit: 429, and when to try again.

    Each refused try starts the wait again (axes' AXES_RESET_COOL_OFF_ON_FAILURE_DURING_
    LOCKOUT), so the wait ends a full cool-off after this one."""
    wait = settings.AXES_COOLOFF_TIME
    response = render(
        request,
        "account/locked_out.html",
        {
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "minutes": round(wait.total_seconds() / 60),
            "retry_at": timezone.now() + wait,
        },
        status=429,
    )
    response["Retry-After"] = str(round(wait.total_seconds()))
    return response
