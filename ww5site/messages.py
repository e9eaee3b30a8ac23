"""Where the messages a page shows once (``django.contrib.messages``) are kept: in a
signed cookie, else in the session, as Django's ``FallbackStorage`` keeps them; the
cookie's value is signed without first trying to compress it.

Django compresses a cookie's messages with zlib and keeps the compressed form only when
it is shorter, which the site's messages (one line of words after a move, a join, a
sign-in) never are: the compression ran for nothing on every request that leaves a
message, 2% of a move's instructions (``bench.instructions``). A cookie written by
Django's own storage, compressed or not, reads as before.

The two stores are made when a message is first read or written, not for every request:
most requests (a move, a page's poll) do neither, and the cookie's store makes its
signer as it is made (1.5% of a move's instructions).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.contrib.messages.storage.base import BaseStorage
from django.contrib.messages.storage.cookie import CookieStorage, MessagePartGatherSerializer
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.messages.storage.session import SessionStorage


class PlainCookieStorage(CookieStorage):
    """Django's cookie storage, its value signed as written."""

    def _encode_parts(self, messages: Any, encode_empty: bool = False) -> str | None:
        if messages or encode_empty:
            return self.signer.sign_object(messages, serializer=MessagePartGatherSerializer)
        return None


class MessageStorage(FallbackStorage):
    """The cookie first, the session for what does not fit (``MESSAGE_STORAGE``)."""

    storage_classes = (PlainCookieStorage, SessionStorage)

    def __init__(self, request: Any, *args: Any, **kwargs: Any) -> None:
        BaseStorage.__init__(self, request, *args, **kwargs)
        self._made_with = (args, kwargs)  # beside the request, which BaseStorage keeps
        self._used_storages: set[BaseStorage] = set()

    @cached_property
    def storages(self) -> list[BaseStorage]:
        args, kwargs = self._made_with
        return [cls(self.request, *args, **kwargs) for cls in self.storage_classes]
