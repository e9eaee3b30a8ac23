"""Admin pages for leagues and their events.

Per-object permissions with Django's own hooks: site staff (``selectors.is_site_staff``)
see and manage everything; a league's organisers see and manage only their own
leagues' objects (other leagues' objects are not listed, and their pages answer as if
they did not exist). Changes go through ``tournaments.services``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import League, Membership
from ww5site import durations


class LeagueScopedAdmin(durations.ShortDurationsAdmin, admin.ModelAdmin):
    """An admin whose objects belong to a league (``league_field``: the lookup from the
    model to its league, "" for the league itself). Its durations are typed and shown as
    people write them: "2d", "12h", "1d 12h"."""

    league_field = "league"

    def _organised(self, request: HttpRequest) -> QuerySet[League]:
        return selectors.organised_leagues(request.user)

    def _league_of(self, obj: Model) -> League:
        found: Any = obj
        for step in self.league_field.split("__") if self.league_field else ():
            found = getattr(found, step)
        return found

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        objects = super().get_queryset(request)
        if selectors.is_site_staff(request.user):
            return objects
        lookup = f"{self.league_field}__in" if self.league_field else "pk__in"
        return objects.filter(**{lookup: self._organised(request)})

    def _may(self, request: HttpRequest, obj: Model | None) -> bool:
        if selectors.is_site_staff(request.user):
            return True
        leagues = self._organised(request)
        if obj is None:
            return leagues.exists()
        return leagues.filter(pk=self._league_of(obj).pk).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._may(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._may(request, None)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return selectors.is_site_staff(request.user)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "league":
            kwargs["queryset"] = self._organised(request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ("user", "role", "status", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(League)
class LeagueAdmin(LeagueScopedAdmin):
    league_field = ""
    list_display = ("name", "joining", "is_public", "created_at")
    fields = ("name", "description", "joining", "is_public")
    inlines = [MembershipInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return selectors.is_site_staff(request.user)  # organisers manage the leagues they have

    def save_model(self, request: HttpRequest, obj: League, form: ModelForm, change: bool) -> None:
        if change:
            services.update_league(obj)
        else:
            created = services.create_league(
                obj.name,
                request.user,
                joining=obj.joining,
                description=obj.description,
                is_public=obj.is_public,
            )
            obj.pk = created.pk


@admin.register(Membership)
class MembershipAdmin(LeagueScopedAdmin):
    list_display = ("user", "league", "role", "status", "joined_at")
    list_filter = ("status", "role")
    search_fields = ("user__username", "league__name")
    readonly_fields = ("league", "user", "role", "status", "joined_at")
    actions = ["approve", "make_organisers"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players join from the league's page

    @admin.action(description="Approve the selected requests to join")
    def approve(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._each(
            request, queryset, lambda m: services.approve_member(m.league, request.user, m.user)
        )

    @admin.action(description="Make the selected members organisers of their league")
    def make_organisers(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._each(
            request,
            queryset,
            lambda m: services.name_organiser(m.league, request.user, m.user),
        )

    def _each(self, request: HttpRequest, queryset: QuerySet[Membership], act: Any) -> None:
        for membership in queryset.select_related("league", "user"):
            try:
                act(membership)
            except TournamentError as refusal:
                self.message_user(request, f"{membership}: {refusal}.", messages.ERROR)
            else:
                self.message_user(request, f"{membership.user}: done.", messages.SUCCESS)


# The admin of events, their entries, rounds and tables (registered on import).
from tournaments import eventadmin, roundadmin  # noqa: E402, F401
