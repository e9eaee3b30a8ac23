"""The client's address, as the sign-in limit and allauth's rate limits count it."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ipware import get_client_ip


def client_address(request: HttpRequest) -> str | None:
    """Who sent the request: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT reverse proxies the
    address the outermost of them received the request from (CLIENT_IP_HEADER).

    Each proxy adds the address it heard from to the right of the header, so only the
    entries the proxies wrote, counted from the right, can be believed: anything to their
    left came from the client, who could write anything there to dodge a limit. With no
    proxy configured the header is not read at all."""
    proxies = settings.TRUSTED_PROXY_COUNT
    header = "HTTP_" + settings.CLIENT_IP_HEADER.upper().replace("-", "_")
    if proxies > 0 and header in request.META:
        # ipware's proxy_count is the proxies listed in the header after the client; the
        # nearest proxy is not among them (it is REMOTE_ADDR), hence one fewer.
        address, _ = get_client_ip(
            request,
            proxy_order="left-most",
            proxy_count=proxies - 1,
            request_header_order=[header],
            strict=False,
        )
        if address:
            return address
    # No header (or too short a chain): the request did not come through every proxy, and
    # its peer is the only address known.
    return request.META.get("REMOTE_ADDR")
