"""A player's name, linked to their public page (``/players/<username>/``).

One tag for every page and mail that names a player: ``{% player_link who %}``, where
``who`` is a user, anything with a ``user`` and a name (a game's seat, an event's or a
ladder's entry: their ``display_name`` or ``name``), or a line of a report or
leaderboard (a mapping with ``name`` and ``username``). A bot, a seat without a player
and an account that is closed have no page: their name is shown plain. The link says
nothing the page would not: the player's page decides what each viewer sees there.
In an HTML mail, ``absolute=True`` makes the address whole (``SITE_URL``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


def _user_name(user: AbstractBaseUser) -> str:
    profile = getattr(user, "profile", None)
    return (getattr(profile, "display_name", "") if profile else "") or user.get_username()


def name_and_username(who: Any) -> tuple[str, str | None]:
    """The name to show and the username whose page it links to (None: no page)."""
    if who is None or who == "":
        return "", None
    if isinstance(who, Mapping):
        return str(who.get("name") or ""), who.get("username") or None
    if isinstance(who, AbstractBaseUser):
        return _user_name(who), who.get_username() if who.is_active else None
    name = getattr(who, "display_name", None) or getattr(who, "name", None) or str(who)
    user = getattr(who, "user", None)
    if getattr(who, "bot", "") or user is None or not user.is_active:
        return str(name), None
    return str(name), user.get_username()


def player_url(username: str, absolute: bool = False) -> str:
    path = reverse("ratings:player", args=[username])
    return settings.SITE_URL.rstrip("/") + path if absolute else path


@register.simple_tag
def player_link(who: Any, absolute: bool = False) -> SafeString:
    """The player's name, a link to their page when they have one (escaped either way)."""
    name, username = name_and_username(who)
    if username is None:
        return format_html("{}", name)
    return format_html('<a class="player" href="{}">{}</a>', player_url(username, absolute), name)
