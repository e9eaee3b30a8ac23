"""Forms of the game pages. They only check input; the services make the changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms

from games.kinds import DEFAULT_KIND, GameKind, all_kinds, kind_choices, kind_named
from games.models import Game, Seat
from games.options import MAX_MISSED, MAX_TIME, GameOptions
from games.services import MAX_SEATS, MIN_SEATS
from games.services.lobby import seat_bounds
from ww5site.durations import counted

MAX_HOURS = int(MAX_TIME.total_seconds()) // 3600


def lobby_kind() -> GameKind:
    """The game the lobby's forms make (the site's first kind)."""
    return kind_named(DEFAULT_KIND)


class KindOptionField(forms.ChoiceField):
    """One of a kind's own options that has choices (World War 5's board), offered as
    the kind's ``options_fields`` offers it; with ``every_kind``, the choices of every
    registered kind that has the option, grouped by game (an event's or a ladder's board,
    chosen with its game: ``check_kind_option`` then checks the pair). Its choices and
    initial value are read when a form is shown: the kinds register when their apps are
    ready, after the forms that offer their options are defined."""

    def __init__(
        self, option: str, kind: str = DEFAULT_KIND, every_kind: bool = False, **kwargs: Any
    ) -> None:
        self.option, self.kind, self.every_kind = option, kind, every_kind
        kwargs.setdefault("label", option.replace("_", " ").capitalize())
        super().__init__(choices=self._choices, initial=self._initial, **kwargs)

    def _field(self, kind: str | None = None) -> Any:
        return kind_named(kind or self.kind).options_fields()[self.option]

    def _choices(self) -> list[Any]:
        if not self.every_kind:
            return list(self._field().choices)
        having = [k for k in all_kinds() if self.option in k.options_fields()]
        if len(having) == 1:
            return list(self._field(having[0].key).choices)
        return [(k.name, list(self._field(k.key).choices)) for k in having]

    def _initial(self) -> Any:
        return self._field().initial


def check_kind_option(form: forms.Form, kind: str, option: str) -> None:
    """The form's ``option`` is one the chosen game (``kind``) offers, else told beside the
    field: a board of another game is refused."""
    value = form.cleaned_data.get(option)
    if value in (None, ""):
        return
    offered = kind_named(kind).options_fields().get(option)
    values = {str(v) for v, _ in getattr(offered, "choices", [])}
    if offered is None or str(value) not in values:
        name = kind_named(kind).name
        form.add_error(option, f"That is not a {option.replace('_', ' ')} of {name}.")


def role_choices(game: Game, taken: set[str] | None = None) -> list[tuple[str, str]]:
    """The seat roles (World War 5: home continents) of the game's kind that are not
    ``taken``, each named with the name a seat given it has in the game."""
    kind = kind_named(game.kind)
    taken = taken or set()
    names = kind.role_names(game.options)
    choices = []
    for role in kind.seat_roles(game.options):
        if role in taken:
            continue
        seat_name = kind.seat_name(game, Seat(game=game, home=role))
        choices.append((role, f"{names[role]} ({seat_name})" if seat_name else names[role]))
    return choices


class CreateGameForm(forms.Form):
    name = forms.CharField(max_length=80, required=False, help_text="Optional.")
    seats = forms.TypedChoiceField(
        label="Players",
        coerce=int,
        choices=[(n, str(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        initial=2,
    )
    home_assignment = forms.ChoiceField(
        label="Home continents",
        choices=Game.HomeAssignment.choices,
        initial=Game.HomeAssignment.CHOOSE,
        widget=forms.RadioSelect,
    )
    home = forms.ChoiceField(
        label="Your home continent",
        required=False,
        help_text="When players choose their homes, you choose first.",
    )
    time_control = forms.ChoiceField(
        label="Time control",
        choices=Game.TimeControl.choices,
        initial=Game.TimeControl.FIXED,
        widget=forms.RadioSelect,
    )
    decision_hours = forms.DecimalField(
        label="Time allowed per decision (hours)",
        initial=48,
        min_value=0,
        max_value=MAX_HOURS,
        decimal_places=3,
        help_text="With a fixed time. At least a minute (0.017 hours).",
    )
    bank_hours = forms.DecimalField(
        label="Each player's time bank (hours)",
        initial=120,
        min_value=0,
        max_value=MAX_HOURS,
        decimal_places=3,
        help_text="With a time bank: all the time a player has for their decisions, "
        "chess-clock style. At least a minute.",
    )
    increment_hours = forms.DecimalField(
        label="Increment per decision (hours)",
        initial=24,
        min_value=0,
        max_value=MAX_HOURS,
        decimal_places=3,
        help_text="With a time bank: added to a player's bank after each of their "
        "decisions. When a bank runs out, the grace extension is the increment (at least "
        "an hour).",
    )
    retreat_hours = forms.DecimalField(
        label="Time allowed for a defender's retreat (hours)",
        initial=12,
        min_value=0,
        max_value=MAX_HOURS,
        decimal_places=3,
        help_text="A retreat is decided during the attacker's turn, so it has its own, "
        "shorter time. At least a minute.",
    )
    missed_limit = forms.IntegerField(
        label="Missed decisions before a player forfeits",
        initial=3,
        min_value=1,
        max_value=MAX_MISSED,
        help_text="A missed decision gets one grace extension; then the greedy bot decides "
        "for the player.",
    )
    absence_pauses_clock = forms.BooleanField(
        label="A player's declared absence stops their clock",
        required=False,
        initial=True,
        help_text="Players declare absences on their profile page (a few weeks a year).",
    )
    is_public = forms.BooleanField(
        label="Public: listed in the lobby and open to anyone",
        required=False,
        initial=True,
        help_text="A private game is joined through its invite link.",
    )

    # Each time field holds at least a minute; its message says which time it is.
    AT_LEAST_A_MINUTE = {
        "decision_hours": "Allow at least a minute (0.017 hours) per decision.",
        "bank_hours": "A time bank holds at least a minute (0.017 hours).",
        "retreat_hours": "Allow at least a minute (0.017 hours) for a retreat.",
    }

    def __init__(self, *args: Any, kind: str = DEFAULT_KIND, **kwargs: Any) -> None:
        """``kind``: the game it makes (an unknown one is ``UnknownKind``)."""
        super().__init__(*args, **kwargs)
        self.kind = kind_named(kind)
        low, high = seat_bounds(kind)
        self.fields["seats"].choices = [(n, str(n)) for n in range(low, high + 1)]
        self.fields["seats"].initial = low
        # The seat counts the kind's many-players warning applies to (the page shows it
        # for those, and the lobby again once the game is made).
        many, warning = self.kind.many_players or (high + 1, "")
        self.many_seats = range(many, high + 1)
        self.fields["seats"].help_text = warning
        missed = self.fields["missed_limit"]
        missed.help_text = f"{missed.help_text} {self.kind.missed_words}"
        # The kind's own options, after the game's name and its number of players.
        own = self.kind.options_fields()
        self.fields.update(own)
        self.option_names = list(own)
        # The homes a creator may choose: the kind's roles (every board's are the same);
        # a kind without roles asks for none.
        game = Game(kind=self.kind.key, options=self.kind.default_options())
        self.with_roles = bool(self.kind.seat_roles(game.options))
        if self.with_roles:
            self.fields["home"].choices = [("", "—"), *role_choices(game)]
        else:
            del self.fields["home"], self.fields["home_assignment"]

    @property
    def option_fields(self) -> list[forms.BoundField]:
        """The kind's own options, as the page shows them."""
        return [self[name] for name in self.option_names]

    def _clean_time(self, field: str) -> Any:
        hours = self.cleaned_data[field]
        if timedelta(hours=float(hours)) < timedelta(minutes=1):
            raise forms.ValidationError(self.AT_LEAST_A_MINUTE[field])
        return hours

    def clean_decision_hours(self) -> Any:
        return self._clean_time("decision_hours")

    def clean_bank_hours(self) -> Any:
        return self._clean_time("bank_hours")

    def clean_retreat_hours(self) -> Any:
        return self._clean_time("retreat_hours")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.with_roles:
            return data
        choosing = data.get("home_assignment") == Game.HomeAssignment.CHOOSE
        if choosing and not data.get("home"):
            self.add_error("home", "Players choose their homes: choose yours.")
        if data.get("home") and all(name in data for name in self.option_names):
            rules = {name: data[name] for name in self.option_names}
            if data["home"] not in self.kind.seat_roles(rules):
                self.add_error("home", "That continent is not on this board.")
        return data

    def options(self) -> GameOptions:
        """How the game is played, as the form says."""
        data = self.cleaned_data
        return GameOptions(
            kind=self.kind.key,
            rules={name: data[name] for name in self.option_names},
            time_control=data["time_control"],
            decision_time=timedelta(hours=float(data["decision_hours"])),
            retreat_time=timedelta(hours=float(data["retreat_hours"])),
            bank_time=timedelta(hours=float(data["bank_hours"])),
            increment=timedelta(hours=float(data["increment_hours"])),
            missed_limit=data["missed_limit"],
            absence_pauses_clock=data["absence_pauses_clock"],
        )

    def service_arguments(self) -> dict[str, Any]:
        """The arguments of ``services.create_game`` for this form: the options, and how
        the lobby fills the game."""
        data = self.cleaned_data
        assignment = data.get("home_assignment", Game.HomeAssignment.CHOOSE)
        choosing = assignment == Game.HomeAssignment.CHOOSE
        return {
            "options": self.options(),
            "name": data["name"],
            "seats": data["seats"],
            "home_assignment": assignment,
            "is_public": data["is_public"],
            "home": data.get("home") if choosing else None,
        }


