"""The site's allauth adapter: where sign-up and the account pages meet our rules."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts.clients import client_address


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request: HttpRequest) -> str:
        """allauth's rate limits count the same client as the sign-in limit, trusting
        forwarded headers only as far as TRUSTED_PROXY_COUNT says."""
        address = client_address(request)
        if not address:
            raise PermissionDenied("Unable to determine client IP address")
        return address
