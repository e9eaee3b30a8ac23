"""Admin pages for events: set a tournament up and edit it, act on it (open
registration, start, pause, resume, add bots), drop and reinstate players, pair a
round again or start it, correct a finished table's result, export the standings.

Scoped like the league's pages (``LeagueScopedAdmin``): a league's organisers see and
act on their own leagues' events only; another league's answer 404 and nothing
changes. Every change goes through ``tournaments.services`` (its ``events``, ``rounds``
and ``eventjobs``); a refusal shows as an error message.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join

from games.forms import KindOptionField, check_kind_option
from games.kinds import DEFAULT_KIND, all_kinds, kind_of
from games.models import Game
from tournaments import eventsettings, selectors, services
from tournaments.admin import LeagueScopedAdmin
from tournaments.errors import TournamentError
from tournaments.models import Entry, EventJob, Tournament
from tournaments.selectors import export
from tournaments.selectors import report as event_report
from tournaments.services import eventjobs
from ww5site.durations import counted

FIELDSETS = (
    (
        None,
        {
            "fields": (
                "league",
                "name",
                "description",
                "is_public",
                "status",
                "links",
                "jobs",
                "draw",
            )
        },
    ),
    (
        "Format",
        {
            "fields": (
                "format",
                "table_size",
                "two_player_tables",
                "swiss_rounds",
                "cut_size",
                "advance_per_table",
                "points",
            ),
            "description": "Standings: points by place, then the share of opponents "
            "out-finished, then opponents' average score (a floor of 0.33 for those who "
            "left), then a seeded draw.",
        },
    ),
    (
        "The games",
        {
            "fields": (
                "board",
                "time_control",
                "decision_time",
                "retreat_time",
                "bank_time",
                "increment",
                "missed_limit",
                "absence_pauses_clock",
                "first_player",
            ),
            "description": "A World War 5 event's games all use the strict setup (R7).",
        },
    ),
    ("Rounds", {"fields": ("round_time", "adjudication", "review_pairings")}),
    (
        "Registration",
        {
            "fields": (
                "registration_closes_at",
                "cap",
                "check_in_opens_at",
                "starts_at",
                "late_join_until_round",
            )
        },
    ),
    ("Players", {"fields": ("players",)}),
)


# What a new event is made with: its settings, and the game it plays (chosen once).
NEW_EVENT = ("kind", *eventsettings.SETTINGS)


class TournamentForm(forms.ModelForm):
    """The event's settings, checked by the services before anything is saved."""

    organiser: Any = None  # the signed-in organiser, set per request by ``get_form``

    board = KindOptionField("board", every_kind=True)  # of the event's game
    time_control = forms.ChoiceField(
        choices=Game.TimeControl.choices,
        initial=Tournament._meta.get_field("time_control").default,
    )

    class Meta:
        model = Tournament
        # With the event's own columns; ``board`` (kept in its options) is declared above.
        fields = (
            "league",
            "name",
            *(name for name in eventsettings.SETTINGS if name not in eventsettings.OWN_OPTIONS),
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in eventsettings.OWN_OPTIONS:  # kept in the event's options
            if name in self.fields and name in self.instance.options:
                self.initial[name] = self.instance.options[name]
        if "kind" in self.fields:  # a new event's game: the site's first unless chosen
            self.fields["kind"].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("kind") or self.instance.kind or DEFAULT_KIND
        if "kind" in self.fields:
            data["kind"] = kind
        check_kind_option(self, kind, "board")
        if self.errors:
            return data
        # A setting out of its bounds is told beside its field (and the services, which
        # would refuse it too, are not asked).
        trial = copy.copy(self.instance)
        for name in eventsettings.SETTINGS:
            if name in data and name not in eventsettings.OWN_OPTIONS:
                setattr(trial, name, data[name])
        wrong = eventsettings.out_of_bounds(trial)
        for name, words in wrong.items():
            self.add_error(
                name if name in self.fields else None, f"{words[:1].upper()}{words[1:]}."
            )
        if wrong:
            return data
        try:
            if self.instance.pk is None:
                settings = {name: data[name] for name in NEW_EVENT if name in data}
                services.new_tournament(data["league"], self.organiser, data["name"], **settings)
            else:
                changes = {name: data[name] for name in self.changed_data if name in data}
                eventsettings.apply_changes(copy.copy(self.instance), changes)
        except TournamentError as refusal:
            raise ValidationError(f"Refused: {refusal}.") from None
        return data


def report(
    admin_: admin.ModelAdmin, request: HttpRequest, what: str, act: Callable[[], str]
) -> None:
    """Run one action; its refusal is an error message (and it changed nothing)."""
    try:
        done = act()
    except TournamentError as refusal:
        admin_.message_user(request, f"{what}: refused: {refusal}.", messages.ERROR)
    else:
        admin_.message_user(request, f"{what}: {done}", messages.SUCCESS)


def queue_job(
    admin_: admin.ModelAdmin,
    request: HttpRequest,
    what: str,
    event: Tournament,
    kind: str,
    round_number: int | None = None,
) -> None:
    """Queue an organiser's long action as a job and answer at once: with its outcome
    if it ran already (no broker: in-process), else where to follow its progress."""
    try:
        job = eventjobs.queue(event, request.user, kind, round_number)
    except TournamentError as refusal:
        admin_.message_user(request, f"{what}: refused: {refusal}.", messages.ERROR)
        return
    if job.state == EventJob.State.DONE:
        admin_.message_user(request, f"{what}: {job.message}", messages.SUCCESS)
    elif job.state == EventJob.State.FAILED:
        admin_.message_user(request, f"{what}: {job.message}", messages.ERROR)
    else:
        admin_.message_user(
            request, f"{what}: {STARTING[kind]} (progress on the event's page)", messages.INFO
        )


STARTING = {
    EventJob.Kind.START: "starting…",
    EventJob.Kind.ADD_BOT: "adding a bot…",
    EventJob.Kind.PAIR_AGAIN: "pairing again…",
    EventJob.Kind.START_ROUND: "starting the round…",
}


def _csv_response(event: Tournament) -> HttpResponse:
    response = HttpResponse(export.standings_csv(event), content_type="text/csv; charset=utf-8")
    filename = f"{event.league.slug}-{event.slug}-standings.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@admin.register(Tournament)
class TournamentAdmin(LeagueScopedAdmin):
    form = TournamentForm
    fieldsets = FIELDSETS
    list_display = ("name", "league", "format", "status", "created_at")
    list_filter = ("status", "format")
    search_fields = ("name", "league__name")
    actions = [
        "open_registration",
        "start",
        "pause",
        "resume",
        "add_bot",
        "export_standings",
    ]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """A new event chooses its game, once the site serves more than one."""
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None or len(all_kinds()) < 2:
            return fieldsets
        return [
            (name, {**options, "fields": ("kind", *options["fields"])})
            if name == "The games"
            else (name, options)
            for name, options in fieldsets
        ]

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        form.organiser = request.user
        return form

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        shown = ["status", "links", "jobs", "draw", "players"]
        if obj is None:
            return shown
        allowed = eventsettings.changeable(obj)
        return (
            shown + ["league"] + [f for f in ("name", *eventsettings.SETTINGS) if f not in allowed]
        )

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        data = form.cleaned_data
        try:
            if change:
                changes = {name: data[name] for name in form.changed_data if name in data}
                services.update_tournament(obj, request.user, **changes)
            else:
                settings = {name: data[name] for name in NEW_EVENT if name in data}
                created = services.create_tournament(
                    data["league"], request.user, data["name"], **settings
                )
                obj.pk, obj.slug = created.pk, created.slug
                obj.seed, obj.seed_commitment = created.seed, created.seed_commitment
        except TournamentError as refusal:  # a change made meanwhile: the form's check is stale
            self.message_user(request, f"Refused: {refusal}. Nothing was changed.", messages.ERROR)
            request.tournament_refused = True  # type: ignore[attr-defined]

    # After a refusal in ``save_model`` nothing was saved: no log entry, no "changed
    # successfully", back to the page the organiser came from.
    def _refused(self, request: HttpRequest) -> bool:
        return getattr(request, "tournament_refused", False)

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None if self._refused(request) else super().log_addition(request, obj, message)

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None if self._refused(request) else super().log_change(request, obj, message)

    def response_add(self, request: HttpRequest, obj: Any, post_url_continue: Any = None) -> Any:
        if self._refused(request):
            return HttpResponseRedirect(request.path)
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request: HttpRequest, obj: Any) -> Any:
        if self._refused(request):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    @admin.display(description="Board")
    def board(self, obj: Tournament) -> str:
        """The board of the event's games, by its name (shown once it may not change)."""
        return kind_of(obj).options_words(obj.options)

    @admin.display(description="Pages")
    def links(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "—"
        filtered = f"?tournament={obj.pk}"
        return format_html(
            '<a href="{}">Standings (CSV)</a> · <a href="{}">Players</a> · '
            '<a href="{}">Rounds</a> · <a href="{}">Tables</a> · <a href="{}">Public page</a>',
            reverse("admin:tournaments_tournament_standings", args=[obj.pk]),
            reverse("admin:tournaments_entry_changelist") + filtered,
            reverse("admin:tournaments_round_changelist") + filtered,
            reverse("admin:tournaments_table_changelist") + filtered,
            reverse("tournaments:tournament", args=[obj.league.slug, obj.slug]),
        )

    @admin.display(description="The draw")
    def draw(self, obj: Tournament) -> str:
        """The commitment to the event's seed; the seed itself once round 1 is paired,
        as the public page shows them (no one types or changes the seed)."""
        if obj.pk is None:
            return "The site draws the event's seed when it is saved, and shows its commitment."
        commitment = obj.seed_commitment or "none (made before there were commitments)"
        if not event_report.seed_revealed(obj):
            return format_html(
                "Commitment: <code>{}</code>. The seed is revealed when round 1 is paired.",
                commitment,
            )
        return format_html(
            "Commitment: <code>{}</code>; seed <code>{}</code>.", commitment, obj.seed
        )

    @admin.display(description="Jobs")
    def jobs(self, obj: Tournament) -> str:
        """The latest long actions on the event and how far each got."""
        if obj.pk is None:
            return "—"
        latest = list(obj.jobs.all()[:JOBS_SHOWN])
        if not latest:
            return "None yet."
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{}: <strong>{}</strong>{}{}</li>",
                (
                    (
                        job.get_kind_display()
                        + (f" (round {job.round_number})" if job.round_number else ""),
                        job.get_state_display(),
                        f" — {job.message}" if job.message else "",
                        _job_times(job),
                    )
                    for job in latest
                ),
            ),
        )

    @admin.display(description="Players")
    def players(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "—"
        entries = obj.entries.select_related("user__profile")
        if not entries:
            return "No one yet."
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} — {}{}</li>",
                (
                    (e.name, e.get_status_display(), f" ({e.note})" if e.note else "")
                    for e in entries
                ),
            ),
        )

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:tournament_id>/standings.csv",
                self.admin_site.admin_view(self.standings_view),
                name="tournaments_tournament_standings",
            ),
            *super().get_urls(),
        ]

    def standings_view(self, request: HttpRequest, tournament_id: int) -> HttpResponse:
        event = self.get_object(request, str(tournament_id))
        if event is None:  # another league's event is not there for this organiser
            raise Http404("No such tournament.")
        if not self.has_view_permission(request, event):
            raise PermissionDenied
        return _csv_response(event)

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        act: Callable[[Tournament], str],
    ) -> None:
        for event in queryset.select_related("league"):
            report(self, request, event.name, lambda e=event: act(e))

    @admin.action(description="Open registration for the selected events")
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def act(event: Tournament) -> str:
            services.open_registration(event, request.user)
            return "registration is open."

        self._each(request, queryset, act)

    @admin.action(description="Start the selected events now (round 1 is paired)")
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for event in queryset.select_related("league"):
            queue_job(self, request, event.name, event, EventJob.Kind.START)

    @admin.action(description="Pause the selected events (and their running games)")
    def pause(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def act(event: Tournament) -> str:
            return f"paused, with its {_games(services.pause_event(event, request.user))}."

        self._each(request, queryset, act)

    @admin.action(description="Resume the selected events")
    def resume(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def act(event: Tournament) -> str:
            return f"resumed, with its {_games(services.resume_event(event, request.user))}."

        self._each(request, queryset, act)

    @admin.action(description="Add a greedy bot to each selected event (tests, casual events)")
    def add_bot(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for event in queryset.select_related("league"):
            queue_job(self, request, event.name, event, EventJob.Kind.ADD_BOT)

    @admin.action(description="Export the standings of the selected event (CSV)")
    def export_standings(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select one event to export.", messages.ERROR)
            return None
        return _csv_response(queryset.select_related("league").get())


JOBS_SHOWN = 5


def _job_times(job: EventJob) -> str:
    times = f" (queued {job.created_at:%Y-%m-%d %H:%M:%S}"
    if job.started_at:
        times += f", started {job.started_at:%H:%M:%S}"
    if job.finished_at:
        times += f", ended {job.finished_at:%H:%M:%S}"
    if job.took is not None:
        times += f", took {job.took:.1f} s"
    return times + ")"


def _games(count: int) -> str:
    return counted(count, "running game")


def tournament_filter(lookup: str) -> type[admin.SimpleListFilter]:
    """A list filter by event, offering only the events the user manages (a filter over
    every event would name other leagues' events)."""

    class ByTournament(admin.SimpleListFilter):
        title = "tournament"
        parameter_name = "tournament"

        def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[int, str]]:
            events = Tournament.objects.filter(league__in=selectors.organised_leagues(request.user))
            return [(event.pk, str(event)) for event in events]

        def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
            value = self.value()
            return queryset.filter(**{lookup: value}) if value else queryset

    return ByTournament


class ReadOnlyScopedAdmin(LeagueScopedAdmin):
    """Objects made by the event itself: seen (and acted on through the actions and
    pages below), never edited as rows."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Entry)
class EntryAdmin(ReadOnlyScopedAdmin):
    league_field = "tournament__league"
    list_display = ("name", "tournament", "status", "joined_round", "left_after_round", "note")
    list_filter = (tournament_filter("tournament_id"), "status")
    search_fields = ("user__username", "tournament__name")
    actions = ["admit", "drop", "reinstate"]

    @admin.action(description="Admit the selected players from the waiting list (past the cap)")
    def admit(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        def act(entry: Entry) -> str:
            services.admit(entry.tournament, request.user, entry)
            return f"admitted to {entry.tournament}."

        self._each(request, queryset, act)

    @admin.action(description="Drop the selected players from the rounds to come")
    def drop(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        def act(entry: Entry) -> str:
            services.drop_entry(entry.tournament, request.user, entry)
            return f"dropped from {entry.tournament}."

        self._each(request, queryset, act)

    @admin.action(description="Reinstate the selected dropped players")
    def reinstate(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        def act(entry: Entry) -> str:
            back = services.reinstate(entry.tournament, request.user, entry)
            return f"{back.get_status_display().lower()} again."

        self._each(request, queryset, act)

    def _each(
        self, request: HttpRequest, queryset: QuerySet[Entry], act: Callable[[Entry], str]
    ) -> None:
        for entry in queryset.select_related("tournament__league", "user__profile"):
            report(self, request, entry.name, lambda e=entry: act(e))
