"""Authentication: the sign-in limit's check, and the one backend that checks passwords
(by username or address) and loads the player's profile with the user in one query."""

from __future__ import annotations

from functools import cache
from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from axes.backends import AxesStandaloneBackend
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest

from ww5site import rows


@cache
def _columns() -> tuple[rows.Columns[Any], rows.Columns[Any]]:
    from accounts.models import Profile

    return rows.Columns(get_user_model(), "u"), rows.Columns(Profile, "p")


class ProfileModelBackend(AuthenticationBackend):
    """The one backend that checks a password, and the one that loads signed-in users.

    A password hash is made to be slow, so a sign-in computes exactly one: allauth's
    lookup finds the account by username or address (case aside), its password is
    checked once, and a name that matches nobody costs one stand-in hash, so the time
    taken tells no one which accounts exist. A wrong password then stops the sign-in
    here (PermissionDenied ends Django's round of the backends, and counts as a failure
    for the sign-in limit): allauth's own backend, listed after this one so that the
    sessions it signed in stay valid, would hash the same password a second time.

    Every request reads the profile (time zone, name): ``get_user`` fetches it with the
    user, in SQL, as ``select_related("profile")`` would read them: it runs on every
    request a signed-in player makes, and the ORM's query costs more to build than to
    run."""

    def authenticate(  # type: ignore[override]
        self, request: HttpRequest | None, **credentials: Any
    ) -> AbstractBaseUser | None:
        user = super().authenticate(request, **credentials)
        if user is None and credentials.get("password"):
            raise PermissionDenied("wrong credentials")
        return user

    def _check_password(self, user: AbstractBaseUser | None, password: str) -> Any:
        if self._did_check_password:
            # One hash per sign-in, even when a username is also another's address.
            return None
        return super()._check_password(user, password)

    def get_user(self, user_id: Any) -> Any:
        user_columns, profile_columns = _columns()
        try:
            key = user_columns.fields[user_columns.pk_at].to_python(user_id)
        except Exception:  # a session naming no valid key: nobody is signed in
            return None
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(
                f"SELECT {user_columns.sql}, {profile_columns.sql} FROM {user_columns.table} u "
                f"LEFT JOIN {profile_columns.table} p "
                f"ON {profile_columns.column('user')} = {user_columns.column()} "
                f"WHERE {user_columns.column()} = %s",
                [key],
            )
            row = cursor.fetchone()
        if row is None:
            return None
        user_values, profile_values = rows.split(row, user_columns, profile_columns)
        user = user_columns.load(user_values)
        profile = profile_columns.load(profile_values)
        rows.cache_related(user, "profile", profile)
        if profile is not None:
            rows.cache_related(profile, "user", user)
        return user if self.user_can_authenticate(user) else None


class SignInLimitBackend(AxesStandaloneBackend):
    """django-axes' sign-in limit (settings: AXES_*), checked before any password.

    Every sign-in form (the site's and the admin's) passes its request, which is what the
    limit counts against. A sign-in with no request (the test client's ``login``, a
    shell) has no client to count, so it is let through to the other backends rather
    than failing with axes' error."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
