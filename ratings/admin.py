"""Admin pages for ladders: organisers manage their own leagues' ladders (as with
events, ``tournaments.admin.LeagueScopedAdmin``). Changes go through the services."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from games.errors import GameError
from games.forms import KindOptionField, check_kind_option
from games.kinds import DEFAULT_KIND, all_kinds, kind_of
from games.models import Game
from ratings.errors import RatingError
from ratings.models import JournalEntry, Ladder, LadderPlayer
from ratings.services import ladder as ladders
from tournaments.admin import LeagueScopedAdmin
from tournaments.selectors import is_site_staff
from ww5site.readonly import ReadOnlyAdminMixin

# The ladder's settings, as its fields hold them (its kind, like an event's, is the one it
# is made with).
SETTINGS = [
    f.name
    for f in Ladder._meta.get_fields()
    if f.concrete and f.name not in ("id", "kind", "match_due_at", "created_at")
]
# As the form offers them: of its games' own options (``options``), the board.
LADDER_FIELDS = ["board" if name == "options" else name for name in SETTINGS]


class LadderForm(ModelForm):
    # The ladder's games' board (of its game) and time control, chosen by their names.
    board = KindOptionField("board", every_kind=True)
    time_control = forms.ChoiceField(
        choices=Game.TimeControl.choices, initial=Game.TimeControl.FIXED
    )

    class Meta:
        model = Ladder
        # With the ladder's own columns; ``board`` (kept in its options) is declared above.
        fields = [name for name in SETTINGS if name != "options"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "board" in self.instance.options:
            self.initial["board"] = self.instance.options["board"]
        if "kind" in self.fields:  # a new ladder's game: the site's first unless chosen
            self.fields["kind"].required = False

    def clean(self) -> dict[str, Any]:
        """Games can be played with the ladder's options: refused here with the reason,
        rather than when its first table is formed."""
        data: dict[str, Any] = super().clean() or {}
        kind = data.get("kind") or self.instance.kind or DEFAULT_KIND
        if "kind" in self.fields:
            data["kind"] = kind
        check_kind_option(self, kind, "board")
        if self.errors:
            return data
        options = {**self.instance.options}
        if "board" in data:
            options["board"] = data["board"]
        columns = {k: v for k, v in data.items() if k not in ("league", "board")}
        trial = Ladder(options=options, **columns)
        wrong = ladders.out_of_bounds(trial)
        for name, words in wrong.items():  # told beside each field
            self.add_error(name, f"{words[:1].upper()}{words[1:]}.")
        if wrong:
            return data
        try:
            ladders.game_options(trial).check()
        except GameError as refusal:
            raise ValidationError(str(refusal)) from None
        self.instance.options = options  # the fields' own are set from ``data``
        return data


@admin.register(Ladder)
class LadderAdmin(LeagueScopedAdmin):
    list_display = ("name", "league", "player_count", "board", "is_open", "created_at")
    form = LadderForm
    fields = LADDER_FIELDS
    actions = ["start_new_season", "add_greedy_bot"]

    @admin.display(description="board")
    def board(self, ladder: Ladder) -> str:
        return kind_of(ladder).options_words(ladder.options)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """A new ladder chooses its game, once the site serves more than one."""
        fields = list(super().get_fields(request, obj))
        return ["kind", *fields] if obj is None and len(all_kinds()) > 1 else fields

    def save_model(self, request: HttpRequest, obj: Ladder, form: ModelForm, change: bool) -> None:
        values = {name: getattr(obj, name) for name in SETTINGS if name != "league"}
        if not change:
            values["kind"] = obj.kind
        try:
            if change:
                ladders.update_ladder(obj, request.user)
            else:
                name = values.pop("name")
                obj.pk = ladders.create_ladder(obj.league, request.user, name, **values).pk
        except RatingError as refusal:
            self.message_user(request, f"Refused: {refusal}.", messages.ERROR)

    @admin.action(description="End the running season and start the next")
    def start_new_season(self, request: HttpRequest, queryset: QuerySet[Ladder]) -> None:
        self._each(request, queryset, lambda ladder: ladders.new_season(ladder, request.user))

    @admin.action(description="Add a greedy bot entrant")
    def add_greedy_bot(self, request: HttpRequest, queryset: QuerySet[Ladder]) -> None:
        self._each(request, queryset, lambda ladder: ladders.add_bot(ladder, request.user))

    def _each(self, request: HttpRequest, queryset: QuerySet[Ladder], act: Any) -> None:
        for ladder in queryset.select_related("league"):
            try:
                act(ladder)
            except RatingError as refusal:
                self.message_user(request, f"{ladder}: {refusal}.", messages.ERROR)
            else:
                self.message_user(request, f"{ladder}: done.", messages.SUCCESS)


@admin.register(LadderPlayer)
class LadderPlayerAdmin(LeagueScopedAdmin):
    league_field = "ladder__league"
    list_display = ("name", "ladder", "status", "max_games", "active_games", "waiting_since")
    list_filter = ("status",)
    readonly_fields = (
        "ladder",
        "user",
        "bot",
        "status",
        "max_games",
        "active_games",
        "waiting_since",
        "joined_at",
    )

    def _league_of(self, obj: Any) -> Any:
        return obj.ladder.league

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players join from the ladder's page

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(JournalEntry)
class JournalEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The rating journal, read only, for site staff."""

    list_display = ("game", "kind", "season", "user", "player", "rank", "mu_after", "sigma_after")
    readonly_fields = [f.name for f in JournalEntry._meta.concrete_fields]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_site_staff(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_site_staff(request.user)
