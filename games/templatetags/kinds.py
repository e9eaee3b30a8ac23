"""A game's options in words, as its kind says them: ``{{ game|options_words }}`` (all of
them), ``{{ game|option_words:"board" }}`` (one, by its name), and ``{{ game|rules }}``
(the game's name and its options). Anything with a ``kind`` and ``options`` will do: a
game, an event, a ladder."""

from __future__ import annotations

from typing import Any

from django import template

from games import kinds

register = template.Library()


@register.filter
def options_words(obj: Any) -> str:
    """The kind's words for the options: 'Original (2008), casual setup (R19)'."""
    try:
        return kinds.kind_of(obj).options_words(obj.options)
    except kinds.UnknownKind:
        return ""


@register.filter
def option_words(obj: Any, name: str) -> str:
    """One option by the name its kind gives its value: 'Original (2008)' for the board."""
    return kinds.option_words(obj, name)


@register.filter
def rules(obj: Any) -> str:
    """The game and its options: 'World War 5: Original (2008), casual setup (R19)'."""
    try:
        kind = kinds.kind_of(obj)
    except kinds.UnknownKind:
        return ""
    words = kind.options_words(obj.options)
    return f"{kind.name}: {words}" if words else kind.name
