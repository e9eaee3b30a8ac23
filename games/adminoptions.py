"""The game admin's view of a game's own options (its kind's, in its ``options`` value):
the board by its name in the list of games, and list filters by board and by setup, each
value named as its kind's option field names it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.kinds import all_kinds, option_words
from games.models import Game


@admin.display(description="board")
def board(game: Game) -> str:
    return option_words(game, "board")


def option_filter(name: str) -> type[admin.SimpleListFilter]:
    """A list filter by one of the games' own options, offering the values the kinds'
    fields for it name."""

    class ByOption(admin.SimpleListFilter):
        title = name
        parameter_name = name

        def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
            offered: dict[str, str] = {}
            for kind in all_kinds():
                field = kind.options_fields().get(name)
                for value, words in getattr(field, "choices", ()):
                    offered.setdefault(value, words)
            return list(offered.items())

        def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
            value = self.value()
            return queryset.filter(**{f"options__{name}": value}) if value else queryset

    return ByOption


BY_BOARD = option_filter("board")
BY_SETUP = option_filter("setup")
