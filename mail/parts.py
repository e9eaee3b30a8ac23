"""Inline parts: pictures a mail's HTML part shows by Content-ID (``cid:...``), drawn
by the worker that sends the mail.

An outbox row stores only the kind of its part and a JSON spec. The app that knows how to
draw a kind registers its renderer here when it starts (in its ``AppConfig.ready``), so
the outbox needs to know nothing of what is drawn: games registers the board picture.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple


class InlinePart(NamedTuple):
    """A drawn part: an ``image/<subtype>`` and the file name mail clients show for it."""

    content: bytes
    subtype: str
    filename: str


Render = Callable[[dict[str, Any]], InlinePart]

# A kind names its Content-ID too, so it keeps to what an address's local part allows.
KIND = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")

_renderers: dict[str, Render] = {}


class UnknownPart(LookupError):
    """No renderer is registered for this kind."""


def register_inline_part(kind: str, render: Render) -> None:
    """Draw the parts of ``kind`` with ``render``, which turns a row's spec into the
    part. Registering a kind again replaces its renderer."""
    if not KIND.fullmatch(kind):
        raise ValueError(f"an inline part's kind is lowercase words joined by '-': {kind!r}")
    _renderers[kind] = render


def is_registered(kind: str) -> bool:
    return kind in _renderers


def render_inline_part(kind: str, spec: dict[str, Any]) -> InlinePart:
    """The part of ``kind`` drawn from ``spec``; whatever the renderer raises, raised."""
    render = _renderers.get(kind)
    if render is None:
        raise UnknownPart(f"no renderer is registered for inline parts of kind {kind!r}")
    return render(spec)


def content_id(kind: str) -> str:
    """The Content-ID by which a mail's HTML part shows its part of ``kind``."""
    return f"{kind}@ww5"