def _taken(game: Game) -> set[str]:
    return {seat.home for seat in game.seats.all() if seat.home}


class JoinForm(forms.Form):
    home = forms.ChoiceField(label="Your home continent", required=False)

    def __init__(self, game: Game, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["home"].choices = role_choices(game, _taken(game))
        self.fields["home"].required = game.home_assignment == Game.HomeAssignment.CHOOSE


class AddBotForm(JoinForm):
    bot = forms.ChoiceField(label="Bot")

    def __init__(self, game: Game, *args: Any, **kwargs: Any) -> None:
        super().__init__(game, *args, **kwargs)
        self.fields["home"].label = "The bot's home continent"
        bots = kind_named(game.kind).bots
        self.fields["bot"].choices = [(key, f"{key.capitalize()} bot") for key in sorted(bots)]


class AssignHomeForm(forms.Form):
    seat = forms.TypedChoiceField(coerce=int)
    home = forms.ChoiceField(label="Home continent")

    def __init__(self, game: Game, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [
            (seat.pk, f"Seat {seat.number}: {seat.display_name}") for seat in game.seats.all()
        ]
        self.fields["home"].choices = role_choices(game)


class BotGameForm(forms.Form):
    """A game against bots, in one step from the lobby."""

    bots = forms.TypedChoiceField(
        label="Opponents",
        choices=[(n, counted(n, "bot")) for n in range(1, MAX_SEATS)],
        coerce=int,
        initial=1,
    )
    bot = forms.ChoiceField(
        label="Bots",
        choices=[("greedy", "Greedy (plays to win)"), ("random", "Random (easy)")],
        initial="greedy",
    )
    board = KindOptionField("board")
    kind = forms.ChoiceField(label="Game", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The games to play, read when the form is made (kinds register when apps start).
        self.fields["kind"].choices = kind_choices()
        self.fields["kind"].initial = DEFAULT_KIND
        self.several_games = len(self.fields["kind"].choices) > 1

    def clean_kind(self) -> str:
        return self.cleaned_data.get("kind") or DEFAULT_KIND


class ResignForm(forms.Form):
    confirm = forms.BooleanField(
        label="Yes, I resign: I forfeit this game",
        error_messages={"required": "tick the box to confirm that you resign"},
    )


class MoveForm(forms.Form):
    """A decision: a canonical action from the list, or typed notation (which wins)."""

    action = forms.CharField(required=False, max_length=4000)
    notation = forms.CharField(required=False, max_length=4000, label="Or type your move")
    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    # the box a player ticks for an action that needs confirming (its kind's label)
    confirm_elimination = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not (data.get("notation") or "").strip() and not (data.get("action") or "").strip():
            raise forms.ValidationError("Choose an action or type your move.")
        return data

    @property
    def text(self) -> str:
        data = self.cleaned_data
        return (data.get("notation") or "").strip() or (data.get("action") or "").strip()


class SharedFields(dict[str, forms.Field]):
    """A form's fields that no form changes, given to each form as they are: Django
    deep-copies every field and widget of a form for each form made (so that one may
    change its own), which for the form of every decision costs more than checking it."""

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, forms.Field]:
        return dict(self)


MoveForm.base_fields = SharedFields(MoveForm.base_fields)
