"""Admin pages of rows that only the services write (moves, mails, audits, journals)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class ReadOnlyAdminMixin:
    """Shown, never added, changed or deleted from the admin; put it before the admin
    class (``ModelAdmin`` or an inline) among the bases."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
