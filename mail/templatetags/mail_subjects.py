"""The mark at the start of every mail's subject, from the settings, so that no template
writes the site's or a game's name into a subject: ``{% subject_prefix %}`` is the
site's (``MAIL_SUBJECT_PREFIX``), ``{% subject_prefix game_name %}`` a mail about a game
or an event of that game (``MAIL_GAME_SUBJECT_PREFIX``, with ``{game}`` its name)."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def subject_prefix(game_name: str = "") -> str:
    if game_name:
        return str(settings.MAIL_GAME_SUBJECT_PREFIX).format(game=game_name)
    return str(settings.MAIL_SUBJECT_PREFIX)
