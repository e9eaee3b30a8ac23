"""The messages a page shows once are kept as Django keeps them, in a signed cookie and
the session, the cookie's value not compressed (ww5site.messages)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from ww5site.messages import MessageStorage

pytestmark = pytest.mark.django_db


def _request(cookies: dict[str, str] | None = None) -> HttpRequest:
    request = RequestFactory().get("/")
    request.COOKIES.update(cookies or {})
    SessionMiddleware(lambda r: HttpResponse()).process_request(request)
    return request


def _kept(storage: Any, request: HttpRequest) -> HttpResponse:
    response = HttpResponse()
    storage.update(response)
    request.session.save()
    return response


def _read(response: HttpResponse, request: HttpRequest) -> list[str]:
    """What the next request of the same browser shows."""
    cookies = {name: morsel.value for name, morsel in response.cookies.items()}
    following = _request(cookies)
    following.session = request.session
    return [str(message) for message in MessageStorage(following)]


def _djangos(words: str) -> tuple[HttpRequest, HttpResponse]:
    """A request and its response carrying ``words`` in Django's own message cookie."""
    request = _request()
    storage = CookieStorage(request)
    storage.add(messages.INFO, words)
    response = HttpResponse()
    storage.update(response)
    return request, response


def test_the_site_keeps_its_messages_in_the_storage_that_does_not_compress(
    settings: Any,
) -> None:
    assert settings.MESSAGE_STORAGE == "ww5site.messages.MessageStorage"


def test_a_message_is_kept_in_a_cookie_signed_as_written_and_read_once() -> None:
    request = _request()
    storage = MessageStorage(request)
    words = "Your decision was recorded: grow at Scandinavia. " * 8  # compresses well
    storage.add(messages.SUCCESS, words)
    response = _kept(storage, request)

    value = response.cookies["messages"].value
    assert not value.startswith(".")  # Django's mark of a compressed value
    assert _read(response, request) == [words]
    # Django's own cookie storage would have compressed these words.
    assert _djangos(words)[1].cookies["messages"].value.startswith(".")


def test_a_cookie_written_by_djangos_storage_compressed_is_read() -> None:
    words = "A tournament round has started. " * 10
    django_request, django_response = _djangos(words)
    assert django_response.cookies["messages"].value.startswith(".")

    assert _read(django_response, django_request) == [words]


def test_messages_beyond_the_cookies_size_are_kept_in_the_session() -> None:
    request = _request()
    storage = MessageStorage(request)
    many = [f"message {n}: " + "x" * 500 for n in range(12)]  # 6 KB: more than a cookie holds
    for words in many:
        storage.add(messages.INFO, words)
    response = _kept(storage, request)

    assert len(response.cookies["messages"].value) < 2048
    assert request.session.get("_messages")  # the rest went to the session
    assert _read(response, request) == many


def test_a_forged_cookie_shows_nothing() -> None:
    request = _request()
    storage = MessageStorage(request)
    storage.add(messages.SUCCESS, "Your decision was recorded.")
    response = _kept(storage, request)
    value = response.cookies["messages"].value
    payload, signature = value.rsplit(":", 1)
    forged = ("A" if payload[0] != "A" else "B") + payload[1:]  # the words changed, unsigned
    response.cookies["messages"] = f"{forged}:{signature}"

    assert _read(response, request) == []


def test_a_request_that_neither_reads_nor_leaves_a_message_makes_no_store() -> None:
    """The cookie's and the session's stores are made on a message's first read or
    write: a request with none (a move, a page's poll) makes neither, and its answer
    carries no message cookie; one that leaves a message makes them, as before."""
    request = _request()
    storage = MessageStorage(request)
    response = _kept(storage, request)

    assert "storages" not in vars(storage)
    assert "messages" not in response.cookies

    storage.add(messages.SUCCESS, "Your seat is taken.")
    response = _kept(storage, request)
    assert "storages" in vars(storage)
    assert _read(response, request) == ["Your seat is taken."]
