"""Authentication that loads the player's profile with the user, in one query."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend


class ProfileModelBackend(ModelBackend):
    """Every request reads the profile (time zone, name): fetch it with the user."""

    def get_user(self, user_id: Any) -> Any:
        from django.contrib.auth import get_user_model

        model = get_user_model()
        try:
            user = model._default_manager.select_related("profile").get(pk=user_id)
        except model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
