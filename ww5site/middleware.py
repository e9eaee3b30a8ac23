"""Requests the site refuses before any view, or Django's own request parsing, sees them."""

from __future__ import annotations

import codecs
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

FORM = "application/x-www-form-urlencoded"


class FormCharsetMiddleware:
    """A form POST in a character set other than UTF-8 is answered 400, changing nothing.

    The site's pages are UTF-8, so browsers send their forms in UTF-8, and Django reads
    a form body in no other charset. Its refusal came too late: the CSRF check had read
    the body already, and the 400 page, which checks CSRF once more, read it again and
    failed with a 500. A charset Python does not know, which Django would quietly read
    as UTF-8, is refused as well: its sender did not mean UTF-8. Another name of UTF-8
    ("utf8") is read as UTF-8.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        charset = request.content_params.get("charset")
        if request.method == "POST" and request.content_type == FORM and charset is not None:
            if not is_utf8(charset):
                return HttpResponseBadRequest(
                    f"This form was sent in the character set “{charset}”: the site reads "
                    "forms only in UTF-8. Nothing was changed.\n",
                    content_type="text/plain; charset=utf-8",
                )
            request.encoding = "utf-8"
        return self.get_response(request)


def is_utf8(charset: str) -> bool:
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return False
