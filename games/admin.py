"""Admin pages for the games app: organisers look after running games here.

Scoped by the one organiser rule (``games.selectors``): a game's organisers (its
creator, its league's organisers, site-wide organisers) see it and act on it; staff
given the view permission on games see every game, read-only. Being let into the admin
grants nothing by itself: other games are not listed, and their pages answer as if they
did not exist.

Nothing here writes to a model: a game's own form is read-only, and every change (the
list actions and the pages linked from a game: move for a player, forfeit a player,
replace a player) calls ``games.services`` and reports its answer. A refused request
shows the service's message and changes nothing. The move log is read-only for
everyone, superusers included.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextvars import ContextVar
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games import adminoptions, options, seen, selectors, services
from games.kinds import kind_of
from games.models import Game, Move, Seat
from games.wording import sentence
from ww5site import durations
from ww5site.durations import ShortDurationsAdmin, ShortDurationsInline
from ww5site.readonly import ReadOnlyAdminMixin


def sees_every(request: HttpRequest, model: type[Model]) -> bool:
    """Site-wide: a site-wide organiser, or staff given the model's view (or change)
    permission, who see every row (and may act only where they organise)."""
    user = request.user
    label, name = model._meta.app_label, model._meta.model_name
    return (
        selectors.organises_every_game(user)
        or user.has_perm(f"{label}.view_{name}")
        or user.has_perm(f"{label}.change_{name}")
    )


def organises_some_game(request: HttpRequest) -> bool:
    return selectors.organised_games(request.user).exists()


def may_view_game(request: HttpRequest, game: Game | None) -> bool:
    """The game's page (``None``: the list) for those who organise it or see every game."""
    if sees_every(request, Game):
        return True
    if game is None:
        return organises_some_game(request)
    return selectors.can_organise(game, request.user)


def seat_label(seat: Seat | None) -> str:
    if seat is None:
        return "-"
    colour = f", {seat.player_name}" if seat.player_name else ""
    return f"{seat.display_name} (seat {seat.number}{colour})"


# --- forms ---------------------------------------------------------------------------


def reason_field() -> forms.CharField:
    return forms.CharField(
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Reason (told to the players)",
    )


class ReasonForm(forms.Form):
    reason = reason_field()


class ExtendForm(ReasonForm):
    extension = durations.DurationField(
        initial=timedelta(days=1),
        validators=[
            MinValueValidator(options.MINUTE),
            MaxValueValidator(options.LONGEST_EXTENSION),
        ],
        label="Add to the deadline",
        help_text=durations.HINT,
    )


