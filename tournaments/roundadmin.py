"""Admin pages for an event's rounds and tables (made by the event itself, so read
only): pair a round again or start it, and correct a finished table's result. Scoped to
the organiser's leagues like every page of the app."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from accounts.templatetags.wording import counted
from tournaments import rounds, services
from tournaments.errors import TournamentError
from tournaments.eventadmin import ReadOnlyScopedAdmin, report, tournament_filter
from tournaments.models import Round, Table


@admin.register(Round)
class RoundAdmin(ReadOnlyScopedAdmin):
    league_field = "tournament__league"
    list_display = ("__str__", "stage", "status", "started_at", "deadline", "finished_at")
    list_filter = (tournament_filter("tournament_id"), "status")
    readonly_fields = (
        "tournament",
        "number",
        "stage",
        "status",
        "seed",
        "costs",
        "started_at",
        "deadline",
        "finished_at",
    )
    actions = ["pair_again", "start_rounds"]

    @admin.action(description="Pair the selected rounds again (before their games start)")
    def pair_again(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def act(made: Round) -> str:
            again = rounds.repair_round(made.tournament, request.user, made.number)
            return f"paired again (draw {again.costs['attempt']})."

        self._each(request, queryset, act)

    @admin.action(description="Start the selected paired rounds (their games are made)")
    def start_rounds(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def act(made: Round) -> str:
            started = rounds.start_round(made.tournament, request.user, made.number)
            return f"started, {counted(started.tables.count(), 'table')}."

        self._each(request, queryset, act)

    def _each(
        self, request: HttpRequest, queryset: QuerySet[Round], act: Callable[[Round], str]
    ) -> None:
        for made in queryset.select_related("tournament__league").order_by("tournament", "number"):
            report(self, request, str(made), lambda m=made: act(m))


class CorrectResultForm(forms.Form):
    """A table's finishing order: each player's place, 1 the best; equal places tie."""

    def __init__(self, table: Table, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(table.seats.select_related("entry__user__profile").order_by("number"))
        place = {p: i for i, group in enumerate(table.result, start=1) for p in group}
        for seat in self.seats:
            self.fields[f"place_{seat.entry_id}"] = forms.IntegerField(
                label=f"{seat.entry.name} (seat {seat.number}, {seat.home})",
                min_value=1,
                max_value=len(self.seats),
                initial=place.get(seat.entry_id),
            )
        self.fields["reason"] = forms.CharField(
            label="Reason (mailed to the table's players)",
            required=False,
            max_length=1000,
            widget=forms.Textarea(attrs={"rows": 3}),
        )

    def order(self) -> list[list[int]]:
        places: dict[int, list[int]] = {}
        for seat in self.seats:
            places.setdefault(self.cleaned_data[f"place_{seat.entry_id}"], []).append(seat.entry_id)
        return [places[p] for p in sorted(places)]


@admin.register(Table)
class TableAdmin(ReadOnlyScopedAdmin):
    league_field = "round__tournament__league"
    list_display = ("__str__", "game", "result_text", "result_source", "finished_at", "correct")
    list_filter = (tournament_filter("round__tournament_id"), "result_source")
    readonly_fields = (
        "round",
        "number",
        "game",
        "result_text",
        "result_source",
        "finished_at",
        "correct",
    )
    fields = readonly_fields

    @admin.display(description="Result")
    def result_text(self, table: Table) -> str:
        names = {
            s.entry_id: s.entry.name for s in table.seats.select_related("entry__user__profile")
        }
        return " > ".join(" = ".join(names[p] for p in group) for group in table.result) or "—"

    @admin.display(description="Correct")
    def correct(self, table: Table) -> str:
        if table.finished_at is None:
            return "—"
        url = reverse("admin:tournaments_table_correct", args=[table.pk])
        return format_html('<a href="{}">Correct the result</a>', url)

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:table_id>/correct/",
                self.admin_site.admin_view(self.correct_view),
                name="tournaments_table_correct",
            ),
            *super().get_urls(),
        ]

    def correct_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        table = self.get_object(request, str(table_id))
        if table is None:  # another league's table is not there for this organiser
            raise Http404("No such table.")
        if not self.has_view_permission(request, table):
            raise PermissionDenied
        form = CorrectResultForm(table, request.POST or None)
        if request.method == "POST" and form.is_valid():
            event = table.round.tournament
            try:
                services.correct_result(
                    event, request.user, table.pk, form.order(), form.cleaned_data["reason"]
                )
            except TournamentError as refusal:
                self.message_user(
                    request, f"Refused: {refusal}. Nothing was changed.", messages.ERROR
                )
            else:
                self.message_user(request, f"{table}: the result is corrected.", messages.SUCCESS)
                return HttpResponseRedirect(
                    reverse("admin:tournaments_table_change", args=[table.pk])
                )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": table,
            "title": f"Correct the result of {table}",
            "form": form,
        }
        return TemplateResponse(request, "admin/tournaments/table/correct_result.html", context)
