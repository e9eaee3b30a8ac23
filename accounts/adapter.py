"""The site's allauth adapter: where sign-up and the account pages meet our rules."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest

from accounts.clients import client_address
from accounts.models import Profile
from accounts.names import name_key, reads_as_a_bot


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request: HttpRequest) -> str:
        """allauth's rate limits count the same client as the sign-in limit, trusting
        forwarded headers only as far as TRUSTED_PROXY_COUNT says."""
        address = client_address(request)
        if not address:
            raise PermissionDenied("Unable to determine client IP address")
        return address

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """A new username must not pass for a bot's name or for another player's display
        name: a player without a display name is shown by their username."""
        username = super().clean_username(username, shallow=shallow)
        if reads_as_a_bot(username):
            raise ValidationError(
                f"“{username}” reads as a bot's name (bots play as “Greedy bot 2”, “Random "
                "bot 3”): choose another username."
            )
        # shallow: allauth asks without reading the database (when it makes up a username).
        if not shallow and Profile.objects.filter(name_key=name_key(username)).exists():
            raise ValidationError(
                f"“{username}” is another player's display name: choose another username."
            )
        return username
