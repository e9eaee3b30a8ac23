"""The game admin's view of a game's own options (its kind's, in its ``options`` value):
the board by its name in the list of games, and list filters by board and by setup."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.forms import BOARD_CHOICES, SETUP_CHOICES
from games.models import Game
from ww5.templatetags.boards import board_name


@admin.display(description="board")
def board(game: Game) -> str:
    return board_name(game.options.get("board", ""))


def option_filter(name: str, choices: list[tuple[str, str]]) -> type[admin.SimpleListFilter]:
    """A list filter by one of the games' own options, offering ``choices``."""

    class ByOption(admin.SimpleListFilter):
        title = name
        parameter_name = name

        def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
            return choices

        def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
            value = self.value()
            return queryset.filter(**{f"options__{name}": value}) if value else queryset

    return ByOption


BY_BOARD = option_filter("board", BOARD_CHOICES)
BY_SETUP = option_filter("setup", SETUP_CHOICES)
