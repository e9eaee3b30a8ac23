"""Received mails in the admin, read-only: site staff (superusers, and staff given the
view permission on received mails) see all of them; other staff those about the games
they organise (its creator, a tournament's organisers: ``is_named_organiser``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import Game
from games.selectors import is_named_organiser
from inbound.models import InboundMessage
from ww5site.readonly import ReadOnlyAdminMixin


def sees_all(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_superuser or user.has_perm("inbound.view_inboundmessage"))


@admin.register(InboundMessage)
class InboundMessageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The audit is written by the services only."""

    list_display = ("received_at", "sender", "game", "turn", "command", "outcome", "transport")
    list_filter = ("outcome", "transport")
    search_fields = ("sender", "message_id", "subject", "command")
    date_hierarchy = "received_at"
    readonly_fields = [field.name for field in InboundMessage._meta.fields]

    def get_queryset(self, request: HttpRequest) -> QuerySet[InboundMessage]:
        rows = super().get_queryset(request).select_related("game", "user")
        if sees_all(request):
            return rows
        games = Game.objects.filter(pk__in=rows.filter(game__isnull=False).values("game"))
        mine = [game.pk for game in games if is_named_organiser(game, request.user)]
        return rows.filter(game__in=mine)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if sees_all(request):
            return True
        user = request.user
        if not (user.is_active and user.is_staff):
            return False
        return obj is None or (obj.game is not None and is_named_organiser(obj.game, user))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)