class MoveForm(forms.Form):
    turn_number = forms.IntegerField(widget=forms.HiddenInput)
    choice = forms.ChoiceField(
        required=False, widget=forms.RadioSelect, label="Choose a legal action"
    )
    text = forms.CharField(
        required=False,
        max_length=200,
        label="Or type it",
        help_text="Move notation, as a player would type it, e.g. “grow usa”.",
    )

    def __init__(self, *args: Any, actions: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["choice"].choices = [(action, action) for action in actions]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        choice, text = cleaned.get("choice", ""), cleaned.get("text", "").strip()
        if choice and text:
            raise forms.ValidationError("Choose an action or type one, not both.")
        if not (choice or text):
            raise forms.ValidationError("Choose an action or type one.")
        cleaned["action"] = choice or text
        return cleaned


class SeatChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return seat_label(obj)


class ForfeitForm(forms.Form):
    seat = SeatChoiceField(queryset=Seat.objects.none(), widget=forms.RadioSelect, empty_label=None)
    reason = reason_field()

    def __init__(self, *args: Any, seats: QuerySet[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = seats


class ReplaceForm(ForfeitForm):
    username = forms.CharField(max_length=150, label="New player's username")

    def clean_username(self) -> Any:
        username = self.cleaned_data["username"].strip()
        user = get_user_model()._default_manager.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(f"There is no user named “{username}”.")
        return user


# --- inlines -------------------------------------------------------------------------


class ReadOnlyInline(ShortDurationsInline, ReadOnlyAdminMixin, admin.TabularInline):
    """Shown with the game, never edited there: seats change only through services."""

    extra = 0
    can_delete = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may_view_game(request, obj)  # obj: the game the inline is shown with


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = (
        "number",
        "user",
        "bot",
        "home",
        "colour",
        "rank",
        "missed",
        "bank_left",
        "muted",
        "joined_at",
    )
    readonly_fields = fields
    verbose_name_plural = "Seats (to change one, use “Replace a player” above)"

    @admin.display(description="colour")
    def colour(self, seat: Seat) -> str:
        return seat.player_name or "-"


# Who reads the admin page being drawn: a game's position and its moves' actions, dice
# and events show as the game's kind lets that person see them (a superuser, or anyone
# once the game is over, sees all; an organiser who does not play in it, what a
# spectator sees).
_reader: ContextVar[Any] = ContextVar("games_admin_reader", default=None)


class SeenByReaderAdmin(admin.ModelAdmin):
    """Draws its pages knowing who reads them, for the displays that show a game's
    position or moves through ``games.seen``."""

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return _drawn_for(
            request, lambda: super(SeenByReaderAdmin, self).changelist_view(request, extra_context)
        )

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        return _drawn_for(
            request,
            lambda: super(SeenByReaderAdmin, self).changeform_view(
                request, object_id, form_url, extra_context
            ),
        )


def _drawn_for(request: HttpRequest, view: Callable[[], HttpResponse]) -> HttpResponse:
    """The response of ``view``, drawn while ``request``'s user is the reader (a
    template response is drawn here, not after the reader is forgotten)."""
    token = _reader.set(request.user)
    try:
        response = view()
        if isinstance(response, TemplateResponse):
            response.render()
        return response
    finally:
        _reader.reset(token)


def _seen_move(move: Move) -> seen.SeenMove:
    game = move.game
    return seen.move(game, move, move.seat.player_name, seen.viewer_of(game, _reader.get()))


class SeenMoveColumns:
    """A move's columns in the admin: its player, and its action, dice and events as
    the reader may see them."""

    @admin.display(description="player")
    def player(self, move: Move) -> str:
        return seat_label(move.seat)

    @admin.display(description="action")
    def shown_action(self, move: Move) -> str:
        return _seen_move(move).action

    @admin.display(description="dice")
    def shown_dice(self, move: Move) -> list[int]:
        return _seen_move(move).dice

    @admin.display(description="events")
    def shown_events(self, move: Move) -> str:
        return format_html("<pre>{}</pre>", json.dumps(_seen_move(move).events, indent=2))


class MoveInline(SeenMoveColumns, ReadOnlyInline):
    model = Move
    fields = ("number", "player", "shown_action", "shown_dice", "source", "actor", "created_at")
    readonly_fields = fields
    verbose_name_plural = "Move log (read-only)"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        return (
            super()
            .get_queryset(request)
            .select_related("seat__game", "seat__user__profile", "actor")
            .order_by("number")
        )


# --- the move log --------------------------------------------------------------------


@admin.register(Move)
class MoveAdmin(SeenMoveColumns, ReadOnlyAdminMixin, SeenByReaderAdmin):
    """The move log is the source of truth: nobody adds, edits or deletes a row."""

    list_display = ("game", "number", "player", "shown_action", "source", "actor", "created_at")
    list_filter = ("source",)
    search_fields = ("game__name",)
    list_select_related = ("game", "seat__game", "seat__user__profile", "actor")
    fields = (
        "game",
        "number",
        "seat",
        "shown_action",
        "shown_dice",
        "shown_events",
        "source",
        "actor",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        moves = super().get_queryset(request)
        if sees_every(request, Move):
            return moves
        return moves.filter(game__in=selectors.organised_games(request.user).values("pk"))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if sees_every(request, Move):
            return True
        if obj is None:
            return organises_some_game(request)
        return selectors.can_organise(obj.game, request.user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)


# --- games ---------------------------------------------------------------------------


@admin.register(Game)
class GameAdmin(ShortDurationsAdmin, SeenByReaderAdmin):
    list_display = (
        "id",
        "name",
        "status",
        adminoptions.board,
        "seat_list",
        "turn_number",
        "whose_decision",
        "deadline",
        "paused",
    )
    list_display_links = ("id", "name")
    list_filter = ("status", adminoptions.BY_BOARD, adminoptions.BY_SETUP, "is_public")
    search_fields = ("name", "seats__user__username")
    fieldsets = [
        (
            None,
            {
                "fields": (
                    "name",
                    "creator",
                    "status",
                    "home_assignment",
                    "seats_wanted",
                    "is_public",
                    "invite_token",
                )
            },
        ),
        # The game's options, as one value (games.options.GameOptions) names them.
        ("Options", {"fields": tuple(options.names())}),
        (
            "Turn",
            {
                "fields": (
                    "turn_number",
                    "to_move",
                    "deadline",
                    "remind_at",
                    "clock_started_at",
                    "grace_used",
                    "paused_at",
                    "winner",
                )
            },
        ),
        ("Dates", {"fields": ("created_at", "started_at", "finished_at")}),
        (
            "Stored position (a cache of the move log)",
            {"fields": ("pretty_position", "pretty_start_record"), "classes": ["collapse"]},
        ),
    ]
    readonly_fields = ("pretty_position", "pretty_start_record")
    inlines = [SeatInline, MoveInline]
    actions = ["pause_games", "resume_games", "extend_deadlines", "abandon_games"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        games = super().get_queryset(request).prefetch_related("seats__user__profile")
        if sees_every(request, Game):
            return games
        return games.filter(pk__in=selectors.organised_games(request.user).values("pk"))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return may_view_game(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may_view_game(request, obj)

    # Games are created on the site (services.create_game) and never deleted here;
    # their own form is read-only: every change is one of the actions below.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """The list's actions, for those who organise a game (each game acted on is
        checked again by its service); the change page shows a game read-only."""
        if obj is not None:
            return False
        return selectors.organises_every_game(request.user) or organises_some_game(request)

    def can_manage(self, request: HttpRequest, game: Game) -> bool:
        """May use the actions and the pages of this game: its organisers."""
        return selectors.can_organise(game, request.user)

    # --- columns and read-only fields

    @admin.display(description="seats")
    def seat_list(self, game: Game) -> str:
        return ", ".join(seat.display_name for seat in game.seats.all())

    @admin.display(description="whose decision")
    def whose_decision(self, game: Game) -> str:
        seat = next((s for s in game.seats.all() if s.pk == game.to_move_id), None)
        return seat.display_name if seat else "-"

    @admin.display(description="paused", boolean=True)
    def paused(self, game: Game) -> bool:
        return game.is_paused

    @admin.display(description="position")
    def pretty_position(self, game: Game) -> str:
        shown = seen.position(game, seen.viewer_of(game, _reader.get()))
        if shown is None:
            return "(not started)"
        return format_html("<pre>{}</pre>", json.dumps(shown, indent=2))

    @admin.display(description="start rolls")
    def pretty_start_record(self, game: Game) -> str:
        if not game.start_record:
            return "-"
        return format_html("<pre>{}</pre>", json.dumps(game.start_record, indent=2))

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        game = self.get_object(request, object_id)
        managed = game is not None and self.can_manage(request, game)
        context = {**(extra_context or {}), "can_manage_game": managed}
        return super().change_view(request, object_id, form_url, context)

    # --- list actions

    def _each(
        self,
        request: HttpRequest,
        games: QuerySet[Game],
        change: Callable[[Game], None],
        done: str,
        verb: str,
    ) -> None:
        for game in games:
            try:
                change(game)
            except services.GameError as refusal:
                self.message_user(
                    request, sentence(f"Could not {verb} {game}: {refusal}"), messages.ERROR
                )
            else:
                self.message_user(request, f"{game}: {done}.", messages.SUCCESS)

    def _back(self, request: HttpRequest, games: QuerySet[Game]) -> HttpResponse | None:
        """Back to the game's page when the action was started there, else the list."""
        if request.POST.get("_from_game") and len(games) == 1:
            return HttpResponseRedirect(self._game_url(games[0]))
        return None

    @admin.action(description="Pause the selected games", permissions=["change"])
    def pause_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        self._each(
            request, queryset, lambda g: services.pause_game(g.pk, request.user), "paused", "pause"
        )
        return self._back(request, queryset)

    @admin.action(
        description="Resume the selected games (deadlines move on by the pause)",
        permissions=["change"],
    )
    def resume_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        self._each(
            request,
            queryset,
            lambda g: services.resume_game(g.pk, request.user),
            "resumed",
            "resume",
        )
        return self._back(request, queryset)

    @admin.action(description="Extend the deadline of the selected games…", permissions=["change"])
    def extend_deadlines(
        self, request: HttpRequest, queryset: QuerySet[Game]
    ) -> HttpResponse | None:
        form = ExtendForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            extension = form.cleaned_data["extension"]
            self._each(
                request,
                queryset,
                lambda g: services.extend_deadline(
                    g.pk, request.user, extension, form.cleaned_data["reason"]
                ),
                f"deadline extended by {durations.words(extension)}",
                "extend the deadline of",
            )
            return self._back(request, queryset)
        return self._confirm(
            request, queryset, "extend_deadlines", "Extend the deadline", {"form": form}
        )

    @admin.action(description="Abandon the selected games…", permissions=["change"])
    def abandon_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        form = ReasonForm(request.POST if request.POST.get("confirm") == "yes" else None)
        if form.is_valid():
            reason = form.cleaned_data["reason"]
            self._each(
                request,
                queryset,
                lambda g: services.abandon_game(g.pk, request.user, reason),
                "abandoned",
                "abandon",
            )
            return self._back(request, queryset)
        return self._confirm(request, queryset, "abandon_games", "Abandon games", {"form": form})

    def _confirm(
        self,
        request: HttpRequest,
        queryset: QuerySet[Game],
        action: str,
        title: str,
        context: dict[str, Any],
    ) -> TemplateResponse:
        """An intermediate page that posts the same action back with its answer."""
        return TemplateResponse(
            request,
            f"admin/games/game/{action}.html",
            {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "title": title,
                "games": list(queryset),
                "action": action,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
                "from_game": request.POST.get("_from_game", ""),
                **context,
            },
        )

    # --- the game's own pages

    def get_urls(self) -> list[URLPattern]:
        def view(function: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
            return self.admin_site.admin_view(function)

        return [
            path("<int:game_id>/move/", view(self.move_view), name="games_game_move"),
            path("<int:game_id>/forfeit/", view(self.forfeit_view), name="games_game_forfeit"),
            path("<int:game_id>/replace/", view(self.replace_view), name="games_game_replace"),
            *super().get_urls(),
        ]

    def _game_url(self, game: Game) -> str:
        return reverse("admin:games_game_change", args=[game.pk])

    def _managed_game(self, request: HttpRequest, game_id: int) -> Game:
        """A game the user organises; one they may not see is not there (404), one they
        only see is forbidden (403)."""
        game = get_object_or_404(self.get_queryset(request), pk=game_id)
        if not self.can_manage(request, game):
            raise PermissionDenied
        return game

    def _page(
        self, request: HttpRequest, game: Game, template: str, title: str, **context: Any
    ) -> TemplateResponse:
        return TemplateResponse(
            request,
            f"admin/games/game/{template}.html",
            {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "original": game,
                "title": title,
                "game_url": self._game_url(game),
                **context,
            },
        )

    def move_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        game = self._managed_game(request, game_id)
        waiting = game.to_move if game.is_active else None
        # the organiser decides for the waiting player, from that player's choices
        shown = seen.state(game, seen.seat_viewer(game, waiting)) if waiting else None
        actions = []
        if waiting is not None and shown is not None:
            actions = list(kind_of(game).legal(shown, waiting.player_name))
        form = MoveForm(
            request.POST if request.method == "POST" else None,
            actions=actions,
            initial={"turn_number": game.turn_number},
        )
        if form.is_valid():
            try:
                move = services.move_on_behalf(
                    game.pk,
                    request.user,
                    form.cleaned_data["action"],
                    turn_number=form.cleaned_data["turn_number"],
                )
            except services.StaleForm as refusal:
                # The form was made for an earlier decision: show the current one afresh.
                self.message_user(
                    request, sentence(f"The move was refused: {refusal}"), messages.ERROR
                )
                return HttpResponseRedirect(request.path)
            except services.GameError as refusal:
                self.message_user(
                    request, sentence(f"The move was refused: {refusal}"), messages.ERROR
                )
            else:
                self.message_user(
                    request,
                    f"Recorded move {move.number} for {seat_label(move.seat)}: {move.action}.",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(self._game_url(game))
        return self._page(
            request,
            game,
            "move_on_behalf",
            "Make a move for a player",
            form=form,
            waiting=seat_label(waiting) if waiting else None,
            paused=game.is_paused,
        )

    def _seats_in_game(self, game: Game) -> QuerySet[Seat]:
        seats = game.seats.select_related("user__profile")
        if game.position is None:
            return seats
        state = seen.state(game, seen.SPECTATOR)  # who is still in the game is public
        out = set(kind_of(game).players_out(state))
        return seats.filter(pk__in=[s.pk for s in seats if s.player_name not in out])

    def forfeit_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        game = self._managed_game(request, game_id)
        form = ForfeitForm(
            request.POST if request.method == "POST" else None, seats=self._seats_in_game(game)
        )
        if form.is_valid():
            seat = form.cleaned_data["seat"]
            try:
                move = services.forfeit_seat(
                    game.pk, request.user, seat.pk, "admin", form.cleaned_data["reason"]
                )
            except services.GameError as refusal:
                self.message_user(
                    request, sentence(f"The forfeit was refused: {refusal}"), messages.ERROR
                )
            else:
                self.message_user(
                    request,
                    f"{seat_label(seat)} forfeited (move {move.number}).",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(self._game_url(game))
        forfeit = kind_of(game).rule_words(game.options).forfeit
        return self._page(request, game, "forfeit", "Forfeit a player", form=form, forfeit=forfeit)

    def replace_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        game = self._managed_game(request, game_id)
        form = ReplaceForm(
            request.POST if request.method == "POST" else None,
            seats=game.seats.select_related("user__profile"),
        )
        if form.is_valid():
            seat, user = form.cleaned_data["seat"], form.cleaned_data["username"]
            try:
                services.replace_player(
                    game.pk, request.user, seat.pk, user, form.cleaned_data["reason"]
                )
            except services.GameError as refusal:
                self.message_user(
                    request, sentence(f"The replacement was refused: {refusal}"), messages.ERROR
                )
            else:
                self.message_user(
                    request,
                    f"{user.get_username()} now plays seat {seat.number}; its pieces stay.",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(self._game_url(game))
        return self._page(request, game, "replace_player", "Replace a player", form=form)
