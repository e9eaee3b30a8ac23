"""Kinds of the tests only, registered for as long as a test needs them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar, TypeVar

from games.kinds import GameKind, register_kind, unregister_kind
from ww5.kind import WorldWar5

K = TypeVar("K", bound=GameKind)


@contextmanager
def registered(kind: K) -> Iterator[K]:
    """``kind`` registered while the block runs, and forgotten after it."""
    register_kind(kind)
    try:
        yield kind
    finally:
        unregister_kind(kind.key)


class SecondGame(WorldWar5):
    """Another game, played by World War 5's rules: rated, organised and chosen apart."""

    key: ClassVar[str] = "second-game"
    name: ClassVar[str] = "Second Game"
