"""Kinds of the tests only, registered for as long as a test needs them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar, TypeVar

from games.kinds import GameKind, all_kinds, register_kind, unregister_kind
from ww5.kind import WorldWar5

K = TypeVar("K", bound=GameKind)


@contextmanager
def registered(kind: K) -> Iterator[K]:
    """``kind`` registered while the block runs; after it, the kind registered before under
    its key (the site may run it: ``GAME_KINDS``), or none."""
    before = next((k for k in all_kinds() if k.key == kind.key), None)
    register_kind(kind)
    try:
        yield kind
    finally:
        unregister_kind(kind.key)
        if before is not None:
            register_kind(before)


@contextmanager
def alone(key: str = "ww5") -> Iterator[None]:
    """The kind ``key`` the only one registered while the block runs (the site may run
    others: ``GAME_KINDS``), the others registered again after it."""
    others = [kind for kind in all_kinds() if kind.key != key]
    for kind in others:
        unregister_kind(kind.key)
    try:
        yield
    finally:
        for kind in others:
            register_kind(kind)


class SecondGame(WorldWar5):
    """Another game, played by World War 5's rules: rated, organised and chosen apart."""

    key: ClassVar[str] = "second-game"
    name: ClassVar[str] = "Second Game"
