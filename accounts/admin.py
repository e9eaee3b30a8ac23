"""The player's profile, edited on the user's admin page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.forms import BaseInlineFormSet, ModelForm
from django.http import HttpRequest

from accounts.models import Absence, Profile
from accounts.services import update_profile

User = get_user_model()


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    max_num = 1
    fields = ["display_name", "time_zone", "notify"]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "time_zone", "notify"]
    list_filter = ["notify"]
    search_fields = ["user__username", "user__email", "display_name"]
    fields = ["user", "display_name", "time_zone", "notify"]
    readonly_fields = ["user"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a profile comes with its user

    def save_model(self, request: HttpRequest, obj: Profile, form: ModelForm, change: bool) -> None:
        chosen = "time_zone" in form.changed_data  # an organiser set it for the player
        update_profile(obj.user, obj.display_name, obj.time_zone, obj.notify, chosen)


@admin.register(Absence)
class AbsenceAdmin(admin.ModelAdmin):
    """Absences are declared and withdrawn by their players (the profile page), through
    the service that moves their deadlines; here they are only listed."""

    list_display = ["user", "starts_at", "ends_at", "created_at"]
    list_filter = ["starts_at"]
    search_fields = ["user__username", "user__email"]
    date_hierarchy = "starts_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PlayerAdmin(UserAdmin):
    inlines = [ProfileInline]

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        # Saving a new user makes its profile (accounts.receivers): an inline on the add
        # page would try to create a second one.
        if obj is None:
            return []
        return super().get_inline_instances(request, obj)

    def save_formset(
        self, request: HttpRequest, form: ModelForm, formset: BaseInlineFormSet, change: bool
    ) -> None:
        if formset.model is not Profile:
            super().save_formset(request, form, formset, change)
            return
        # commit=False fills in the formset's change lists (for the admin's history)
        # without writing; the service does the write.
        for profile in formset.save(commit=False):
            update_profile(
                form.instance,
                profile.display_name,
                profile.time_zone,
                profile.notify,
                zone_chosen=profile.time_zone_chosen,
            )


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, PlayerAdmin)
